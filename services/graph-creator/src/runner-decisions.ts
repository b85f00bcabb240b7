/**
 * The runner's decisions, pure: given the execution's row, its checkpoint state and the delivery in
 * hand, what happens next. The shell (runner.ts) reads the row and the state once, asks these, and
 * does the I/O (ARCHITECTURE §5).
 */
import { clipped, type ExecutionResult } from '@hireloop/schemas';
import { isPromptSpec, type PromptSpec } from './prompt';

/** The employeeId of a creation (RunIntent.employeeId): every other id is an employee's run. */
export const CREATOR_ID = 'graph-creator';

export interface ExecutionRow {
  execution_id: string;
  org_id: string;
  owner_user_id: string | null;
  conversation_id: string | null;
  status: 'running' | 'completed' | 'cancelled' | 'failed';
  /** 'graph-creator', an employee's id, or null for rows written before runs existed (creations) */
  employee_id: string | null;
}

/** The part of a checkpoint state the decisions read. */
export interface CheckpointView {
  next: readonly string[];
  /** absent when the thread has no checkpoint yet */
  createdAt?: string;
  tasks: readonly { name: string; result?: unknown; interrupts: readonly { id?: string; value?: unknown }[] }[];
}

export interface Pending {
  promptId: string;
  spec: PromptSpec;
}

/** The prompts an execution waits on: interrupts of tasks that have not finished. */
export const pendingOf = (state: CheckpointView): Pending[] =>
  state.tasks
    .filter((t) => t.result === undefined)
    .flatMap((t) => t.interrupts)
    .flatMap((i) => (i.id && isPromptSpec(i.value) ? [{ promptId: i.id, spec: i.value }] : []));

/**
 * The progress a run's phase event tells: the state's, unless the prompt it stops at says it is further
 * on (a node asks at 90% after its state said 80%). The event and the prompt are published together but on
 * two topics, so a client sees them in either order; told the same figure, its progress bar never steps
 * back between them. Pure.
 */
export function phaseProgress(stateProgress: number | undefined, state: CheckpointView): number | undefined {
  const asked = pendingOf(state)
    .map((p) => p.spec.progress)
    .filter((n): n is number => n !== undefined);
  const furthest = asked.length > 0 ? Math.max(...asked) : undefined;
  if (furthest === undefined) return stateProgress;
  return stateProgress === undefined ? furthest : Math.max(stateProgress, furthest);
}

/** An interrupt that waits for a time, not a person (a step deferred by quiet hours): never published as a prompt. */
export interface WaitSpec {
  /** ISO-8601: when the execution goes on by itself */
  waitUntil: string;
  reason: string;
}

export const isWaitSpec = (value: unknown): value is WaitSpec =>
  typeof value === 'object' && value !== null && typeof (value as WaitSpec).waitUntil === 'string';

export interface Waiting extends WaitSpec {
  interruptId: string;
}

/** The time an execution waits for, if it waits for one. */
export const waitingOf = (state: CheckpointView): Waiting | undefined =>
  state.tasks
    .filter((t) => t.result === undefined)
    .flatMap((t) => t.interrupts)
    .flatMap((i) =>
      i.id && isWaitSpec(i.value) ? [{ interruptId: i.id, waitUntil: i.value.waitUntil, reason: i.value.reason }] : [],
    )[0];

/** Whether a waiting execution goes on now: only a running one that still waits for that time, once it has come. */
export function wakeDecision(standing: Standing, now: Date, lifted = false): { wake: Waiting } | { keep: boolean } {
  if (standing.kind !== 'waiting') return { keep: false };
  // (quiet hours lifted since it was deferred: it need not wait for their old end)
  if (!lifted && Date.parse(standing.waiting.waitUntil) > now.getTime()) return { keep: true };
  return { wake: standing.waiting };
}

export const isRun = (row: Pick<ExecutionRow, 'employee_id'>): boolean =>
  row.employee_id !== null && row.employee_id !== CREATOR_ID;

export interface Answerer {
  orgId: string;
  userId?: string;
  promptId: string;
}

export type AnswerVerdict =
  | { verdict: 'resume'; prompt: Pending }
  /** `standing`: say again where the execution stands (the answer that moved it on may have been followed by a crash) */
  | { verdict: 'ignore'; reason: string; standing: boolean };

/**
 * Whether an answer resumes the execution. A creation's prompts are answered by the user who owns
 * it; a run's by anyone of the employee's org (the gateway lets only its owner or an org admin
 * through — ARCHITECTURE §11 — and the worker re-checks the org).
 */
export function judgeAnswer(row: ExecutionRow | undefined, pending: readonly Pending[], answer: Answerer): AnswerVerdict {
  if (!row) return { verdict: 'ignore', reason: 'unknown execution', standing: false };
  if (row.status !== 'running') return { verdict: 'ignore', reason: `execution is ${row.status}`, standing: false };
  if (row.org_id !== answer.orgId) return { verdict: 'ignore', reason: 'the answering user is of another org', standing: false };
  // standing: the supervisor gave the answer a slot, and the prompt again tells it the execution still waits
  if (!isRun(row) && row.owner_user_id && row.owner_user_id !== answer.userId)
    return { verdict: 'ignore', reason: 'the answering user does not own this execution', standing: true };
  const prompt = pending.find((p) => p.promptId === answer.promptId);
  if (!prompt) return { verdict: 'ignore', reason: 'prompt is not pending (duplicate or stale answer)', standing: true };
  return { verdict: 'resume', prompt };
}

export type Standing =
  /** publish the cancelled result again */
  | { kind: 'cancelled' }
  /** publish this prompt (again: same promptId, same fact id) */
  | { kind: 'prompt'; pending: Pending }
  /** started, but the worker died before the first checkpoint: run it from the trigger */
  | { kind: 'restart' }
  /** cut off between two checkpoints: carry on from the last one */
  | { kind: 'continue' }
  /** the graph ended and the row still says running: record the outcome and publish the result */
  | { kind: 'finish' }
  /** already ended: publish its result again */
  | { kind: 'ended'; status: ExecutionResult['status'] }
  /** waits for a time (a deferred step): remember when, and go on then */
  | { kind: 'waiting'; waiting: Waiting }
  | { kind: 'nothing' };

/**
 * Where an execution stands. `justRan`: the shell has just run the graph (so a graph stopped with
 * work left and no prompt is not carried on again in a loop).
 */
export function whereItStands(row: ExecutionRow, state: CheckpointView, justRan: boolean): Standing {
  if (row.status === 'cancelled') return { kind: 'cancelled' };
  const first = pendingOf(state)[0];
  if (first) return { kind: 'prompt', pending: first };
  if (row.status !== 'running') return { kind: 'ended', status: row.status };
  const waiting = waitingOf(state);
  if (waiting) return { kind: 'waiting', waiting };
  if (state.createdAt === undefined) return justRan ? { kind: 'nothing' } : { kind: 'restart' };
  if (state.next.length > 0) return justRan ? { kind: 'nothing' } : { kind: 'continue' };
  return { kind: 'finish' };
}

/** The nodes a run went through, in order, repeats folded: `nodes: analyse, match_workflow ×3, identify_gaps`. */
export function nodePath(nodes: readonly string[]): string {
  const parts: string[] = [];
  let i = 0;
  while (i < nodes.length) {
    let j = i;
    while (nodes[j + 1] === nodes[i]) j++;
    parts.push(j > i ? `${nodes[i]} ×${j - i + 1}` : (nodes[i] as string));
    i = j + 1;
  }
  return clipped(`nodes: ${parts.join(', ')}`, 500);
}
