import { HireloopError, type Principal } from '@hireloop/platform';
import type { HILPrompt } from '@hireloop/schemas';

/** What the gateway reads of an execution to decide who may see and answer it. */
export interface ExecutionState {
  executionId: string;
  orgId: string;
  ownerUserId: string | null;
  conversationId: string | null;
  status: string;
  currentPrompt: HILPrompt | null;
}

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'cancelled', 'failed']);

/**
 * The execution, when it is the caller's: same org and started by the same user (ARCHITECTURE §7).
 * Anything else — absent, another org's, another user's — is the same 404, so nothing leaks.
 */
export function ownExecution<T extends ExecutionState>(execution: T | null, principal: Principal, executionId: string): T {
  if (!execution || execution.orgId !== principal.orgId || execution.ownerUserId !== principal.userId) {
    throw new HireloopError('NOT_FOUND', `execution ${executionId} not found`, { field: '/executionId' });
  }
  return execution;
}

/**
 * Whether the caller may use a conversation: yes when none of its executions belongs to someone else
 * (a conversation with no execution yet is anyone's first line). Another user's is a 404.
 */
export function ownConversation(
  executions: readonly Pick<ExecutionState, 'orgId' | 'ownerUserId'>[],
  principal: Principal,
  conversationId: string,
): void {
  const foreign = executions.some((e) => e.orgId !== principal.orgId || e.ownerUserId !== principal.userId);
  if (foreign) throw new HireloopError('NOT_FOUND', `conversation ${conversationId} not found`, { field: '/conversationId' });
}
