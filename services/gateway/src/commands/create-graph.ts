/**
 * What happens on `POST /v1/triggers`: a request to create a digital employee becomes
 * `TriggerCreated{triggerType:'create_graph', source:'http'}` for the caller's org and conversation.
 */
import { makeFact, type PublishOptions } from '@hireloop/fact-stream';
import { derivedId, HireloopError, type Principal } from '@hireloop/platform';
import { type CreateTriggerBody, isBlank, type TriggerCreated } from '@hireloop/schemas';
import { conversationOwnership } from '../read-model';
import { type ExecutionState, ownConversation } from './access';
import type { CommandDeps, Minting } from './deps';
import { claimIdempotencyKey } from './request-keys';

/**
 * Ids of a request sent with an `Idempotency-Key`: derived from the caller and the key, so that the
 * same request sent again (a client retrying after a timeout) is the same fact, the same trigger and
 * so the same execution — downstream drops the repeat. Without a key every request is new.
 */
export function requestIds(principal: Principal, idempotencyKey: string | undefined, { ids }: Minting): Minting['ids'] {
  if (idempotencyKey === undefined) return ids;
  const base = `${principal.orgId}/${principal.userId}/${idempotencyKey}`;
  let n = 0;
  return { newId: () => derivedId(base, `create_graph:${n++}`) };
}

/**
 * Decides the trigger, or why it is refused: an `orgId` other than the token's is 403, a job
 * description or name of blanks only 422, another user's conversation 404. A request without a conversation starts a new one. Pure.
 */
export function decideCreateGraph(
  body: CreateTriggerBody,
  principal: Principal,
  conversation: readonly Pick<ExecutionState, 'orgId' | 'ownerUserId'>[],
  { ids, clock }: Minting,
): TriggerCreated {
  if (body.orgId !== undefined && body.orgId !== principal.orgId) {
    throw new HireloopError('FORBIDDEN', `/orgId: the token is for org ${principal.orgId}, not ${body.orgId}`, {
      field: '/orgId',
    });
  }
  // a description of nothing but blanks (spaces, zero-width characters) describes no job: the run could only fail
  if (isBlank(body.payload.jobDescription)) {
    throw new HireloopError('VALIDATION_FAILED', '/payload/jobDescription: describe the job; it holds only blanks', {
      field: '/payload/jobDescription',
    });
  }
  // (a name of blanks names nothing: the employee would be listed as a blank)
  if (body.payload.name !== undefined && isBlank(body.payload.name)) {
    throw new HireloopError(
      'VALIDATION_FAILED',
      '/payload/name: give the employee a name, or leave it out; it holds only blanks',
      {
        field: '/payload/name',
      },
    );
  }
  const conversationId = body.conversationId ?? ids.newId();
  ownConversation(conversation, principal, conversationId);
  const triggerId = ids.newId();
  return makeFact(
    'TriggerCreated',
    { orgId: principal.orgId, correlation: { conversationId, userId: principal.userId, triggerId } },
    {
      triggerId,
      triggerType: 'create_graph',
      payload: {
        jobDescription: body.payload.jobDescription,
        ...(body.payload.name !== undefined ? { name: body.payload.name } : {}),
      },
      source: 'http',
    },
    { ids, clock },
  );
}

export async function createGraph(
  deps: CommandDeps,
  principal: Principal,
  body: CreateTriggerBody,
  trace: PublishOptions = {},
  idempotencyKey?: string,
): Promise<{ triggerId: string; conversationId: string }> {
  const conversation = body.conversationId ? await conversationOwnership(deps.pool, principal.orgId, body.conversationId) : [];
  const ids = requestIds(principal, idempotencyKey, deps);
  const fact = decideCreateGraph(body, principal, conversation, { ids, clock: deps.clock });
  // (claimed once the request is valid: a refused one leaves the key free for the corrected request)
  if (idempotencyKey !== undefined) await claimIdempotencyKey(deps.pool, principal, idempotencyKey, body);
  await deps.publisher.publish(fact, trace);
  return { triggerId: fact.triggerId, conversationId: fact.correlation.conversationId ?? '' };
}
