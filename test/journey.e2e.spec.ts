import { randomUUID } from 'node:crypto';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger } from '@hireloop/platform';
import { waitUntil } from '@hireloop/platform/testing';
import {
  devOrgConnections,
  type EmployeeGraphSpec,
  type ExecutionView,
  type HilPromptFrame,
  type ServerFrame,
  Topics,
} from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scriptedAnswer } from '../services/graph-creator/src/answerer';
import { api, chat, parseMetrics, Stack, sumOf, token } from './stack';

const JOB =
  'Customer Onboarding Specialist. When a deal in HubSpot moves to Closed Won, create an onboarding folder in Google Drive, ' +
  'send the customer a welcome email, and post a short note in the #onboarding Slack channel. Send the contract for signature through DocuSign.';

type Execution = ExecutionView & { status: string };

describe('a conversation end to end (every service its own process, real Kafka and Postgres)', () => {
  const stack = new Stack({ MAX_RUNNING_PER_ORG: '100' });
  let gateway: string;
  let chatUrl: string;
  let hub: string;
  let worker: string;
  const log = createLogger('journey', 'silent');
  const collector = new FactCollector(
    createKafka({ clientId: 'journey', brokers: inject('kafkaBrokers'), log }),
    inject('topicPrefix'),
    [Topics.hilPrompt, Topics.executionResult],
  );

  beforeAll(async () => {
    const services = await stack.up();
    gateway = `http://127.0.0.1:${services.gateway.port}`;
    chatUrl = `ws://127.0.0.1:${services.gateway.port}/v1/chat`;
    hub = `http://127.0.0.1:${services['connect-hub'].port}`;
    worker = `http://127.0.0.1:${services['graph-creator'].port}`;
    await collector.start();
  }, 180_000);
  afterAll(async () => {
    await collector.stop();
    await stack.down();
  });

  const execution = (id: string, bearer: string) => api<Execution>(gateway, 'GET', `/v1/executions/${id}`, undefined, bearer);
  const pendingOf = (id: string, bearer: string, after?: string) =>
    waitUntil(
      async () => {
        const { body } = await execution(id, bearer);
        if (body.status === 'completed' || body.status === 'cancelled' || body.status === 'failed') return { done: body };
        const prompt = body.currentPrompt;
        return prompt && prompt.promptId !== after ? { prompt, body } : undefined;
      },
      `the next prompt of ${id}`,
      60_000,
    );

  /** POST /v1/triggers, then the execution the supervisor started for it. */
  const startOverHttp = async (bearer: string, payload: { jobDescription: string; name?: string } = { jobDescription: JOB }) => {
    const accepted = await api<{ triggerId: string; conversationId: string }>(
      gateway,
      'POST',
      '/v1/triggers',
      { type: 'create_graph', payload },
      bearer,
    );
    expect(accepted.status).toBe(202);
    const { conversationId } = accepted.body;
    const executionId = await waitUntil(async () => {
      const list = await api<{ executions: Execution[] }>(
        gateway,
        'GET',
        `/v1/executions?conversationId=${conversationId}`,
        undefined,
        bearer,
      );
      return list.body.executions[0]?.executionId;
    }, 'the execution to appear');
    return { conversationId, executionId };
  };

  it('a WebSocket client describes a job, answers every prompt and gets execution_result completed', async () => {
    const conversationId = randomUUID();
    const bearer = token('alice');
    const client = await chat(chatUrl, bearer, conversationId);
    client.send({ conversationId, text: JOB });

    const result = await client.answerUntilResult(15);
    expect(result?.status).toBe('completed');
    const executionId = result?.executionId ?? '';
    // the same prompt is never shown twice to a socket
    const shown = client.frames.filter((f) => f.type === 'hil_prompt').map((f) => (f as HilPromptFrame).promptId);
    expect(new Set(shown).size).toBe(shown.length);

    const view = await waitUntil(async () => {
      const { body } = await execution(executionId, bearer);
      return body.status === 'completed' ? body : undefined;
    }, 'the projection to show completed');
    expect(view).toMatchObject({ executionId, conversationId, status: 'completed', currentPrompt: null });
    expect(view.progress).toBe(100);
    expect(view.result).toBeTruthy();
    const events = await api<{ events: { type: string; topic: string }[] }>(
      gateway,
      'GET',
      `/v1/executions/${executionId}/events`,
      undefined,
      bearer,
    );
    const types = events.body.events.map((e) => e.type);
    expect(types).toEqual(expect.arrayContaining(['RunIntent', 'HILPrompt', 'HILResponse', 'ExecutionEvent', 'ExecutionResult']));
    client.socket.close();
  });

  /** Answers every prompt of an execution over HTTP until it ends; the execution as it ended. */
  const completeOverHttp = async (executionId: string, bearer: string): Promise<Execution> => {
    let last: string | undefined;
    for (let round = 0; round < 15; round++) {
      const state = await pendingOf(executionId, bearer, last);
      if ('done' in state && state.done) return state.done;
      const { prompt } = state;
      if (!prompt) throw new Error('expected a prompt');
      const res = await api(
        gateway,
        'POST',
        `/v1/executions/${executionId}/respond`,
        { promptId: prompt.promptId, kind: prompt.kind, payload: scriptedAnswer(prompt) },
        bearer,
      );
      expect(res.status).toBe(202);
      last = prompt.promptId;
    }
    throw new Error('the creation did not finish within 15 prompts');
  };

  it('the same journey over HTTP only: trigger, poll, respond', async () => {
    const bearer = token('bob');
    const { executionId } = await startOverHttp(bearer, { jobDescription: JOB, name: 'Onboarding' });
    expect((await completeOverHttp(executionId, bearer)).status).toBe('completed');
  });

  it('a second creation of a name is its version 2, in the result and in the registry alike', async () => {
    const bearer = token('erin');
    const name = `Versioned ${randomUUID().slice(0, 8)}`;
    const versions: { result: unknown; registry: unknown }[] = [];
    for (let i = 0; i < 2; i++) {
      const { executionId } = await startOverHttp(bearer, { jobDescription: JOB, name });
      const done = await completeOverHttp(executionId, bearer);
      expect(done.status).toBe('completed');
      const spec = (done.result as { output?: { employee?: EmployeeGraphSpec } } | null)?.output?.employee;
      if (!spec) throw new Error('the result holds no employee');
      const registered = await waitUntil(async () => {
        const res = await api<{ version: number }>(gateway, 'GET', `/v1/employees/${spec.employeeId}`, undefined, bearer);
        return res.status === 200 ? res.body : undefined;
      }, 'the employee registered');
      versions.push({ result: spec.version, registry: registered.version });
    }
    expect(versions).toEqual([
      { result: 1, registry: 1 },
      { result: 2, registry: 2 },
    ]);
  });

  it('the same answer 20 times at once: one transition, the rest 409 or ignored; later answers to that prompt get 409', async () => {
    const bearer = token('carol');
    const { executionId } = await startOverHttp(bearer);
    const first = await pendingOf(executionId, bearer);
    if ('done' in first) throw new Error('expected a prompt');
    const body = { promptId: first.prompt.promptId, kind: first.prompt.kind, payload: scriptedAnswer(first.prompt) };
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () => api(gateway, 'POST', `/v1/executions/${executionId}/respond`, body, bearer)),
    );
    expect(statuses.every((s) => s.status === 202 || s.status === 409)).toBe(true);
    await pendingOf(executionId, bearer, first.prompt.promptId);
    // exactly one next prompt was published for this execution after the first
    const prompts = collector.of('HILPrompt', (p) => p.executionId === executionId);
    expect(new Set(prompts.map((p) => p.promptId)).size).toBe(2);
    const again = await api(gateway, 'POST', `/v1/executions/${executionId}/respond`, body, bearer);
    expect(again.status).toBe(409);
  });

  it('cancel mid-conversation: execution_result cancelled, later answers get 409', async () => {
    const conversationId = randomUUID();
    const bearer = token('dave');
    const client = await chat(chatUrl, bearer, conversationId);
    client.send({ conversationId, text: JOB });
    const prompt = await client.waitFor<HilPromptFrame>((f) => f.type === 'hil_prompt', 'a prompt');
    const cancel = await api(gateway, 'POST', `/v1/executions/${prompt.executionId}/cancel`, {}, bearer);
    expect(cancel.status).toBe(202);
    const result = await client.waitFor<Extract<ServerFrame, { type: 'execution_result' }>>(
      (f) => f.type === 'execution_result',
      'the result',
    );
    expect(result.status).toBe('cancelled');
    await waitUntil(
      async () => ((await execution(prompt.executionId, bearer)).body.status === 'cancelled' ? true : undefined),
      'projection cancelled',
    );
    const late = await api(
      gateway,
      'POST',
      `/v1/executions/${prompt.executionId}/respond`,
      { promptId: prompt.promptId, kind: prompt.kind, payload: scriptedAnswer(prompt) },
      bearer,
    );
    expect(late.status).toBe(409);
    client.socket.close();
  });

  it('401 without a token, 404 for another org, 422 naming the field', async () => {
    const bearer = token('erin');
    const { executionId } = await startOverHttp(bearer);
    const state = await pendingOf(executionId, bearer);
    if ('done' in state) throw new Error('expected a prompt');
    expect((await api(gateway, 'GET', `/v1/executions/${executionId}`)).status).toBe(401);
    expect((await api(gateway, 'GET', `/v1/executions/${executionId}`, undefined, token('mallory', 'globex'))).status).toBe(404);
    const bad = await api<{ field?: string }>(
      gateway,
      'POST',
      `/v1/executions/${executionId}/respond`,
      {
        promptId: state.prompt.promptId,
        kind: state.prompt.kind,
        payload: state.prompt.kind === 'options' ? { selected: ['no-such-option'] } : { answers: { nope: 'x' } },
      },
      bearer,
    );
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toMatch(/selected|answers/);
  });

  it('an org that connects a provider at the hub has it in its very next creation, without waiting for a cache to expire', async () => {
    const org = `connects-${randomUUID().slice(0, 8)}`;
    const admin = token('ops', org, 'admin');
    const owner = token('olga', org);
    /** One creation of JOB over the socket, answered with the scripted answers: the providers of its missing-integration gaps. */
    const missingOf = async () => {
      const conversationId = randomUUID();
      const client = await chat(chatUrl, owner, conversationId);
      client.send({ conversationId, text: JOB });
      const result = await client.answerUntilResult(12, 90_000);
      client.socket.close();
      expect(result?.status).toBe('completed');
      const employee = (result?.type === 'execution_result' ? result.output?.employee : undefined) as EmployeeGraphSpec;
      return employee.gaps.filter((g) => g.category === 'missing_integration').map((g) => g.providerId);
    };
    /** what the worker has read of org-connections, from its /metrics */
    const changesRead = async () =>
      sumOf(parseMetrics(await (await fetch(`${worker}/metrics`)).text()).samples, 'hireloop_consumed_messages_total', {
        topic: `${inject('topicPrefix')}org-connections`,
      });
    const without = devOrgConnections.filter((p) => p !== 'hubspot');
    expect((await api(hub, 'PUT', `/v1/orgs/${org}/connections`, { providers: without }, admin)).status).toBe(200);
    expect(await missingOf()).toContain('hubspot');

    // the worker now holds the org's catalog (fresh for minutes): the change reaches it as a fact
    const read = await changesRead();
    expect((await api(hub, 'PUT', `/v1/orgs/${org}/connections`, { providers: [...without, 'hubspot'] }, admin)).status).toBe(
      200,
    );
    await waitUntil(async () => ((await changesRead()) > read ? true : undefined), 'the worker reading the change', 30_000);
    expect(await missingOf()).not.toContain('hubspot');
  });
});
