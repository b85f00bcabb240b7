/**
 * A registered employee run end to end (ARCHITECTURE §11), every service its own process: activated,
 * fired by a signed webhook, its high-risk step waiting in its owner's inbox, approved over HTTP, and
 * what it did read back as effects — none of it visible to another org.
 */
import { randomUUID } from 'node:crypto';
import { FactPublisher } from '@hireloop/fact-stream';
import { createKafka, createLogger } from '@hireloop/platform';
import { waitUntil } from '@hireloop/platform/testing';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { refundsEmployee } from '../services/graph-creator/test/fixtures/refunds-employee';
import { activate, api, chat, fireHook, registerEmployee, Stack, token } from './stack';

interface Run {
  executionId: string;
  status: string;
  currentPrompt: { promptId: string; kind: string; options?: { id: string }[]; inputSchema?: unknown } | null;
}

describe('a registered employee runs from a signed webhook (every service its own process)', () => {
  const stack = new Stack({ MAX_RUNNING_PER_ORG: '100' });
  const log = createLogger('employee-run', 'silent');
  const kafka = createKafka({ clientId: 'employee-run', brokers: inject('kafkaBrokers'), log });
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log });
  const alice = token('alice');
  const mallory = token('mallory', 'evil-corp', 'admin');
  let gateway: string;
  let worker: string;
  let chatUrl: string;

  beforeAll(async () => {
    const services = await stack.up(['event-store', 'connect-hub', 'supervisor', 'graph-creator', 'gateway']);
    worker = services['graph-creator'].url('/metrics');
    gateway = `http://127.0.0.1:${services.gateway.port}`;
    chatUrl = `ws://127.0.0.1:${services.gateway.port}/v1/chat`;
    await publisher.connect();
  }, 240_000);
  afterAll(async () => {
    await publisher.disconnect();
    await stack.down();
  });

  /** alice's refunds employee, registered and activated: its id and the refunds workflow's hook. */
  const activeRefunds = async (tweak?: (spec: ReturnType<typeof refundsEmployee>) => void) => {
    // registered by alice's creation, as graph-creator publishes it (a complete budget: facts are validated)
    const employeeId = randomUUID();
    const spec = refundsEmployee(employeeId);
    spec.compiled.budgets = { ...spec.compiled.budgets, timeoutSeconds: 300 };
    tweak?.(spec);
    await registerEmployee(publisher, gateway, spec);
    const activated = await activate(gateway, employeeId, alice);
    expect(activated.status).toBe(200);
    const hook = activated.body.hooks.find((h) => h.workflowId === 'refunds');
    if (!hook) throw new Error('no hook for the refunds workflow');
    await waitUntil(
      async () =>
        (await api<{ status: string }>(gateway, 'GET', `/v1/employees/${employeeId}`, undefined, alice)).body.status === 'active'
          ? true
          : undefined,
      'the employee active',
    );
    return { employeeId, hook };
  };

  it('webhook → run → approval in the owner’s inbox → approved → completed, with its effects', async () => {
    const { hook } = await activeRefunds();

    const body = JSON.stringify({ ticketId: 'T-1', subject: 'Refund my 250 EUR order', amount: 250, paymentId: 'pay_1' });
    const fired = await fireHook(hook.url, hook.secret, body, 'zd-1');
    expect(fired.status).toBe(202);
    const { executionId } = (await fired.json()) as { executionId: string };

    // the high-risk step waits for approval, in alice's inbox and nobody else's
    const waiting = await waitUntil(
      async () => {
        const inbox = await api<{ executions: Run[] }>(gateway, 'GET', '/v1/executions?status=awaiting_input', undefined, alice);
        return inbox.body.executions.find((e) => e.executionId === executionId);
      },
      'the approval in the inbox',
      90_000,
    );
    const prompt = waiting.currentPrompt;
    expect(prompt).toMatchObject({ kind: 'options' });
    expect(prompt?.options?.map((o) => o.id)).toContain('approve');
    const foreignInbox = await api<{ executions: Run[] }>(
      gateway,
      'GET',
      '/v1/executions?status=awaiting_input',
      undefined,
      mallory,
    );
    expect(foreignInbox.body.executions).toEqual([]);
    expect((await api(gateway, 'GET', `/v1/executions/${executionId}`, undefined, mallory)).status).toBe(404);
    expect(
      (
        await api(
          gateway,
          'POST',
          `/v1/executions/${executionId}/respond`,
          { promptId: prompt?.promptId, kind: 'options', payload: { selected: ['approve'] } },
          mallory,
        )
      ).status,
    ).toBe(404);

    const approved = await api(
      gateway,
      'POST',
      `/v1/executions/${executionId}/respond`,
      { promptId: prompt?.promptId, kind: 'options', payload: { selected: ['approve'] } },
      alice,
    );
    expect(approved.status).toBe(202);

    const done = await waitUntil(
      async () => {
        const run = await api<Run>(gateway, 'GET', `/v1/executions/${executionId}`, undefined, alice);
        return run.body.status === 'completed' || run.body.status === 'failed' ? run.body : undefined;
      },
      'the run ended',
      90_000,
    );
    expect(done.status).toBe('completed');

    const effects = await waitUntil(async () => {
      const res = await api<{ capabilityId: string; status: string; stepId: string }[]>(
        gateway,
        'GET',
        `/v1/executions/${executionId}/effects`,
        undefined,
        alice,
      );
      // each step's effect, recorded from facts of more than one topic: waited for until all three are in
      const steps = new Set(res.body.map((e) => e.stepId));
      return ['ask_finance', 'reply', 'refund'].every((step) => steps.has(step)) ? res.body : undefined;
    }, 'the effects projected');
    expect(effects).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ stepId: 'ask_finance', capabilityId: 'slack.post_message', status: 'succeeded' }),
        expect.objectContaining({ stepId: 'reply', capabilityId: 'zendesk.reply_ticket', status: 'succeeded' }),
      ]),
    );
    // its condition (amount under 100) did not hold: recorded as skipped, no refund made
    expect(effects.filter((e) => e.stepId === 'refund').map((e) => e.status)).toEqual(['skipped']);
    expect((await api(gateway, 'GET', `/v1/executions/${executionId}/effects`, undefined, mallory)).status).toBe(404);

    // the worker's /metrics: the calls by outcome, and the circuits they went through, closed
    const metrics = await (await fetch(worker)).text();
    expect(metrics).toMatch(
      /hireloop_tool_calls_total\{[^}]*capability="slack\.post_message"[^}]*outcome="succeeded"[^}]*\} 1\b/,
    );
    expect(metrics).toMatch(
      /hireloop_tool_calls_total\{[^}]*capability="zendesk\.reply_ticket"[^}]*outcome="succeeded"[^}]*\} 1\b/,
    );
    // circuits are counted over the database's orgs, which other end-to-end files share: this run's is one of them
    const closed = /hireloop_tool_circuits\{[^}]*capability="slack\.post_message"[^}]*state="closed"[^}]*\} (\d+)/.exec(metrics);
    expect(Number(closed?.[1])).toBeGreaterThanOrEqual(1);
    expect(metrics).not.toMatch(
      /hireloop_tool_circuits\{[^}]*capability="slack\.post_message"[^}]*state="(open|half_open)"[^}]*\} [1-9]/,
    );
  }, 240_000);

  it('a run answered or cancelled over a socket: that socket is told how it goes on and how it ends', async () => {
    const { hook } = await activeRefunds();
    const waitingRun = async (delivery: string) => {
      const body = JSON.stringify({ ticketId: delivery, subject: 'Refund my 250 EUR order', amount: 250, paymentId: 'pay_2' });
      const fired = await fireHook(hook.url, hook.secret, body, delivery);
      expect(fired.status).toBe(202);
      const { executionId } = (await fired.json()) as { executionId: string };
      const waiting = await waitUntil(
        async () => {
          const run = await api<Run>(gateway, 'GET', `/v1/executions/${executionId}`, undefined, alice);
          return run.body.currentPrompt ? run.body : undefined;
        },
        'the approval pending',
        90_000,
      );
      return { executionId, promptId: waiting.currentPrompt?.promptId ?? '' };
    };

    // approved from a socket: the run has no conversation of its own, so the socket that answered is the one told
    const approved = await waitingRun(`zd-socket-${randomUUID()}`);
    const conversationId = `runs-${randomUUID()}`;
    const socket = await chat(chatUrl, alice, conversationId);
    socket.send({
      type: 'hil_response',
      conversationId,
      executionId: approved.executionId,
      promptId: approved.promptId,
      kind: 'options',
      payload: { selected: ['approve'] },
    });
    const done = await socket.waitFor(
      (f) => f.type === 'execution_result' && f.executionId === approved.executionId,
      'the approved run’s result on the socket that approved it',
      90_000,
    );
    expect(done).toMatchObject({ conversationId, status: 'completed' });

    // cancelled from a socket: the same
    const cancelled = await waitingRun(`zd-socket-${randomUUID()}`);
    socket.send({ type: 'cancel', conversationId, executionId: cancelled.executionId });
    const ended = await socket.waitFor(
      (f) => f.type === 'execution_result' && f.executionId === cancelled.executionId,
      'the cancelled run’s result on the socket that cancelled it',
      90_000,
    );
    expect(ended).toMatchObject({ conversationId, status: 'cancelled' });
    expect(socket.frames.filter((f) => f.type === 'error')).toEqual([]);

    // a socket of another user of the org, on the same conversation id, is told nothing of alice's runs
    const bob = await chat(chatUrl, token('bob'), conversationId);
    const third = await waitingRun(`zd-socket-${randomUUID()}`);
    socket.send({ type: 'cancel', conversationId, executionId: third.executionId });
    await socket.waitFor(
      (f) => f.type === 'execution_result' && f.executionId === third.executionId,
      'the third run’s result',
      90_000,
    );
    expect(bob.frames.filter((f) => 'executionId' in f && f.executionId === third.executionId)).toEqual([]);
    socket.socket.close();
    bob.socket.close();
  }, 300_000);

  it('a run whose first prompt was answered over a socket and whose next was approved over HTTP: that socket is told its end', async () => {
    // finance's channel is asked at run time: a questions prompt first, then the approval
    const { hook } = await activeRefunds((spec) => {
      const ask = spec.workflows[0]?.steps.find((st) => st.id === 'ask_finance');
      if (ask) ask.inputs = { ...ask.inputs, channel: { ask: true } } as typeof ask.inputs;
    });
    const body = JSON.stringify({ ticketId: 'T-9', subject: 'Refund my 300 EUR order', amount: 300, paymentId: 'pay_9' });
    const fired = await fireHook(hook.url, hook.secret, body, `zd-two-${randomUUID()}`);
    expect(fired.status).toBe(202);
    const { executionId } = (await fired.json()) as { executionId: string };
    const pending = (kind: string) =>
      waitUntil(
        async () => {
          const run = await api<Run>(gateway, 'GET', `/v1/executions/${executionId}`, undefined, alice);
          return run.body.currentPrompt?.kind === kind ? run.body.currentPrompt : undefined;
        },
        `the run's ${kind} prompt`,
        90_000,
      );
    const questions = await pending('questions');
    const conversationId = `runs-${randomUUID()}`;
    const socket = await chat(chatUrl, alice, conversationId);
    const schema = questions.inputSchema as { properties?: { answers?: { properties?: Record<string, unknown> } } };
    const answerIds = Object.keys(schema.properties?.answers?.properties ?? {});
    expect(answerIds.length).toBeGreaterThan(0);
    socket.send({
      type: 'hil_response',
      conversationId,
      executionId,
      promptId: questions.promptId,
      kind: 'questions',
      payload: { answers: Object.fromEntries(answerIds.map((id) => [id, '#finance'])) },
    });
    // the approval comes to the socket that answered; it is approved elsewhere, over HTTP
    const approval = await socket.waitFor(
      (f) => f.type === 'hil_prompt' && f.executionId === executionId && f.kind === 'options',
      'the approval on the socket that answered the questions',
      90_000,
    );
    const approved = await api(
      gateway,
      'POST',
      `/v1/executions/${executionId}/respond`,
      { promptId: (approval as { promptId: string }).promptId, kind: 'options', payload: { selected: ['approve'] } },
      alice,
    );
    expect(approved.status).toBe(202);
    const done = await socket.waitFor(
      (f) => f.type === 'execution_result' && f.executionId === executionId,
      'the run’s end on the socket that was shown its prompts',
      90_000,
    );
    expect(done).toMatchObject({ conversationId, status: 'completed' });
    socket.socket.close();
  }, 300_000);
});
