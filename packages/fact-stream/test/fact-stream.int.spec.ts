import { randomBytes, randomUUID } from 'node:crypto';
import { createKafka, createLogger, ensureTopics, hasCode } from '@hireloop/platform';
import { type AnyFact, dlqName, Topics, topicList } from '@hireloop/schemas';
import type { Kafka, KafkaMessage } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type DeadLetter, FactConsumer, FactPublisher, makeFact } from '../src';
import { readTopics } from '../src/testing';

const log = createLogger('fact-stream-test', 'silent');

const readTopic = (kafka: Kafka, topic: string, count: number, keep?: (m: KafkaMessage) => boolean) =>
  readTopics(kafka, [topic], count, keep, 30_000);

const handlerFailed = (m: KafkaMessage) => m.headers?.['x-dlq-reason']?.toString() === 'handler_failed';

const until = async (cond: () => boolean, what: string, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

const uiMessage = (conversationId: string, content: string) =>
  makeFact(
    'UIMessage',
    { orgId: 'acme', correlation: { conversationId, userId: 'u-1' } },
    { conversationId, userId: 'u-1', role: 'user', content },
  );

describe('fact stream (real Kafka)', () => {
  const prefix = `fs-${randomBytes(4).toString('hex')}.`;
  const kafka = createKafka({ clientId: 'fs-test', brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const consumers: FactConsumer[] = [];
  const consumer = (groupId: string, options: Partial<ConstructorParameters<typeof FactConsumer>[0]> = {}) => {
    const c = new FactConsumer({
      kafka,
      topicPrefix: prefix,
      groupId,
      topics: topicList,
      log,
      publisher,
      retryDelayMs: 10,
      ...options,
    });
    consumers.push(c);
    return c;
  };

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, prefix, 3);
    await publisher.connect();
  });
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.stop().catch(() => {})));
    await publisher.disconnect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
  });

  it('publishes keyed by the registry key field, with traceparent and causationId headers', async () => {
    const cause = uiMessage('conv-key', 'hello');
    const fact = makeFact(
      'TriggerCreated',
      { orgId: 'acme', correlation: { conversationId: 'conv-key' }, causationId: cause.id },
      { triggerId: 'trg-key', triggerType: 'create_graph', payload: { jobDescription: 'a recruiter' } },
    );
    await publisher.publish(fact, { traceparent: `00-${'a'.repeat(32)}-${'b'.repeat(16)}-01` });
    const [message] = await readTopic(kafka, `${prefix}triggers`, 1);
    expect(message?.key?.toString()).toBe('trg-key');
    expect(message?.headers?.causationId?.toString()).toBe(cause.id);
    expect(message?.headers?.traceparent?.toString()).toMatch(new RegExp(`^00-${'a'.repeat(32)}-[0-9a-f]{16}-01$`));
    expect(JSON.parse(message?.value?.toString() ?? '')).toEqual(fact);
  });

  it('refuses to publish an invalid fact, naming the field, and sends nothing', async () => {
    const bad = { ...uiMessage('conv-bad', 'x'), content: '' } as AnyFact;
    const error = await publisher.publish(bad).catch((e: unknown) => e);
    expect(hasCode(error, 'VALIDATION_FAILED')).toBe(true);
    expect(String((error as Error).message)).toContain('/content');
  });

  it('dead-letters a poison message on each topic with the reason and keeps consuming', async () => {
    const handled: string[] = [];
    const c = consumer(`poison-${randomUUID()}`);
    for (const spec of topicList) c.on(spec.fact, async (fact) => void handled.push(fact.id));
    await c.start();

    const producer = kafka.producer();
    await producer.connect();
    const poison = [
      'not json {',
      JSON.stringify({ type: 'UIMessage', id: 'nope' }),
      JSON.stringify({ type: 'Gossip', orgId: 'acme' }),
    ];
    for (const spec of topicList) {
      await producer.send({
        topic: `${prefix}${spec.name}`,
        messages: poison.map((value) => ({ key: 'poison', value })),
      });
    }
    await producer.disconnect();
    const good = uiMessage('conv-after-poison', 'still here');
    await publisher.publish(good);
    await until(() => handled.includes(good.id), 'the good fact after the poison');

    for (const spec of topicList) {
      const letters = await readTopic(kafka, dlqName(`${prefix}${spec.name}`), poison.length);
      const bodies = letters.map((m) => JSON.parse(m.value?.toString() ?? '{}') as DeadLetter);
      expect(bodies.map((b) => b.reason)).toEqual(['invalid', 'invalid', 'invalid']);
      expect(bodies[0]?.error).toContain('not JSON');
      expect(bodies[1]?.error).toContain('/id');
      expect(bodies[2]?.error).toContain('/type');
      expect(Buffer.from(bodies[0]?.originalBase64 ?? '', 'base64').toString()).toBe(poison[0]);
      expect(letters[0]?.headers?.['x-dlq-reason']?.toString()).toBe('invalid');
    }
  });

  it('retries a failing handler, then dead-letters the fact and moves on', async () => {
    const topic = Topics.executionEvents;
    const attempts = new Map<string, number>();
    const handled: string[] = [];
    const c = consumer(`retry-${randomUUID()}`, { topics: [topic], retries: 2 });
    const poison = makeFact(
      'ExecutionEvent',
      { orgId: 'acme', correlation: { executionId: 'exec-r' } },
      { executionId: 'exec-r', event: 'progress', progress: 1 },
    );
    const flaky = makeFact(
      'ExecutionEvent',
      { orgId: 'acme', correlation: { executionId: 'exec-r' } },
      { executionId: 'exec-r', event: 'progress', progress: 2 },
    );
    c.on('ExecutionEvent', async (fact) => {
      const n = (attempts.get(fact.id) ?? 0) + 1;
      attempts.set(fact.id, n);
      if (fact.id === poison.id) throw new Error('downstream is broken');
      if (fact.id === flaky.id && n === 1) throw new Error('blip');
      handled.push(fact.id);
    });
    await c.start();
    await publisher.publishAll([poison, flaky]);
    await until(() => handled.includes(flaky.id), 'the flaky fact');

    expect(attempts.get(poison.id)).toBe(3);
    expect(attempts.get(flaky.id)).toBe(2);
    const [letter] = await readTopic(kafka, dlqName(`${prefix}${topic.name}`), 1, handlerFailed);
    const body = JSON.parse(letter?.value?.toString() ?? '{}') as DeadLetter;
    expect(body.reason).toBe('handler_failed');
    expect(body.error).toContain('downstream is broken');
    expect(JSON.parse(body.original).id).toBe(poison.id);
  });

  it('graceful stop finishes the fact in hand and commits it; the group resumes after it', async () => {
    const groupId = `graceful-${randomUUID()}`;
    const topic = Topics.hilResponse;
    const facts = Array.from({ length: 6 }, (_, i) =>
      makeFact(
        'HILResponse',
        { orgId: 'acme', correlation: { executionId: 'exec-g' } },
        { executionId: 'exec-g', promptId: `p-${i}`, kind: 'options', payload: { selected: ['a'] } },
      ),
    );
    const first: string[] = [];
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const a = consumer(groupId, { topics: [topic] });
    a.on('HILResponse', async (fact) => {
      if (fact.promptId === 'p-2') await gate; // the fact in hand when the stop arrives
      first.push(fact.promptId);
    });
    await a.start();
    await publisher.publishAll(facts);
    await until(() => first.length === 2, 'two facts before the slow one');
    const stopping = a.stop();
    setTimeout(release, 300);
    await stopping;
    expect(first).toContain('p-2');

    const second: string[] = [];
    const b = consumer(groupId, { topics: [topic] });
    b.on('HILResponse', async (fact) => void second.push(fact.promptId));
    await b.start();
    const all = facts.map((f) => f.promptId);
    await until(() => [...new Set([...first, ...second])].length === all.length, 'every fact once across both consumers');
    expect([...first, ...second].sort()).toEqual(all.sort());
  });

  it('batch mode hands over every valid fact of a batch and dead-letters a failing one alone', async () => {
    const topic = Topics.executionResult;
    const seen: string[] = [];
    const batches: number[] = [];
    const bad = makeFact(
      'ExecutionResult',
      { orgId: 'acme', correlation: { executionId: 'exec-b0' } },
      { executionId: 'exec-b0', status: 'failed' },
    );
    const facts = [
      bad,
      ...Array.from({ length: 20 }, (_, i) =>
        makeFact(
          'ExecutionResult',
          { orgId: 'acme', correlation: { executionId: `exec-b${i + 1}` } },
          { executionId: `exec-b${i + 1}`, status: 'completed' },
        ),
      ),
    ];
    const c = consumer(`batch-${randomUUID()}`, { topics: [topic], retries: 1 });
    c.onBatch(async (deliveries) => {
      if (deliveries.some((d) => d.fact.id === bad.id)) throw new Error('cannot store exec-b0');
      batches.push(deliveries.length);
      seen.push(...deliveries.map((d) => d.fact.id));
    });
    await c.start();
    await publisher.publishAll(facts);
    await until(() => seen.length === 20, 'twenty good facts');
    expect(new Set(seen).size).toBe(20);
    expect(seen).not.toContain(bad.id);
    const [letter] = await readTopic(kafka, dlqName(`${prefix}${topic.name}`), 1, handlerFailed);
    expect(JSON.parse(letter?.value?.toString() ?? '{}').original).toContain(bad.id);
  });

  it('fails a publish loudly when the broker cannot be reached', async () => {
    const away = createKafka({ clientId: 'away', brokers: ['127.0.0.1:1'], log });
    const lonely = new FactPublisher({ kafka: away, topicPrefix: prefix, log, retries: 1 });
    const error = await lonely.publish(uiMessage('conv-away', 'anyone?')).catch((e: unknown) => e);
    expect(hasCode(error, 'PUBLISH_FAILED')).toBe(true);
  }, 120_000);
});
