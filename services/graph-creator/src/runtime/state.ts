import type { Effect, Step, StepOutcome } from '@hireloop/schemas';
import { Annotation } from '@langchain/langgraph';
import type { NodeEvent } from '../runner';
import type { MissingInput } from './plan';

/** The workflow a run follows, carried in state: its steps are small and every node after classify reads them. */
export interface RunWorkflow {
  id: string;
  name: string;
  triggerId: string;
  params: Record<string, unknown>;
  steps: Step[];
  /** the run's budget of tool calls (the spec's compiled.budgets, else the org's default) */
  maxToolCalls?: number;
  /** the run's budget of steps taken in execute, whatever their outcome (same sources) */
  maxSteps?: number;
}

/** How a step ended, with its output when later steps bind to it. */
export interface StepDone {
  status: StepOutcome['status'];
  detail?: string;
  /** not run because its condition did not hold: a branch not taken, which blocks no step after it */
  branchNotTaken?: boolean;
  output?: Effect['output'];
}

export interface RunFailure {
  /** tool_failed, policy_denied, budget_exceeded, unknown_employee, … */
  code: string;
  message: string;
}

export interface RunDeferral {
  stepId: string;
  /** ISO-8601: when the quiet hours end */
  until: string;
  message: string;
}

const replace = <T>(_old: T, next: T): T => next;
const merge = <T>(old: Record<string, T>, next: Record<string, T>): Record<string, T> => ({ ...old, ...next });

/** State of an employee's run: ids, the workflow's steps, answers and step outcomes — never the whole spec. */
export const RunState = Annotation.Root({
  executionId: Annotation<string>({ reducer: replace, default: () => '' }),
  orgId: Annotation<string>({ reducer: replace, default: () => '' }),
  employeeId: Annotation<string>({ reducer: replace, default: () => '' }),
  version: Annotation<number>({ reducer: replace, default: () => 0 }),
  workflowId: Annotation<string>({ reducer: replace, default: () => '' }),
  /** the trigger event */
  event: Annotation<Record<string, unknown>>({ reducer: replace, default: () => ({}) }),
  workflow: Annotation<RunWorkflow | null>({ reducer: replace, default: () => null }),
  /** false when the event does not match the trigger's parameters: nothing runs */
  matched: Annotation<boolean>({ reducer: replace, default: () => true }),
  planned: Annotation<string[]>({ reducer: replace, default: () => [] }),
  /** steps plan left out, with why */
  notRun: Annotation<Record<string, string>>({ reducer: merge, default: () => ({}) }),
  missing: Annotation<MissingInput[]>({ reducer: replace, default: () => [] }),
  /** answers to the questions prompt, by question id `<stepId>.<input>` */
  answers: Annotation<Record<string, string>>({ reducer: merge, default: () => ({}) }),
  /**
   * per high-risk step: its approver's word, or `moot` when the org refuses the call whatever a person says (never
   * asked) — set by plan before 2026-11-30; plan now refuses such a run outright, and `moot` is read for runs paused before
   */
  approvals: Annotation<Record<string, 'approved' | 'rejected' | 'moot'>>({ reducer: merge, default: () => ({}) }),
  /** steps the spec calls low-risk that the org's quiet hours (`during: approval`) have a person approve in this run, decided once by plan */
  quietApprovals: Annotation<string[]>({ reducer: replace, default: () => [] }),
  /** why each `moot` step is refused, decided once by plan: execute fails on it without calling, whatever the policy says later */
  refusals: Annotation<Record<string, RunFailure>>({ reducer: merge, default: () => ({}) }),
  done: Annotation<Record<string, StepDone>>({ reducer: merge, default: () => ({}) }),
  failure: Annotation<RunFailure | null>({ reducer: replace, default: () => null }),
  /** a run that stopped early without failing (a budget spent): it completes and says what is left */
  stopped: Annotation<RunFailure | null>({ reducer: replace, default: () => null }),
  /** a high-risk step refused by quiet hours under a policy that defers: the run waits until `until`, then executes again */
  deferred: Annotation<RunDeferral | null>({ reducer: replace, default: () => null }),
  phase: Annotation<string>({ reducer: replace, default: () => 'starting' }),
  progress: Annotation<number>({ reducer: replace, default: () => 0 }),
  /** the events of the last update only (the runner publishes them from the stream; nothing accumulates) */
  events: Annotation<NodeEvent[]>({ reducer: replace, default: () => [] }),
});
export type RunStateT = typeof RunState.State;
export type RunUpdate = typeof RunState.Update;
