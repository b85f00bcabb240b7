import { type FactBody, makeFact } from '@hireloop/fact-stream';
import { derivedId, executionIdOf } from '@hireloop/platform';
import type { AnyFact, ExecutionResult, HILPrompt, RunIntent, TriggerCreated } from '@hireloop/schemas';
import { PersistentMap } from './pmap';

/**
 * The supervisor's decider (ARCHITECTURE §1: execution lifecycle, per-org admission, prompt
 * deadlines). Pure: `evolve` folds a fact into the state, `decide` answers an input with the
 * RunIntents to publish and the state after them. The live consumer and the rebuild at start-up
 * call the same `evolve`, so a rebuilt supervisor is the one that was running.
 *
 * Inputs are the facts of `triggers`, `hil-prompt` and `execution-result`, the supervisor's own
 * `runIntent` facts (folded during a rebuild) and a timer tick. The rules:
 *  - create_graph queues the execution (id derivedId(triggerId, 'execution')) and starts the oldest
 *    queued ones of its org while fewer than `maxRunningPerOrg` run; a trigger seen before does nothing;
 *  - an ExecutionResult frees its slot and starts the oldest queued execution of that org;
 *  - cancel_execution of a running execution → RunIntent cancel; of a queued one → the execution
 *    leaves the queue (it will never start) and a RunIntent cancel still goes out, so that the worker
 *    — the only producer of ExecutionResult — ends it with status 'cancelled' and every reader sees it
 *    end; of an unknown, ended or other org's execution → nothing. At most one cancel per execution;
 *  - a HILPrompt sets the execution's deadline (prompt ts + promptTimeoutMs); a tick past it →
 *    RunIntent cancel with reason 'timeout', once. The same prompt again keeps its first deadline.
 *
 * Every RunIntent id is derived from its execution and action, so an intent decided twice (a
 * redelivery, a restart that reconciles) is the same fact and downstream drops the repeat.
 */

export const GRAPH_CREATOR = 'graph-creator';

export interface SupervisorConfig {
  maxRunningPerOrg: number;
  promptTimeoutMs: number;
}

export type SupervisorFact = TriggerCreated | RunIntent | HILPrompt | ExecutionResult;
export type Tick = { kind: 'tick' };
export type SupervisorInput = SupervisorFact | Tick;

type Correlation = AnyFact['correlation'];
type IntentTrigger = RunIntent['trigger'];
type CancelReason = NonNullable<RunIntent['reason']>;

/**
 * queued: waiting for a slot · running: started, holds a slot · withdrawn: cancelled while queued,
 * never starts, holds no slot · ended: an ExecutionResult was seen.
 */
export type ExecutionStatus = 'queued' | 'running' | 'withdrawn' | 'ended';

export interface Execution {
  readonly executionId: string;
  readonly orgId: string;
  readonly status: ExecutionStatus;
  /** the creation's conversationId, userId, triggerId and the executionId: carried on every intent */
  readonly correlation: Correlation;
  /** the create_graph trigger it runs; absent when the execution is known only from a prompt or result */
  readonly trigger?: IntentTrigger;
  /** the fact that queued it: the cause of a start decided on a tick */
  readonly queuedBy?: string;
  /** the latest prompt: its deadline is askedAt + promptTimeoutMs */
  readonly prompt?: { readonly promptId: string; readonly askedAt: string; readonly factId: string };
  /** the one cancel of this execution; `sent` once its RunIntent exists */
  readonly cancel?: {
    readonly reason: CancelReason;
    readonly trigger: IntentTrigger;
    readonly causationId: string;
    readonly sent: boolean;
  };
}

export interface OrgSlots {
  /** executions holding a slot */
  readonly running: readonly string[];
  /** executions waiting, oldest first */
  readonly queue: readonly string[];
}

export interface SupervisorState {
  /** every execution seen, ended ones too: a redelivered trigger must never start one again */
  readonly executions: PersistentMap<Execution>;
  readonly orgs: PersistentMap<OrgSlots>;
  /** executions with a cancel decided but not yet sent (only a rebuild can leave one here) */
  readonly unsentCancels: readonly string[];
}

export interface Decision {
  state: SupervisorState;
  intents: RunIntent[];
}

export const initialState = (): SupervisorState => ({
  executions: PersistentMap.empty(),
  orgs: PersistentMap.empty(),
  unsentCancels: [],
});

/** The execution a create_graph trigger runs: known up front, so a cancel can name a queued one. */
export { executionIdOf };

// ---- state helpers ----------------------------------------------------------------------------

const NO_SLOTS: OrgSlots = { running: [], queue: [] };
const without = (list: readonly string[], id: string): readonly string[] => list.filter((x) => x !== id);

function slotsOf(state: SupervisorState, orgId: string): OrgSlots {
  return state.orgs.get(orgId) ?? NO_SLOTS;
}

/** Puts an execution and keeps the org's running list and queue in step with its status. */
function put(state: SupervisorState, next: Execution): SupervisorState {
  const before = state.executions.get(next.executionId);
  const slots = slotsOf(state, next.orgId);
  let { running, queue } = slots;
  if (before?.status !== next.status) {
    if (before?.status === 'running') running = without(running, next.executionId);
    if (before?.status === 'queued') queue = without(queue, next.executionId);
    if (next.status === 'running') running = [...running, next.executionId];
    if (next.status === 'queued') queue = [...queue, next.executionId];
  }
  const unsent = Boolean(next.cancel && !next.cancel.sent && next.status !== 'ended');
  const listed = state.unsentCancels.includes(next.executionId);
  return {
    executions: state.executions.set(next.executionId, next),
    orgs: running === slots.running && queue === slots.queue ? state.orgs : state.orgs.set(next.orgId, { running, queue }),
    unsentCancels:
      unsent === listed
        ? state.unsentCancels
        : unsent
          ? [...state.unsentCancels, next.executionId]
          : without(state.unsentCancels, next.executionId),
  };
}

function correlationOf(source: Correlation, executionId: string, triggerId?: string): Correlation {
  const { conversationId, userId } = source;
  const trigger = triggerId ?? source.triggerId;
  return {
    ...(conversationId ? { conversationId } : {}),
    ...(userId ? { userId } : {}),
    executionId,
    ...(trigger ? { triggerId: trigger } : {}),
  };
}

/** An execution first heard of from a prompt, an intent or a result (facts can reach the store out of order). */
function stub(fact: SupervisorFact, executionId: string, status: ExecutionStatus): Execution {
  return { executionId, orgId: fact.orgId, status, correlation: correlationOf(fact.correlation, executionId) };
}

// ---- evolve -----------------------------------------------------------------------------------

/** Folds one fact into the state. Idempotent: a fact seen before leaves the state as it is. */
export function evolve(state: SupervisorState, fact: SupervisorFact): SupervisorState {
  switch (fact.type) {
    case 'TriggerCreated':
      return fact.triggerType === 'cancel_execution' ? onCancelRequest(state, fact) : onCreate(state, fact);
    case 'RunIntent':
      return fact.action === 'start' ? onStart(state, fact) : onCancelSent(state, fact);
    case 'HILPrompt':
      return onPrompt(state, fact);
    case 'ExecutionResult':
      return onResult(state, fact);
    default: {
      const unhandled: never = fact;
      throw new Error(`supervisor cannot fold ${JSON.stringify(unhandled)}`);
    }
  }
}

/** A trigger that starts an execution: a creation, or a registered employee's workflow firing. */
type StartTrigger = Extract<TriggerCreated, { triggerType: 'create_graph' | 'employee_trigger' }>;
type CancelExecution = Extract<TriggerCreated, { triggerType: 'cancel_execution' }>;

function onCreate(state: SupervisorState, fact: StartTrigger): SupervisorState {
  const executionId = executionIdOf(fact.triggerId);
  if (state.executions.has(executionId)) return state;
  return put(state, {
    executionId,
    orgId: fact.orgId,
    status: 'queued',
    correlation: correlationOf(fact.correlation, executionId, fact.triggerId),
    trigger: { triggerId: fact.triggerId, triggerType: fact.triggerType, payload: fact.payload },
    queuedBy: fact.id,
  });
}

function onCancelRequest(state: SupervisorState, fact: CancelExecution): SupervisorState {
  const target = state.executions.get(fact.payload.executionId);
  // Another org's execution is "unknown" to this org: a tenant cannot cancel another tenant's work.
  if (!target || target.orgId !== fact.orgId || target.cancel) return state;
  if (target.status === 'ended' || target.status === 'withdrawn') return state;
  return put(state, {
    ...target,
    status: target.status === 'queued' ? 'withdrawn' : target.status,
    cancel: {
      reason: fact.payload.reason ?? 'requested',
      trigger: { triggerId: fact.triggerId, triggerType: 'cancel_execution', payload: fact.payload },
      causationId: fact.id,
      sent: false,
    },
  });
}

function onStart(state: SupervisorState, fact: RunIntent): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (!known) {
    return put(state, {
      ...stub(fact, fact.executionId, 'running'),
      ...(fact.trigger.triggerType !== 'cancel_execution' ? { trigger: fact.trigger } : {}),
    });
  }
  return known.status === 'queued' ? put(state, { ...known, status: 'running' }) : state;
}

function onCancelSent(state: SupervisorState, fact: RunIntent): SupervisorState {
  const known = state.executions.get(fact.executionId) ?? stub(fact, fact.executionId, 'withdrawn');
  if (known.cancel?.sent) return state;
  const cancel = known.cancel ?? {
    reason: fact.reason ?? 'requested',
    trigger: fact.trigger,
    causationId: fact.causationId ?? fact.id,
    sent: true,
  };
  // A cancel that went out for a queued execution means it was withdrawn: it never starts.
  return put(state, {
    ...known,
    status: known.status === 'queued' ? 'withdrawn' : known.status,
    cancel: { ...cancel, sent: true },
  });
}

function onPrompt(state: SupervisorState, fact: HILPrompt): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (known?.status === 'ended' || known?.status === 'withdrawn') return state;
  // The same prompt published again (a worker's redelivery) keeps its first deadline.
  if (known?.status === 'running' && known.prompt?.promptId === fact.promptId) return state;
  // A prompt proves the execution started, even when its start has not reached the store yet.
  return put(state, {
    ...(known ?? stub(fact, fact.executionId, 'running')),
    status: 'running',
    prompt: { promptId: fact.promptId, askedAt: fact.ts, factId: fact.id },
  });
}

function onResult(state: SupervisorState, fact: ExecutionResult): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (known?.status === 'ended') return state;
  return put(state, { ...(known ?? stub(fact, fact.executionId, 'ended')), status: 'ended' });
}

// ---- decide -----------------------------------------------------------------------------------

function intent(
  execution: Execution,
  now: Date,
  id: string,
  causationId: string | undefined,
  body: FactBody<'RunIntent'>,
): RunIntent {
  return makeFact(
    'RunIntent',
    { orgId: execution.orgId, correlation: execution.correlation, ...(causationId ? { causationId } : {}) },
    body,
    { ids: { newId: () => id }, clock: { now: () => now } },
  );
}

function startIntent(execution: Execution, now: Date, causationId: string | undefined): RunIntent {
  if (!execution.trigger) throw new Error(`execution ${execution.executionId} is queued without its trigger`);
  return intent(execution, now, derivedId(execution.executionId, 'start'), causationId, {
    executionId: execution.executionId,
    employeeId: employeeOf(execution),
    action: 'start',
    trigger: execution.trigger,
  });
}

/** The employee an execution runs: the Graph Creator for a creation, else the employee whose workflow fired. */
function employeeOf(execution: Execution): string {
  const trigger = execution.trigger;
  if (trigger?.triggerType === 'employee_trigger' && 'employeeId' in trigger.payload) return trigger.payload.employeeId;
  return GRAPH_CREATOR;
}

function requestedCancelIntent(execution: Execution, now: Date): RunIntent {
  const cancel = execution.cancel;
  if (!cancel) throw new Error(`execution ${execution.executionId} has no cancel to send`);
  return intent(execution, now, derivedId(execution.executionId, 'cancel'), cancel.causationId, {
    executionId: execution.executionId,
    employeeId: employeeOf(execution),
    action: 'cancel',
    trigger: cancel.trigger,
    reason: cancel.reason,
  });
}

/**
 * A prompt that waited past its deadline. No trigger fact exists for it: the intent names one the
 * supervisor makes up, derived from the execution, with the reason in its payload.
 */
function timeoutIntent(execution: Execution, now: Date): RunIntent {
  const { executionId } = execution;
  return intent(execution, now, derivedId(executionId, 'timeout'), execution.prompt?.factId, {
    executionId,
    employeeId: employeeOf(execution),
    action: 'cancel',
    trigger: {
      triggerId: derivedId(executionId, 'timeout-trigger'),
      triggerType: 'cancel_execution',
      payload: { executionId, reason: 'timeout' },
    },
    reason: 'timeout',
  });
}

/** Starts the oldest queued executions of an org while it has free slots. */
function admit(state: SupervisorState, orgId: string, config: SupervisorConfig, now: Date, causationId?: string): Decision {
  let next = state;
  const intents: RunIntent[] = [];
  for (;;) {
    const { running, queue } = slotsOf(next, orgId);
    const head = queue[0];
    if (head === undefined || running.length >= config.maxRunningPerOrg) return { state: next, intents };
    const execution = next.executions.get(head);
    if (!execution) throw new Error(`queued execution ${head} of ${orgId} is missing`);
    const start = startIntent(execution, now, causationId ?? execution.queuedBy);
    next = evolve(next, start);
    intents.push(start);
  }
}

/** Brings the state to what it should be now: decided cancels sent, free slots filled, overdue prompts cancelled. */
function reconcile(state: SupervisorState, config: SupervisorConfig, now: Date): Decision {
  let next = state;
  const intents: RunIntent[] = [];
  const send = (intent: RunIntent) => {
    next = evolve(next, intent);
    intents.push(intent);
  };
  for (const id of state.unsentCancels) {
    const execution = next.executions.get(id);
    if (execution?.cancel && !execution.cancel.sent) send(requestedCancelIntent(execution, now));
  }
  for (const [orgId] of state.orgs.entries()) {
    const admitted = admit(next, orgId, config, now);
    next = admitted.state;
    intents.push(...admitted.intents);
  }
  for (const [, slots] of next.orgs.entries()) {
    for (const id of slots.running) {
      const execution = next.executions.get(id);
      if (!execution?.prompt || execution.cancel) continue;
      if (now.getTime() >= Date.parse(execution.prompt.askedAt) + config.promptTimeoutMs) send(timeoutIntent(execution, now));
    }
  }
  return { state: next, intents };
}

/**
 * Answers one input: the state after it and the RunIntents to publish (each already folded into
 * that state). `now` is the time of the decision: the intents' ts and the clock of the deadlines.
 */
export function decide(state: SupervisorState, input: SupervisorInput, config: SupervisorConfig, now: Date): Decision {
  // A HILPrompt has a `kind` too: a fact is told apart by its `type`.
  if (!('type' in input)) {
    switch (input.kind) {
      case 'tick':
        return reconcile(state, config, now);
      default: {
        const unhandled: never = input;
        throw new Error(`unknown supervisor input ${JSON.stringify(unhandled)}`);
      }
    }
  }
  switch (input.type) {
    case 'TriggerCreated': {
      const next = evolve(state, input);
      if (input.triggerType !== 'cancel_execution') return admit(next, input.orgId, config, now, input.id);
      const target = next.executions.get(input.payload.executionId);
      if (target?.cancel && !target.cancel.sent && target.orgId === input.orgId) {
        const cancel = requestedCancelIntent(target, now);
        return { state: evolve(next, cancel), intents: [cancel] };
      }
      return { state: next, intents: [] };
    }
    case 'ExecutionResult': {
      const next = evolve(state, input);
      if (next === state) return { state, intents: [] };
      const orgId = next.executions.get(input.executionId)?.orgId ?? input.orgId;
      return admit(next, orgId, config, now, input.id);
    }
    case 'HILPrompt':
    case 'RunIntent':
      return { state: evolve(state, input), intents: [] };
    default: {
      const unhandled: never = input;
      throw new Error(`unknown supervisor input ${JSON.stringify(unhandled)}`);
    }
  }
}

/** Where an execution stands, for logs and tests. */
export const statusOf = (state: SupervisorState, executionId: string): ExecutionStatus | undefined =>
  state.executions.get(executionId)?.status;
