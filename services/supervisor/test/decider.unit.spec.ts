import { makeFact } from '@hireloop/fact-stream';
import { derivedId } from '@hireloop/platform';
import type { ExecutionEvent, ExecutionResult, HILPrompt, HILResponse, RunIntent, TriggerCreated } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import {
  type Decision,
  decide,
  evolve,
  executionIdOf,
  initialState,
  positionOf,
  type SupervisorConfig,
  type SupervisorFact,
  type SupervisorInput,
  type SupervisorState,
  statusOf,
} from '../src/decider';

// ---- fixtures ---------------------------------------------------------------------------------

const config: SupervisorConfig = { maxRunningPerOrg: 2, maxOpenPerUser: 3, promptTimeoutMs: 60_000, promptReminderMs: 10_000 };
const T0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const clockAt = (ms: number) => ({ now: () => at(ms) });

const triggerIdOf = (name: string) => derivedId(name, 'test-trigger');
/** The execution a named test trigger creates. */
const exec = (name: string) => executionIdOf(triggerIdOf(name));

function createGraph(name: string, orgId = 'acme', ms = 0, userId = `user-${name}`): TriggerCreated {
  const triggerId = triggerIdOf(name);
  return makeFact(
    'TriggerCreated',
    { orgId, correlation: { conversationId: `conv-${name}`, userId, triggerId } },
    { triggerId, triggerType: 'create_graph', payload: { jobDescription: `the job of ${name}`, name }, source: 'chat' },
    { ids: { newId: () => triggerId }, clock: clockAt(ms) },
  );
}

function cancelOf(executionId: string, orgId = 'acme', tag = 'cancel'): TriggerCreated {
  const triggerId = derivedId(`${executionId}:${tag}`, 'test-cancel');
  return makeFact(
    'TriggerCreated',
    { orgId, correlation: { triggerId, executionId } },
    { triggerId, triggerType: 'cancel_execution', payload: { executionId }, source: 'http' },
    { ids: { newId: () => triggerId }, clock: clockAt(0) },
  );
}

function promptOf(executionId: string, promptId: string, ms: number, orgId = 'acme'): HILPrompt {
  return makeFact(
    'HILPrompt',
    { orgId, correlation: { executionId } },
    {
      executionId,
      promptId,
      kind: 'questions',
      messages: ['Which Slack channel?'],
      inputSchema: { type: 'object' },
      questions: [{ id: 'channel', text: 'Which Slack channel?' }],
    },
    { ids: { newId: () => derivedId(`${executionId}:${promptId}:${ms}`, 'test-prompt') }, clock: clockAt(ms) },
  );
}

function answerOf(executionId: string, promptId: string, userId: string, orgId = 'acme', tag = 'answer'): HILResponse {
  return makeFact(
    'HILResponse',
    { orgId, correlation: { executionId, userId } },
    { executionId, promptId, kind: 'questions', payload: { answers: { channel: '#support' } } },
    { ids: { newId: () => derivedId(`${executionId}:${promptId}:${tag}`, 'test-answer') }, clock: clockAt(0) },
  );
}

function resultOf(executionId: string, orgId = 'acme', status: ExecutionResult['status'] = 'completed'): ExecutionResult {
  return makeFact(
    'ExecutionResult',
    { orgId, correlation: { executionId } },
    { executionId, status },
    { ids: { newId: () => derivedId(executionId, 'test-result') }, clock: clockAt(0) },
  );
}

/** The worker's word that it put a run's step off until the end of the org's quiet hours, or resumed it. */
function stepEvent(
  executionId: string,
  event: 'step_deferred' | 'step_resumed',
  orgId = 'acme',
  tag: string = event,
): ExecutionEvent {
  return makeFact(
    'ExecutionEvent',
    { orgId, correlation: { executionId } },
    { executionId, event, stepId: 'refund', detail: 'quiet hours until 07:00' },
    { ids: { newId: () => derivedId(`${executionId}:${tag}`, 'test-step') }, clock: clockAt(0) },
  );
}

const tick: SupervisorInput = { kind: 'tick' };

// ---- given / when / then ----------------------------------------------------------------------

interface Scenario {
  state: SupervisorState;
  /** every fact the supervisor saw or published, in order: what the event store would hold */
  history: SupervisorFact[];
}

/** Given these inputs, handled live (decided, intents published), in order. */
function given(...inputs: SupervisorInput[]): Scenario {
  let state = initialState();
  const history: SupervisorFact[] = [];
  for (const input of inputs) {
    const decision = decide(state, input, config, at(0));
    state = decision.state;
    if ('type' in input) history.push(input);
    history.push(...decision.intents, ...decision.events);
  }
  return { state, history };
}

function when(scenario: Scenario, input: SupervisorInput, now = at(0), cfg = config): Decision {
  return decide(scenario.state, input, cfg, now);
}

const eventsOf = (d: Decision, kind: ExecutionEvent['event']) => d.events.filter((e) => e.event === kind);
const starts = (d: Decision) => d.intents.filter((i) => i.action === 'start').map((i) => i.executionId);
const cancels = (d: Decision) => d.intents.filter((i) => i.action === 'cancel');

/** What a state means, independent of how its maps are laid out. */
function meaning(state: SupervisorState) {
  const executions = [...state.executions.entries()].map(([, e]) => e).sort((a, b) => a.executionId.localeCompare(b.executionId));
  const orgs = [...state.orgs.entries()]
    .filter(([, s]) => s.advancing.length + s.waiting.length + s.queue.length > 0)
    .map(([org, s]) => [org, { advancing: [...s.advancing].sort(), waiting: [...s.waiting].sort(), queue: s.queue }] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  const users = [...state.users.entries()]
    .filter(([, open]) => open.length > 0)
    .map(([user, open]) => [user, [...open].sort()] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return {
    executions,
    orgs,
    users,
    unsentCancels: [...state.unsentCancels].sort(),
    undecided: state.undecided,
    nextTicket: state.nextTicket,
  };
}

const rebuild = (facts: readonly SupervisorFact[]) => facts.reduce<SupervisorState>(evolve, initialState());

// ---- admission --------------------------------------------------------------------------------

describe('supervisor: admission', () => {
  it('starts a create_graph trigger at once when the org has a free slot', () => {
    const trigger = createGraph('a1');
    const decision = when(given(), trigger, at(5));
    expect(decision.intents).toEqual([
      {
        type: 'RunIntent',
        id: derivedId(exec('a1'), 'start'),
        orgId: 'acme',
        ts: at(5).toISOString(),
        correlation: { conversationId: 'conv-a1', userId: 'user-a1', executionId: exec('a1'), triggerId: trigger.triggerId },
        causationId: trigger.id,
        executionId: exec('a1'),
        employeeId: 'graph-creator',
        action: 'start',
        trigger: { triggerId: trigger.triggerId, triggerType: 'create_graph', payload: trigger.payload },
      } satisfies RunIntent,
    ]);
    expect(statusOf(decision.state, exec('a1'))).toBe('advancing');
  });

  it('runs at most maxRunningPerOrg executions per org and queues the rest in arrival order', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), createGraph('a4'));
    const decision = when(scenario, createGraph('a5'));
    expect(decision.intents).toEqual([]);
    expect(decision.state.orgs.get('acme')).toEqual({
      advancing: [exec('a1'), exec('a2')],
      waiting: [],
      queue: [exec('a3'), exec('a4'), exec('a5')],
    });
  });

  it('counts slots per org: another org starts while the first is full', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'));
    expect(starts(when(scenario, createGraph('b1', 'globex')))).toEqual([exec('b1')]);
  });

  it('starts the oldest queued execution of the org when an ExecutionResult frees a slot, dropping none', () => {
    let scenario = given(...['a1', 'a2', 'a3', 'a4', 'a5'].map((n) => createGraph(n)));
    const started: string[] = [];
    for (const done of ['a1', 'a2', 'a3', 'a4', 'a5']) {
      const decision = when(scenario, resultOf(exec(done)));
      expect(decision.intents.every((i) => i.causationId === resultOf(exec(done)).id)).toBe(true);
      started.push(...starts(decision));
      scenario = { state: decision.state, history: [] };
    }
    expect(started).toEqual([exec('a3'), exec('a4'), exec('a5')]);
    expect(scenario.state.orgs.get('acme')).toEqual({ advancing: [], waiting: [], queue: [] });
  });

  it('frees a slot of the execution’s own org only', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), createGraph('b1', 'globex'));
    expect(starts(when(scenario, resultOf(exec('b1'), 'globex')))).toEqual([]);
  });
});

// ---- idempotency ------------------------------------------------------------------------------

describe('supervisor: every fact is handled idempotently', () => {
  it('does nothing for a create_graph trigger already admitted', () => {
    const scenario = given(createGraph('a1'));
    const decision = when(scenario, createGraph('a1'));
    expect(decision.intents).toEqual([]);
    expect(decision.state).toBe(scenario.state);
  });

  it('does nothing for a create_graph trigger already queued', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'));
    const decision = when(scenario, createGraph('a3'));
    expect(decision.intents).toEqual([]);
    expect(decision.state.orgs.get('acme')?.queue).toEqual([exec('a3')]);
  });

  it('never starts an ended execution again when its trigger is redelivered', () => {
    const scenario = given(createGraph('a1'), resultOf(exec('a1')));
    const decision = when(scenario, createGraph('a1'));
    expect(decision.intents).toEqual([]);
    expect(statusOf(decision.state, exec('a1'))).toBe('ended');
  });

  it('starts one queued execution per freed slot, not one per copy of the result', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), createGraph('a4'), resultOf(exec('a1')));
    const decision = when(scenario, resultOf(exec('a1')));
    expect(decision.intents).toEqual([]);
    expect(decision.state.orgs.get('acme')?.queue).toEqual([exec('a4')]);
  });

  it('decides the same intent (same id) for the same input, so a repeat is dropped downstream', () => {
    const first = when(given(), createGraph('a1'), at(1));
    const again = when(given(), createGraph('a1'), at(2));
    expect(again.intents.map((i) => i.id)).toEqual(first.intents.map((i) => i.id));
  });

  it('never changes the state it was given', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'));
    const before = meaning(scenario.state);
    when(scenario, resultOf(exec('a1')));
    when(scenario, cancelOf(exec('a3')));
    expect(meaning(scenario.state)).toEqual(before);
  });
});

// ---- cancellation -----------------------------------------------------------------------------

describe('supervisor: cancel_execution', () => {
  it('turns a cancel of a running execution into RunIntent cancel (reason requested), once', () => {
    const scenario = given(createGraph('a1'));
    const cancel = cancelOf(exec('a1'));
    const decision = when(scenario, cancel);
    expect(cancels(decision)).toEqual([
      expect.objectContaining({
        id: derivedId(exec('a1'), 'cancel'),
        executionId: exec('a1'),
        action: 'cancel',
        reason: 'requested',
        causationId: cancel.id,
        correlation: expect.objectContaining({ conversationId: 'conv-a1', userId: 'user-a1', executionId: exec('a1') }),
        trigger: { triggerId: cancel.triggerId, triggerType: 'cancel_execution', payload: { executionId: exec('a1') } },
      }),
    ]);
    expect(statusOf(decision.state, exec('a1'))).toBe('advancing'); // the slot is held until the worker's result
    const after = { state: decision.state, history: [] };
    expect(when(after, cancel).intents).toEqual([]);
    expect(when(after, cancelOf(exec('a1'), 'acme', 'double-click')).intents).toEqual([]);
  });

  it('withdraws a queued execution: it leaves the queue, never starts, and the worker is told to end it', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), createGraph('a4'));
    const decision = when(scenario, cancelOf(exec('a3')));
    expect(cancels(decision).map((i) => [i.executionId, i.reason])).toEqual([[exec('a3'), 'requested']]);
    expect(starts(decision)).toEqual([]);
    expect(statusOf(decision.state, exec('a3'))).toBe('withdrawn');
    expect(decision.state.orgs.get('acme')).toEqual({ advancing: [exec('a1'), exec('a2')], waiting: [], queue: [exec('a4')] });

    const freed = decide(decision.state, resultOf(exec('a1')), config, at(0));
    expect(starts(freed)).toEqual([exec('a4')]);
    // the worker's 'cancelled' result for the withdrawn execution frees no slot it never held
    const ended = decide(freed.state, resultOf(exec('a3'), 'acme', 'cancelled'), config, at(0));
    expect(ended.intents).toEqual([]);
    expect(ended.state.orgs.get('acme')?.advancing).toEqual([exec('a2'), exec('a4')]);
  });

  it('ignores a cancel of an unknown execution', () => {
    const decision = when(given(createGraph('a1')), cancelOf(exec('nobody')));
    expect(decision.intents).toEqual([]);
  });

  it('ignores a cancel of an execution that already ended', () => {
    const decision = when(given(createGraph('a1'), resultOf(exec('a1'))), cancelOf(exec('a1')));
    expect(decision.intents).toEqual([]);
  });

  it("ignores a cancel from another org: a tenant cannot cancel another tenant's execution", () => {
    const decision = when(given(createGraph('a1')), cancelOf(exec('a1'), 'globex'));
    expect(decision.intents).toEqual([]);
    expect(decision.state.executions.get(exec('a1'))?.cancel).toBeUndefined();
  });
});

// ---- prompt deadlines -------------------------------------------------------------------------

describe('supervisor: prompt deadlines', () => {
  const asked = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000));

  it('sets the deadline at prompt ts + promptTimeoutMs and does nothing before it', () => {
    expect(when(asked, tick, at(1_000 + config.promptTimeoutMs - 1)).intents).toEqual([]);
  });

  it('cancels an execution whose prompt waited past its deadline, with reason timeout, once', () => {
    const late = at(1_000 + config.promptTimeoutMs);
    const decision = when(asked, tick, late);
    const prompt = promptOf(exec('a1'), 'p1', 1_000);
    expect(decision.intents).toEqual([
      expect.objectContaining({
        id: derivedId(exec('a1'), 'timeout'),
        executionId: exec('a1'),
        action: 'cancel',
        reason: 'timeout',
        causationId: prompt.id,
        trigger: {
          triggerId: derivedId(exec('a1'), 'timeout-trigger'),
          triggerType: 'cancel_execution',
          payload: { executionId: exec('a1'), reason: 'timeout' },
        },
      }),
    ]);
    expect(decide(decision.state, tick, config, at(10 * config.promptTimeoutMs)).intents).toEqual([]);
  });

  it('keeps the first deadline when the same prompt is published again', () => {
    const scenario = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), promptOf(exec('a1'), 'p1', 50_000));
    expect(cancels(when(scenario, tick, at(1_000 + config.promptTimeoutMs)))).toHaveLength(1);
  });

  it('moves the deadline when the next prompt is asked', () => {
    const scenario = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), promptOf(exec('a1'), 'p2', 50_000));
    expect(when(scenario, tick, at(1_000 + config.promptTimeoutMs)).intents).toEqual([]);
    expect(cancels(when(scenario, tick, at(50_000 + config.promptTimeoutMs)))).toHaveLength(1);
  });

  it('does not time out an execution that ended, or one already cancelled on request', () => {
    const late = at(1_000 + config.promptTimeoutMs);
    expect(when(given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), resultOf(exec('a1'))), tick, late).intents).toEqual(
      [],
    );
    const cancelled = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), cancelOf(exec('a1')));
    expect(when(cancelled, tick, late).intents).toEqual([]);
  });

  it('a tick with nothing due decides nothing', () => {
    expect(when(given(createGraph('a1'), createGraph('a2'), createGraph('a3')), tick).intents).toEqual([]);
  });
});

// ---- rebuild ----------------------------------------------------------------------------------

describe('supervisor: rebuild folds the stored facts with the same evolve', () => {
  const live = given(
    createGraph('a1'),
    createGraph('a2'),
    createGraph('a3'),
    createGraph('a4'),
    promptOf(exec('a1'), 'p1', 1_000),
    resultOf(exec('a2')),
    cancelOf(exec('a4')),
    createGraph('b1', 'globex'),
    createGraph('a5'),
  );

  it('reproduces the live state from the facts and intents the event store holds', () => {
    expect(meaning(rebuild(live.history))).toEqual(meaning(live.state));
  });

  it('takes a RunIntent as input during rebuild: folded, nothing decided', () => {
    const start = live.history.find((f): f is RunIntent => f.type === 'RunIntent' && f.action === 'start');
    expect(start).toBeDefined();
    if (!start) return;
    const decision = when(given(createGraph('z1')), start);
    expect(decision.intents).toEqual([]);
    expect(statusOf(decision.state, start.executionId)).toBe('advancing');
  });

  it('reconciles to nothing when the store holds every intent', () => {
    expect(decide(rebuild(live.history), tick, config, at(0)).intents).toEqual([]);
  });

  it('does not start an already started execution again, and starts a queued one when a slot frees', () => {
    const state = rebuild(live.history);
    // a1 waits for its answer (no slot): a3 took a1's slot when a1's prompt went out, a4 took a2's
    expect(state.orgs.get('acme')).toEqual({ advancing: [exec('a3'), exec('a4')], waiting: [exec('a1')], queue: [exec('a5')] });
    expect(decide(state, tick, config, at(0)).intents).toEqual([]);
    expect(decide(state, resultOf(exec('a1')), config, at(0)).intents).toEqual([]); // a1 held no slot
    const decision = decide(state, resultOf(exec('a3')), config, at(0));
    expect(starts(decision)).toEqual([exec('a5')]);
    expect(decision.state.orgs.get('acme')).toEqual({ advancing: [exec('a4'), exec('a5')], waiting: [exec('a1')], queue: [] });
  });

  it('starts, with the same intent id, a queued trigger whose start never reached the store', () => {
    const facts = live.history.filter((f) => !(f.type === 'RunIntent' && f.executionId === exec('a3')));
    const decision = decide(rebuild(facts), tick, config, at(0));
    expect(decision.intents.map((i) => i.id)).toEqual([derivedId(exec('a3'), 'start')]);
  });

  it('sends a cancel that was requested but never sent', () => {
    const facts = live.history.filter((f) => !(f.type === 'RunIntent' && f.action === 'cancel'));
    const decision = decide(rebuild(facts), tick, config, at(0));
    expect(decision.intents.map((i) => [i.id, i.action])).toEqual([[derivedId(exec('a4'), 'cancel'), 'cancel']]);
  });

  it('admits queued executions in arrival order when the limit was raised', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), createGraph('a4'));
    const decision = decide(rebuild(scenario.history), tick, { ...config, maxRunningPerOrg: 3 }, at(0));
    expect(starts(decision)).toEqual([exec('a3')]);
  });

  it('tolerates facts stored out of order: a prompt or result before the start it follows', () => {
    const [trigger, start] = given(createGraph('a1')).history;
    const prompt = promptOf(exec('a1'), 'p1', 1_000);
    if (!trigger || !start) throw new Error('expected a trigger and its start');
    // the result reached the store before the trigger and the start: nothing may run again
    const ended = rebuild([resultOf(exec('a1')), trigger, start]);
    expect(statusOf(ended, exec('a1'))).toBe('ended');
    expect(decide(ended, tick, config, at(0)).intents).toEqual([]);
    // the prompt reached the store before the start: waiting, holding no slot, deadline set
    const asked = rebuild([trigger, prompt, start]);
    expect(asked.orgs.get('acme')).toEqual({ advancing: [], waiting: [exec('a1')], queue: [] });
    expect(cancels(decide(asked, tick, config, at(1_000 + config.promptTimeoutMs)))).toHaveLength(1);
  });
});

// ---- a person thinking is not a worker working ------------------------------------------------

describe('supervisor: a slot counts work, not waiting', () => {
  /** a1 and a2 started and each asked its first prompt: both wait for a person */
  const bothAsked = () =>
    given(createGraph('a1'), createGraph('a2'), promptOf(exec('a1'), 'p1', 1_000), promptOf(exec('a2'), 'p1', 1_000));

  it('frees the slot when the prompt goes out: executions waiting for a person do not delay a new request', () => {
    const decision = when(bothAsked(), createGraph('a3'));
    expect(starts(decision)).toEqual([exec('a3')]);
    expect(decision.state.orgs.get('acme')).toEqual({ advancing: [exec('a3')], waiting: [exec('a1'), exec('a2')], queue: [] });
  });

  it('starts the oldest queued request when a prompt frees a slot', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'));
    const prompt = promptOf(exec('a1'), 'p1', 1_000);
    const decision = when(scenario, prompt);
    expect(starts(decision)).toEqual([exec('a3')]);
    expect(decision.intents[0]?.causationId).toBe(prompt.id);
  });

  it('takes a slot for the answer to the pending prompt, over the limit if need be: answers are never queued', () => {
    const full = given(
      createGraph('a1'),
      promptOf(exec('a1'), 'p1', 1_000),
      createGraph('a2'),
      createGraph('a3'),
      createGraph('a4'),
    );
    expect(full.state.orgs.get('acme')).toMatchObject({ advancing: [exec('a2'), exec('a3')], queue: [exec('a4')] });
    const decision = when(full, answerOf(exec('a1'), 'p1', 'user-a1'));
    expect(decision.intents).toEqual([]);
    expect(statusOf(decision.state, exec('a1'))).toBe('advancing');
    expect(decision.state.orgs.get('acme')).toEqual({
      advancing: [exec('a2'), exec('a3'), exec('a1')],
      waiting: [],
      queue: [exec('a4')],
    });
    // the queued request starts only once the org is back under its limit
    const one = decide(decision.state, resultOf(exec('a2')), config, at(0));
    expect(starts(one)).toEqual([]);
    expect(starts(decide(one.state, resultOf(exec('a3')), config, at(0)))).toEqual([exec('a4')]);
  });

  it('takes no slot for a stale answer, a repeated answer, or an answer by another user', () => {
    const asked = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), promptOf(exec('a1'), 'p2', 2_000));
    expect(when(asked, answerOf(exec('a1'), 'p1', 'user-a1')).state).toBe(asked.state);
    expect(when(asked, answerOf(exec('a1'), 'p2', 'mallory')).state).toBe(asked.state);
    expect(when(asked, answerOf(exec('a1'), 'p2', 'user-a1', 'globex')).state).toBe(asked.state);
    const answered = when(asked, answerOf(exec('a1'), 'p2', 'user-a1'));
    expect(statusOf(answered.state, exec('a1'))).toBe('advancing');
    const again = decide(answered.state, answerOf(exec('a1'), 'p2', 'user-a1', 'acme', 'double-click'), config, at(0));
    expect(again.state).toBe(answered.state);
  });

  it('goes back to waiting, keeping the first deadline, when the worker publishes the same prompt again after ignoring an answer', () => {
    const answered = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), answerOf(exec('a1'), 'p1', 'user-a1'));
    const again = when(answered, promptOf(exec('a1'), 'p1', 30_000));
    expect(statusOf(again.state, exec('a1'))).toBe('waiting');
    expect(again.state.orgs.get('acme')).toMatchObject({ advancing: [], waiting: [exec('a1')] });
    expect(cancels(decide(again.state, tick, config, at(1_000 + config.promptTimeoutMs)))).toHaveLength(1);
  });

  it('does not time out or remind an execution while a worker advances it after an answer', () => {
    const answered = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000), answerOf(exec('a1'), 'p1', 'user-a1'));
    const late = when(answered, tick, at(1_000 + config.promptTimeoutMs));
    expect(late.intents).toEqual([]);
    expect(late.events).toEqual([]);
  });
});

describe('supervisor: a queued request is never silent', () => {
  it('tells a queued request its position (and ticket) at once, and tells it again when it starts', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'));
    const decision = when(scenario, createGraph('a4'), at(7));
    expect(decision.intents).toEqual([]);
    expect(decision.events).toEqual([
      expect.objectContaining({
        type: 'ExecutionEvent',
        id: derivedId(exec('a4'), 'queued'),
        executionId: exec('a4'),
        event: 'queued',
        position: 2,
        ticket: 2,
        causationId: createGraph('a4').id,
        correlation: expect.objectContaining({ conversationId: 'conv-a4', userId: 'user-a4' }),
      }),
    ]);
    expect(positionOf(decision.state, exec('a4'))).toBe(2);

    const freed = decide(decision.state, resultOf(exec('a1')), config, at(9));
    expect(starts(freed)).toEqual([exec('a3')]);
    expect(eventsOf(freed, 'started')).toEqual([
      expect.objectContaining({ id: derivedId(exec('a3'), 'started'), executionId: exec('a3'), event: 'started' }),
    ]);
    expect(positionOf(freed.state, exec('a4'))).toBe(1);
  });

  it('tells a request that starts at once that it started, and never that it was queued', () => {
    const decision = when(given(), createGraph('a1'));
    expect(decision.events.map((e) => e.event)).toEqual(['started']);
  });
});

describe('supervisor: the per-user limit on open executions', () => {
  // maxOpenPerUser is 3; every request of these is zoe's
  const zoe = (name: string, ms = 0) => createGraph(name, 'acme', ms, 'zoe');

  it('refuses the request past the limit: cancel open_limit, a refused event, and a reply naming the oldest open ones and how to cancel', () => {
    const scenario = given(zoe('z1', 1_000), zoe('z2', 2_000), promptOf(exec('z1'), 'p1', 3_000), zoe('z3', 4_000));
    const request = zoe('z4', 5_000);
    const decision = when(scenario, request, at(3_600_000));
    expect(starts(decision)).toEqual([]);
    expect(cancels(decision)).toEqual([
      expect.objectContaining({
        id: derivedId(exec('z4'), 'refuse'),
        executionId: exec('z4'),
        reason: 'open_limit',
        causationId: request.id,
        trigger: expect.objectContaining({ payload: { executionId: exec('z4'), reason: 'open_limit' } }),
      }),
    ]);
    expect(eventsOf(decision, 'refused')).toHaveLength(1);
    expect(decision.messages).toHaveLength(1);
    const reply = decision.messages[0];
    expect(reply).toMatchObject({
      type: 'UIMessage',
      role: 'assistant',
      conversationId: 'conv-z4',
      userId: 'zoe',
      causationId: request.id,
    });
    const text = reply?.content ?? '';
    expect(text).toContain('3 open conversations');
    for (const name of ['z1', 'z2', 'z3']) expect(text).toContain(exec(name));
    expect(text.indexOf(exec('z1'))).toBeLessThan(text.indexOf(exec('z2')));
    expect(text).toContain('waiting for your answer');
    expect(text).toContain('opened 60 min ago');
    expect(text).toContain(`POST /v1/executions/<executionId>/cancel`);
    expect(text).toContain('"type":"cancel"');
    expect(statusOf(decision.state, exec('z4'))).toBe('withdrawn');
    // it never starts, whatever frees later
    expect(starts(decide(decision.state, resultOf(exec('z2')), config, at(0)))).toEqual([]);
  });

  it('counts open executions only: ended and cancelled ones make room again', () => {
    const scenario = given(zoe('z1'), zoe('z2'), zoe('z3'), resultOf(exec('z1')));
    const decision = when(scenario, zoe('z4'));
    expect(cancels(decision)).toEqual([]);
    expect(decision.events.map((e) => e.event)).toEqual(['queued']); // the org is full (z2, z3), zoe is not
    const cancelled = given(zoe('z1'), zoe('z2'), zoe('z3'), cancelOf(exec('z3')));
    expect(cancels(when(cancelled, zoe('z4')))).toEqual([]);
  });

  it('limits each user of an org on their own', () => {
    const scenario = given(zoe('z1'), zoe('z2'), zoe('z3'));
    const decision = when(scenario, createGraph('y1'));
    expect(cancels(decision)).toEqual([]);
    expect(decision.events.map((e) => e.event)).toEqual(['queued']);
  });
});

describe('supervisor: abandoned prompts are reminded, then cancelled', () => {
  const asked = given(createGraph('a1'), promptOf(exec('a1'), 'p1', 1_000));
  const deadline = 1_000 + config.promptTimeoutMs;

  it('reminds once, promptReminderMs before the deadline, with an event and a line in the conversation', () => {
    expect(when(asked, tick, at(deadline - config.promptReminderMs - 1)).events).toEqual([]);
    const reminded = when(asked, tick, at(deadline - config.promptReminderMs));
    expect(reminded.intents).toEqual([]);
    expect(reminded.events).toEqual([
      expect.objectContaining({
        event: 'prompt_reminder',
        executionId: exec('a1'),
        promptId: 'p1',
        deadline: at(deadline).toISOString(),
        causationId: promptOf(exec('a1'), 'p1', 1_000).id,
      }),
    ]);
    expect(reminded.messages).toEqual([
      expect.objectContaining({ role: 'assistant', conversationId: 'conv-a1', userId: 'user-a1' }),
    ]);
    expect(reminded.messages[0]?.content).toContain(at(deadline).toISOString());
    const later = decide(reminded.state, tick, config, at(deadline - 1));
    expect(later.events).toEqual([]);
    expect(later.messages).toEqual([]);
    expect(cancels(decide(reminded.state, tick, config, at(deadline)))).toHaveLength(1);
  });

  it('reminds again for the next prompt, which has a deadline of its own', () => {
    const reminded = when(asked, tick, at(deadline - config.promptReminderMs)).state;
    const next = decide(reminded, promptOf(exec('a1'), 'p2', 20_000), config, at(0)).state;
    const due = decide(next, tick, config, at(20_000 + config.promptTimeoutMs - config.promptReminderMs));
    expect(due.events.map((e) => [e.event, e.promptId])).toEqual([['prompt_reminder', 'p2']]);
  });

  it('cancels with reason timeout, without a reminder, when the deadline passed before any tick saw it', () => {
    const late = when(asked, tick, at(deadline + 5));
    expect(late.events).toEqual([]);
    expect(cancels(late).map((c) => c.reason)).toEqual(['timeout']);
  });
});

describe('supervisor: a rebuild restores the queue and the slots exactly', () => {
  const live = given(
    createGraph('a1'),
    createGraph('a2'),
    createGraph('a3'),
    createGraph('a4'),
    createGraph('a5'),
    promptOf(exec('a1'), 'p1', 1_000),
    answerOf(exec('a1'), 'p1', 'user-a1'),
    promptOf(exec('a2'), 'p1', 2_000),
    tick,
    createGraph('a6'),
  );

  it('folds answers and its own events: the same queue, slots, tickets and open lists', () => {
    expect(live.state.orgs.get('acme')).toEqual({
      advancing: [exec('a3'), exec('a1')],
      waiting: [exec('a2')],
      queue: [exec('a4'), exec('a5'), exec('a6')],
    });
    expect(meaning(rebuild(live.history))).toEqual(meaning(live.state));
    expect(decide(rebuild(live.history), tick, config, at(0)).intents).toEqual([]);
  });

  it('keeps the queue order of the tickets whatever order the store holds the facts in', () => {
    const queuedEvents = live.history.filter((f) => f.type === 'ExecutionEvent' && f.event === 'queued');
    const rest = live.history.filter((f) => !queuedEvents.includes(f));
    const shuffled = rebuild([...queuedEvents].reverse().concat(rest));
    expect(shuffled.orgs.get('acme')?.queue).toEqual([exec('a4'), exec('a5'), exec('a6')]);
    expect(meaning(shuffled)).toEqual(meaning(live.state));
  });

  it('decides a request whose decision never reached the store, behind the ones already queued', () => {
    const lost = live.history.filter((f) => !(f.type === 'ExecutionEvent' && f.executionId === exec('a6')));
    const state = rebuild(lost);
    expect(statusOf(state, exec('a6'))).toBe('pending');
    const decision = decide(state, tick, config, at(0));
    expect(decision.events.map((e) => [e.event, e.executionId, e.position])).toEqual([['queued', exec('a6'), 3]]);
    expect(meaning(decision.state)).toEqual(meaning(live.state));
  });

  it('does not remind twice after a restart', () => {
    const due = 2_000 + config.promptTimeoutMs - config.promptReminderMs;
    const reminded = decide(live.state, tick, config, at(due));
    expect(reminded.events.map((e) => e.event)).toEqual(['prompt_reminder']);
    const history = [...live.history, ...reminded.events];
    expect(decide(rebuild(history), tick, config, at(due + 1)).events).toEqual([]);
  });
});

describe('a registered employee’s workflow firing', () => {
  function fired(name: string, userId = 'owner', ms = 0): TriggerCreated {
    const triggerId = triggerIdOf(name);
    return makeFact(
      'TriggerCreated',
      { orgId: 'acme', correlation: { userId, triggerId } },
      {
        triggerId,
        triggerType: 'employee_trigger',
        payload: { employeeId: 'emp-refunds', version: 2, workflowId: 'wf-1', event: { amount: 40 }, deliveryId: name },
        source: 'webhook',
      },
      { ids: { newId: () => triggerId }, clock: clockAt(ms) },
    );
  }

  it('given a free slot, when a workflow fires, then the run starts for that employee with the trigger', () => {
    const { intents } = decide(initialState(), fired('run-1'), config, at(0));
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      action: 'start',
      executionId: exec('run-1'),
      employeeId: 'emp-refunds',
      trigger: { triggerType: 'employee_trigger', payload: { employeeId: 'emp-refunds', workflowId: 'wf-1' } },
    });
  });

  it('given its owner at the open limit, when workflows fire, then the runs are admitted on the org’s slots and never count as open', () => {
    let state = initialState();
    for (const name of ['c1', 'c2', 'c3'])
      state = decide(state, createGraph(name, 'acme', 0, 'owner'), { ...config, maxRunningPerOrg: 10 }, at(0)).state;
    const { intents, state: after } = decide(state, fired('run-2'), { ...config, maxRunningPerOrg: 10 }, at(0));
    expect(intents.map((i) => [i.action, i.employeeId])).toEqual([['start', 'emp-refunds']]);
    expect(statusOf(after, exec('run-2'))).toBe('advancing');
  });

  it('given a run with no conversation, when it is cancelled from a conversation, then its cancel (and so its end) is told there, to whoever cancelled it', () => {
    const started = decide(initialState(), fired('run-4'), config, at(0));
    const triggerId = derivedId('run-4:socket-cancel', 'test-cancel');
    const cancel = makeFact(
      'TriggerCreated',
      { orgId: 'acme', correlation: { triggerId, executionId: exec('run-4'), conversationId: 'conv-admin', userId: 'admin' } },
      { triggerId, triggerType: 'cancel_execution', payload: { executionId: exec('run-4') }, source: 'chat' },
      { ids: { newId: () => triggerId }, clock: clockAt(0) },
    );
    const { intents } = decide(started.state, cancel, config, at(0));
    expect(intents).toEqual([
      expect.objectContaining({
        action: 'cancel',
        correlation: expect.objectContaining({ conversationId: 'conv-admin', userId: 'admin', executionId: exec('run-4') }),
      }),
    ]);
    // a cancel from no conversation (HTTP) leaves the run's own correlation: its owner, no conversation
    const fromHttp = decide(started.state, cancelOf(exec('run-4')), config, at(0));
    expect(fromHttp.intents[0]?.correlation).toEqual(expect.objectContaining({ userId: 'owner' }));
    expect(fromHttp.intents[0]?.correlation.conversationId).toBeUndefined();
  });

  it('given the same delivery twice, then one run', () => {
    const first = decide(initialState(), fired('run-3'), config, at(0));
    const second = decide(first.state, fired('run-3'), config, at(0));
    expect(second.intents).toEqual([]);
  });
});

describe('supervisor: a run deferred by quiet hours holds no slot', () => {
  /** a1 and a2 run (the org's two slots), a3 queued behind them */
  const full = () => given(createGraph('a1'), createGraph('a2'), createGraph('a3'));

  it('given a full org, when a running execution is deferred, then its slot frees and the oldest queued one starts', () => {
    const deferred = stepEvent(exec('a1'), 'step_deferred');
    const decision = when(full(), deferred);
    expect(statusOf(decision.state, exec('a1'))).toBe('deferred');
    expect(starts(decision)).toEqual([exec('a3')]);
    expect(decision.intents[0]?.causationId).toBe(deferred.id);
    expect(decision.state.orgs.get('acme')).toEqual({ advancing: [exec('a2'), exec('a3')], waiting: [], queue: [] });
  });

  it('given a deferred run, when the worker resumes it, then it takes a slot at once, over the limit if need be, and starts nothing', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), stepEvent(exec('a1'), 'step_deferred'));
    const decision = when(scenario, stepEvent(exec('a1'), 'step_resumed'));
    expect(decision.intents).toEqual([]);
    expect(statusOf(decision.state, exec('a1'))).toBe('advancing');
    expect(decision.state.orgs.get('acme')?.advancing).toEqual([exec('a2'), exec('a3'), exec('a1')]);
    // a newcomer waits until the org is back under its limit
    const newcomer = decide(decision.state, createGraph('a4'), config, at(0));
    expect(starts(newcomer)).toEqual([]);
    expect(positionOf(newcomer.state, exec('a4'))).toBe(1);
    const freed = decide(decide(newcomer.state, resultOf(exec('a2')), config, at(0)).state, resultOf(exec('a3')), config, at(0));
    expect(starts(freed)).toEqual([exec('a4')]);
  });

  it('given a deferred run, when it ends, then it is ended and holds nothing', () => {
    const scenario = given(createGraph('a1'), stepEvent(exec('a1'), 'step_deferred'));
    const decision = when(scenario, resultOf(exec('a1')));
    expect(statusOf(decision.state, exec('a1'))).toBe('ended');
    expect(decision.state.orgs.get('acme')).toEqual({ advancing: [], waiting: [], queue: [] });
  });

  it('ignores a repeated deferral, a resume of a run not deferred, and a deferral of another org or of an unknown run', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), stepEvent(exec('a1'), 'step_deferred'));
    const again = when(scenario, stepEvent(exec('a1'), 'step_deferred', 'acme', 'again'));
    expect(again.state).toBe(scenario.state);
    expect(again.intents).toEqual([]);
    expect(when(scenario, stepEvent(exec('a2'), 'step_resumed')).state).toBe(scenario.state);
    expect(when(scenario, stepEvent(exec('a2'), 'step_deferred', 'evil-corp')).state).toBe(scenario.state);
    expect(when(scenario, stepEvent(exec('nobody'), 'step_deferred')).state).toBe(scenario.state);
  });

  it('a rebuild from the stored facts gives the live state: deferred, and advancing again once resumed', () => {
    const deferredLive = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), stepEvent(exec('a1'), 'step_deferred'));
    expect(meaning(rebuild(deferredLive.history))).toEqual(meaning(deferredLive.state));
    const resumed = when(deferredLive, stepEvent(exec('a1'), 'step_resumed'));
    const history = [...deferredLive.history, stepEvent(exec('a1'), 'step_resumed')];
    expect(meaning(rebuild(history))).toEqual(meaning(resumed.state));
  });
});
