import { type FactBody, makeFact } from '@hireloop/fact-stream';
import { derivedId, executionIdOf } from '@hireloop/platform';
import type {
  AnyFact,
  ExecutionEvent,
  ExecutionResult,
  HILPrompt,
  HILResponse,
  RunIntent,
  TriggerCreated,
  UIMessage,
} from '@hireloop/schemas';
import { PersistentMap } from './pmap';

/**
 * The supervisor's decider (ARCHITECTURE §1: execution lifecycle, per-org admission, prompt
 * deadlines). Pure: `evolve` folds a fact into the state, `decide` answers an input with the facts
 * to publish and the state after them. The live consumer and the rebuild at start-up call the same
 * `evolve`, so a rebuilt supervisor is the one that was running.
 *
 * A slot counts work, not waiting (docs/decisions.md, 2026-11-24): an execution holds one of its
 * org's `maxRunningPerOrg` slots while a worker advances it — from its start, or from the answer to
 * its pending prompt, until the next prompt or its result — and none while it waits for a person.
 *
 * Inputs are the facts of `triggers`, `hil-prompt`, `hil-response` and `execution-result` (a run's
 * result, and its step_deferred / step_resumed events, which travel there), the
 * supervisor's own `runIntent` and `execution-events` facts (folded during a rebuild) and a timer
 * tick. The rules:
 *  - create_graph from a user with `maxOpenPerUser` open executions (queued, advancing or waiting,
 *    no cancel decided) is refused: RunIntent cancel (reason open_limit) so that the worker ends it
 *    visibly, ExecutionEvent refused, and an assistant UIMessage naming the oldest open ones and how
 *    to cancel them;
 *  - otherwise it starts at once when its org has a free slot and nobody queued before it
 *    (RunIntent start + ExecutionEvent started), else it is queued (ExecutionEvent queued with its
 *    position and ticket) and starts, oldest ticket first, when a slot frees (started again told);
 *  - an answer to the pending prompt takes a slot at once, over the limit if need be: answers are
 *    never queued, so those already talking go before newcomers;
 *  - a HILPrompt (a new one, or the same one again after the worker ignored an answer) frees the
 *    slot; an ExecutionResult ends the execution; both start queued executions of the org;
 *  - a run whose step the worker deferred to the end of the org's quiet hours (ExecutionEvent
 *    step_deferred) frees its slot too, and the org's queue moves; when the worker resumes it
 *    (step_resumed) it takes a slot at once, over the limit if need be, as an answer does: the worker
 *    resumes it on its own clock, and a run already under way goes before newcomers;
 *  - cancel_execution of an advancing or waiting execution → RunIntent cancel; of a queued one → the
 *    execution leaves the queue and a RunIntent cancel still goes out, so that the worker — the only
 *    producer of ExecutionResult — ends it with status 'cancelled'; of an unknown, ended or other
 *    org's execution → nothing. At most one cancel per execution;
 *  - a HILPrompt sets the deadline (its first ts + promptTimeoutMs); a tick past deadline −
 *    promptReminderMs → ExecutionEvent prompt_reminder and an assistant UIMessage, once per prompt;
 *    a tick past the deadline → RunIntent cancel with reason 'timeout', once.
 *
 * Every published fact's id is derived from its execution and purpose, so a fact decided twice (a
 * redelivery, a restart that reconciles) is the same fact and downstream drops the repeat.
 */

export const GRAPH_CREATOR = 'graph-creator';

export interface SupervisorConfig {
  /** executions of one org being advanced by a worker at once */
  maxRunningPerOrg: number;
  /** open (queued, advancing or waiting) executions of one user */
  maxOpenPerUser: number;
  promptTimeoutMs: number;
  /** how long before a prompt's deadline its reminder goes out */
  promptReminderMs: number;
}

export type SupervisorFact = TriggerCreated | RunIntent | HILPrompt | HILResponse | ExecutionResult | ExecutionEvent;
export type Tick = { kind: 'tick' };
export type SupervisorInput = SupervisorFact | Tick;

type Correlation = AnyFact['correlation'];
type IntentTrigger = RunIntent['trigger'];
type CancelReason = NonNullable<RunIntent['reason']>;

/**
 * pending: its trigger is folded but nothing was decided (only a rebuild leaves one: the tick decides
 * it) · queued: waits for a slot · advancing: a worker advances it, holds a slot · waiting: waits for
 * a person's answer, holds no slot · deferred: waits for the end of its org's quiet hours, holds no
 * slot · withdrawn: cancelled or refused before it started · ended: an ExecutionResult was seen.
 */
export type ExecutionStatus = 'pending' | 'queued' | 'advancing' | 'waiting' | 'deferred' | 'withdrawn' | 'ended';

export interface Execution {
  readonly executionId: string;
  readonly orgId: string;
  readonly status: ExecutionStatus;
  /** the creation's conversationId, userId, triggerId and the executionId: carried on every fact */
  readonly correlation: Correlation;
  /** the create_graph trigger it runs; absent when the execution is known only from a later fact */
  readonly trigger?: IntentTrigger;
  /** when it was requested (the trigger's ts) */
  readonly requestedAt?: string;
  /** the fact that queued it: the cause of a start decided on a tick */
  readonly queuedBy?: string;
  /** its place in the supervisor's order of the queue */
  readonly ticket?: number;
  /** the latest prompt: its deadline is askedAt + promptTimeoutMs (askedAt of its first publication) */
  readonly prompt?: { readonly promptId: string; readonly askedAt: string; readonly factId: string };
  /** the prompt whose reminder went out */
  readonly remindedPromptId?: string;
  /** the one cancel of this execution; `sent` once its RunIntent exists */
  readonly cancel?: {
    readonly reason: CancelReason;
    readonly trigger: IntentTrigger;
    readonly causationId: string;
    readonly sent: boolean;
    /** who asked, from where (a run has no conversation of its own: its end is told where the cancel came from) */
    readonly requestedBy?: Pick<Correlation, 'conversationId' | 'userId'>;
  };
}

export interface OrgSlots {
  /** executions holding a slot: a worker advances them */
  readonly advancing: readonly string[];
  /** executions waiting for a person: no slot */
  readonly waiting: readonly string[];
  /** executions waiting for a slot, by ticket (oldest first) */
  readonly queue: readonly string[];
}

export interface SupervisorState {
  /** every execution seen, ended ones too: a redelivered trigger must never start one again */
  readonly executions: PersistentMap<Execution>;
  readonly orgs: PersistentMap<OrgSlots>;
  /** open executions per `orgId/userId` (queued, advancing or waiting, without a cancel) */
  readonly users: PersistentMap<readonly string[]>;
  /** executions with a cancel decided but not yet sent (only a rebuild can leave one here) */
  readonly unsentCancels: readonly string[];
  /** executions whose trigger was folded with nothing decided, in the order folded (rebuild only) */
  readonly undecided: readonly string[];
  /** the ticket the next queued execution gets */
  readonly nextTicket: number;
}

export interface Decision {
  state: SupervisorState;
  intents: RunIntent[];
  /** the supervisor's ExecutionEvents: queued, started, refused, prompt_reminder */
  events: ExecutionEvent[];
  /** assistant lines to the requester: a refusal, a reminder */
  messages: UIMessage[];
}

export const initialState = (): SupervisorState => ({
  executions: PersistentMap.empty(),
  orgs: PersistentMap.empty(),
  users: PersistentMap.empty(),
  unsentCancels: [],
  undecided: [],
  nextTicket: 1,
});

/** The execution a create_graph trigger runs: known up front, so a cancel can name a queued one. */
export { executionIdOf };

// ---- state helpers ----------------------------------------------------------------------------

const NO_SLOTS: OrgSlots = { advancing: [], waiting: [], queue: [] };
const without = (list: readonly string[], id: string): readonly string[] => list.filter((x) => x !== id);

export function slotsOf(state: SupervisorState, orgId: string): OrgSlots {
  return state.orgs.get(orgId) ?? NO_SLOTS;
}

const userKey = (execution: Execution): string | undefined =>
  execution.correlation.userId === undefined ? undefined : `${execution.orgId}/${execution.correlation.userId}`;

/**
 * Open: it counts against its user's limit. An execution with a cancel decided is on its way out; a run
 * of a registered employee is not a conversation its owner opened, so it never counts.
 */
const isOpen = (execution: Execution | undefined): boolean =>
  execution !== undefined &&
  !execution.cancel &&
  execution.trigger?.triggerType !== 'employee_trigger' &&
  (execution.status === 'queued' ||
    execution.status === 'advancing' ||
    execution.status === 'waiting' ||
    execution.status === 'deferred');

/** The user's open executions (ids). */
export function openOf(state: SupervisorState, orgId: string, userId: string): readonly string[] {
  return state.users.get(`${orgId}/${userId}`) ?? [];
}

/** Inserts into a queue kept in ticket order (an execution queued without a ticket goes last). */
function enqueue(state: SupervisorState, queue: readonly string[], execution: Execution): readonly string[] {
  const ticket = execution.ticket ?? Number.POSITIVE_INFINITY;
  const at = queue.findIndex((id) => (state.executions.get(id)?.ticket ?? Number.POSITIVE_INFINITY) > ticket);
  return at < 0 ? [...queue, execution.executionId] : [...queue.slice(0, at), execution.executionId, ...queue.slice(at)];
}

function listed(list: readonly string[], id: string, wanted: boolean): readonly string[] {
  const has = list.includes(id);
  if (has === wanted) return list;
  return wanted ? [...list, id] : without(list, id);
}

/** Puts an execution and keeps the org's lists, the user's open list and the to-do lists in step with it. */
function put(state: SupervisorState, next: Execution): SupervisorState {
  const before = state.executions.get(next.executionId);
  const slots = slotsOf(state, next.orgId);
  let { advancing, waiting, queue } = slots;
  if (before?.status !== next.status) {
    const id = next.executionId;
    if (before?.status === 'advancing') advancing = without(advancing, id);
    if (before?.status === 'waiting') waiting = without(waiting, id);
    if (before?.status === 'queued') queue = without(queue, id);
    if (next.status === 'advancing') advancing = [...advancing, id];
    if (next.status === 'waiting') waiting = [...waiting, id];
    if (next.status === 'queued') queue = enqueue(state, queue, next);
  }
  const orgs =
    advancing === slots.advancing && waiting === slots.waiting && queue === slots.queue
      ? state.orgs
      : state.orgs.set(next.orgId, { advancing, waiting, queue });

  let users = state.users;
  const key = userKey(next);
  const beforeKey = before ? userKey(before) : undefined;
  if (beforeKey !== undefined && beforeKey !== key) {
    users = users.set(beforeKey, without(users.get(beforeKey) ?? [], next.executionId));
  }
  if (key !== undefined) {
    const open = users.get(key) ?? [];
    const after = listed(open, next.executionId, isOpen(next));
    if (after !== open) users = users.set(key, after);
  }

  const unsent = Boolean(next.cancel && !next.cancel.sent && next.status !== 'ended');
  return {
    ...state,
    executions: state.executions.set(next.executionId, next),
    orgs,
    users,
    unsentCancels: listed(state.unsentCancels, next.executionId, unsent),
    undecided: listed(state.undecided, next.executionId, next.status === 'pending'),
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

/** An execution first heard of from a later fact (facts can reach the store out of order). */
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
    case 'HILResponse':
      return onAnswer(state, fact);
    case 'ExecutionResult':
      return onResult(state, fact);
    case 'ExecutionEvent':
      return onEvent(state, fact);
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
  const known = state.executions.get(executionId);
  const trigger: IntentTrigger = { triggerId: fact.triggerId, triggerType: fact.triggerType, payload: fact.payload };
  if (known?.trigger) return state;
  if (known) {
    // known from its queued event or a later fact stored before the trigger: only the trigger was missing
    return put(state, {
      ...known,
      correlation: correlationOf(fact.correlation, executionId, fact.triggerId),
      trigger,
      requestedAt: fact.ts,
      queuedBy: fact.id,
    });
  }
  return put(state, {
    executionId,
    orgId: fact.orgId,
    status: 'pending',
    correlation: correlationOf(fact.correlation, executionId, fact.triggerId),
    trigger,
    requestedAt: fact.ts,
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
    status: target.status === 'queued' || target.status === 'pending' ? 'withdrawn' : target.status,
    cancel: {
      reason: fact.payload.reason ?? 'requested',
      trigger: { triggerId: fact.triggerId, triggerType: 'cancel_execution', payload: fact.payload },
      causationId: fact.id,
      sent: false,
      ...(fact.correlation.conversationId
        ? {
            requestedBy: {
              conversationId: fact.correlation.conversationId,
              ...(fact.correlation.userId ? { userId: fact.correlation.userId } : {}),
            },
          }
        : {}),
    },
  });
}

function onStart(state: SupervisorState, fact: RunIntent): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (!known) {
    return put(state, {
      ...stub(fact, fact.executionId, 'advancing'),
      ...(fact.trigger.triggerType === 'create_graph' ? { trigger: fact.trigger } : {}),
    });
  }
  return known.status === 'queued' || known.status === 'pending' ? put(state, { ...known, status: 'advancing' }) : state;
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
  // A cancel that went out for an execution that never started means it was withdrawn (or refused).
  return put(state, {
    ...known,
    status: known.status === 'queued' || known.status === 'pending' ? 'withdrawn' : known.status,
    cancel: { ...cancel, sent: true },
  });
}

function onPrompt(state: SupervisorState, fact: HILPrompt): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (known?.status === 'ended' || known?.status === 'withdrawn') return state;
  // The same prompt again (a redelivery, or an answer the worker ignored): waiting, first deadline kept.
  if (known?.prompt?.promptId === fact.promptId) {
    return known.status === 'waiting' ? state : put(state, { ...known, status: 'waiting' });
  }
  // A prompt proves the execution started, even when its start has not reached the store yet.
  return put(state, {
    ...(known ?? stub(fact, fact.executionId, 'waiting')),
    status: 'waiting',
    prompt: { promptId: fact.promptId, askedAt: fact.ts, factId: fact.id },
  });
}

function onAnswer(state: SupervisorState, fact: HILResponse): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (known?.status !== 'waiting' || known.orgId !== fact.orgId) return state;
  if (known.prompt?.promptId !== fact.promptId) return state; // stale, or a prompt not seen yet
  // the worker will not advance another user's answer (ARCHITECTURE §7): it takes no slot
  const owner = known.correlation.userId;
  if (owner !== undefined && fact.correlation.userId !== undefined && fact.correlation.userId !== owner) return state;
  return put(state, { ...known, status: 'advancing' });
}

function onResult(state: SupervisorState, fact: ExecutionResult): SupervisorState {
  const known = state.executions.get(fact.executionId);
  if (known?.status === 'ended') return state;
  return put(state, { ...(known ?? stub(fact, fact.executionId, 'ended')), status: 'ended' });
}

function onEvent(state: SupervisorState, fact: ExecutionEvent): SupervisorState {
  switch (fact.event) {
    case 'queued': {
      if (fact.ticket === undefined) return state;
      const nextTicket = Math.max(state.nextTicket, fact.ticket + 1);
      const known = state.executions.get(fact.executionId);
      const ticketed = nextTicket === state.nextTicket ? state : { ...state, nextTicket };
      if (known && known.status !== 'pending') {
        return known.ticket === undefined ? put(ticketed, { ...known, ticket: fact.ticket }) : ticketed;
      }
      return put(ticketed, { ...(known ?? stub(fact, fact.executionId, 'queued')), status: 'queued', ticket: fact.ticket });
    }
    case 'step_deferred': {
      // the worker put the run off until a time: it holds no slot meanwhile
      const known = state.executions.get(fact.executionId);
      if (known?.status !== 'advancing' || known.orgId !== fact.orgId) return state;
      return put(state, { ...known, status: 'deferred' });
    }
    case 'step_resumed': {
      // the worker resumed it on its own: it takes its slot back without asking, as an answer does
      const known = state.executions.get(fact.executionId);
      if (known?.status !== 'deferred' || known.orgId !== fact.orgId) return state;
      return put(state, { ...known, status: 'advancing' });
    }
    case 'prompt_reminder': {
      const known = state.executions.get(fact.executionId);
      if (!known || !fact.promptId || known.remindedPromptId === fact.promptId) return state;
      return put(state, { ...known, remindedPromptId: fact.promptId });
    }
    // the RunIntent start and cancel carry these decisions; the worker's events are not the supervisor's
    case 'started':
    case 'refused':
    case 'phase':
    case 'progress':
    case 'node_enter':
    case 'node_exit':
    case 'answer_ignored':
    case 'analyst_fallback':
    case 'tool_called':
    case 'tool_succeeded':
    case 'tool_failed':
    case 'approval_requested':
    case 'approval_granted':
    case 'approval_rejected':
    case 'budget_exceeded':
      return state;
    default: {
      const unhandled: never = fact.event;
      throw new Error(`supervisor cannot fold the event ${JSON.stringify(unhandled)}`);
    }
  }
}

// ---- decide -----------------------------------------------------------------------------------

type Facts = Omit<Decision, 'state'>;
const none = (): Facts => ({ intents: [], events: [], messages: [] });

/** Collects a decision: every fact is folded into the state as it is decided. */
class Deciding {
  readonly intents: RunIntent[] = [];
  readonly events: ExecutionEvent[] = [];
  readonly messages: UIMessage[] = [];

  constructor(
    public state: SupervisorState,
    readonly config: SupervisorConfig,
    readonly now: Date,
  ) {}

  intent(intent: RunIntent): void {
    this.state = evolve(this.state, intent);
    this.intents.push(intent);
  }

  event(event: ExecutionEvent): void {
    this.state = evolve(this.state, event);
    this.events.push(event);
  }

  message(message: UIMessage | undefined): void {
    if (message) this.messages.push(message);
  }

  done(): Decision {
    return { state: this.state, intents: this.intents, events: this.events, messages: this.messages };
  }
}

const context = (execution: Execution, causationId: string | undefined) => ({
  orgId: execution.orgId,
  correlation: execution.correlation,
  ...(causationId ? { causationId } : {}),
});

function intent(
  execution: Execution,
  now: Date,
  id: string,
  causationId: string | undefined,
  body: FactBody<'RunIntent'>,
): RunIntent {
  return makeFact('RunIntent', context(execution, causationId), body, {
    ids: { newId: () => id },
    clock: { now: () => now },
  });
}

function event(
  execution: Execution,
  now: Date,
  id: string,
  causationId: string | undefined,
  body: Omit<FactBody<'ExecutionEvent'>, 'executionId'>,
): ExecutionEvent {
  return makeFact(
    'ExecutionEvent',
    context(execution, causationId),
    { executionId: execution.executionId, ...body },
    { ids: { newId: () => id }, clock: { now: () => now } },
  );
}

/** An assistant line in the execution's conversation; none when it has no conversation or user. */
function message(execution: Execution, now: Date, id: string, causationId: string | undefined, content: string) {
  const { conversationId, userId } = execution.correlation;
  if (!conversationId || !userId) return undefined;
  return makeFact(
    'UIMessage',
    context(execution, causationId),
    { conversationId, userId, role: 'assistant', content },
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
  // an execution with no conversation (an employee's run) ends where it was cancelled from, for whoever cancelled it
  const told =
    execution.correlation.conversationId === undefined && cancel.requestedBy
      ? { ...execution, correlation: correlationOf({ ...execution.correlation, ...cancel.requestedBy }, execution.executionId) }
      : execution;
  return intent(told, now, derivedId(execution.executionId, 'cancel'), cancel.causationId, {
    executionId: execution.executionId,
    employeeId: employeeOf(execution),
    action: 'cancel',
    trigger: cancel.trigger,
    reason: cancel.reason,
  });
}

/**
 * A cancel the supervisor decides itself (a prompt past its deadline, a refused request). No trigger
 * fact exists for it: the intent names one the supervisor makes up, derived from the execution, with
 * the reason in its payload.
 */
function ownCancelIntent(
  execution: Execution,
  now: Date,
  reason: 'timeout' | 'open_limit',
  causationId: string | undefined,
): RunIntent {
  const { executionId } = execution;
  const purpose = reason === 'timeout' ? 'timeout' : 'refuse';
  return intent(execution, now, derivedId(executionId, purpose), causationId, {
    executionId,
    employeeId: employeeOf(execution),
    action: 'cancel',
    trigger: {
      triggerId: derivedId(executionId, `${purpose}-trigger`),
      triggerType: 'cancel_execution',
      payload: { executionId, reason },
    },
    reason,
  });
}

/** "3 h", "12 min", "2 days": how long ago or how long until, for people. */
export function humanDuration(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  if (minutes < 1) return 'less than a minute';
  if (minutes < 90) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} days`;
}

/** How the refusal reads: the limit, the oldest open executions, and how to cancel them. */
export function refusalText(open: readonly Execution[], config: SupervisorConfig, now: Date): string {
  const oldest = [...open]
    .sort((a, b) => (a.requestedAt ?? '').localeCompare(b.requestedAt ?? '') || a.executionId.localeCompare(b.executionId))
    .slice(0, 3);
  const lines = oldest.map((e) => {
    const name = e.trigger?.triggerType === 'create_graph' && 'name' in e.trigger.payload ? e.trigger.payload.name : undefined;
    const state = e.status === 'waiting' ? 'waiting for your answer' : e.status === 'queued' ? 'queued' : 'in progress';
    const age = e.requestedAt ? `, opened ${humanDuration(now.getTime() - Date.parse(e.requestedAt))} ago` : '';
    const conversation = e.correlation.conversationId ? ` in conversation ${e.correlation.conversationId}` : '';
    return `- ${e.executionId}${name ? ` ("${name}")` : ''}${conversation}: ${state}${age}`;
  });
  return [
    `You already have ${open.length} open conversations, the most one person may have at a time (${config.maxOpenPerUser}), so this request was not started.`,
    `Your oldest open ones:`,
    ...lines,
    `Finish one, or cancel it — the Cancel button beside it, a {"type":"cancel","conversationId","executionId"} frame on the chat socket, or POST /v1/executions/<executionId>/cancel — and then ask again.`,
  ].join('\n');
}

/** A new request, once its user's open executions are counted: refused, started at once, or queued. */
function decideRequest(d: Deciding, executionId: string, causationId: string | undefined): void {
  const execution = d.state.executions.get(executionId);
  if (execution?.status !== 'pending') return;
  const cause = causationId ?? execution.queuedBy;
  // the open limit is a person's: a registered employee's run is admitted on the org's slots alone
  const userId = execution.trigger?.triggerType === 'employee_trigger' ? undefined : execution.correlation.userId;
  const open = userId === undefined ? [] : openOf(d.state, execution.orgId, userId);
  if (open.length >= d.config.maxOpenPerUser) {
    const openExecutions = open.flatMap((id) => d.state.executions.get(id) ?? []);
    d.intent(ownCancelIntent(execution, d.now, 'open_limit', cause));
    d.event(
      event(execution, d.now, derivedId(executionId, 'refused'), cause, {
        event: 'refused',
        detail: `open_limit: ${open.length} open executions, at most ${d.config.maxOpenPerUser} per user`,
      }),
    );
    d.message(
      message(execution, d.now, derivedId(executionId, 'refusal-message'), cause, refusalText(openExecutions, d.config, d.now)),
    );
    return;
  }
  const { advancing, queue } = slotsOf(d.state, execution.orgId);
  if (queue.length === 0 && advancing.length < d.config.maxRunningPerOrg) {
    start(d, execution, cause);
    return;
  }
  d.event(
    event(execution, d.now, derivedId(executionId, 'queued'), cause, {
      event: 'queued',
      phase: 'queued',
      position: queue.length + 1,
      ticket: d.state.nextTicket,
      detail: `${advancing.length} of ${d.config.maxRunningPerOrg} slots of the organisation busy`,
    }),
  );
}

function start(d: Deciding, execution: Execution, causationId: string | undefined): void {
  d.intent(startIntent(execution, d.now, causationId));
  d.event(
    event(execution, d.now, derivedId(execution.executionId, 'started'), causationId, { event: 'started', phase: 'starting' }),
  );
}

/** Starts the oldest queued executions of an org while fewer than maxRunningPerOrg are being advanced. */
function admit(d: Deciding, orgId: string, causationId?: string): void {
  for (;;) {
    const { advancing, queue } = slotsOf(d.state, orgId);
    if (advancing.length >= d.config.maxRunningPerOrg) return;
    // one whose trigger never reached the store cannot start: the ones behind it do
    const head = queue.map((id) => d.state.executions.get(id)).find((e) => e?.trigger !== undefined);
    if (!head) return;
    start(d, head, causationId ?? head.queuedBy);
  }
}

/** A prompt's reminder and deadline, once each. */
function chase(d: Deciding, execution: Execution): void {
  const { prompt } = execution;
  if (!prompt || execution.cancel || execution.status !== 'waiting') return;
  const deadline = Date.parse(prompt.askedAt) + d.config.promptTimeoutMs;
  const now = d.now.getTime();
  if (now >= deadline) {
    d.intent(ownCancelIntent(execution, d.now, 'timeout', prompt.factId));
    return;
  }
  if (now < deadline - d.config.promptReminderMs || execution.remindedPromptId === prompt.promptId) return;
  const at = new Date(deadline).toISOString();
  const key = `${execution.executionId}:${prompt.promptId}`;
  d.event(
    event(execution, d.now, derivedId(key, 'prompt-reminder'), prompt.factId, {
      event: 'prompt_reminder',
      promptId: prompt.promptId,
      deadline: at,
      detail: `cancelled at ${at} unless answered`,
    }),
  );
  d.message(
    message(
      execution,
      d.now,
      derivedId(key, 'reminder-message'),
      prompt.factId,
      `This conversation is still waiting for your answer (execution ${execution.executionId}). Unless you answer it, it will be cancelled in ${humanDuration(deadline - now)}, at ${at}. You can also cancel it yourself.`,
    ),
  );
}

/** Brings the state to what it should be now: cancels sent, requests decided, free slots filled, prompts chased. */
function reconcile(d: Deciding): void {
  for (const id of d.state.unsentCancels) {
    const execution = d.state.executions.get(id);
    if (execution?.cancel && !execution.cancel.sent) d.intent(requestedCancelIntent(execution, d.now));
  }
  for (const id of d.state.undecided) decideRequest(d, id, undefined);
  for (const [orgId] of d.state.orgs.entries()) admit(d, orgId);
  for (const [, slots] of d.state.orgs.entries()) {
    for (const id of slots.waiting) {
      const execution = d.state.executions.get(id);
      if (execution) chase(d, execution);
    }
  }
}

/**
 * Answers one input: the state after it and the facts to publish (each already folded into that
 * state). `now` is the time of the decision: the facts' ts and the clock of the deadlines.
 */
export function decide(state: SupervisorState, input: SupervisorInput, config: SupervisorConfig, now: Date): Decision {
  // A HILPrompt has a `kind` too: a fact is told apart by its `type`.
  if (!('type' in input)) {
    switch (input.kind) {
      case 'tick': {
        const d = new Deciding(state, config, now);
        reconcile(d);
        return d.done();
      }
      default: {
        const unhandled: never = input;
        throw new Error(`unknown supervisor input ${JSON.stringify(unhandled)}`);
      }
    }
  }
  const next = evolve(state, input);
  if (next === state) return { state, ...none() };
  const d = new Deciding(next, config, now);
  switch (input.type) {
    case 'TriggerCreated': {
      if (input.triggerType !== 'cancel_execution') {
        decideRequest(d, executionIdOf(input.triggerId), input.id);
        admit(d, input.orgId, input.id);
        break;
      }
      const target = d.state.executions.get(input.payload.executionId);
      if (target?.cancel && !target.cancel.sent && target.orgId === input.orgId) d.intent(requestedCancelIntent(target, now));
      break;
    }
    case 'ExecutionResult':
    case 'HILPrompt':
      // a slot may have freed: the org's queue moves
      admit(d, d.state.executions.get(input.executionId)?.orgId ?? input.orgId, input.id);
      break;
    case 'ExecutionEvent':
      // a deferred run freed its slot; a resumed one took its slot back without asking; the
      // supervisor's own events were decided before
      if (input.event === 'step_deferred') admit(d, input.orgId, input.id);
      break;
    // an answer takes its slot without asking (answers first); the supervisor's own facts were decided before
    case 'HILResponse':
    case 'RunIntent':
      break;
    default: {
      const unhandled: never = input;
      throw new Error(`unknown supervisor input ${JSON.stringify(unhandled)}`);
    }
  }
  return d.done();
}

/** Where an execution stands, for logs and tests. */
export const statusOf = (state: SupervisorState, executionId: string): ExecutionStatus | undefined =>
  state.executions.get(executionId)?.status;

/** An execution's place in its org's queue (1 = next), or undefined when it is not queued. */
export function positionOf(state: SupervisorState, executionId: string): number | undefined {
  const execution = state.executions.get(executionId);
  if (execution?.status !== 'queued') return undefined;
  const at = slotsOf(state, execution.orgId).queue.indexOf(executionId);
  return at < 0 ? undefined : at + 1;
}
