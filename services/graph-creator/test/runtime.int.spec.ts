import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createCheckpointer, createKafka, createLogger, createPool } from '@hireloop/platform';
import {
  type AnswerPayload,
  builtInCatalog,
  type CatalogCapability,
  type EmployeeGraphSpec,
  type HILPrompt,
  type HILResponse,
  Topics,
} from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { conversationAdapter } from '../src/conversation/adapter';
import { ExecutionRunner } from '../src/runner';
import { runtimeAdapter } from '../src/runtime/adapter';
import { postgresSpecs } from '../src/runtime/specs';
import { staticCatalog, withExtra } from '../src/tools/catalog';
import type { Connector } from '../src/tools/connector';
import { Connectors } from '../src/tools/connectors';
import { postgresEffects } from '../src/tools/effects';
import { httpConnector, webhookConnector } from '../src/tools/http';
import { ToolRegistry } from '../src/tools/registry';
import { sandboxConnector } from '../src/tools/sandbox';
import { refundsEmployee } from './fixtures/refunds-employee';
import { registerEmployee, runIntent } from './runtime-harness';

const log = createLogger('runtime-test', 'silent');

/**
 * A sandbox that notes how many calls of one run were in flight at once, and waits for company: a
 * little for any run, up to 10 s for a run said to expect a pair (its second call may come late on a
 * loaded machine, after the registry's checks in Postgres); the wait ends as soon as the partner comes.
 */
function probe(): Connector & { maxInFlight: Map<string, number>; expectPair: (executionId: string) => void } {
  const inFlight = new Map<string, number>();
  const maxInFlight = new Map<string, number>();
  const paired = new Set<string>();
  return {
    maxInFlight,
    expectPair: (executionId) => paired.add(executionId),
    call: async (capability, args, ctx) => {
      const n = (inFlight.get(ctx.executionId) ?? 0) + 1;
      inFlight.set(ctx.executionId, n);
      maxInFlight.set(ctx.executionId, Math.max(n, maxInFlight.get(ctx.executionId) ?? 0));
      const deadline = Date.now() + (paired.has(ctx.executionId) ? 10_000 : 500);
      // until both calls of a pair have been seen in flight together (the later one finds it so at once)
      while ((maxInFlight.get(ctx.executionId) ?? 0) < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      inFlight.set(ctx.executionId, (inFlight.get(ctx.executionId) ?? 1) - 1);
      return sandboxConnector.call(capability, args, ctx);
    },
  };
}

describe('an employee run on the worker (real LangGraph + PostgresSaver, real Kafka, real HTTP)', () => {
  const prefix = inject('topicPrefix');
  const kafka = createKafka({ clientId: 'runtime-test', brokers: inject('kafkaBrokers'), log });
  const pool = createPool(inject('databaseUrl'));
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const collector = new FactCollector(kafka, prefix, [Topics.hilPrompt, Topics.executionResult, Topics.executionEvents]);
  const checkpointer = createCheckpointer(pool);
  const refundOutput: CatalogCapability = {
    ...(builtInCatalog.capabilities.find((c) => c.id === 'stripe.refund_payment') as CatalogCapability),
    outputSchema: {
      type: 'object',
      properties: { refundId: { type: 'string', description: 'refund id' }, status: { type: 'string', description: 'status' } },
      required: ['refundId', 'status'],
      additionalProperties: false,
    },
  };
  const capabilities = builtInCatalog.capabilities.map((c) => (c.id === refundOutput.id ? refundOutput : c));
  const zendesk = probe();
  const connectors = new Connectors({ http: httpConnector(), webhook: webhookConnector(), zendesk, stripe: zendesk });
  const effects = postgresEffects(pool);
  const tools = new ToolRegistry({
    catalog: withExtra(staticCatalog(capabilities), connectors.extraCapabilities()),
    connectors,
    effects,
  });
  // as the worker's main wires them: a cancel the runner notes is one the runtime graph's execute node sees
  const cancels = new Set<string>();
  const runtime = runtimeAdapter(checkpointer, {
    specs: postgresSpecs(pool),
    tools,
    parallelism: 4,
    cancelRequested: (executionId) => cancels.has(executionId),
  });
  const runner = new ExecutionRunner({
    adapter: conversationAdapter(checkpointer),
    runtime,
    pool,
    publisher,
    log,
    checkpoints: checkpointer,
    cancels,
  });

  const received: { path: string; headers: IncomingMessage['headers']; body: string }[] = [];
  // a call to /slow is answered when the test lets it go
  let letSlowGo: () => void = () => {};
  const slowLetGo = new Promise<void>((r) => {
    letSlowGo = r;
  });
  let server: Server;
  let base = '';

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => {
        body += d.toString();
      });
      req.on('end', () => {
        received.push({ path: req.url ?? '', headers: req.headers, body });
        if (req.url === '/fail') {
          res.writeHead(503).end('down');
          return;
        }
        // a provider whose answer holds a NUL, which no fact or jsonb column can carry
        if (req.url === '/nul') {
          res.writeHead(200, { 'content-type': 'text/plain' }).end('a\u0000b');
          return;
        }
        if (req.url === '/nul-refused') {
          res.writeHead(400, { 'content-type': 'text/plain' }).end('bad\u0000input');
          return;
        }
        if (req.url === '/slow') {
          void slowLetGo.then(() => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, echo: body }));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await publisher.connect();
    await collector.start();
  });
  afterAll(async () => {
    await collector.stop();
    await publisher.disconnect();
    await new Promise((r) => server.close(r));
    await pool.end();
  });

  const employee = async (spec: EmployeeGraphSpec = refundsEmployee(`emp-${randomUUID()}`)) => {
    await registerEmployee(pool, spec);
    return spec;
  };
  const promptsOf = (id: string) => [
    ...new Map(collector.of('HILPrompt', (p) => p.executionId === id).map((p) => [p.promptId, p])).values(),
  ];
  const nextPrompt = (id: string, seen: number) => collector.until(() => promptsOf(id)[seen], `prompt #${seen + 1} of ${id}`);
  const resultOf = (id: string) =>
    collector.until(() => collector.of('ExecutionResult', (r) => r.executionId === id)[0], `result of ${id}`);
  const eventsOf = (id: string) => collector.of('ExecutionEvent', (e) => e.executionId === id);
  const answer = (prompt: HILPrompt, payload: AnswerPayload, userId = 'u-admin'): HILResponse =>
    makeFact(
      'HILResponse',
      { orgId: prompt.orgId, correlation: { ...prompt.correlation, userId } },
      { executionId: prompt.executionId, promptId: prompt.promptId, kind: prompt.kind, payload },
    );
  const effectRows = async (id: string) => Object.fromEntries((await effects.list(id)).map((e) => [e.stepId, e]));

  it('a missing required input → a questions prompt; the answer resumes the run', async () => {
    const spec = await employee();
    const id = randomUUID();
    await runner.start(runIntent(id, spec.employeeId, 'refunds', { amount: 40, paymentId: 'pi_1', subject: 'Refund please' }));
    const prompt = await nextPrompt(id, 0);
    expect(prompt.kind).toBe('questions');
    expect(prompt.kind === 'questions' && prompt.questions.map((q) => q.id)).toEqual(['reply.ticketId']);
    // the run's prompts go to the employee's owner
    expect(prompt.correlation.userId).toBe('u-owner');
    // answered by another user of the org (an admin): the worker accepts the org
    await runner.respond(answer(prompt, { answers: { 'reply.ticketId': 'T-9' } }));
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    expect(result.output?.steps).toEqual([
      { stepId: 'refund', status: 'succeeded' },
      { stepId: 'ask_finance', status: 'not_run', detail: 'its condition does not hold' },
      { stepId: 'reply', status: 'succeeded' },
    ]);
    const rows = await effectRows(id);
    expect(rows.reply).toMatchObject({ status: 'succeeded', args: { ticketId: 'T-9', body: expect.any(String) } });
    expect(rows.refund).toMatchObject({ status: 'succeeded', args: { paymentId: 'pi_1', amount: 40 } });
    expect(rows.refund?.output?.refundId).toMatch(/^stripe_sbx_/);
    expect(rows.ask_finance).toMatchObject({ status: 'skipped', error: { code: 'condition_false' } });
    // every effect rides on an event, the effects list can be projected from the facts
    const carriers = () => eventsOf(id).flatMap((e) => (e.effect ? [e.effect.idempotencyKey] : []));
    await collector.until(() => carriers().length >= 3 || undefined, 'three effects on events');
    const carried = carriers();
    expect(new Set(carried)).toEqual(new Set(Object.values(rows).map((e) => e.idempotencyKey)));
    const kinds = eventsOf(id).map((e) => e.event);
    expect(kinds).toEqual(expect.arrayContaining(['node_enter', 'node_exit', 'tool_called', 'tool_succeeded']));
  });

  it('a run answered from a conversation asks its next question there, of whoever answered', async () => {
    const spec = await employee();
    const id = randomUUID();
    // no ticket id: a questions prompt first; over 100: then the approval of ask_finance
    await runner.start(runIntent(id, spec.employeeId, 'refunds', { amount: 150, paymentId: 'pi_7', subject: 'Big refund' }));
    const first = await nextPrompt(id, 0);
    expect(first.correlation.conversationId).toBeUndefined();
    const fromSocket = answer(first, { answers: { 'reply.ticketId': 'T-7' } });
    fromSocket.correlation = { ...fromSocket.correlation, conversationId: 'conv-admin' };
    await runner.respond(fromSocket);
    const second = await nextPrompt(id, 1);
    expect(second.kind).toBe('options');
    expect(second.correlation).toMatchObject({ conversationId: 'conv-admin', userId: 'u-admin' });
  });

  it('independent steps run in parallel', async () => {
    const spec = await employee();
    const id = randomUUID();
    zendesk.expectPair(id);
    await runner.start(
      runIntent(id, spec.employeeId, 'refunds', { amount: 10, paymentId: 'pi_2', ticketId: 'T-1', subject: 's' }),
    );
    expect((await resultOf(id)).status).toBe('completed');
    expect(zendesk.maxInFlight.get(id)).toBe(2);
  });

  it('a high-risk step waits for approve; approved, it runs', async () => {
    const spec = await employee();
    const id = randomUUID();
    await runner.start(
      runIntent(id, spec.employeeId, 'refunds', { amount: 150, paymentId: 'pi_3', ticketId: 'T-2', subject: 'Big refund' }),
    );
    const prompt = await nextPrompt(id, 0);
    expect(prompt.kind).toBe('options');
    expect(prompt.kind === 'options' && prompt.options.map((o) => o.id)).toEqual(['approve', 'reject']);
    expect(prompt.messages.join('\n')).toContain('slack.post_message');
    expect(prompt.messages.join('\n')).toContain('#finance');
    expect(await effectRows(id)).toEqual({});
    await runner.respond(answer(prompt, { selected: ['approve'] }));
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    expect(result.output?.steps?.find((s) => s.stepId === 'ask_finance')?.status).toBe('succeeded');
    expect(result.output?.steps?.find((s) => s.stepId === 'refund')?.status).toBe('not_run');
    await collector.until(() => eventsOf(id).find((e) => e.event === 'approval_granted'), 'approval_granted');
    const kinds = eventsOf(id).map((e) => `${e.event}:${e.stepId ?? ''}`);
    expect(kinds).toEqual(expect.arrayContaining(['approval_requested:ask_finance', 'approval_granted:ask_finance']));
  });

  it('a rejected step is skipped and said so in the summary', async () => {
    const spec = await employee();
    const id = randomUUID();
    await runner.start(
      runIntent(id, spec.employeeId, 'refunds', { amount: 500, paymentId: 'pi_4', ticketId: 'T-3', subject: 'Huge refund' }),
    );
    await runner.respond(answer(await nextPrompt(id, 0), { selected: ['reject'] }));
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    expect(result.output?.steps?.find((s) => s.stepId === 'ask_finance')).toMatchObject({ status: 'rejected' });
    expect(result.output?.summary).toMatch(/ask_finance \(slack\.post_message\): rejected — rejected by the approver/);
    const rows = await effectRows(id);
    expect(rows.ask_finance).toMatchObject({ status: 'rejected', args: { channel: '#finance', text: 'Huge refund' } });
    expect(rows.reply?.status).toBe('succeeded');
    const rejected = await collector.until(() => eventsOf(id).find((e) => e.event === 'approval_rejected'), 'approval_rejected');
    expect(rejected?.effect?.status).toBe('rejected');
  });

  const httpEmployee = (url: string, amount: unknown = 5): EmployeeGraphSpec => {
    const spec = refundsEmployee(`emp-${randomUUID()}`);
    const flow = spec.workflows[0] as EmployeeGraphSpec['workflows'][number];
    flow.trigger = { triggerId: 'webhook.incoming_webhook', params: {} };
    flow.steps = [
      {
        id: 'call',
        capabilityId: 'http.request',
        purpose: 'Tell the billing API',
        inputs: { method: { value: 'POST' }, url: { value: url }, body: { from: 'trigger', path: 'note' } },
        risk: 'low',
        dependsOn: [],
      },
      {
        id: 'notify',
        capabilityId: 'webhook.send',
        purpose: 'Pass the answer on',
        inputs: {
          url: { value: `${url}/hook` },
          payload: { from: 'step', stepId: 'call', path: '' },
          secret: { value: 's3cret' },
        },
        when: { source: { from: 'step', stepId: 'call', path: 'status' }, op: 'eq', value: 200 },
        risk: 'low',
        dependsOn: ['call'],
      },
      {
        id: 'refund',
        capabilityId: 'stripe.refund_payment',
        purpose: 'Refund',
        inputs: { paymentId: { value: 'pi_x' }, amount: { value: amount as number } },
        risk: 'low',
        dependsOn: ['notify'],
      },
    ];
    return spec;
  };

  it('a high-risk step that depends on a rejected one is asked of nobody: it does not run, and the run completes', async () => {
    const spec = refundsEmployee(`emp-${randomUUID()}`);
    const flow = spec.workflows[0] as EmployeeGraphSpec['workflows'][number];
    // the reply is high-risk too, and waits for finance's word
    flow.steps = flow.steps.map((st) => (st.id === 'reply' ? { ...st, risk: 'high' as const, dependsOn: ['ask_finance'] } : st));
    await employee(spec);
    const id = randomUUID();
    await runner.start(
      runIntent(id, spec.employeeId, 'refunds', { amount: 500, paymentId: 'pi_5', ticketId: 'T-5', subject: 'Huge refund' }),
    );
    const first = await nextPrompt(id, 0);
    expect(first.messages[0]).toContain('ask_finance');
    await runner.respond(answer(first, { selected: ['reject'] }));
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    expect(promptsOf(id)).toHaveLength(1);
    expect(result.output?.steps?.find((st) => st.stepId === 'reply')).toMatchObject({ status: 'not_run' });
    expect((await effectRows(id)).reply).toMatchObject({ status: 'skipped', error: { code: 'dependency_not_run' } });
  });

  it('http.request and webhook.send call a real server; a `when` over a step output is decided after that step', async () => {
    const spec = await employee(httpEmployee(`${base}/billing`));
    const id = randomUUID();
    await runner.start(runIntent(id, spec.employeeId, 'refunds', { note: '{"refund":5}' }));
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    const call = received.find((r) => r.path === '/billing' && r.body === '{"refund":5}');
    expect(call?.headers['idempotency-key']).toMatch(new RegExp(`^${id}/call/`));
    const rows = await effectRows(id);
    expect(rows.call?.output).toMatchObject({ status: 200, body: JSON.stringify({ ok: true, echo: '{"refund":5}' }) });
    const hook = received.find(
      (r) => r.path === '/billing/hook' && r.headers['x-hireloop-delivery'] === rows.notify?.idempotencyKey,
    );
    expect(hook?.headers['x-hireloop-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(JSON.parse(hook?.body ?? '{}')).toMatchObject({ status: 200 });
    expect(rows.notify?.status).toBe('succeeded');
    expect(rows.refund?.status).toBe('succeeded');
  });

  it("a provider's answer or error holding a NUL is kept, made storable: the effect is recorded and the run ends with its summary", async () => {
    const ok = await employee(httpEmployee(`${base}/nul`));
    const id = randomUUID();
    await runner.start(runIntent(id, ok.employeeId, 'refunds', { note: '{}' }));
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    expect((await effectRows(id)).call).toMatchObject({ status: 'succeeded', output: { status: 200, body: 'a\ufffdb' } });
    const refused = await employee(httpEmployee(`${base}/nul-refused`));
    const other = randomUUID();
    await runner.start(runIntent(other, refused.employeeId, 'refunds', { note: '{}' }));
    const failed = await resultOf(other);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'tool_failed' } });
    expect(failed.output?.summary).toContain('call (http.request): failed');
    const row = (await effectRows(other)).call;
    expect(row?.status).toBe('failed');
    expect(row?.error?.message).toContain('bad\ufffdinput');
  });

  it('a failing HTTP call fails the run with tool_failed; the steps after it do not run', async () => {
    const spec = await employee(httpEmployee(`${base}/fail`));
    const id = randomUUID();
    await runner.start(runIntent(id, spec.employeeId, 'refunds', { note: '{}' }));
    const result = await resultOf(id);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'tool_failed' } });
    expect(result.output?.steps?.map((s) => s.status)).toEqual(['failed', 'not_run', 'not_run']);
    // the events and the result go out in one publishAll, but on two topics: wait for the events
    const failed = await collector.until(() => eventsOf(id).find((e) => e.event === 'tool_failed'), 'tool_failed');
    expect(failed.effect?.error?.code).toBe('server_error');
  });

  it('a cancel that comes while a step is being called: the call in flight is stopped and not tried again, no later step is called, and the run ends cancelled, saying so', async () => {
    const spec = await employee(httpEmployee(`${base}/slow`));
    const id = randomUUID();
    const started = runner.start(runIntent(id, spec.employeeId, 'refunds', { note: '{}' }));
    await collector.until(() => received.find((r) => r.path === '/slow'), 'the slow call to be made');
    const cancel = {
      ...runIntent(id, spec.employeeId, 'refunds', {}),
      id: randomUUID(),
      action: 'cancel' as const,
      reason: 'requested' as const,
    };
    // the provider never answers while the run is cancelled: the run does not wait for it (nor for its timeout)
    await Promise.all([started, runner.cancel(cancel)]);
    const result = await resultOf(id);
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'cancelled' } });
    expect(result.output?.summary).toMatch(/was cancelled while it ran/);
    // the call stopped in flight may have acted: it is said so, not "not run"
    expect(result.output?.steps).toEqual([
      { stepId: 'call', status: 'failed', detail: expect.stringContaining('acted is not known') },
      expect.objectContaining({ status: 'not_run' }),
      expect.objectContaining({ status: 'not_run' }),
    ]);
    const rows = await effectRows(id);
    expect(rows.call).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    expect(rows.notify).toBeUndefined();
    expect(rows.refund).toBeUndefined();
    letSlowGo();
    await new Promise((r) => setTimeout(r, 300));
    // one attempt, none after the cancel; no later step
    expect(received.filter((r) => r.path === '/slow')).toHaveLength(1);
    expect(received.some((r) => r.path === '/slow/hook')).toBe(false);
    expect(collector.of('ExecutionResult', (r) => r.executionId === id)).toHaveLength(1);
  });

  it('a sandboxed call is validated against the input schema: bad arguments never reach the provider', async () => {
    const spec = await employee(httpEmployee(`${base}/billing`, -5));
    const id = randomUUID();
    await runner.start(runIntent(id, spec.employeeId, 'refunds', { note: 'x' }));
    const result = await resultOf(id);
    expect(result).toMatchObject({ status: 'failed', error: { code: 'tool_failed' } });
    const rows = await effectRows(id);
    expect(rows.refund).toMatchObject({ status: 'failed', error: { code: 'invalid_args' } });
    expect(rows.refund?.error?.message).toContain('/amount');
    expect(zendesk.maxInFlight.has(id)).toBe(false);
  });

  it('at its budget of tool calls the run stops calling tools and completes, saying what is left', async () => {
    const spec = refundsEmployee(`emp-${randomUUID()}`);
    (spec.compiled.budgets as { maxToolCalls: number }).maxToolCalls = 1;
    await employee(spec);
    const id = randomUUID();
    await runner.start(
      runIntent(id, spec.employeeId, 'refunds', { amount: 10, paymentId: 'pi_9', ticketId: 'T-9', subject: 's' }),
    );
    const result = await resultOf(id);
    expect(result.status).toBe('completed');
    expect(result.error).toBeUndefined();
    expect(result.output?.steps).toEqual([
      { stepId: 'refund', status: 'succeeded' },
      { stepId: 'ask_finance', status: 'not_run', detail: 'its condition does not hold' },
      { stepId: 'reply', status: 'not_run', detail: 'the run reached its budget of tool calls' },
    ]);
    expect(result.output?.summary).toContain('completed early (budget_exceeded)');
    expect(result.output?.summary).toContain(
      '- reply (zendesk.reply_ticket): not run — the run reached its budget of tool calls',
    );
    // no call past the limit: the reply step has no effect
    expect((await effectRows(id)).reply).toBeUndefined();
    await collector.until(
      () => eventsOf(id).find((e) => e.event === 'budget_exceeded' && e.stepId === 'reply'),
      'budget_exceeded',
    );
  });

  it('nobody is asked to approve a step the budget cannot reach; the run completes early and says the step was left', async () => {
    const spec = refundsEmployee(`emp-${randomUUID()}`);
    (spec.compiled.budgets as { maxToolCalls: number }).maxToolCalls = 1;
    // the reply is called first; asking finance (high-risk) waits for it, past the budget of one call
    const flow = spec.workflows[0] as EmployeeGraphSpec['workflows'][number];
    (flow.steps.find((st) => st.id === 'ask_finance') as { dependsOn: string[] }).dependsOn = ['reply'];
    await employee(spec);
    const id = randomUUID();
    await runner.start(
      runIntent(id, spec.employeeId, 'refunds', { amount: 500, paymentId: 'pi_8', ticketId: 'T-8', subject: 'Big' }),
    );
    const result = await resultOf(id);
    expect(promptsOf(id)).toHaveLength(0);
    expect(result.status).toBe('completed');
    expect(result.output?.steps).toEqual([
      { stepId: 'refund', status: 'not_run', detail: 'its condition does not hold' },
      { stepId: 'ask_finance', status: 'not_run', detail: 'the run reached its budget of tool calls' },
      { stepId: 'reply', status: 'succeeded' },
    ]);
    expect((await effectRows(id)).ask_finance).toBeUndefined();
  });

  it('an employee of another org, or an unknown workflow, fails the run with a reason', async () => {
    const spec = await employee(refundsEmployee(`emp-${randomUUID()}`, 'globex'));
    const id = randomUUID();
    await runner.start(runIntent(id, spec.employeeId, 'refunds', {}));
    expect(await resultOf(id)).toMatchObject({ status: 'failed', error: { code: 'unknown_employee' } });
    const mine = await employee();
    const other = randomUUID();
    await runner.start(runIntent(other, mine.employeeId, 'nope', {}));
    expect(await resultOf(other)).toMatchObject({ status: 'failed', error: { code: 'unknown_workflow' } });
  });
});
