import type { CapabilityMatch, DraftWorkflow } from '@hireloop/analyst';
import type { CompiledGraph, Gap, RoutingTraceEntry, ValidationCheck } from '@hireloop/schemas';
import { Annotation } from '@langchain/langgraph';
import type { Static } from '@sinclair/typebox';

/** A gap as the graph tracks it: the spec's Gap plus what asking it needs. */
export interface GapState {
  gap: Static<typeof Gap>;
  status: 'open' | 'answered' | 'defaulted' | 'unsatisfied';
  /** how it is asked: pick among options, or answer in words */
  ask: 'options' | 'questions';
  /** options offered (missing integration: connected alternatives; ambiguous start: candidate triggers) */
  options?: { id: string; label: string; description?: string }[];
  recommended?: string;
  exampleAnswer?: string;
  /**
   * what the answer sets: a step's capability, the trigger, a trigger parameter, context for the
   * behaviour prompt, the task of a workflow no capability does (a picked capability becomes its step,
   * or `describe` asks for words), the words of such a task (analysed again into steps), or a constant
   * input of the steps that need it (organisational context: who, which channel), or the condition
   * over the trigger's `field` under which the steps run (organisational context: what counts as urgent)
   */
  target:
    | { kind: 'step'; workflowId: string; stepId: string }
    | { kind: 'trigger'; workflowId: string }
    | { kind: 'param'; workflowId: string; param: string }
    | { kind: 'context'; workflowId: string }
    | { kind: 'task'; workflowId: string; stepId?: string }
    | { kind: 'describe'; workflowId: string }
    | { kind: 'input'; workflowId: string; stepIds: string[]; input: string }
    | { kind: 'condition'; workflowId: string; stepIds: string[]; field: string; quality: string };
  /** a described task's steps, as the analyst read the answer (the identify_gaps node fills it) */
  steps?: { id: string; text: string; capabilityId: string }[];
  /** the answer given (option id or text) */
  answer?: string;
  /** shown again after `back` */
  previousAnswer?: string;
}

/** One round of asking: which gaps were in the prompt (for `back`). */
export interface AskedRound {
  round: number;
  gapIds: string[];
}

export type Route = 'match_workflows' | 'identify_gaps' | 'compile';

const replace = <T>(_old: T, next: T): T => next;
const mergeMatches = (old: Record<string, CapabilityMatch>, next: Record<string, CapabilityMatch> | null) =>
  next === null ? {} : { ...old, ...next };

/** The creation graph's state: ids, short texts and decisions; the catalog itself stays outside. */
export const CreationState = Annotation.Root({
  executionId: Annotation<string>({ reducer: replace, default: () => '' }),
  orgId: Annotation<string>({ reducer: replace, default: () => '' }),
  jobDescription: Annotation<string>({ reducer: replace, default: () => '' }),
  name: Annotation<string>({ reducer: replace, default: () => '' }),
  /** what the user asked to change, in order */
  revisions: Annotation<string[]>({ reducer: replace, default: () => [] }),
  /** every decomposition so far, newest last (each round of refinement versions it) */
  decompositions: Annotation<{ version: number; workflowIds: string[]; openGaps: number }[]>({
    reducer: replace,
    default: () => [],
  }),
  workflows: Annotation<DraftWorkflow[]>({ reducer: replace, default: () => [] }),
  analysisConfidence: Annotation<number>({ reducer: replace, default: () => 0 }),
  /** per workflow, from the parallel matching branches; `null` resets */
  matches: Annotation<Record<string, CapabilityMatch>, Record<string, CapabilityMatch> | null>({
    reducer: mergeMatches,
    default: () => ({}),
  }),
  /** capability ids validation found unknown: matching must not offer them again */
  excludedCapabilities: Annotation<string[]>({ reducer: replace, default: () => [] }),
  gaps: Annotation<GapState[]>({ reducer: replace, default: () => [] }),
  asked: Annotation<AskedRound[]>({ reducer: replace, default: () => [] }),
  round: Annotation<number>({ reducer: replace, default: () => 0 }),
  /** the loops' bounds, read from the org's budgets once, when the creation starts (null until then) */
  loopBudgets: Annotation<{ maxRounds: number; maxRoutes: number; maxTokens?: number | null } | null>({
    reducer: replace,
    default: () => null,
  }),
  /** tokens the creation spent on a language model (each node adds what its analyst calls spent) */
  tokensUsed: Annotation<number, number>({ reducer: (a, b) => a + b, default: () => 0 }),
  promptsAsked: Annotation<number>({ reducer: replace, default: () => 0 }),
  iterations: Annotation<number>({ reducer: replace, default: () => 0 }),
  /** compile repairs asked for by validation (bound loops, drop dangling hand-offs, unread state) */
  repair: Annotation<boolean>({ reducer: replace, default: () => false }),
  compiled: Annotation<CompiledGraph | null>({ reducer: replace, default: () => null }),
  checks: Annotation<Static<typeof ValidationCheck>[]>({ reducer: replace, default: () => [] }),
  routingTrace: Annotation<Static<typeof RoutingTraceEntry>[]>({ reducer: replace, default: () => [] }),
  /** the user asked to start again from the job description */
  restarting: Annotation<boolean>({ reducer: replace, default: () => false }),
  /** where a failed validation sends the graph next; null when it passed or the routes ran out */
  route: Annotation<Route | null>({ reducer: replace, default: () => null }),
  decision: Annotation<'pending' | 'approve' | 'revise' | 'cancel'>({ reducer: replace, default: () => 'pending' }),
  employee: Annotation<Record<string, unknown> | null>({ reducer: replace, default: () => null }),
  phase: Annotation<string>({ reducer: replace, default: () => 'starting' }),
  progress: Annotation<number>({ reducer: replace, default: () => 0 }),
  /** analyst calls answered by the offline analyst after the configured model failed */
  fallbacks: Annotation<string[], string[]>({ reducer: (a, b) => [...a, ...b].slice(0, 50), default: () => [] }),
  /** the creation's own loop budgets it spent (rounds of questions, routes after failed checks): each a `budget_exceeded` event */
  budgetsSpent: Annotation<string[], string[]>({ reducer: (a, b) => [...new Set([...a, ...b])].slice(0, 20), default: () => [] }),
});
export type CreationStateT = typeof CreationState.State;
export type CreationUpdate = typeof CreationState.Update;
