/**
 * The gateway's reads of the event store's projections (`@hireloop/event-store`), each scoped to the
 * caller's org; who within the org may see what is decided in `commands/access.ts`.
 */
import {
  conversationOwners,
  type EffectView,
  type EmployeeSummary,
  type EmployeeView,
  type ExecutionStatus,
  type ExecutionView,
  getEmployee,
  getEmployeeById,
  getExecution,
  getTimeline,
  listEffects,
  listEmployees,
  listExecutions,
  pendingPrompts,
  recordedSeq,
  type TimelineEntry,
} from '@hireloop/event-store';
import type { Pool, Principal } from '@hireloop/platform';
import { ApiLimits, type ConversationLine, type UIMessage } from '@hireloop/schemas';
import { type LivePrompts, pendingAsSeen } from './chat/live';
import type { ExecutionState } from './commands/access';
import { found, missing, untilStored } from './until-stored';

export type Execution = ExecutionView;
export type Employee = EmployeeView;
export type { EffectView, EmployeeSummary, TimelineEntry };

/** How long a command waits for the event store to record its fact before it answers from the fact alone. */
export const RECORD_TIMEOUT_MS = 10_000;

/**
 * Read-your-write for a command a client acts on at once: waits until the event store has recorded a
 * fact this gateway published — it records and folds a fact in one transaction, so the projections
 * then show it on every gateway — for at most `timeoutMs`; whether it did.
 */
export async function untilRecorded(pool: Pool, factId: string, timeoutMs = RECORD_TIMEOUT_MS): Promise<boolean> {
  const recorded = await untilStored(
    async () => ((await recordedSeq(pool, factId)) !== null ? found(true) : missing(undefined)),
    { timeoutMs },
  );
  return recorded.found;
}

export const findExecution = (pool: Pool, orgId: string, executionId: string): Promise<Execution | null> =>
  getExecution(pool, orgId, executionId);

/** Who owns the executions started in a conversation (of any user of the org): what tells whose it is (`ownConversation`). */
export const conversationOwnership = async (
  pool: Pool,
  orgId: string,
  conversationId: string,
): Promise<Pick<ExecutionState, 'orgId' | 'ownerUserId'>[]> =>
  (await conversationOwners(pool, orgId, conversationId)).map((ownerUserId) => ({ orgId, ownerUserId }));

export interface ExecutionFilter {
  conversationId?: string;
  employeeId?: string;
  /** only those waiting on a prompt the caller may answer (the inbox) */
  awaitingInput?: boolean;
  /** only those whose status is this one */
  status?: ExecutionStatus;
  /** at most this many (default and largest: ApiLimits.list) */
  limit?: number;
  /** those listed after this execution: the next page */
  after?: string;
}

/**
 * The executions the caller may see, newest first: their own, the runs of employees they own, and
 * every run of the org's employees when they are an admin (commands/access.ts).
 */
export async function callerExecutions(pool: Pool, principal: Principal, filter: ExecutionFilter = {}): Promise<Execution[]> {
  return listExecutions(pool, principal.orgId, {
    ...(filter.conversationId !== undefined ? { conversationId: filter.conversationId } : {}),
    ...(filter.employeeId !== undefined ? { employeeId: filter.employeeId } : {}),
    waiting: filter.awaitingInput ?? false,
    ...(filter.status !== undefined ? { status: filter.status } : {}),
    answerableBy: { userId: principal.userId, admin: principal.role === 'admin' },
    limit: Math.min(filter.limit ?? ApiLimits.list, ApiLimits.list + 1),
    ...(filter.after !== undefined ? { after: filter.after } : {}),
  });
}

/** The caller's execution that waits on a prompt in this conversation (the newest, if several). */
export async function waitingExecution(pool: Pool, principal: Principal, conversationId: string): Promise<ExecutionState | null> {
  const pending = (await pendingPrompts(pool, principal.orgId, conversationId)).find((p) => p.ownerUserId === principal.userId);
  if (!pending) return null;
  return {
    executionId: pending.executionId,
    orgId: principal.orgId,
    ownerUserId: pending.ownerUserId,
    conversationId: pending.conversationId,
    status: 'waiting',
    currentPrompt: pending.prompt,
  };
}

/**
 * The caller's pending prompt in a conversation, brought up to a newer prompt this instance's broadcast
 * saw there and the projection has not folded yet (`pendingAsSeen`): what a socket that joins right
 * after a prompt (a page reloaded) is shown, and what a chat line answers. `projectedAny`: false when the
 * caller has just read that the projection holds no execution in the conversation (a join of a new one):
 * then no row there waits, and the projection is not asked.
 */
export async function waitingAsSeen(
  pool: Pool,
  live: Pick<LivePrompts, 'askingIn'> | undefined,
  principal: Principal,
  conversationId: string,
  projectedAny = true,
): Promise<ExecutionState | null> {
  const projected = projectedAny ? await waitingExecution(pool, principal, conversationId) : null;
  const seen = live?.askingIn(principal.orgId, conversationId);
  if (!seen || projected?.currentPrompt?.promptId === seen.promptId) return projected;
  return pendingAsSeen(projected, seen, await findExecution(pool, principal.orgId, seen.executionId), principal);
}

export const executionTimeline = async (pool: Pool, orgId: string, executionId: string): Promise<TimelineEntry[]> =>
  (await getTimeline(pool, orgId, executionId)).slice(0, ApiLimits.timeline);

export const orgEmployees = (pool: Pool, orgId: string): Promise<EmployeeSummary[]> => listEmployees(pool, orgId);

export const findEmployee = (pool: Pool, orgId: string, employeeId: string): Promise<Employee | null> =>
  getEmployee(pool, orgId, employeeId);

/** An employee by id in any org: only for a signed webhook (commands/hook.ts). */
export const findEmployeeById = (pool: Pool, employeeId: string): Promise<Employee | null> => getEmployeeById(pool, employeeId);

export const executionEffects = (pool: Pool, orgId: string, executionId: string): Promise<EffectView[]> =>
  listEffects(pool, orgId, executionId, ApiLimits.timeline);

/**
 * The chat lines of a conversation that concern the caller (theirs, and hireloop's replies to them),
 * oldest first, from the event store: UIMessages carry no execution, so they chain by conversation.
 */
export async function conversationLines(pool: Pool, principal: Principal, conversationId: string): Promise<ConversationLine[]> {
  const { rows } = await pool.query<{ payload: UIMessage }>(
    `SELECT payload FROM facts WHERE chain_key = 'conversation/' || $1 || '/' || $2 AND type = 'UIMessage' ORDER BY ts, seq LIMIT $3`,
    [principal.orgId, conversationId, ApiLimits.timeline],
  );
  return rows
    .map((r) => r.payload)
    .filter((m) => m.userId === principal.userId)
    .map((m) => ({ id: m.id, role: m.role, text: m.content, ts: new Date(m.ts).toISOString() }));
}
