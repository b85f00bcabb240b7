/**
 * Quiet hours that defer (ARCHITECTURE §12): a high-risk step inside them is not made, the run waits,
 * and once they end (an injected clock moved past them) the runner's wake-up resumes it from its
 * checkpoint and the step is made — once. Real Kafka, Postgres and LangGraph; no timers.
 */
import { randomUUID } from 'node:crypto';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createCheckpointer, createKafka, createLogger, createPool } from '@hireloop/platform';
import { builtInCatalog, type RunIntent, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { conversationAdapter } from '../src/conversation/adapter';
import { ExecutionRunner } from '../src/runner';
import { runtimeAdapter } from '../src/runtime/adapter';
import { postgresSpecs } from '../src/runtime/specs';
import { staticCatalog } from '../src/tools/catalog';
import type { Connector } from '../src/tools/connector';
import { Connectors } from '../src/tools/connectors';
import { postgresEffects } from '../src/tools/effects';
import { fixedScopes, postgresPolicies } from '../src/tools/guards';
import { ToolRegistry } from '../src/tools/registry';
import { sandboxConnector } from '../src/tools/sandbox';
import { refundsEmployee } from './fixtures/refunds-employee';
import { setPolicy } from './policies';
import { registerEmployee, runIntent } from './runtime-harness';

const log = createLogger('quiet-hours-test', 'silent');

describe('quiet hours that defer a high-risk step (real Kafka, Postgres, LangGraph; an injected clock)', () => {
  const prefix = inject('topicPrefix');
  const kafka = createKafka({ clientId: 'quiet-hours-test', brokers: inject('kafkaBrokers'), log });
  const pool = createPool(inject('databaseUrl'));
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const collector = new FactCollector(kafka, prefix, [Topics.executionResult, Topics.executionEvents, Topics.hilPrompt]);
  const checkpointer = createCheckpointer(pool);
  // 23:30 UTC, inside quiet hours 22:00–07:00 UTC
  const clock = { t: new Date('2026-11-24T23:30:00Z'), now: () => clock.t };
  const called: string[] = [];
  const connector: Connector = {
    call: async (capability, a, ctx) => {
      called.push(`${ctx.executionId}/${ctx.stepId}`);
      return sandboxConnector.call(capability, a, ctx);
    },
  };
  const org = `org-${randomUUID()}`;
  const approving = `org-${randomUUID()}`;
  const lifting = `org-${randomUUID()}`;
  const policies = postgresPolicies(pool);
  const tools = new ToolRegistry({
    catalog: staticCatalog(builtInCatalog.capabilities),
    connectors: new Connectors({ slack: connector, stripe: connector, zendesk: connector }),
    effects: postgresEffects(pool),
    clock,
    rails: {
      scopes: fixedScopes({
        [org]: ['zendesk', 'slack', 'stripe'],
        [approving]: ['zendesk', 'slack', 'stripe'],
        [lifting]: ['zendesk', 'slack', 'stripe'],
      }),
      policies,
      retries: 0,
    },
  });
  const runner = new ExecutionRunner({
    adapter: conversationAdapter(checkpointer),
    runtime: runtimeAdapter(checkpointer, { specs: postgresSpecs(pool), tools, clock }),
    pool,
    publisher,
    log,
    clock,
    checkpoints: checkpointer,
  });
  beforeAll(async () => {
    await publisher.connect();
    await collector.start();
    await setPolicy(pool, org, { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' } });
    await setPolicy(pool, approving, { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'approval' } });
  });
  afterAll(async () => {
    await collector.stop();
    await publisher.disconnect();
    await pool.end();
  });

  it('given quiet hours that defer, when a high-risk step falls inside them, then the run waits and makes it once they end', async () => {
    const spec = refundsEmployee(`emp-${randomUUID()}`, org);
    await registerEmployee(pool, spec);
    const id = randomUUID();
    const intent: RunIntent = {
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 40, paymentId: 'pi_1', ticketId: 'T-1', subject: 's' }),
      orgId: org,
    };
    await runner.start(intent);

    // deferred: nothing called, no result, the time it goes on remembered
    const deferred = await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'step_deferred')[0],
      'step_deferred',
    );
    expect(deferred).toMatchObject({ stepId: 'refund', reason: 'quiet_hours', deadline: '2026-11-25T07:00:00.000Z' });
    expect(called.filter((c) => c.startsWith(id))).toEqual([]);
    const { rows } = await pool.query<{ until: Date }>('SELECT until FROM deferred_runs WHERE execution_id = $1', [id]);
    expect(rows.map((r) => r.until.toISOString())).toEqual(['2026-11-25T07:00:00.000Z']);

    // a wake-up before the end changes nothing
    clock.t = new Date('2026-11-25T06:59:00Z');
    expect(await runner.wakeDue()).toBe(0);
    expect(called.filter((c) => c.startsWith(id))).toEqual([]);

    // after it, the run goes on from its checkpoint: the refund is made, then the reply; completed
    clock.t = new Date('2026-11-25T07:00:30Z');
    expect(await runner.wakeDue()).toBe(1);
    const result = await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === id)[0],
      `result of ${id}`,
    );
    expect(result.status).toBe('completed');
    expect(result.output?.steps).toEqual(
      expect.arrayContaining([
        { stepId: 'refund', status: 'succeeded' },
        { stepId: 'reply', status: 'succeeded' },
      ]),
    );
    expect(called.filter((c) => c === `${id}/refund`)).toEqual([`${id}/refund`]);
    // the events and the result go out in one send, on two topics: the collector may read either first
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'step_resumed')[0],
      'step_resumed',
    );
    expect(collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'step_resumed')).toHaveLength(1);
    // the timeline reads "wait" entered as well as left (on execution-events: step_resumed travels on execution-result)
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'node_enter' && e.node === 'wait')[0],
      'the wait node entered',
    );
    expect(
      collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'node_enter' && e.node === 'wait'),
    ).toHaveLength(1);
    // the deferral's refusal is in the effects, beside the call made later
    const effects = await pool.query<{ status: string; code: string | null }>(
      `SELECT status, error->>'code' AS code FROM tool_effects WHERE execution_id = $1 AND step_id = 'refund' ORDER BY at`,
      [id],
    );
    expect(effects.rows).toEqual([
      { status: 'failed', code: 'quiet_hours' },
      { status: 'succeeded', code: null },
    ]);
    // woken once: a second wake-up finds nothing
    expect(await runner.wakeDue()).toBe(0);
  });

  /** Answers each prompt of a run as `choose` says, until its result. */
  async function answerUntilResult(id: string, choose: (message: string) => 'approve' | 'reject') {
    const asked: string[] = [];
    for (;;) {
      const result = collector.of('ExecutionResult', (r) => r.executionId === id)[0];
      if (result) return { result, asked };
      const prompt = collector.of('HILPrompt', (p) => p.executionId === id)[asked.length];
      if (!prompt) {
        await new Promise((r) => setTimeout(r, 50));
        continue;
      }
      asked.push(prompt.messages.join(' '));
      await runner.respond(
        makeFact(
          'HILResponse',
          { orgId: approving, correlation: { ...prompt.correlation, userId: 'u-admin' } },
          {
            executionId: id,
            promptId: prompt.promptId,
            kind: 'options',
            payload: { selected: [choose(prompt.messages[0] ?? '')] },
          },
        ),
      );
    }
  }

  it('given quiet hours that ask for approval, when steps the spec calls low-risk but the catalog high-risk fall inside them, then a person is asked for each and, approved, they are made', async () => {
    clock.t = new Date('2026-11-26T23:30:00Z');
    const spec = refundsEmployee(`emp-${randomUUID()}`, approving);
    await registerEmployee(pool, spec);
    expect(spec.workflows[0]?.steps.filter((st) => st.risk === 'high').map((st) => st.id)).toEqual(['ask_finance']);
    const id = randomUUID();
    await runner.start({
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 40, paymentId: 'pi_2', ticketId: 'T-2', subject: 's' }),
      orgId: approving,
    });
    // nothing is called before a person's word
    await collector.until(() => collector.of('HILPrompt', (p) => p.executionId === id)[0], `prompt of ${id}`);
    expect(called.filter((c) => c.startsWith(id))).toEqual([]);
    const { result, asked } = await answerUntilResult(id, () => 'approve');
    // the refund and the reply (both high-risk by the catalog) were asked about, each saying why
    expect(asked).toHaveLength(2);
    expect(asked[0]).toContain('refund');
    expect(asked[1]).toContain('reply');
    for (const text of asked) expect(text).toContain('quiet hours');
    expect(result.status).toBe('completed');
    expect(called.filter((c) => c.startsWith(id)).sort()).toEqual([`${id}/refund`, `${id}/reply`]);
  });

  it('given quiet hours that ask for approval, when the approver rejects the refund, then it is not made and the run says so', async () => {
    clock.t = new Date('2026-11-27T23:30:00Z');
    const spec = refundsEmployee(`emp-${randomUUID()}`, approving);
    await registerEmployee(pool, spec);
    const id = randomUUID();
    await runner.start({
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 40, paymentId: 'pi_3', ticketId: 'T-3', subject: 's' }),
      orgId: approving,
    });
    const { result } = await answerUntilResult(id, (message) => (message.includes('refund') ? 'reject' : 'approve'));
    expect(result.output?.steps).toEqual(
      expect.arrayContaining([{ stepId: 'refund', status: 'rejected', detail: 'rejected by the approver' }]),
    );
    expect(called.filter((c) => c === `${id}/refund`)).toEqual([]);
  });

  it('given a run deferred by quiet hours, when the org lifts them, then it goes on at the next wake-up, not at their old end', async () => {
    await setPolicy(pool, lifting, { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' } });
    clock.t = new Date('2026-11-28T23:30:00Z');
    const spec = refundsEmployee(`emp-${randomUUID()}`, lifting);
    await registerEmployee(pool, spec);
    const id = randomUUID();
    await runner.start({
      ...runIntent(id, spec.employeeId, 'refunds', { amount: 40, paymentId: 'pi_4', ticketId: 'T-4', subject: 's' }),
      orgId: lifting,
    });
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'step_deferred')[0],
      'step_deferred',
    );
    // quiet hours still on: it waits
    clock.t = new Date('2026-11-28T23:35:00Z');
    await runner.wakeDue();
    expect(called.filter((c) => c.startsWith(id))).toEqual([]);
    // lifted: it goes on now, hours before their old end
    await setPolicy(pool, lifting, {});
    clock.t = new Date('2026-11-28T23:36:00Z');
    expect(await runner.wakeDue()).toBeGreaterThanOrEqual(1);
    const result = await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === id)[0],
      `result of ${id}`,
    );
    expect(result.status).toBe('completed');
    expect(called.filter((c) => c === `${id}/refund`)).toEqual([`${id}/refund`]);
  });
});
