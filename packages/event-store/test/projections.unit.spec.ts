import { type AnyFact, topicOf } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { conversationExecutions, type Execution, employees, executions, fold, type OrgPolicyState, orgPolicies } from '../src';
import { creation, factsFor, given, policyChanged, script, steppingClock } from './builders';

const execution = (facts: AnyFact[], id: string) => given(executions, facts, id) as Execution;

/** The fields a reader sees (ARCHITECTURE §4), without the bookkeeping and the seq. */
const publicView = ({ lastSeq: _s, promptIds: _p, earlyAnswers: _e, progressAt: _a, ...view }: Execution) => view;

describe('executions projection', () => {
  const s = script();
  const f = factsFor(s);

  it('a RunIntent start makes a running execution owned by the user of its conversation', () => {
    const start = f.start();
    expect(execution([start], s.executionId)).toEqual({
      executionId: s.executionId,
      orgId: 'acme',
      ownerUserId: s.userId,
      conversationId: s.conversationId,
      employeeId: s.employeeId,
      triggerId: s.triggerId,
      workflowId: null,
      status: 'running',
      currentPrompt: null,
      progress: null,
      phase: null,
      result: null,
      error: null,
      createdAt: start.ts,
      updatedAt: start.ts,
      lastSeq: 1,
      promptIds: [],
      earlyAnswers: [],
      progressAt: null,
      queueTicket: null,
    });
  });

  it('a RunIntent starting a run of an employee records the workflow it runs', () => {
    const start = f.start();
    const run = {
      ...start,
      trigger: {
        triggerId: s.triggerId,
        triggerType: 'employee_trigger' as const,
        payload: { employeeId: s.employeeId, version: 1, workflowId: 'wf-2', event: { ticketId: 'T-1' }, deliveryId: 'd-1' },
      },
    };
    expect(execution([run], s.executionId)).toMatchObject({ employeeId: s.employeeId, workflowId: 'wf-2', status: 'running' });
  });

  it("the supervisor's queued event makes a queued execution owned by its requester, with its ticket; the start makes it run", () => {
    const x = script();
    const g = factsFor(x);
    const queued = g.queued(7, 2);
    expect(execution([queued], x.executionId)).toMatchObject({
      status: 'queued',
      ownerUserId: x.userId,
      conversationId: x.conversationId,
      phase: 'queued',
      queueTicket: 7,
    });
    const started = execution([queued, g.started(), g.start()], x.executionId);
    expect(started).toMatchObject({ status: 'running', phase: 'starting', employeeId: x.employeeId, queueTicket: 7 });
  });

  it('a queued execution cancelled before it started ends cancelled, whatever order its facts arrive in', () => {
    const x = script();
    const g = factsFor(x);
    const [queued, cancelled] = [g.queued(1), g.cancelled()];
    expect(execution([queued, cancelled], x.executionId)).toMatchObject({ status: 'cancelled', ownerUserId: x.userId });
    expect(execution([cancelled, queued], x.executionId)).toMatchObject({ status: 'cancelled', ownerUserId: x.userId });
  });

  it('a prompt makes it wait, with the prompt pending and its progress', () => {
    const start = f.start();
    const prompt = f.prompt('p1', 40);
    const state = execution([start, prompt], s.executionId);
    expect(state).toMatchObject({ status: 'waiting', currentPrompt: prompt, progress: 40, updatedAt: prompt.ts, lastSeq: 2 });
  });

  it('the answer to the pending prompt makes it run again', () => {
    const before = [f.start(), f.prompt('p1')];
    const answer = f.answer('p1');
    expect(execution([...before, answer], s.executionId)).toMatchObject({
      status: 'running',
      currentPrompt: null,
      updatedAt: answer.ts,
      lastSeq: 3,
    });
  });

  it('a duplicate or stale answer changes nothing', () => {
    const before = [f.start(), f.prompt('p1'), f.answer('p1'), f.prompt('p2')];
    const state = given(executions, before, s.executionId);
    const states = new Map([[s.executionId, state as Execution]]);
    const changed = fold(executions, states, [
      { fact: f.answer('p1'), seq: 10 },
      { fact: f.answer('p1', ['b']), seq: 11 },
    ]);
    expect(changed.size).toBe(0);
    expect(states.get(s.executionId)).toBe(state);
    expect(state).toMatchObject({ status: 'waiting', currentPrompt: { promptId: 'p2' } });
  });

  it('a prompt published again after it was answered changes nothing', () => {
    const facts = [f.start(), f.prompt('p1'), f.answer('p1')];
    const state = execution(facts, s.executionId);
    expect(execution([...facts, f.prompt('p1')], s.executionId)).toEqual(state);
  });

  it('events set the phase and the progress', () => {
    expect(execution([f.start(), f.event('analysis', 10), f.event(undefined, 25)], s.executionId)).toMatchObject({
      phase: 'analysis',
      progress: 25,
      status: 'running',
    });
  });

  it('an event with neither phase nor progress changes nothing', () => {
    const facts = [f.start(), f.event('analysis', 10)];
    const state = execution(facts, s.executionId);
    const states = new Map([[s.executionId, state]]);
    expect(fold(executions, states, [{ fact: f.event(), seq: 3 }]).size).toBe(0);
  });

  it('a result ends it with its output or error, and nothing is pending any more', () => {
    const done = f.completed();
    expect(execution([f.start(), f.prompt('p1'), done], s.executionId)).toMatchObject({
      status: 'completed',
      currentPrompt: null,
      result: done.output,
      error: null,
    });
    expect(execution([f.start(), f.failed('BOOM')], s.executionId)).toMatchObject({
      status: 'failed',
      result: null,
      error: { code: 'BOOM', message: 'it broke' },
    });
  });

  it('given a completed result before the last progress event, then it shows progress 100, and the late event keeps it there', () => {
    // the worker made the last progress event before its result; it travels on another topic and comes in after
    const [start, ninety, last, done] = [f.start(), f.event('analysis', 90), f.event(undefined, 95), f.completed()];
    expect(execution([start, ninety, done], s.executionId)).toMatchObject({ status: 'completed', progress: 100 });
    expect(execution([start, ninety, done, last], s.executionId)).toMatchObject({ progress: 100 });
    // a run that failed keeps the progress it reached
    expect(execution([f.start(), f.event('analysis', 40), f.failed('BOOM')], s.executionId)).toMatchObject({ progress: 40 });
  });

  it('a RunIntent cancel changes nothing by itself; the cancelled result ends it', () => {
    const facts = [f.start(), f.prompt('p1')];
    const state = execution(facts, s.executionId);
    expect(execution([...facts, f.cancel()], s.executionId)).toEqual(state);
    expect(execution([...facts, f.cancel(), f.cancelled()], s.executionId)).toMatchObject({
      status: 'cancelled',
      currentPrompt: null,
    });
  });

  it('the first result is final', () => {
    expect(execution([f.start(), f.failed(), f.completed()], s.executionId)).toMatchObject({ status: 'failed', result: null });
    expect(execution([f.start(), f.completed(), f.prompt('late')], s.executionId)).toMatchObject({
      status: 'completed',
      currentPrompt: null,
    });
  });

  it("another org's facts never touch an execution", () => {
    const other = factsFor({ ...s, orgId: 'evil' });
    const facts = [f.start(), f.prompt('p1')];
    const state = execution(facts, s.executionId);
    expect(execution([...facts, other.answer('p1'), other.completed(), other.start()], s.executionId)).toEqual(state);
  });

  it('the RunIntent decides the tenant of a row that facts of another org created first', () => {
    const other = factsFor({ ...s, orgId: 'evil' });
    expect(execution([other.prompt('p1'), f.start()], s.executionId)).toMatchObject({
      orgId: 'acme',
      status: 'running',
      currentPrompt: null,
      ownerUserId: s.userId,
    });
  });

  it('facts before the RunIntent make a row with no owner; the RunIntent fills it in and dates it', () => {
    const prompt = f.prompt('p1', 20);
    const start = f.start();
    const early = execution([prompt], s.executionId);
    expect(early).toMatchObject({ status: 'waiting', ownerUserId: null, conversationId: null, createdAt: prompt.ts });
    expect(execution([prompt, start], s.executionId)).toMatchObject({
      status: 'waiting',
      ownerUserId: s.userId,
      conversationId: s.conversationId,
      employeeId: s.employeeId,
      createdAt: start.ts,
      updatedAt: start.ts,
    });
  });

  it('an answer that arrives before its prompt is applied when the prompt arrives', () => {
    const facts = [f.start(), f.prompt('p1'), f.answer('p1')];
    const [start, prompt, answer] = facts as [AnyFact, AnyFact, AnyFact];
    const state = execution([start, answer, prompt], s.executionId);
    expect(state).toMatchObject({ status: 'running', currentPrompt: null });
  });

  it('ends the same whatever the interleaving of its topics (each topic in its own order)', () => {
    const clock = steppingClock();
    const x = script();
    const g = factsFor(x, clock);
    const facts: AnyFact[] = [
      g.queued(3, 1),
      g.started(),
      g.start(),
      g.event('analysis', 10),
      g.prompt('p1', 30),
      g.answer('p1'),
      g.event('matching', 50),
      g.prompt('p2', 60),
      g.answer('p2'),
      g.event('assembly', 90),
      g.prompt('p3', 95),
      g.answer('p3'),
      g.answer('p3'), // a double click
      g.prompt('p3', 95), // published again by a worker that restarted
      g.event(undefined, 100),
      g.completed(),
    ];
    const natural = publicView(execution(facts, x.executionId));
    expect(natural).toMatchObject({ status: 'completed', phase: 'assembly', progress: 100 });

    const byTopic = new Map<string, AnyFact[]>();
    for (const fact of facts) {
      const topic = topicOf(fact.type).name;
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), fact]);
    }
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let run = 0; run < 300; run++) {
      const queues = [...byTopic.values()].map((q) => [...q]);
      const order: AnyFact[] = [];
      while (queues.some((q) => q.length > 0)) {
        const open = queues.filter((q) => q.length > 0);
        order.push((open[Math.floor(random() * open.length)] as AnyFact[]).shift() as AnyFact);
      }
      expect(publicView(execution(order, x.executionId)), `order ${order.map((o) => o.type).join(',')}`).toEqual(natural);
    }
  });

  it('given a run deferred and then cancelled, whatever the interleaving of its topics, then its phase reads cancelled and its progress where it stopped', () => {
    const x = script();
    const g = factsFor(x);
    const [start, deferred, cancelled] = [g.start(), g.event('deferred', 60), g.cancelled()];
    for (const order of [
      [start, deferred, cancelled],
      [start, cancelled, deferred],
      [cancelled, start, deferred],
    ])
      expect(publicView(execution(order, x.executionId))).toMatchObject({
        status: 'cancelled',
        phase: 'cancelled',
        progress: 60,
      });
  });

  it('given a run that ended before any progress was said (refused at admission), then its progress reads 0; a progress event read after the result still says where it stood', () => {
    const x = script();
    const g = factsFor(x);
    expect(publicView(execution([g.cancelled()], x.executionId))).toMatchObject({ status: 'cancelled', progress: 0 });
    const [start, deferred, cancelled] = [g.start(), g.event('deferred', 60), g.cancelled()];
    expect(publicView(execution([cancelled, start, deferred], x.executionId))).toMatchObject({ progress: 60 });
  });

  it('before the result, a waiting prompt stays pending whatever the interleaving', () => {
    const x = script();
    const g = factsFor(x);
    const [start, p1, a1, p2] = [g.start(), g.prompt('p1', 10), g.answer('p1'), g.prompt('p2', 20)];
    for (const order of [
      [start, p1, a1, p2],
      [a1, p1, start, p2],
      [p1, p2, a1, start],
      [start, a1, p1, p2],
      [p1, a1, p2, start],
    ]) {
      expect(publicView(execution(order, x.executionId))).toMatchObject({ status: 'waiting', currentPrompt: p2, progress: 20 });
    }
  });
});

describe('conversation_executions projection', () => {
  it('the RunIntent start says which user of which conversation may answer', () => {
    const s = script();
    const f = factsFor(s);
    expect(given(conversationExecutions, creation(s), s.executionId)).toEqual({
      conversationId: s.conversationId,
      executionId: s.executionId,
      orgId: s.orgId,
      userId: s.userId,
    });
    expect(given(conversationExecutions, [f.prompt('p1'), f.cancel()], s.executionId)).toBeNull();
  });
});

describe('employees projection', () => {
  const history = (facts: AnyFact[], orgId: string, name: string) => given(employees, facts, `${orgId}/${name}`);

  it('a completed creation registers its employee as version 1, with the version in its spec', () => {
    const s = script();
    const facts = creation(s);
    const done = facts.at(-1) as Extract<AnyFact, { type: 'ExecutionResult' }>;
    const spec = done.output?.employee;
    expect(history(facts, 'acme', 'Support agent')?.versions).toEqual([
      {
        employeeId: spec?.employeeId,
        orgId: 'acme',
        name: 'Support agent',
        version: 1,
        spec: { ...spec, version: 1 },
        executionId: s.executionId,
        registeredAt: done.ts,
      },
    ]);
  });

  it('each completed creation of the same name in the same org is the next version; other orgs count apart', () => {
    const facts = [
      ...creation(script()),
      ...creation(script()),
      ...creation(script({ orgId: 'globex' })),
      ...creation(script(), steppingClock(), 'Other'),
    ];
    expect(history(facts, 'acme', 'Support agent')?.versions.map((v) => v.version)).toEqual([1, 2]);
    expect(history(facts, 'globex', 'Support agent')?.versions.map((v) => v.version)).toEqual([1]);
    expect(history(facts, 'acme', 'Other')?.versions.map((v) => v.version)).toEqual([1]);
  });

  it('a completion delivered again, or failed creations, register nothing more', () => {
    const s = script();
    const f = factsFor(s);
    const done = f.completed();
    const again = { ...f.completed(), output: done.output } as AnyFact;
    expect(history([f.start(), done, again, factsFor(script()).failed()], 'acme', 'Support agent')?.versions).toHaveLength(1);
  });

  it("a spec of another org than its fact's is not registered", () => {
    const s = script();
    const done = factsFor(s).completed();
    const forged = { ...done, orgId: 'evil' } as AnyFact;
    expect(history([forged], 'evil', 'Support agent')).toBeNull();
  });
});

describe('org_policies projection', () => {
  const clock = steppingClock();

  it('given a PolicyChanged, then the org holds that policy, who set it, when, and the seq', () => {
    const set = policyChanged('acme', { allowedTools: ['stripe'], budgets: { maxToolCalls: 5 } }, clock, 'ada');
    expect(given(orgPolicies, [set], 'acme')).toEqual({
      orgId: 'acme',
      policy: { allowedTools: ['stripe'], budgets: { maxToolCalls: 5 } },
      changedBy: 'ada',
      updatedAt: set.ts,
      lastSeq: 1,
    } satisfies OrgPolicyState);
  });

  it('given two changes, then the later replaces the whole policy; another org keeps its own', () => {
    const first = policyChanged('acme', { allowedTools: ['stripe'] }, clock);
    const other = policyChanged('globex', { deniedTools: ['slack'] }, clock);
    const second = policyChanged(
      'acme',
      { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' } },
      clock,
    );
    const facts = [first, other, second];
    expect(given(orgPolicies, facts, 'acme')).toMatchObject({ policy: second.policy, lastSeq: 3 });
    expect(given(orgPolicies, facts, 'globex')).toMatchObject({ policy: { deniedTools: ['slack'] }, lastSeq: 2 });
  });

  it('given the same fact folded again at an earlier seq, then nothing changes', () => {
    const first = policyChanged('acme', { allowedTools: ['stripe'] }, clock);
    const second = policyChanged('acme', { allowedTools: ['zendesk'] }, clock);
    const states = new Map<string, OrgPolicyState>();
    fold(orgPolicies, states, [
      { fact: first, seq: 1 },
      { fact: second, seq: 2 },
    ]);
    expect(fold(orgPolicies, states, [{ fact: first, seq: 1 }]).size).toBe(0);
    expect(states.get('acme')?.policy).toEqual({ allowedTools: ['zendesk'] });
  });

  it('given facts of other types, then no policy is touched (the fold sees only PolicyChanged)', () => {
    const s = script({ orgId: 'acme' });
    expect(given(orgPolicies, creation(s), 'acme')).toBeNull();
  });
});
