import { randomUUID } from 'node:crypto';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger } from '@hireloop/platform';
import { waitUntil } from '@hireloop/platform/testing';
import { type HILPrompt, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scriptedAnswer } from '../services/graph-creator/src/answerer';
import { api, Stack, token } from './stack';

const JOB = 'Support triage: when a new Zendesk ticket arrives, post it in #support on Slack and create a Jira issue for bugs.';

describe('workers crash, double and scale (every service its own process)', () => {
  const stack = new Stack({ MAX_RUNNING_PER_ORG: '100' });
  const log = createLogger('resilience', 'silent');
  const kafka = createKafka({ clientId: 'resilience', brokers: inject('kafkaBrokers'), log });
  const collector = new FactCollector(kafka, inject('topicPrefix'), [Topics.hilPrompt, Topics.executionResult, Topics.runIntent]);
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log });
  let gateway: string;

  beforeAll(async () => {
    const services = await stack.up();
    gateway = `http://127.0.0.1:${services.gateway.port}`;
    await collector.start();
    await publisher.connect();
  }, 180_000);
  afterAll(async () => {
    await publisher.disconnect();
    await collector.stop();
    await stack.down();
  });

  const worker = () =>
    stack.processes.filter((p) => p.name === 'graph-creator' && p.child.exitCode === null && p.child.signalCode === null);
  const distinctPrompts = (executionId: string) => {
    const prompts = collector.of('HILPrompt', (p) => p.executionId === executionId);
    return [...new Map(prompts.map((p) => [p.promptId, p])).values()];
  };
  const start = async (userId: string) => {
    const bearer = token(userId);
    const accepted = await api<{ triggerId: string }>(
      gateway,
      'POST',
      '/v1/triggers',
      { type: 'create_graph', payload: { jobDescription: JOB } },
      bearer,
    );
    expect(accepted.status).toBe(202);
    const intent = await collector.until(
      () => collector.of('RunIntent', (r) => r.trigger.triggerId === accepted.body.triggerId)[0],
      'the run intent',
    );
    return { bearer, executionId: intent.executionId };
  };
  const respond = (bearer: string, prompt: HILPrompt) =>
    api(
      gateway,
      'POST',
      `/v1/executions/${prompt.executionId}/respond`,
      { promptId: prompt.promptId, kind: prompt.kind, payload: scriptedAnswer(prompt) },
      bearer,
    );
  /** Answers prompts over HTTP until the execution ends; `afterAnswer` may kill things. */
  const drive = async (bearer: string, executionId: string, afterAnswer?: (n: number) => Promise<void>) => {
    for (let n = 0; n < 15; n++) {
      const next = await collector.until(
        () => collector.of('ExecutionResult', (r) => r.executionId === executionId)[0] ?? distinctPrompts(executionId)[n],
        `prompt ${n + 1} or the result of ${executionId}`,
        60_000,
      );
      if (next.type === 'ExecutionResult') return next;
      // the gateway answers 409 until its projection shows this prompt pending
      await waitUntil(
        async () => ((await respond(bearer, next)).status === 202 ? true : undefined),
        `answer ${n + 1} accepted`,
        30_000,
      );
      await afterAnswer?.(n);
    }
    throw new Error('no result within 15 prompts');
  };

  it('a worker SIGKILLed after a prompt was shown: a new worker takes the answer and completes', async () => {
    const { bearer, executionId } = await start('kim');
    await collector.until(() => distinctPrompts(executionId)[0], 'the first prompt');
    for (const w of worker()) await w.stop('SIGKILL');
    await stack.start('graph-creator');
    const result = await drive(bearer, executionId);
    expect(result.status).toBe('completed');
    const prompts = collector.of('HILPrompt', (p) => p.executionId === executionId);
    // a prompt shown again after the crash keeps its fact id: nothing doubled downstream
    expect(new Set(prompts.map((p) => p.id)).size).toBe(distinctPrompts(executionId).length);
  });

  it('a worker killed while resuming: the redelivered answer completes it, no prompt lost or doubled', async () => {
    const { bearer, executionId } = await start('lee');
    const result = await drive(bearer, executionId, async (n) => {
      if (n !== 0) return;
      for (const w of worker()) await w.stop('SIGKILL');
      await stack.start('graph-creator');
    });
    expect(result.status).toBe('completed');
    expect(collector.of('ExecutionResult', (r) => r.executionId === executionId).every((r) => r.id === result.id)).toBe(true);
    const prompts = collector.of('HILPrompt', (p) => p.executionId === executionId);
    expect(new Set(prompts.map((p) => p.id)).size).toBe(distinctPrompts(executionId).length);
  });

  it('two worker processes on one consumer group, 50 executions at once: every one completes exactly once', async () => {
    if (worker().length < 2) await stack.start('graph-creator');
    expect(worker().length).toBe(2);
    const ids = Array.from({ length: 50 }, () => randomUUID());
    await publisher.publishAll(
      ids.map((executionId) =>
        makeFact(
          'RunIntent',
          { orgId: 'acme', correlation: { executionId, userId: 'scale', conversationId: `conv-${executionId}` } },
          {
            executionId,
            employeeId: 'graph-creator',
            action: 'start',
            trigger: { triggerId: `t-${executionId}`, triggerType: 'create_graph', payload: { jobDescription: JOB } },
          },
        ),
      ),
    );
    const answered = new Set<string>();
    const done = () => ids.filter((id) => collector.of('ExecutionResult', (r) => r.executionId === id).length > 0).length;
    const deadline = Date.now() + 180_000;
    while (done() < ids.length && Date.now() < deadline) {
      const fresh = collector.of('HILPrompt', (p) => (ids as string[]).includes(p.executionId) && !answered.has(p.promptId));
      for (const p of fresh) answered.add(p.promptId);
      if (fresh.length > 0) {
        await publisher.publishAll(
          fresh.map((p) =>
            makeFact(
              'HILResponse',
              { orgId: p.orgId, correlation: { ...p.correlation, userId: 'scale' } },
              {
                executionId: p.executionId,
                promptId: p.promptId,
                kind: p.kind,
                payload: scriptedAnswer(p),
              },
            ),
          ),
        );
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(done()).toBe(50);
    for (const id of ids) {
      const results = collector.of('ExecutionResult', (r) => r.executionId === id);
      expect(new Set(results.map((r) => r.id)).size, id).toBe(1);
      expect(results[0]?.status).toBe('completed');
    }
  }, 240_000);
});
