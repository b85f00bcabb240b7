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
  /** the owner of the registered employee the execution runs, when it runs one (not a creation) */
  employeeOwnerUserId?: string | null;
  /** what it runs, once its RunIntent is projected (null or absent before) */
  employeeId?: string | null;
}

export const TERMINAL_STATUSES: ReadonlySet<string> = new Set(['completed', 'cancelled', 'failed']);

/**
 * Whether the caller may read and answer an execution of their org: one they started (ARCHITECTURE
 * §7), or a run of a registered employee that they own or — as an org admin — any run of one (§11).
 */
export function mayUseExecution(execution: ExecutionState, principal: Principal): boolean {
  if (execution.orgId !== principal.orgId) return false;
  if (execution.ownerUserId === principal.userId) return true;
  const employeeOwner = execution.employeeOwnerUserId ?? null;
  return employeeOwner !== null && (employeeOwner === principal.userId || principal.role === 'admin');
}

/**
 * The execution, when the caller may use it (`mayUseExecution`). Anything else — absent, another
 * org's, another user's — is the same 404, so nothing leaks.
 */
export function ownExecution<T extends ExecutionState>(execution: T | null, principal: Principal, executionId: string): T {
  if (!execution || !mayUseExecution(execution, principal)) {
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
