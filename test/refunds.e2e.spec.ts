/**
 * The refunds specialist of ../shared/golden, end to end through the public protocols, every service its
 * own process: created in a chat over the socket, activated, fired by signed webhooks. A $250 refund
 * waits for a person's approval and, approved, is done once in the sandbox; a $40 refund runs without a
 * prompt; each run's summary names what it did and its effects list matches.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger } from '@hireloop/platform';
import { type ServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { type EmployeeGraphSpec, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { activate, api, chat, fireHook, parseMetrics, Stack, sumOf, token } from './stack';

const golden = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../shared/golden/refunds-specialist.json', import.meta.url)), 'utf8'),
) as { jobDescription: string; org: { connected: string[] } };

const ORG = `refunds-${randomUUID().slice(0, 8)}`;
const owner = token('rita', ORG);
const admin = token('ops', ORG, 'admin');

interface RunView {
  status: string;
  employeeId?: string;
  workflowId?: string;
  currentPrompt: {
    promptId: string;
    kind: 'options' | 'questions';
    options?: { id: string }[];
    questions?: { id: string }[];
  } | null;
  result: { status: string; output?: { summary?: string; steps?: { stepId: string; status: string }[] } } | null;
}
interface EffectView {
  stepId: string;
  capabilityId: string;
  idempotencyKey: string;
  status: string;
}

describe('the refunds specialist: created in a chat, activated, run by signed webhooks', () => {
  const stack = new Stack({ MAX_RUNNING_PER_ORG: '20' });
  const kafka = createKafka({
    clientId: 'refunds-e2e',
    brokers: inject('kafkaBrokers'),
    log: createLogger('refunds-e2e', 'silent'),
  });
  /** every RunIntent on the topic, repeats of one fact id included (the event store keeps a fact once) */
  const intents = new FactCollector(kafka, inject('topicPrefix'), [Topics.runIntent]);
  let gateway: string;
  let hub: string;
  let worker: ServiceProcess;

  beforeAll(async () => {
    const services = await stack.up();
    gateway = `http://127.0.0.1:${services.gateway.port}`;
    hub = `http://127.0.0.1:${services['connect-hub'].port}`;
    worker = services['graph-creator'];
    await intents.start();
  }, 240_000);
  afterAll(async () => {
    await intents.stop();
    await stack.down();
  });

  /** refund calls the worker's tool registry made (a replay of one already made is not counted) */
  const refundCalls = async () =>
    sumOf(parseMetrics(await (await fetch(worker.url('/metrics'))).text()).samples, 'hireloop_tool_calls_total', {
      capability: 'stripe.refund_payment',
    });

  let employee: EmployeeGraphSpec;
  let hook: { workflowId: string; url: string; secret: string };

  it('is created through the socket with scripted answers and activated', async () => {
    const connected = await api(hub, 'PUT', `/v1/orgs/${ORG}/connections`, { providers: golden.org.connected }, admin);
    expect(connected.status).toBe(200);

    const conversationId = randomUUID();
    const client = await chat(`${gateway.replace('http', 'ws')}/v1/chat`, owner, conversationId);
    client.send({ conversationId, text: golden.jobDescription });
    const result = await client.answerUntilResult(12, 90_000);
    client.socket.close();
    expect(result?.status).toBe('completed');
    employee = result?.output?.employee as EmployeeGraphSpec;
    expect(employee.validation.passed).toBe(true);
    const refundSteps = employee.workflows.flatMap((w) => w.steps).filter((s) => s.capabilityId === 'stripe.refund_payment');
    expect(refundSteps.length).toBeGreaterThan(0);

    await waitUntil(
      async () =>
        (await api(gateway, 'GET', `/v1/employees/${employee.employeeId}`, undefined, owner)).status === 200 ? true : undefined,
      'the employee registered',
    );
    const activated = await activate(gateway, employee.employeeId, owner);
    expect(activated.status).toBe(200);
    expect(activated.body.status).toBe('active');
    const ticketWorkflow = employee.workflows.find((w) => w.trigger.triggerId === 'zendesk.new_ticket');
    const found = activated.body.hooks.find((h) => h.workflowId === ticketWorkflow?.id);
    if (!found) throw new Error(`no hook for the ticket workflow: ${JSON.stringify(activated.body)}`);
    hook = found;
    await waitUntil(
      async () =>
        (await api<{ status?: string }>(gateway, 'GET', `/v1/employees/${employee.employeeId}`, undefined, owner)).body.status ===
        'active'
          ? true
          : undefined,
      'the employee shown active',
    );
  });

  const fire = async (delivery: string, ticket: Record<string, unknown>) => {
    const body = JSON.stringify(ticket);
    const res = await fireHook(hook.url, hook.secret, body, delivery);
    const answer = await res.text();
    expect(res.status, answer).toBe(202);
    return (JSON.parse(answer) as { executionId: string }).executionId;
  };
  const view = async (executionId: string) =>
    (await api<RunView>(gateway, 'GET', `/v1/executions/${executionId}`, undefined, owner)).body;
  const ended = (executionId: string) =>
    waitUntil(
      async () => {
        const v = await view(executionId);
        return v.result ? v : undefined;
      },
      `run ${executionId} ended`,
      120_000,
    );
  const effectsOf = async (executionId: string) =>
    (await api<EffectView[]>(gateway, 'GET', `/v1/executions/${executionId}/effects`, undefined, owner)).body;
  /** The effects once the event store shows one for every step the run's result lists. */
  const settledEffects = (executionId: string, steps: number) =>
    waitUntil(async () => {
      const effects = await effectsOf(executionId);
      return effects.length >= steps ? effects : undefined;
    }, 'every step’s effect projected');
  const promptsOf = async (executionId: string) =>
    (
      await api<{ events: { type: string }[] }>(gateway, 'GET', `/v1/executions/${executionId}/events`, undefined, owner)
    ).body.events.filter((e) => e.type === 'HILPrompt');

  it('a $40 refund runs without a prompt: refunded once in the sandbox, the ticket answered', async () => {
    const executionId = await fire('zd-40', {
      ticketId: 'T-40',
      subject: 'Please refund my order',
      description: 'The mug arrived broken.',
      requesterEmail: 'kim@example.com',
      amount: 40,
      paymentId: 'pi_40',
    });
    const done = await ended(executionId);
    expect(done.result?.status).toBe('completed');
    // the run says whose it is and which workflow started it
    expect(done).toMatchObject({ employeeId: employee.employeeId, workflowId: hook.workflowId });
    expect(await promptsOf(executionId)).toEqual([]);
    const effects = await settledEffects(executionId, done.result?.output?.steps?.length ?? 0);
    const refunds = effects.filter((e) => e.capabilityId === 'stripe.refund_payment' && e.status === 'succeeded');
    expect(refunds).toHaveLength(1);
    expect(effects.some((e) => e.capabilityId === 'zendesk.reply_ticket' && e.status === 'succeeded')).toBe(true);
    expect(effects.some((e) => e.capabilityId === 'slack.post_message' && e.status === 'succeeded')).toBe(false);
    // the summary names what was done, and the steps match the effects
    expect(done.result?.output?.summary).toMatch(/stripe\.refund_payment/);
    const succeeded = (done.result?.output?.steps ?? []).filter((s) => s.status === 'succeeded').map((s) => s.stepId);
    expect(succeeded.sort()).toEqual(
      effects
        .filter((e) => e.status === 'succeeded')
        .map((e) => e.stepId)
        .sort(),
    );
  });

  it('a $250 refund waits for approval; approved, it is done once; the same delivery again starts nothing', async () => {
    const ticket = {
      ticketId: 'T-250',
      subject: 'Refund for the sofa',
      description: 'Wrong colour.',
      requesterEmail: 'lee@example.com',
      amount: 250,
      paymentId: 'pi_250',
    };
    const executionId = await fire('zd-250', ticket);
    let approvals = 0;
    for (let n = 0; n < 6; n++) {
      const next = await waitUntil(
        async () => {
          const v = await view(executionId);
          return v.result || v.currentPrompt ? v : undefined;
        },
        'a prompt or the end',
        120_000,
      );
      if (next.result) break;
      const prompt = next.currentPrompt as NonNullable<RunView['currentPrompt']>;
      const isApproval = prompt.kind === 'options' && (prompt.options ?? []).some((o) => o.id === 'approve');
      if (isApproval) {
        approvals++;
        // nothing was refunded before the approval
        expect(
          (await effectsOf(executionId)).filter((e) => e.capabilityId === 'stripe.refund_payment' && e.status === 'succeeded'),
        ).toEqual([]);
      }
      const payload = isApproval
        ? { selected: ['approve'] }
        : { answers: Object.fromEntries((prompt.questions ?? []).map((q) => [q.id, '#refund-approvals'])) };
      const answered = await api(
        gateway,
        'POST',
        `/v1/executions/${executionId}/respond`,
        { promptId: prompt.promptId, kind: prompt.kind, payload },
        owner,
      );
      expect(answered.status).toBe(202);
      await waitUntil(
        async () => ((await view(executionId)).currentPrompt?.promptId !== prompt.promptId ? true : undefined),
        'the answer taken',
      );
    }
    const done = await ended(executionId);
    expect(approvals).toBeGreaterThan(0);
    expect(done.result?.status).toBe('completed');
    const effects = await settledEffects(executionId, done.result?.output?.steps?.length ?? 0);
    const refunds = effects.filter((e) => e.capabilityId === 'stripe.refund_payment' && e.status === 'succeeded');
    expect(refunds, JSON.stringify(effects)).toHaveLength(1);
    expect(new Set(effects.map((e) => e.idempotencyKey)).size).toBe(effects.length);
    expect(done.result?.output?.summary).toMatch(/stripe\.refund_payment/);

    // the webhook delivered again: the same run, nothing started or done twice
    const callsBefore = await refundCalls();
    expect(callsBefore).toBeGreaterThan(0);
    expect(await fire('zd-250', ticket)).toBe(executionId);
    // the repeat handled down the chain (trigger → supervisor → worker → event store) before looking again
    await stack.handled('supervisor', [Topics.triggers]);
    await intents.caughtUp();
    expect(intents.of('RunIntent', (i) => i.executionId === executionId && i.action === 'start')).toHaveLength(1);
    await stack.handled('graph-creator', [Topics.runIntent]);
    expect(await refundCalls()).toBe(callsBefore);
    await stack.handled('event-store', [Topics.runIntent, Topics.executionEvents, Topics.executionResult]);
    expect(
      (await effectsOf(executionId)).filter((e) => e.capabilityId === 'stripe.refund_payment' && e.status === 'succeeded'),
    ).toHaveLength(1);
  });

  it('its provider disconnected at the hub, a delivery is refused at once; connected again, deliveries are taken', async () => {
    const ticket = { ticketId: 'T-7', subject: 'Refund', requesterEmail: 'max@example.com', amount: 7, paymentId: 'pi_7' };
    /** the org-connections facts the gateway has read, from its /metrics */
    const changesRead = async () =>
      sumOf(parseMetrics(await (await fetch(`${gateway}/metrics`)).text()).samples, 'hireloop_consumed_messages_total', {
        topic: `${inject('topicPrefix')}org-connections`,
      });
    const connect = async (providers: string[]) => {
      const read = await changesRead();
      expect((await api(hub, 'PUT', `/v1/orgs/${ORG}/connections`, { providers }, admin)).status).toBe(200);
      await waitUntil(async () => ((await changesRead()) > read ? true : undefined), 'the gateway reading the change', 30_000);
    };
    // a delivery first: the gateway holds the org's view (kept a few seconds) when the change comes
    await ended(await fire('zd-7a', ticket));
    await connect(golden.org.connected.filter((p) => p !== 'zendesk'));
    const refused = await fireHook(hook.url, hook.secret, JSON.stringify(ticket), 'zd-7b');
    const said = await refused.text();
    expect(refused.status, said).toBe(409);
    expect(said).toMatch(/zendesk is no longer connected/);
    // the employee says so too: that workflow is off for now, with the same reason
    type Shown = { workflows?: { workflowId: string; status: string; reason?: string }[] };
    const shown = async () =>
      (await api<Shown>(gateway, 'GET', `/v1/employees/${employee.employeeId}`, undefined, owner)).body.workflows?.find(
        (w) => w.workflowId === hook.workflowId,
      );
    expect(await shown()).toMatchObject({ status: 'off', reason: expect.stringMatching(/zendesk is no longer connected/) });
    await connect(golden.org.connected);
    // (waited for to its end: a run left going when this file's services stop would be taken by the next file's worker)
    expect((await ended(await fire('zd-7c', ticket))).status).toBe('completed');
    expect(await shown()).toMatchObject({ status: 'on' });
  });
});
