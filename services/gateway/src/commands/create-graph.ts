/**
 * What happens on `POST /v1/triggers`: a request to create a digital employee becomes
 * `TriggerCreated{triggerType:'create_graph', source:'http'}` for the caller's org and conversation.
 */
import { createHash } from 'node:crypto';
import { canonicalJson, makeFact, type PublishOptions } from '@hireloop/fact-stream';
import { derivedId, HireloopError, type Principal } from '@hireloop/platform';
import type { CreateTriggerBody, TriggerCreated } from '@hireloop/schemas';
import { conversationOwnership } from '../read-model';
import { type ExecutionState, ownConversation } from './access';
import type { CommandDeps, Minting } from './deps';

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
  // a description of nothing but blanks describes no job: the run could only fail with no employee
  if (body.payload.jobDescription.trim() === '') {
    throw new HireloopError('VALIDATION_FAILED', '/payload/jobDescription: describe the job; it holds only blanks', {
      field: '/payload/jobDescription',
    });
  }
  // (a name of blanks names nothing: the employee would be listed as a blank)
  if (body.payload.name !== undefined && body.payload.name.trim() === '') {
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

/**
 * Claims a key of one request, within an org and a scope (a user's Idempotency-Keys, a workflow's webhook
 * deliveries): the first use records a hash of the request; the same key sent again with the same request goes on
 * (and answers the same ids), with another request it is refused — a key names one request, and the second would
 * otherwise be dropped in silence. `field` is the header the refusal names.
 */
export async function claimRequestKey(
  pool: CommandDeps['pool'],
  claim: { orgId: string; scope: string; key: string; request: unknown; field: string },
): Promise<{ fresh: boolean }> {
  const hash = createHash('sha256').update(canonicalJson(claim.request)).digest('hex');
  const args = [claim.orgId, claim.scope, claim.key];
  const { rows } = await pool.query<{ request_hash: string; fresh: boolean }>(
    `WITH claimed AS (
       INSERT INTO idempotency_keys (org_id, user_id, key, request_hash) VALUES ($1, $2, $3, $4)
       ON CONFLICT (org_id, user_id, key) DO NOTHING RETURNING request_hash)
     SELECT request_hash, true AS fresh FROM claimed
     UNION ALL SELECT request_hash, false AS fresh FROM idempotency_keys WHERE org_id = $1 AND user_id = $2 AND key = $3
     LIMIT 1`,
    [...args, hash],
  );
  // (a claim made at the same moment by another request is not in this statement's snapshot: read it again)
  const found =
    rows[0] ??
    (
      await pool.query<{ request_hash: string; fresh: boolean }>(
        'SELECT request_hash, false AS fresh FROM idempotency_keys WHERE org_id = $1 AND user_id = $2 AND key = $3',
        args,
      )
    ).rows[0];
  if (found && found.request_hash !== hash)
    throw new HireloopError(
      'VALIDATION_FAILED',
      `${claim.field}: ${claim.key} was used for a different request; send a new request with a new ${claim.field}`,
      { field: claim.field },
    );
  return { fresh: found?.fresh === true };
}

/** Gives back a key this request claimed, when what it was for could not be done (the publish failed). */
export async function releaseRequestKey(
  pool: CommandDeps['pool'],
  claim: { orgId: string; scope: string; key: string },
): Promise<void> {
  await pool.query('DELETE FROM idempotency_keys WHERE org_id = $1 AND user_id = $2 AND key = $3', [
    claim.orgId,
    claim.scope,
    claim.key,
  ]);
}

/** How long a request's key is remembered: a retry comes within minutes, a key sent again after that starts anew. */
export const REQUEST_KEY_DAYS = 7;

/** Forgets the keys claimed more than `days` ago; how many. */
export async function sweepRequestKeys(pool: CommandDeps['pool'], days = REQUEST_KEY_DAYS): Promise<number> {
  const { rowCount } = await pool.query(`DELETE FROM idempotency_keys WHERE created_at < now() - make_interval(days => $1)`, [
    days,
  ]);
  return rowCount ?? 0;
}

/** An Idempotency-Key of POST /v1/triggers, claimed for this request (see `claimRequestKey`). */
export const claimIdempotencyKey = (
  pool: CommandDeps['pool'],
  principal: Principal,
  key: string,
  body: CreateTriggerBody,
): Promise<{ fresh: boolean }> =>
  claimRequestKey(pool, { orgId: principal.orgId, scope: principal.userId, key, request: body, field: 'idempotency-key' });

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
