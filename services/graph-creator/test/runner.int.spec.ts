import { randomUUID } from 'node:crypto';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createCheckpointer, createKafka, createLogger, createPool, WORKER_STAGES } from '@hireloop/platform';
import { type HILPrompt, type HILResponse, type RunIntent, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scriptedAnswer } from '../src/answerer';
import { conversationAdapter } from '../src/conversation/adapter';
import { pruneCheckpoints } from '../src/retention';
import { ExecutionRunner } from '../src/runner';

const log = createLogger('runner-test', 'silent');

describe('execution runner (real LangGraph + PostgresSaver, real Kafka)', () => {
  const prefix = inject('topicPrefix');
  const kafka = createKafka({ clientId: 'runner-test', brokers: inject('kafkaBrokers'), log });
  const pool = createPool(inject('databaseUrl'));
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const collector = new FactCollector(kafka, prefix, [Topics.hilPrompt, Topics.executionResult, Topics.executionEvents]);
  const checkpointer = createCheckpointer(pool);
  const runner = new ExecutionRunner({
    adapter: conversationAdapter(checkpointer),
    pool,
    publisher,
    log,
    checkpoints: checkpointer,
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

  const startIntent = (executionId: string, jobDescription: string, userId = 'u-1'): RunIntent =>
    makeFact(
      'RunIntent',
      { orgId: 'acme', correlation: { executionId, conversationId: `conv-${executionId}`, userId } },
      {
        executionId,
        employeeId: 'graph-creator',
        action: 'start',
        trigger: { triggerId: `t-${executionId}`, triggerType: 'create_graph', payload: { jobDescription } },
      },
    );
  const answer = (prompt: HILPrompt, payload = scriptedAnswer(prompt), userId = 'u-1'): HILResponse =>
    makeFact(
      'HILResponse',
      { orgId: prompt.orgId, correlation: { ...prompt.correlation, userId } },
      { executionId: prompt.executionId, promptId: prompt.promptId, kind: prompt.kind, payload },
    );
  const promptsOf = (executionId: string) => collector.of('HILPrompt', (p) => p.executionId === executionId);
  const nextPrompt = (executionId: string, seen: number) =>
    collector.until(
      () => {
        const distinct = [...new Map(promptsOf(executionId).map((p) => [p.promptId, p])).values()];
        return distinct.length > seen ? distinct[seen] : undefined;
      },
      `prompt #${seen + 1} of ${executionId}`,
    );

  it('publishes each analyst fallback the adapter notes as an analyst_fallback ExecutionEvent, once per fallback', async () => {
    type Values = { fallbacks: string[] };
    const values: Values = { fallbacks: ['analyse: invalid reply', 'findings: model call failed'] };
    const stub = new ExecutionRunner<Values>({
      adapter: {
        graph: {
          stream: async () => (async function* () {})(),
          getState: async () => ({ values, next: [], createdAt: '2026-11-24T00:00:00.000Z', tasks: [] }),
        },
        input: () => ({}),
        outcome: () => ({ status: 'completed', output: {} }),
        status: () => ({ phase: 'done', progress: 100 }),
        notices: (v) => v.fallbacks.map((detail) => ({ event: 'analyst_fallback' as const, detail })),
      },
      pool,
      publisher,
      log,
    });
    const id = randomUUID();
    await stub.start(startIntent(id, 'Handle IT requests from Slack.'));
    const fallbacks = await collector.until(() => {
      const seen = collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'analyst_fallback');
      return seen.length >= 2 ? seen : undefined;
    }, 'analyst_fallback events');
    expect(fallbacks.map((e) => e.detail)).toEqual(values.fallbacks);
    expect(new Set(fallbacks.map((e) => e.id)).size).toBe(2);
  });

  it('runs a conversation to completion: options inside the fan-out, questions, approve', async () => {
    const id = randomUUID();
    await runner.start(startIntent(id, 'When a deal closes, send a welcome email. Every Monday, post a report.'));
    const first = await nextPrompt(id, 0);
    expect(first.kind).toBe('options');
    expect(first.correlation).toMatchObject({ conversationId: `conv-${id}`, userId: 'u-1' });
    expect(first.inputSchema).toBeTruthy();
    await runner.respond(answer(first));
    const second = await nextPrompt(id, 1);
    expect(second.kind).toBe('questions');
    await runner.respond(answer(second));
    const third = await nextPrompt(id, 2);
    expect(third.kind).toBe('options');
    await runner.respond(answer(third, { selected: ['approve'] }));
    const result = await collector.until(() => collector.of('ExecutionResult', (r) => r.executionId === id)[0], 'result');
    expect(result.status).toBe('completed');
    expect(result.output?.summary).toContain('Operations Assistant');
    expect(collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'node_exit').map((e) => e.node)).toContain(
      'analyse',
    );
  });

  it('given the end recorded but its result never published (broker away), when the last answer comes again, then the result is published, with its output', async () => {
    // a publisher that fails the first ExecutionResult, as a broker restarting would
    let failed = 0;
    const flaky = new Proxy(publisher, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        if (key !== 'publish' && key !== 'publishAll') return typeof value === 'function' ? value.bind(target) : value;
        return async (...args: unknown[]) => {
          const facts = (Array.isArray(args[0]) ? args[0] : [args[0]]) as { type: string }[];
          if (failed === 0 && facts.some((f) => f.type === 'ExecutionResult')) {
            failed++;
            throw new Error('the broker is away');
          }
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
    const shaky = new ExecutionRunner({ adapter: conversationAdapter(checkpointer), pool, publisher: flaky, log });
    const id = randomUUID();
    await shaky.start(startIntent(id, 'When a deal closes, send a welcome email. Every Monday, post a report.'));
    await shaky.respond(answer(await nextPrompt(id, 0)));
    await shaky.respond(answer(await nextPrompt(id, 1)));
    const last = answer(await nextPrompt(id, 2), { selected: ['approve'] });
    await expect(shaky.respond(last)).rejects.toThrow(/away/);
    expect(failed).toBe(1);
    // the consumer reads the answer again
    await shaky.respond(last);
    const result = await collector.until(() => collector.of('ExecutionResult', (r) => r.executionId === id)[0], 'result');
    expect(result.status).toBe('completed');
    expect(result.output?.summary).toContain('Operations Assistant');
  });

  it('loops back on revise', async () => {
    const id = randomUUID();
    await runner.start(startIntent(id, 'Triage support tickets.'));
    await runner.respond(answer(await nextPrompt(id, 0)));
    await runner.respond(answer(await nextPrompt(id, 1)));
    await runner.respond(answer(await nextPrompt(id, 2), { selected: ['revise'] }));
    const again = await nextPrompt(id, 3);
    expect(again.kind).toBe('questions');
    expect(again.messages[0]).toContain('round 2');
  });

  it('the same answer 20 times at once moves the execution once; the rest are recorded as ignored', async () => {
    const id = randomUUID();
    await runner.start(startIntent(id, 'Send invoices.'));
    const first = await nextPrompt(id, 0);
    const responses = Array.from({ length: 20 }, () => answer(first));
    await Promise.all(responses.map((r) => runner.respond(r)));
    await nextPrompt(id, 1);
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'answer_ignored').length >= 19,
      '19 ignored answers',
    );
    const distinct = new Set(promptsOf(id).map((p) => p.promptId));
    expect(distinct.size).toBe(2);
    expect(collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'answer_ignored')).toHaveLength(19);
  });

  it("reports where a start and an answer spend their time, stage by stage in order, from the fact's publish on", async () => {
    const observed: string[] = [];
    const timed = new ExecutionRunner({
      adapter: conversationAdapter(checkpointer),
      pool,
      publisher,
      log,
      checkpoints: checkpointer,
      observe: (handled, stage, seconds) => {
        expect(seconds).toBeGreaterThanOrEqual(0);
        observed.push(`${handled}/${stage}`);
      },
    });
    const id = randomUUID();
    await timed.start(startIntent(id, 'Send invoices.'), undefined, Date.now() - 5);
    const first = await nextPrompt(id, 0);
    await timed.respond(answer(first), undefined, Date.now() - 5);
    await nextPrompt(id, 1);
    expect(observed).toEqual([...WORKER_STAGES.map((s) => `start/${s}`), ...WORKER_STAGES.map((s) => `answer/${s}`)]);
  });

  it('a redelivered start or answer publishes the pending prompt again with the same ids', async () => {
    const id = randomUUID();
    const intent = startIntent(id, 'Book interviews.');
    await runner.start(intent);
    const first = await nextPrompt(id, 0);
    await runner.start(intent);
    await collector.until(() => promptsOf(id).length >= 2, 'the prompt again');
    const copies = promptsOf(id);
    expect(new Set(copies.map((p) => p.id)).size).toBe(1);
    expect(new Set(copies.map((p) => p.promptId))).toEqual(new Set([first.promptId]));
  });

  it('a start redelivered after the worker died before the first checkpoint runs the graph from the trigger', async () => {
    const id = randomUUID();
    const intent = startIntent(id, 'Chase unpaid invoices.');
    // what a worker leaves behind when it dies right after recording the execution
    await pool.query(
      `INSERT INTO graph_executions (execution_id, org_id, owner_user_id, conversation_id, status, started_at) VALUES ($1, 'acme', 'u-1', $2, 'running', now())`,
      [id, `conv-${id}`],
    );
    await runner.start(intent);
    const first = await nextPrompt(id, 0);
    expect(first.kind).toBe('options');
  });

  it('ignores an answer from another user or org, and a stale prompt id, without effect', async () => {
    const id = randomUUID();
    await runner.start(startIntent(id, 'Reconcile expenses.'));
    const first = await nextPrompt(id, 0);
    await runner.respond(answer(first, scriptedAnswer(first), 'intruder'));
    await runner.respond({ ...answer(first), promptId: 'not-a-prompt' });
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'answer_ignored').length >= 2,
      'two ignored',
    );
    const details = collector
      .of('ExecutionEvent', (e) => e.executionId === id && e.event === 'answer_ignored')
      .map((e) => e.detail);
    expect(details.join(' ')).toContain('does not own');
    expect(details.join(' ')).toContain('not pending');
    expect(new Set(promptsOf(id).map((p) => p.promptId)).size).toBe(1);
  });

  it('cancel ends the execution; later answers change nothing; checkpoints are pruned after retention', async () => {
    const id = randomUUID();
    await runner.start(startIntent(id, 'Onboard new hires.'));
    const first = await nextPrompt(id, 0);
    const cancel = { ...startIntent(id, 'x'), id: randomUUID(), action: 'cancel' as const, reason: 'requested' as const };
    await runner.cancel(cancel);
    const result = await collector.until(() => collector.of('ExecutionResult', (r) => r.executionId === id)[0], 'cancel result');
    expect(result.status).toBe('cancelled');
    await runner.respond(answer(first));
    await collector.until(
      () => collector.of('ExecutionEvent', (e) => e.executionId === id && e.event === 'answer_ignored')[0],
      'ignored',
    );
    expect(new Set(promptsOf(id).map((p) => p.promptId)).size).toBe(1);

    const before = await pool.query('SELECT count(*)::int AS n FROM langgraph.checkpoints WHERE thread_id = $1', [id]);
    expect(before.rows[0].n).toBeGreaterThan(0);
    const pruned = await pruneCheckpoints(pool, checkpointer, 0, new Date(Date.now() + 1000), log);
    expect(pruned).toContain(id);
    const after = await pool.query('SELECT count(*)::int AS n FROM langgraph.checkpoints WHERE thread_id = $1', [id]);
    expect(after.rows[0].n).toBe(0);
  });
});
