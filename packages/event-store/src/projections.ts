import type {
  AnyFact,
  Effect,
  EmployeeGraphSpec,
  ExecutionProjectionStatuses,
  ExecutionResult,
  FactOf,
  FactType,
  HILPrompt,
  OrgPolicy,
  PolicyChanged,
  WorkflowActivation,
} from '@hireloop/schemas';

/**
 * The event store's projections as pure folds, emmett-style: `evolve(state | null, fact, seq)`.
 * The live projector and `hireloop replay` call the same functions, so a rebuild from `facts`
 * equals what was projected live.
 *
 * Facts of one execution travel on several topics, and Kafka orders them only within a topic: a
 * projector catching up may read every `hil-response` before the `hil-prompt`s they answer. The
 * folds are written so that the public fields end the same whatever the interleaving across topics
 * (docs/decisions.md, "Projections independent of the order across topics"):
 * - owner, conversation, employee, trigger and `createdAt` come only from the RunIntent start;
 * - an ExecutionResult is final: the first one decides status, result and error;
 * - a prompt is current until its answer is seen, whichever of the two arrives first
 *   (`earlyAnswers` remembers answers to prompts not seen yet, `promptIds` the prompts seen, so a
 *   re-published prompt or a stale answer changes nothing);
 * - progress is last-writer-wins by the fact's `ts` (ties: the higher value; a completed result counts
 *   as progress 100 at its `ts`), phase comes from
 *   `execution-events` alone, which is ordered — but a cancelled execution's phase reads `cancelled`;
 * - `updatedAt` is the latest `ts` of the facts that changed the row; `lastSeq` the seq of the last one;
 * - the supervisor's `queued` event makes a row nothing else has touched `queued` (its start, a
 *   prompt or a result, whichever comes first, moves it on), and its `queued` and `refused` events give
 *   an execution that has not started yet its owner and conversation (the start's, should it come).
 */

export type ExecutionStatus = (typeof ExecutionProjectionStatuses)[number];
export type ExecutionOutput = NonNullable<ExecutionResult['output']>;
export type ExecutionError = NonNullable<ExecutionResult['error']>;

export interface Execution {
  executionId: string;
  orgId: string;
  ownerUserId: string | null;
  conversationId: string | null;
  employeeId: string | null;
  triggerId: string | null;
  /** the workflow of the employee a run runs (null for a creation) */
  workflowId: string | null;
  status: ExecutionStatus;
  /** the pending prompt, or null */
  currentPrompt: HILPrompt | null;
  progress: number | null;
  phase: string | null;
  result: ExecutionOutput | null;
  error: ExecutionError | null;
  createdAt: string;
  updatedAt: string;
  lastSeq: number;
  /** prompts seen (a prompt published again after a worker crash changes nothing) */
  promptIds: string[];
  /** answers seen before the prompt they answer */
  earlyAnswers: string[];
  /** `ts` of the fact whose progress is shown */
  progressAt: string | null;
  /** the supervisor's ticket when it queued the execution: the queue's order (position counted when read) */
  queueTicket: number | null;
}

export interface ConversationExecution {
  conversationId: string;
  executionId: string;
  orgId: string;
  userId: string | null;
}

export interface Employee {
  employeeId: string;
  orgId: string;
  name: string;
  version: number;
  spec: EmployeeGraphSpec;
  executionId: string;
  registeredAt: string;
}

/** Every registered version of one employee name in one org, oldest first. */
export interface EmployeeHistory {
  orgId: string;
  name: string;
  versions: Employee[];
}

export type ProjectionName =
  | 'executions'
  | 'conversation_executions'
  | 'employees'
  | 'employee_activations'
  | 'execution_effects'
  | 'org_policies';

/**
 * One projection: the fact types `T` it folds, and a fold that sees only those (`fold` and `keyIn`
 * skip the others, replay does not even read them), so no fold spells out the types it ignores.
 */
export interface Projection<S, T extends FactType = FactType> {
  readonly name: ProjectionName;
  readonly types: ReadonlySet<T>;
  /** the state a fact folds into, or null when the fact does not concern this projection */
  keyOf(fact: FactOf<T>): string | null;
  evolve(state: S | null, fact: FactOf<T>, seq: number): S | null;
}

/** Whether a projection folds facts of this fact's type. */
const folds = <T extends FactType>(projection: Projection<unknown, T>, fact: AnyFact): fact is FactOf<T> =>
  (projection.types as ReadonlySet<FactType>).has(fact.type);

/** The state any fact folds into in a projection, or null (a type it does not fold, or a fact that does not concern it). */
export const keyIn = <S, T extends FactType>(projection: Projection<S, T>, fact: AnyFact): string | null =>
  folds(projection, fact) ? projection.keyOf(fact) : null;

/** Folds facts, in order, into the states of one projection; returns the keys whose state changed. */
export function fold<S, T extends FactType>(
  projection: Projection<S, T>,
  states: Map<string, S>,
  facts: Iterable<{ fact: AnyFact; seq: number }>,
): Set<string> {
  const changed = new Set<string>();
  for (const { fact, seq } of facts) {
    if (!folds(projection, fact)) continue;
    const key = projection.keyOf(fact);
    if (key === null) continue;
    const state = states.get(key) ?? null;
    const next = projection.evolve(state, fact, seq);
    if (next === state) continue;
    if (next === null) throw new Error(`${projection.name} never deletes a row (key ${key})`);
    states.set(key, next);
    changed.add(key);
  }
  return changed;
}

const unreachable = (fact: never): never => {
  throw new Error(`unhandled fact type ${(fact as { type?: unknown }).type}`);
};

/** `YYYY-MM-DDTHH:MM:SS.mmmZ`, what `toISOString` writes for years 0 to 9999 */
const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Timestamps are kept as UTC ISO strings with milliseconds, so that they survive a Postgres round trip exactly. */
export const isoTime = (ts: string): string => (CANONICAL_TIME.test(ts) ? ts : new Date(ts).toISOString());

/** a is after b (both from `isoTime`: same-width strings compare as times) */
const later = (a: string, b: string): boolean => (a.length === 24 && b.length === 24 ? a > b : Date.parse(a) > Date.parse(b));

const TERMINAL: ReadonlySet<ExecutionStatus> = new Set(['completed', 'cancelled', 'failed']);
export const isTerminal = (status: ExecutionStatus): boolean => TERMINAL.has(status);

/** A RunIntent start has been seen (it alone sets the employee). */
export const isStarted = (execution: Execution): boolean => execution.employeeId !== null;

// ---------------------------------------------------------------------------------------------
// executions

type ExecutionFact = Extract<AnyFact, { executionId: string }>;
type Changes = Partial<Execution>;
const NONE: Changes = {};

function fresh(executionId: string, fact: AnyFact, seq: number): Execution {
  const ts = isoTime(fact.ts);
  return {
    executionId,
    orgId: fact.orgId,
    ownerUserId: null,
    conversationId: null,
    employeeId: null,
    triggerId: null,
    workflowId: null,
    status: 'running',
    currentPrompt: null,
    progress: null,
    phase: null,
    result: null,
    error: null,
    createdAt: ts,
    updatedAt: ts,
    lastSeq: seq,
    promptIds: [],
    earlyAnswers: [],
    progressAt: null,
    queueTicket: null,
  };
}

/** The state a fact of this execution builds on: a new one for an unknown execution. */
const base = (state: Execution | null, fact: ExecutionFact, seq: number): Execution =>
  state ?? fresh(fact.executionId, fact, seq);

/** The new row: `changes` applied, and the dates and seq of the fact that changed it. */
function changed(current: Execution, fact: AnyFact, seq: number, changes: Changes): Execution {
  const next: Execution = { ...current, ...changes };
  const ts = isoTime(fact.ts);
  if (!isStarted(next) && later(next.createdAt, ts)) next.createdAt = ts;
  if (later(ts, next.updatedAt)) next.updatedAt = ts;
  next.lastSeq = seq;
  return next;
}

/** Progress is last-writer-wins by the fact's time (ties: the higher value). */
function progressChange(state: Execution, progress: number | undefined, ts: string): Changes {
  if (progress === undefined) return NONE;
  const at = isoTime(ts);
  const newer =
    state.progressAt === null ||
    later(at, state.progressAt) ||
    (at === state.progressAt && state.progress !== null && progress > state.progress);
  return newer ? { progress, progressAt: at } : NONE;
}

function started(state: Execution | null, fact: Extract<AnyFact, { type: 'RunIntent' }>, seq: number): Execution | null {
  if (fact.action === 'cancel') return state; // the worker's ExecutionResult{cancelled} ends it
  if (state && isStarted(state)) return state; // the first start decides
  // Before it, facts of another org may have created the row: the RunIntent (from the supervisor,
  // which admitted the execution) is authoritative about the tenant, and starts over.
  const current = state && state.orgId === fact.orgId ? state : fresh(fact.executionId, fact, seq);
  return changed(current, fact, seq, {
    status: current.status === 'queued' ? 'running' : current.status,
    ownerUserId: fact.correlation.userId ?? null,
    conversationId: fact.correlation.conversationId ?? null,
    employeeId: fact.employeeId,
    triggerId: fact.trigger.triggerId,
    workflowId: 'workflowId' in fact.trigger.payload ? fact.trigger.payload.workflowId : null,
    createdAt: isoTime(fact.ts),
  });
}

function prompted(state: Execution | null, fact: HILPrompt, seq: number): Execution | null {
  if (state?.promptIds.includes(fact.promptId)) return state; // published again: the same prompt
  const current = base(state, fact, seq);
  const answered = current.earlyAnswers.includes(fact.promptId);
  const waiting = !isTerminal(current.status) && !answered;
  return changed(current, fact, seq, {
    ...progressChange(current, fact.progress, fact.ts),
    promptIds: [...current.promptIds, fact.promptId],
    status: waiting ? 'waiting' : isTerminal(current.status) ? current.status : 'running',
    currentPrompt: waiting ? fact : null,
  });
}

function answered(state: Execution | null, fact: Extract<AnyFact, { type: 'HILResponse' }>, seq: number): Execution | null {
  if (state?.currentPrompt?.promptId === fact.promptId) {
    return changed(state, fact, seq, { status: 'running', currentPrompt: null });
  }
  // a duplicate, or an answer to a prompt that is no longer pending: nothing changes
  if (state && (state.promptIds.includes(fact.promptId) || state.earlyAnswers.includes(fact.promptId))) return state;
  // an answer to a prompt not seen yet (it travels on another topic): remember it
  const current = base(state, fact, seq);
  return changed(current, fact, seq, { earlyAnswers: [...current.earlyAnswers, fact.promptId] });
}

/** What the supervisor's queued and refused events tell of an execution that has not started yet. */
function admission(current: Execution, fact: Extract<AnyFact, { type: 'ExecutionEvent' }>): Changes {
  if (fact.event !== 'queued' && fact.event !== 'refused') return NONE;
  const changes: Changes = {};
  if (fact.event === 'queued' && fact.ticket !== undefined && current.queueTicket === null) changes.queueTicket = fact.ticket;
  if (!isStarted(current)) {
    if (current.ownerUserId === null && fact.correlation.userId) changes.ownerUserId = fact.correlation.userId;
    if (current.conversationId === null && fact.correlation.conversationId) {
      changes.conversationId = fact.correlation.conversationId;
    }
  }
  const untouched =
    !isStarted(current) && current.status === 'running' && current.promptIds.length === 0 && current.earlyAnswers.length === 0;
  if (fact.event === 'queued' && untouched) changes.status = 'queued';
  return Object.keys(changes).length === 0 ? NONE : changes;
}

function progressed(state: Execution | null, fact: Extract<AnyFact, { type: 'ExecutionEvent' }>, seq: number): Execution | null {
  const current = base(state, fact, seq);
  const progress = progressChange(current, fact.progress, fact.ts);
  // (a cancelled execution reads `cancelled` whatever phase it was in, whichever topic is read first)
  const phase = fact.phase !== undefined && fact.phase !== current.phase && current.status !== 'cancelled';
  const admitted = admission(current, fact);
  if (state !== null && !phase && progress === NONE && admitted === NONE) return state;
  return changed(current, fact, seq, { ...admitted, ...progress, ...(phase ? { phase: fact.phase } : {}) });
}

function ended(state: Execution | null, fact: ExecutionResult, seq: number): Execution | null {
  if (state && isTerminal(state.status)) return state; // the first result is final
  const current = base(state, fact, seq);
  return changed(current, fact, seq, {
    // a completed run is all done, whether or not its last progress event (another topic) is in yet
    ...(fact.status === 'completed' ? progressChange(current, 100, fact.ts) : NONE),
    // a cancel ends it wherever it stood: no phase it was in (`deferred`, `waiting`) is read as where it is
    ...(fact.status === 'cancelled' ? { phase: 'cancelled' } : NONE),
    // one that ended before any progress was said (refused at admission) reads 0, not nothing; kept with no time of
    // its own, so a progress event of it that the projector reads later (another topic) still says where it stood
    ...(current.progress === null && fact.status !== 'completed' ? { progress: 0 } : NONE),
    status: fact.status,
    result: fact.output ?? null,
    error: fact.error ?? null,
    currentPrompt: null,
  });
}

type ExecutionFactType = 'RunIntent' | 'HILPrompt' | 'HILResponse' | 'ExecutionEvent' | 'ExecutionResult';

export function evolveExecution(state: Execution | null, fact: FactOf<ExecutionFactType>, seq: number): Execution | null {
  // A fact of another tenant never touches an execution (a RunIntent start may take over a row
  // that only facts of another org created: see `started`).
  if (state && state.orgId !== fact.orgId && fact.type !== 'RunIntent') return state;
  switch (fact.type) {
    case 'RunIntent':
      return started(state, fact, seq);
    case 'HILPrompt':
      return prompted(state, fact, seq);
    case 'HILResponse':
      return answered(state, fact, seq);
    case 'ExecutionEvent':
      return progressed(state, fact, seq);
    case 'ExecutionResult':
      return ended(state, fact, seq);
    default:
      return unreachable(fact);
  }
}

export const executions: Projection<Execution, ExecutionFactType> = {
  name: 'executions',
  types: new Set<ExecutionFactType>(['RunIntent', 'HILPrompt', 'HILResponse', 'ExecutionEvent', 'ExecutionResult']),
  keyOf: (fact) => fact.executionId,
  evolve: evolveExecution,
};

// ---------------------------------------------------------------------------------------------
// conversation_executions

export function evolveConversationExecution(
  state: ConversationExecution | null,
  fact: FactOf<'RunIntent'>,
  _seq: number,
): ConversationExecution | null {
  // the first start decides who may answer, as for the execution's owner
  const conversationId = fact.correlation.conversationId;
  if (state || fact.action !== 'start' || conversationId === undefined) return state;
  return { conversationId, executionId: fact.executionId, orgId: fact.orgId, userId: fact.correlation.userId ?? null };
}

export const conversationExecutions: Projection<ConversationExecution, 'RunIntent'> = {
  name: 'conversation_executions',
  types: new Set(['RunIntent'] as const),
  keyOf: (fact) => fact.executionId,
  evolve: evolveConversationExecution,
};

// ---------------------------------------------------------------------------------------------
// employees

/** The employee a fact registers: a completed creation's spec, when it belongs to the fact's org. */
function registeredSpec(fact: ExecutionResult): EmployeeGraphSpec | null {
  if (fact.status !== 'completed') return null;
  const spec = fact.output?.employee;
  return spec && spec.orgId === fact.orgId ? spec : null;
}

/** `org/name`: `/` cannot occur in an org id. */
export const employeeKey = (orgId: string, name: string): string => `${orgId}/${name}`;

export function evolveEmployees(state: EmployeeHistory | null, fact: ExecutionResult, _seq: number): EmployeeHistory | null {
  const spec = registeredSpec(fact);
  if (!spec) return state;
  const versions = state?.versions ?? [];
  // one registration per execution and per employee id, whatever is delivered again
  if (versions.some((v) => v.executionId === fact.executionId || v.employeeId === spec.employeeId)) return state;
  const version = versions.reduce((max, v) => Math.max(max, v.version), 0) + 1;
  const employee: Employee = {
    employeeId: spec.employeeId,
    orgId: fact.orgId,
    name: spec.name,
    version,
    spec: { ...spec, version },
    executionId: fact.executionId,
    registeredAt: isoTime(fact.ts),
  };
  return { orgId: fact.orgId, name: spec.name, versions: [...versions, employee] };
}

export const employees: Projection<EmployeeHistory, 'ExecutionResult'> = {
  name: 'employees',
  types: new Set(['ExecutionResult'] as const),
  keyOf: (fact) => {
    const spec = registeredSpec(fact);
    return spec ? employeeKey(fact.orgId, spec.name) : null;
  },
  evolve: evolveEmployees,
};

// ---------------------------------------------------------------------------------------------
// employee_activations: whether each registered employee is switched on, and its workflows

/** An employee's activation: folded from `EmployeeActivated` / `EmployeeDeactivated` (one topic, keyed by employee). */
export interface EmployeeActivation {
  employeeId: string;
  orgId: string;
  version: number;
  status: 'active' | 'inactive';
  /** the latest activation (webhook secrets derive from it); null when never activated */
  activationId: string | null;
  /** per workflow: on, or off with the reason; the latest activation's */
  workflows: WorkflowActivation[];
  updatedAt: string;
  lastSeq: number;
}

type ActivationFactType = 'EmployeeActivated' | 'EmployeeDeactivated';

export function evolveActivation(
  state: EmployeeActivation | null,
  fact: FactOf<ActivationFactType>,
  seq: number,
): EmployeeActivation | null {
  // another tenant's fact never touches an employee
  if (state && state.orgId !== fact.orgId) return state;
  const common = {
    employeeId: fact.employeeId,
    orgId: fact.orgId,
    version: fact.version,
    updatedAt: isoTime(fact.ts),
    lastSeq: seq,
  };
  if (fact.type === 'EmployeeActivated') {
    return { ...common, status: 'active', activationId: fact.activationId, workflows: fact.workflows };
  }
  return { ...common, status: 'inactive', activationId: state?.activationId ?? null, workflows: state?.workflows ?? [] };
}

export const employeeActivations: Projection<EmployeeActivation, ActivationFactType> = {
  name: 'employee_activations',
  types: new Set<ActivationFactType>(['EmployeeActivated', 'EmployeeDeactivated']),
  keyOf: (fact) => fact.employeeId,
  evolve: evolveActivation,
};

// ---------------------------------------------------------------------------------------------
// execution_effects: what a run did, one row per idempotency key

/** One effect of a run (ARCHITECTURE §11): the latest record of its idempotency key, by seq. */
export interface ExecutionEffect extends Effect {
  executionId: string;
  orgId: string;
  /** the seq of the first record of the key: effects are listed in the order they began */
  firstSeq: number;
  lastSeq: number;
}

export function evolveEffect(state: ExecutionEffect | null, fact: FactOf<'ExecutionEvent'>, seq: number): ExecutionEffect | null {
  const effect = fact.effect;
  if (!effect) return state;
  // a key is one execution's and one org's: a record from elsewhere changes nothing
  if (state && (state.orgId !== fact.orgId || state.executionId !== fact.executionId)) return state;
  // `execution-events` is keyed by execution, so the later seq is the later record: it wins
  if (state && state.lastSeq >= seq) return state;
  return {
    ...effect,
    at: isoTime(effect.at),
    executionId: fact.executionId,
    orgId: fact.orgId,
    firstSeq: state?.firstSeq ?? seq,
    lastSeq: seq,
  };
}

export const executionEffects: Projection<ExecutionEffect, 'ExecutionEvent'> = {
  name: 'execution_effects',
  types: new Set(['ExecutionEvent'] as const),
  keyOf: (fact) => fact.effect?.idempotencyKey ?? null,
  evolve: evolveEffect,
};

// ---------------------------------------------------------------------------------------------
// org_policies: each org's policy for its employees' tool calls, as its latest PolicyChanged set it

/** An org's policy (ARCHITECTURE §12): what the tool registry of every worker reads before a call. */
export interface OrgPolicyState {
  orgId: string;
  /** the whole policy as set (a PUT replaces it) */
  policy: OrgPolicy;
  /** the administrator who set it */
  changedBy: string;
  /** the time of the fact that set it */
  updatedAt: string;
  lastSeq: number;
}

/** `org-policies` is keyed by org, so an org's facts come in order: the later seq is the later change. */
export function evolvePolicy(state: OrgPolicyState | null, fact: PolicyChanged, seq: number): OrgPolicyState | null {
  if (state && state.lastSeq >= seq) return state;
  return { orgId: fact.orgId, policy: fact.policy, changedBy: fact.changedBy, updatedAt: isoTime(fact.ts), lastSeq: seq };
}

export const orgPolicies: Projection<OrgPolicyState, 'PolicyChanged'> = {
  name: 'org_policies',
  types: new Set(['PolicyChanged'] as const),
  keyOf: (fact) => fact.orgId,
  evolve: evolvePolicy,
};

export const projections = [
  executions,
  conversationExecutions,
  employees,
  employeeActivations,
  executionEffects,
  orgPolicies,
] as const;

/** Every fact type some projection folds. */
export const projectedTypes: readonly FactType[] = [...new Set(projections.flatMap((p) => [...p.types]))];

// ---------------------------------------------------------------------------------------------
// Facts a rebuild need not read whole

/** The fields of an ExecutionEvent that some fold reads besides its execution, org and time. */
const EVENT_FIELDS_FOLDED = ['progress', 'phase', 'effect'] as const;
/** The ExecutionEvent kinds some fold reads (their ticket and correlation: `admission`). */
const EVENTS_FOLDED = ['queued', 'refused'] as const;

/**
 * An ExecutionEvent no fold reads beyond its execution, org and `ts` — a node entered or left, a stale
 * answer recorded: it changes a projection only when its execution has no row yet (it creates one), so
 * a rebuild reads those three columns for it instead of parsing its payload. Most facts of a run are such.
 */
export function isPassiveEvent(fact: AnyFact): boolean {
  if (fact.type !== 'ExecutionEvent') return false;
  const record = fact as unknown as Record<string, unknown>;
  return (
    EVENT_FIELDS_FOLDED.every((field) => record[field] === undefined) &&
    !(EVENTS_FOLDED as readonly string[]).includes(fact.event)
  );
}

/** `isPassiveEvent` as SQL over a `facts` row (its `type` and jsonb `payload`). */
export const passiveEventSql = `(type = 'ExecutionEvent' AND NOT payload ?| '{${EVENT_FIELDS_FOLDED.join(',')}}'::text[] AND payload->>'event' NOT IN (${EVENTS_FOLDED.map((e) => `'${e}'`).join(', ')}))`;

/**
 * What a rebuild folds for a passive event: its execution, org, kind and time — every fold treats it as
 * it treats the whole fact (`isPassiveEvent`).
 */
export function passiveEvent(
  executionId: string,
  orgId: string,
  event: string,
  ts: string,
): Extract<AnyFact, { type: 'ExecutionEvent' }> {
  return {
    type: 'ExecutionEvent',
    id: '',
    orgId,
    ts,
    correlation: {},
    executionId,
    event: event as Extract<AnyFact, { type: 'ExecutionEvent' }>['event'],
  };
}
