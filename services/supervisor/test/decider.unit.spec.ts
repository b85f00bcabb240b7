import { makeFact } from '@hireloop/fact-stream';
import { derivedId } from '@hireloop/platform';
import type { ExecutionResult, HILPrompt, RunIntent, TriggerCreated } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import {
  type Decision,
  decide,
  evolve,
  executionIdOf,
  initialState,
  type SupervisorConfig,
  type SupervisorFact,
  type SupervisorInput,
  type SupervisorState,
  statusOf,
} from '../src/decider';

// ---- fixtures ---------------------------------------------------------------------------------

const config: SupervisorConfig = { maxRunningPerOrg: 2, promptTimeoutMs: 60_000 };
const T0 = new Date('2026-11-22T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
const clockAt = (ms: number) => ({ now: () => at(ms) });

const triggerIdOf = (name: string) => derivedId(name, 'test-trigger');
/** The execution a named test trigger creates. */
const exec = (name: string) => executionIdOf(triggerIdOf(name));

function createGraph(name: string, orgId = 'acme', ms = 0): TriggerCreated {
  const triggerId = triggerIdOf(name);
  return makeFact(
    'TriggerCreated',
    { orgId, correlation: { conversationId: `conv-${name}`, userId: `user-${name}`, triggerId } },
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

function resultOf(executionId: string, orgId = 'acme', status: ExecutionResult['status'] = 'completed'): ExecutionResult {
  return makeFact(
    'ExecutionResult',
    { orgId, correlation: { executionId } },
    { executionId, status },
    { ids: { newId: () => derivedId(executionId, 'test-result') }, clock: clockAt(0) },
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
    history.push(...decision.intents);
  }
  return { state, history };
}

function when(scenario: Scenario, input: SupervisorInput, now = at(0), cfg = config): Decision {
  return decide(scenario.state, input, cfg, now);
}

const starts = (d: Decision) => d.intents.filter((i) => i.action === 'start').map((i) => i.executionId);
const cancels = (d: Decision) => d.intents.filter((i) => i.action === 'cancel');

/** What a state means, independent of how its maps are laid out. */
function meaning(state: SupervisorState) {
  const executions = [...state.executions.entries()].map(([, e]) => e).sort((a, b) => a.executionId.localeCompare(b.executionId));
  const orgs = [...state.orgs.entries()]
    .filter(([, s]) => s.running.length + s.queue.length > 0)
    .sort(([a], [b]) => a.localeCompare(b));
  return { executions, orgs, unsentCancels: [...state.unsentCancels].sort() };
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
    expect(statusOf(decision.state, exec('a1'))).toBe('running');
  });

  it('runs at most maxRunningPerOrg executions per org and queues the rest in arrival order', () => {
    const scenario = given(createGraph('a1'), createGraph('a2'), createGraph('a3'), createGraph('a4'));
    const decision = when(scenario, createGraph('a5'));
    expect(decision.intents).toEqual([]);
    expect(decision.state.orgs.get('acme')).toEqual({
      running: [exec('a1'), exec('a2')],
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
    expect(scenario.state.orgs.get('acme')).toEqual({ running: [], queue: [] });
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
    expect(statusOf(decision.state, exec('a1'))).toBe('running'); // the slot is held until the worker's result
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
    expect(decision.state.orgs.get('acme')).toEqual({ running: [exec('a1'), exec('a2')], queue: [exec('a4')] });

    const freed = decide(decision.state, resultOf(exec('a1')), config, at(0));
    expect(starts(freed)).toEqual([exec('a4')]);
    // the worker's 'cancelled' result for the withdrawn execution frees no slot it never held
    const ended = decide(freed.state, resultOf(exec('a3'), 'acme', 'cancelled'), config, at(0));
    expect(ended.intents).toEqual([]);
    expect(ended.state.orgs.get('acme')?.running).toEqual([exec('a2'), exec('a4')]);
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
    expect(statusOf(decision.state, start.executionId)).toBe('running');
  });

  it('reconciles to nothing when the store holds every intent', () => {
    expect(decide(rebuild(live.history), tick, config, at(0)).intents).toEqual([]);
  });

  it('does not start an already started execution again, and starts a queued one when a slot frees', () => {
    const state = rebuild(live.history);
    expect(state.orgs.get('acme')).toEqual({ running: [exec('a1'), exec('a3')], queue: [exec('a5')] });
    expect(decide(state, tick, config, at(0)).intents).toEqual([]);
    const decision = decide(state, resultOf(exec('a1')), config, at(0));
    expect(starts(decision)).toEqual([exec('a5')]); // not a3, which runs in a2's slot, nor the withdrawn a4
    expect(decision.state.orgs.get('acme')).toEqual({ running: [exec('a3'), exec('a5')], queue: [] });
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
    // the prompt reached the store before the start: running, holding its slot, deadline set
    const asked = rebuild([trigger, prompt, start]);
    expect(asked.orgs.get('acme')).toEqual({ running: [exec('a1')], queue: [] });
    expect(cancels(decide(asked, tick, config, at(1_000 + config.promptTimeoutMs)))).toHaveLength(1);
  });
});
