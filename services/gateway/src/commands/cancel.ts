/**
 * What happens when a cancellation arrives (`POST /v1/executions/:id/cancel` or a `cancel` frame):
 * the caller's own running execution becomes `TriggerCreated{triggerType:'cancel_execution'}`, which
 * the supervisor turns into `RunIntent{action:'cancel'}`.
 */
import { makeFact, type PublishOptions } from '@hireloop/fact-stream';
import { HireloopError, type Principal } from '@hireloop/platform';
import type { TriggerCreated } from '@hireloop/schemas';
import { asSeen } from '../chat/live';
import { findExecution } from '../read-model';
import { type ExecutionState, ownExecution, TERMINAL_STATUSES } from './access';
import type { CommandDeps, Minting } from './deps';

export interface CancelCommand {
  executionId: string;
  conversationId?: string;
  source: 'http' | 'chat';
}

/** Decides the cancellation trigger, or why it is refused (404 not the caller's, 409 already ended). Pure. */
export function decideCancel(
  execution: ExecutionState | null,
  principal: Principal,
  command: CancelCommand,
  { ids, clock }: Minting,
): TriggerCreated {
  const own = ownExecution(execution, principal, command.executionId);
  if (command.conversationId !== undefined && own.conversationId !== null && own.conversationId !== command.conversationId) {
    throw new HireloopError('NOT_FOUND', `execution ${command.executionId} not found in conversation ${command.conversationId}`, {
      field: '/executionId',
    });
  }
  if (TERMINAL_STATUSES.has(own.status)) {
    throw new HireloopError('CONFLICT', `execution ${own.executionId} has already ended (${own.status})`, {
      field: '/executionId',
    });
  }
  const triggerId = ids.newId();
  const conversationId = own.conversationId ?? command.conversationId;
  return makeFact(
    'TriggerCreated',
    {
      orgId: principal.orgId,
      correlation: {
        userId: principal.userId,
        executionId: own.executionId,
        triggerId,
        ...(conversationId ? { conversationId } : {}),
      },
    },
    {
      triggerId,
      triggerType: 'cancel_execution',
      payload: { executionId: own.executionId, reason: 'requested' },
      source: command.source,
    },
    { ids, clock },
  );
}

export async function cancel(
  deps: CommandDeps,
  principal: Principal,
  command: CancelCommand,
  trace: PublishOptions = {},
): Promise<TriggerCreated> {
  const projected = await findExecution(deps.pool, principal.orgId, command.executionId);
  // what this instance's broadcast saw (a prompt, the end) decides where the projection trails
  const fact = decideCancel(asSeen(projected, deps.live?.get(command.executionId)), principal, command, deps);
  // a socket that cancels a run of no conversation is told its end, even when another cancel ended it first (the
  // end then names no conversation); said before the publish, so that an end that follows finds it
  if (
    command.source === 'chat' &&
    command.conversationId !== undefined &&
    fact.correlation.conversationId === command.conversationId
  )
    deps.live?.showTo(command.executionId, { conversationId: command.conversationId, userId: principal.userId });
  await deps.publisher.publish(fact, trace);
  deps.live?.cancelled(command.executionId);
  return fact;
}
