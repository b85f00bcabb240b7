import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createCheckpointer, createKafka, createLogger, createPool, type Pool } from '@hireloop/platform';
import { repoRoot } from '@hireloop/platform/testing';
import { type AnswerPayload, builtInCatalog, type RunIntent, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { conversationAdapter } from '../src/conversation/adapter';
import { ExecutionRunner } from '../src/runner';
import { runtimeAdapter } from '../src/runtime/adapter';
import { postgresSpecs } from '../src/runtime/specs';
import { staticCatalog } from '../src/tools/catalog';
import { type Connector, ConnectorError } from '../src/tools/connector';
import { Connectors } from '../src/tools/connectors';
import { postgresEffects } from '../src/tools/effects';
import { fixedScopes, postgresCircuits, postgresPolicies, postgresRateLimits } from '../src/tools/guards';
import { type Rails, ToolRegistry } from '../src/tools/registry';
import { sandboxConnector } from '../src/tools/sandbox';
import { refundsEmployee } from './fixtures/refunds-employee';
import { setPolicy } from './policies';
import { registerEmployee, runIntent } from './runtime-harness';

const worker = fileURLToPath(new URL('./fixtures/rails-worker.ts', import.meta.url));
const log = createLogger('tool-rails-test', 'silent');
const post = { id: 'post', capabilityId: 'slack.post_message' };
const args = { channel: '#ops', text: 'hello' };

/** A slack connector that fails (transiently) while `failing` holds, and counts what reached it. */
function flaky() {
  const state = { failing: true, called: 0 };
  const connector: Connector = {
    call: async (capability, a, ctx) => {
      state.called += 1;
      if (state.failing) throw new ConnectorError('unavailable', 'slack answered 503');
      return sandboxConnector.call(capability, a, ctx);
    },
  };
  return { state, connector };
}

describe('the tool registry rails, shared through Postgres by every worker', () => {
  const url = inject('databaseUrl');
  const pools: Pool[] = [];
  const pool = () => {
    const p = createPool(url);
    pools.push(p);
    return p;
  };
  /** a "worker": a registry on a pool of its own, its circuits and rates in the shared tables */
  const registry = (connector: Connector, rails: Rails = {}, clock?: { now: () => Date }) => {
    const own = pool();
    return new ToolRegistry({
      ...(clock ? { clock } : {}),
      catalog: staticCatalog(builtInCatalog.capabilities),
      connectors: new Connectors({ slack: connector, stripe: connector, zendesk: connector }),
      effects: postgresEffects(own),
      rails: {
        policies: postgresPolicies(own),
        rates: postgresRateLimits(own),
        circuits: postgresCircuits(own),
        retries: 0,
        ...rails,
      },
    });
  };
  afterAll(async () => {
    await Promise.all(pools.map((p) => p.end()));
  });

  it('two worker processes hammering one tool for one org: the shared rate holds; a second org is not slowed', async () => {
    const org = `org-${randomUUID()}`;
    const launch = () => {
      const lines: string[] = [];
      const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', worker, url, org, '8', '5/h'], {
        cwd: repoRoot,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      child.stdout?.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
      const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
      return { child, lines, exited };
    };
    const workers = [launch(), launch()];
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const timer = setInterval(() => {
              if (!w.lines.includes('ready')) return;
              clearInterval(timer);
              resolve();
            }, 20);
            void w.exited.then((code) => {
              clearInterval(timer);
              reject(new Error(`a worker exited (${code}) before it was ready`));
            });
          }),
      ),
    );
    for (const w of workers) w.child.stdin?.write('go\n');
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    const reports = workers.map((w) => JSON.parse(w.lines.at(-1) ?? '{}') as { called: number; outcomes: string[] });
    // 16 calls in one window of a 5/h rate: 5 acted, across both workers; 11 refused
    expect(reports.reduce((n, r) => n + r.called, 0)).toBe(5);
    const outcomes = reports.flatMap((r) => r.outcomes).sort();
    expect(outcomes.filter((o) => o === 'succeeded')).toHaveLength(5);
    expect(outcomes.filter((o) => o === 'rate_limited')).toHaveLength(11);
    // rate-limiter-flexible's counter in Postgres took every attempt
    const { rows } = await pool().query('SELECT points FROM tool_rate_limits WHERE key = $1', [
      `tool_5_h:${org}:slack.post_message`,
    ]);
    expect(rows).toEqual([{ points: 16 }]);

    // the same tool for another org: its own count
    const other = registry(sandboxConnector, { defaultRate: '5/h', rateMaxWaitMs: 0 });
    const otherOrg = `org-${randomUUID()}`;
    const codes: string[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await other.call({ executionId: randomUUID(), orgId: otherOrg }, post, args)).effect.status);
    expect(codes).toEqual(Array(5).fill('succeeded'));
  });

  it('a failing tool opens its circuit on both workers after N failures, half-opens after the cool-down, closes on success', async () => {
    const org = `org-${randomUUID()}`;
    const clock = { t: new Date('2026-11-24T12:00:00Z'), now: () => clock.t };
    const { state, connector } = flaky();
    const rails: Rails = { circuitThreshold: 3, circuitCoolDownMs: 60_000 };
    const make = () => registry(connector, rails, clock);
    const a = make();
    const b = make();
    const call = (r: ToolRegistry) => r.call({ executionId: randomUUID(), orgId: org }, post, args);

    // two failures on one worker, the third on the other: the count is shared
    expect((await call(a)).effect.error?.code).toBe('unavailable');
    expect((await call(a)).effect.error?.code).toBe('unavailable');
    expect((await call(b)).effect.error?.code).toBe('unavailable');
    expect(state.called).toBe(3);
    for (const r of [a, b]) {
      const { effect } = await call(r);
      expect(effect.error?.code).toBe('circuit_open');
      expect(effect.error?.message).toMatch(/open after 3 consecutive failures/);
    }
    expect(state.called).toBe(3);
    // a worker started after the circuit opened (a restart) reads it open
    expect((await call(make())).effect.error?.code).toBe('circuit_open');

    // after the cool-down the circuit half-opens: of two workers calling at once, one probes
    clock.t = new Date(clock.t.getTime() + 60_000);
    state.failing = false;
    const probes = await Promise.all([call(a), call(b)]);
    expect(probes.map((p) => p.effect.error?.code ?? p.effect.status).sort()).toEqual(['circuit_open', 'succeeded']);
    expect(state.called).toBe(4);
    // the probe succeeded: closed for both
    expect((await call(a)).effect.status).toBe('succeeded');
    expect((await call(b)).effect.status).toBe('succeeded');
    const { rows } = await pool().query('SELECT state, failures FROM tool_circuits WHERE org_id = $1', [org]);
    expect(rows).toEqual([{ state: 'closed', failures: 0 }]);
  });

  it('a failed probe opens the circuit again for another cool-down', async () => {
    const org = `org-${randomUUID()}`;
    const clock = { t: new Date('2026-11-24T12:00:00Z'), now: () => clock.t };
    const { state, connector } = flaky();
    const r = registry(connector, { circuitThreshold: 1, circuitCoolDownMs: 1_000 }, clock);
    const call = () => r.call({ executionId: randomUUID(), orgId: org }, post, args);
    await call();
    clock.t = new Date(clock.t.getTime() + 1_000);
    expect((await call()).effect.error?.code).toBe('unavailable');
    expect((await call()).effect.error?.code).toBe('circuit_open');
    expect(state.called).toBe(2);
  });

  it('a transient failure is retried and succeeds once; a permanent one is tried once', async () => {
    let transient = 1;
    const calls: string[] = [];
    const connector: Connector = {
      call: async (capability, a, ctx) => {
        calls.push(String(a.text));
        if (a.text === 'permanent') throw new ConnectorError('http_error', 'answered 400');
        if (transient-- > 0) throw new ConnectorError('timeout', 'no answer in time');
        return sandboxConnector.call(capability, a, ctx);
      },
    };
    const r = registry(connector, { retries: 2, retryInitialDelayMs: 1 });
    const org = `org-${randomUUID()}`;
    const ok = await r.call({ executionId: randomUUID(), orgId: org }, post, { channel: '#ops', text: 'retried' });
    expect(ok.effect.status).toBe('succeeded');
    const bad = await r.call({ executionId: randomUUID(), orgId: org }, post, { channel: '#ops', text: 'permanent' });
    expect(bad.effect.error?.code).toBe('http_error');
    expect(calls).toEqual(['retried', 'retried', 'permanent']);
  });
});

describe('a run behind the rails (real Kafka, Postgres, LangGraph)', () => {
  const prefix = inject('topicPrefix');
  const kafka = createKafka({ clientId: 'tool-rails-run-test', brokers: inject('kafkaBrokers'), log });
  const pool = createPool(inject('databaseUrl'));
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const collector = new FactCollector(kafka, prefix, [Topics.executionResult, Topics.executionEvents, Topics.hilPrompt]);
  const checkpointer = createCheckpointer(pool);
  const called: string[] = [];
  let failing = false;
  const connector: Connector = {
    call: async (capability, a, ctx) => {
      called.push(`${ctx.executionId}/${ctx.stepId}`);
      if (failing) throw new ConnectorError('unavailable', 'answered 503');
      return sandboxConnector.call(capability, a, ctx);
    },
  };
  const orgs = {
    scoped: `org-${randomUUID()}`,
    policed: `org-${randomUUID()}`,
    broken: `org-${randomUUID()}`,
    budgeted: `org-${randomUUID()}`,
    defaulted: `org-${randomUUID()}`,
    denied: `org-${randomUUID()}`,
    lifted: `org-${randomUUID()}`,
    deniedOnBudget: `org-${randomUUID()}`,
    unasked: `org-${randomUUID()}`,
  };
  const all = ['zendesk', 'slack', 'stripe'];
  const policies = postgresPolicies(pool);
  const tools = new ToolRegistry({
    catalog: staticCatalog(builtInCatalog.capabilities),
    connectors: new Connectors({ slack: connector, stripe: connector, zendesk: connector }),
    effects: postgresEffects(pool),
    rails: {
      // the scoped org has not connected stripe
      scopes: fixedScopes({
        [orgs.scoped]: ['zendesk', 'slack'],
        [orgs.policed]: all,
        [orgs.broken]: all,
        [orgs.budgeted]: all,
        [orgs.defaulted]: all,
        [orgs.denied]: all,
        [orgs.lifted]: all,
        [orgs.unasked]: all,
        [orgs.deniedOnBudget]: all,
      }),
      policies,
      circuits: postgresCircuits(pool),
      circuitThreshold: 1,
      circuitCoolDownMs: 3_600_000,
      retries: 0,
    },
  });
  const runner = new ExecutionRunner({
    adapter: conversationAdapter(checkpointer),
    runtime: runtimeAdapter(checkpointer, { specs: postgresSpecs(pool), tools }),
    pool,
    publisher,
    log,
  });
  beforeAll(async () => {
    await publisher.connect();
    await collector.start();
  });
  afterAll(async () => {
    await collector.stop();
    await publisher.disconnect();
    await pool.end();
  });

  const run = async (orgId: string, edit: (spec: ReturnType<typeof refundsEmployee>) => void = () => undefined, amount = 40) => {
    const spec = refundsEmployee(`emp-${randomUUID()}`, orgId);
    edit(spec);
    await registerEmployee(pool, spec);
    const id = randomUUID();
    const intent: RunIntent = {
      ...runIntent(id, spec.employeeId, 'refunds', { amount, paymentId: 'pi_1', ticketId: 'T-1', subject: 's' }),
      orgId,
    };
    await runner.start(intent);
    const result = await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === id)[0],
      `result of ${id}`,
    );
    return { id, result };
  };
  const reasonOf = (id: string, stepId: string) =>
    collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.stepId === stepId && e.event === 'tool_failed')[0],
      `tool_failed of ${stepId}`,
    );

  it('a tool outside the org’s scopes is refused with scope_denied before the run acts: no step is called, not even those the org has connected', async () => {
    const { id, result } = await run(orgs.scoped);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'scope_denied' } });
    expect(result.output?.summary).toContain('the org has not connected stripe');
    expect((await reasonOf(id, 'refund')).reason).toBe('scope_denied');
    // (the reply to the ticket, whose Zendesk the org has, is not made for a refund that cannot be)
    expect(called.filter((c) => c.startsWith(`${id}/`))).toEqual([]);
    // the events of a run share a partition: tool_called would have come before this tool_failed
    expect(
      collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'tool_called' && e.stepId === 'refund'),
    ).toEqual([]);
  });

  it('a refund over the org’s largest is refused with policy_denied; nothing is called', async () => {
    await setPolicy(pool, orgs.policed, {
      argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 25 }],
    });
    const { id, result } = await run(orgs.policed);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'policy_denied' } });
    expect(result.output?.summary).toContain("amount 40 is over the org's limit of 25");
    expect((await reasonOf(id, 'refund')).reason).toBe('policy_denied');
    expect(called.filter((c) => c.startsWith(`${id}/refund`))).toEqual([]);
  });

  it('a high-risk step the org’s policy denies is asked of nobody: the run fails with policy_denied, no prompt', async () => {
    await setPolicy(pool, orgs.denied, { deniedTools: ['slack.post_message'] });
    const { id, result } = await run(orgs.denied, () => undefined, 250);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'policy_denied' } });
    expect(result.output?.summary).toContain('slack.post_message is denied by the org');
    expect(collector.of('HILPrompt', (p) => p.executionId === id)).toEqual([]);
    // the events travel with the result on another topic: waited for
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'tool_failed')[0],
      `the tool_failed of ${id}`,
    );
    const events = collector.of('ExecutionEvent', (e) => e.executionId === id);
    expect(events.filter((e) => e.event === 'approval_requested')).toEqual([]);
    expect(events).toEqual(expect.arrayContaining([expect.objectContaining({ stepId: 'ask_finance', reason: 'policy_denied' })]));
    expect(called.filter((c) => c.startsWith(`${id}/ask_finance`))).toEqual([]);
  });

  it('a step the org refuses fails the run before anything acts or anyone is asked, wherever it comes in the run; lifting the policy later changes nothing for it', async () => {
    await setPolicy(pool, orgs.lifted, { deniedTools: ['zendesk.reply_ticket'] });
    const spec = refundsEmployee(`emp-${randomUUID()}`, orgs.lifted);
    const reply = spec.workflows[0]?.steps.find((st) => st.id === 'reply');
    if (!reply) throw new Error('no reply step');
    // the reply comes after the refund and finance's word: refused at plan all the same, so no money moves untold
    reply.dependsOn = ['refund', 'ask_finance'];
    await registerEmployee(pool, spec);
    const id = randomUUID();
    await runner.start({
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 900, paymentId: 'pi_9', ticketId: 'T-9', subject: 's' }),
      orgId: orgs.lifted,
    });
    const result = await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === id)[0],
      `result of ${id}`,
    );
    expect(result).toMatchObject({ status: 'failed', error: { code: 'policy_denied' } });
    expect(result.error?.message).toMatch(/step reply is refused by the org's policy .*nothing was done/);
    expect(collector.of('HILPrompt', (p) => p.executionId === id)).toEqual([]);
    expect(called.filter((c) => c.startsWith(`${id}/`))).toEqual([]);
    await setPolicy(pool, orgs.lifted, {});
  });

  it('a call the policy refuses only once it is made spends none of the tool-call budget: the next step still runs (§12: policy before budget)', async () => {
    await setPolicy(pool, orgs.deniedOnBudget, {
      argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 300 }],
      budgets: { maxToolCalls: 1 },
    });
    const spec = refundsEmployee(`emp-${randomUUID()}`, orgs.deniedOnBudget);
    const refund = spec.workflows[0]?.steps.find((st) => st.id === 'refund');
    if (!refund) throw new Error('no refund step');
    // the amount is asked of a person when the run starts: the plan cannot know it is over the limit
    refund.inputs.amount = { ask: true };
    delete refund.when;
    await registerEmployee(pool, spec);
    const id = randomUUID();
    await runner.start({
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 40, paymentId: 'pi_2', ticketId: 'T-2', subject: 's' }),
      orgId: orgs.deniedOnBudget,
    });
    const asked = await collector.until(() => collector.of('HILPrompt', (p) => p.executionId === id)[0], `prompt of ${id}`);
    const question = asked.kind === 'questions' ? (asked.questions[0]?.id ?? '') : '';
    await runner.respond(
      makeFact(
        'HILResponse',
        { orgId: orgs.deniedOnBudget, correlation: { ...asked.correlation, userId: 'u-admin' } },
        { executionId: id, promptId: asked.promptId, kind: 'questions', payload: { answers: { [question]: '900' } } },
      ),
    );
    const result = await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === id)[0],
      `result of ${id}`,
    );
    expect(result).toMatchObject({ status: 'failed', error: { code: 'policy_denied' } });
    expect(result.output?.steps).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stepId: 'refund', status: 'failed' }),
        { stepId: 'reply', status: 'succeeded' },
      ]),
    );
    expect(called.filter((c) => c.startsWith(`${id}/`))).toEqual([`${id}/reply`]);
  });

  it('a high-risk step nobody was asked about (past the budget when approvals were asked) is not called when a refused call frees the budget', async () => {
    await setPolicy(pool, orgs.unasked, {
      argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 300 }],
      budgets: { maxToolCalls: 1 },
    });
    const spec = refundsEmployee(`emp-${randomUUID()}`, orgs.unasked);
    const flow = spec.workflows[0] as (typeof spec.workflows)[number];
    const refund = flow.steps.find((st) => st.id === 'refund');
    if (!refund) throw new Error('no refund step');
    // the refund (high-risk, its amount asked) and finance's word (high-risk) are called in one batch; no reply
    refund.risk = 'high';
    refund.inputs.amount = { ask: true };
    delete refund.when;
    flow.steps = flow.steps.filter((st) => st.id !== 'reply');
    await registerEmployee(pool, spec);
    const id = randomUUID();
    await runner.start({
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 500, paymentId: 'pi_3', ticketId: 'T-3', subject: 's' }),
      orgId: orgs.unasked,
    });
    const answerPrompt = async (seen: number, payload: AnswerPayload) => {
      const prompt = await collector.until(
        () => [...new Map(collector.of('HILPrompt', (p) => p.executionId === id).map((p) => [p.promptId, p])).values()][seen],
        `prompt #${seen + 1} of ${id}`,
      );
      const filled =
        prompt.kind === 'questions' ? { answers: Object.fromEntries(prompt.questions.map((q) => [q.id, '900'])) } : payload;
      await runner.respond(
        makeFact(
          'HILResponse',
          { orgId: orgs.unasked, correlation: { ...prompt.correlation, userId: 'u-admin' } },
          { executionId: id, promptId: prompt.promptId, kind: prompt.kind, payload: filled },
        ),
      );
      return prompt;
    };
    // the amount (900, over the limit: refused only when called), then the refund's approval; finance's is never asked
    await answerPrompt(0, { answers: {} });
    const approval = await answerPrompt(1, { selected: ['approve'] });
    expect(approval.messages[0]).toContain('refund');
    const result = await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === id)[0],
      `result of ${id}`,
    );
    expect(collector.of('HILPrompt', (p) => p.executionId === id).map((p) => p.promptId)).toHaveLength(2);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'policy_denied' } });
    expect(result.output?.steps?.find((st) => st.stepId === 'ask_finance')).toMatchObject({ status: 'not_run' });
    expect(called.filter((c) => c.startsWith(`${id}/`))).toEqual([]);
  });

  it('a run that meets an open circuit fails with circuit_open, and its summary names it', async () => {
    failing = true;
    const first = await run(orgs.broken);
    expect(first.result).toMatchObject({ status: 'failed', error: { code: 'tool_failed' } });
    failing = false;
    const { id, result } = await run(orgs.broken);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'circuit_open' } });
    expect(result.output?.summary).toMatch(/circuit of this tool is open after 1 consecutive failures/);
    expect(called.filter((c) => c.startsWith(`${id}/`))).toEqual([]);
  });

  it('at its budget of steps the run completes early, saying which steps are left; a step off its branch spends none', async () => {
    const { id, result } = await run(orgs.budgeted, (spec) => {
      spec.compiled.budgets.maxSteps = 1;
    });
    expect(result.status).toBe('completed');
    expect(result.output?.steps).toEqual([
      { stepId: 'refund', status: 'succeeded' },
      { stepId: 'ask_finance', status: 'not_run', detail: 'its condition does not hold' },
      { stepId: 'reply', status: 'not_run', detail: 'the run reached its budget of steps' },
    ]);
    expect(result.output?.summary).toContain('completed early (budget_exceeded)');
    await collector.until(
      () =>
        collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'budget_exceeded' && e.detail === 'steps')[0],
      'budget_exceeded',
    );
  });

  /** With the org's budget of one tool call, whatever the spec says of its own: the refund, then nothing. */
  const cappedAtOneCall = async (spec: (s: ReturnType<typeof refundsEmployee>) => void) => {
    await setPolicy(pool, orgs.defaulted, { budgets: { maxToolCalls: 1 } });
    const { id, result } = await run(orgs.defaulted, spec);
    expect(result.status).toBe('completed');
    expect(result.output?.steps?.map((st) => [st.stepId, st.status])).toEqual([
      ['refund', 'succeeded'],
      ['ask_finance', 'not_run'],
      ['reply', 'not_run'],
    ]);
    expect(called.filter((c) => c.startsWith(`${id}/`))).toEqual([`${id}/refund`]);
  };

  it('an org policy’s tool-call budget below the spec’s own caps the run: the admin’s limit holds over every employee', () =>
    cappedAtOneCall((spec) => {
      (spec.compiled.budgets as { maxToolCalls: number }).maxToolCalls = 10;
    }));

  it('a spec without a tool-call budget takes the org policy’s default', () =>
    cappedAtOneCall((spec) => {
      delete (spec.compiled.budgets as { maxToolCalls?: number }).maxToolCalls;
    }));
});
