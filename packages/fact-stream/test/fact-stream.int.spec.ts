import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createKafka, createLogger, ensureTopics, HireloopError, hasCode } from '@hireloop/platform';
import { type AnyFact, dlqName, Topics, topicList } from '@hireloop/schemas';
import {
  type Consumer,
  type ConsumerConfig,
  type Kafka,
  KafkaJSNonRetriableError,
  type KafkaMessage,
  type PartitionAssigner,
  PartitionAssigners,
} from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it, onTestFinished } from 'vitest';
import {
  COMMIT_INTERVAL_MS,
  committedOffsets,
  type DeadLetter,
  type Delivery,
  FactConsumer,
  FactPublisher,
  makeFact,
  partitionRanges,
} from '../src';
import { handledBy, POISON, readTopics, sendPoison } from '../src/testing';

const log = createLogger('fact-stream-test', 'silent');
const execFileAsync = promisify(execFile);

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

/** Resolves once the async condition holds, polling. */
const eventually = async (cond: () => Promise<boolean>, what: string, ms = 30_000) => {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A gate a handler waits on until the test opens it (at the latest when the test ends, so that its consumer can stop). */
const gate = () => {
  let open: () => void = () => {};
  const closed = new Promise<void>((r) => {
    open = r;
  });
  onTestFinished(() => open());
  return { closed, open };
};

/** The three ways a FactConsumer hands facts over, for the tests that hold for each. */
const MODES = [
  ['one by one', 'one'],
  ['batch mode', 'batch'],
  ['pipelined', 'pipelined'],
] as const;
type Mode = (typeof MODES)[number][1];

/** Hands a consumer's `hil-response` facts to `take` in the given mode (one at a time, in batches, pipelined). */
const handleIn = (c: FactConsumer, mode: Mode, take: (deliveries: Delivery[]) => void) => {
  if (mode === 'one') c.on('HILResponse', async (_fact, delivery) => take([delivery]));
  else c.onBatch(async (deliveries) => take(deliveries), mode === 'pipelined' ? { maxFactsInFlight: 100 } : {});
};

const answer = (executionId: string, promptId: string) =>
  makeFact(
    'HILResponse',
    { orgId: 'acme', correlation: { executionId } },
    { executionId, promptId, kind: 'options', payload: { selected: ['a'] } },
  );

/** A publisher whose dead letters fail while `away` is set: the DLQ is down, the broker is real. */
class UnreachableDlq extends FactPublisher {
  away = true;
  /** called on each dead letter refused */
  onRefused: () => void = () => {};

  override async sendRaw(...args: Parameters<FactPublisher['sendRaw']>): Promise<void> {
    if (this.away) {
      this.onRefused();
      throw new Error('the DLQ is away');
    }
    await super.sendRaw(...args);
  }
}

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
  const publishers: FactPublisher[] = [];
  /**
   * Topics of a test's own (a prefix under the run's) and a publisher onto them: a pipelined test
   * reads from the beginning only what it published, and its offsets are its facts' positions.
   */
  const ownTopics = async <P extends FactPublisher>(
    label: string,
    make: (topicPrefix: string) => P = (topicPrefix) => new FactPublisher({ kafka, topicPrefix, log }) as P,
  ) => {
    const topicPrefix = `${prefix}${label}.`;
    await ensureTopics(admin, topicPrefix, 3);
    const own = make(topicPrefix);
    await own.connect();
    publishers.push(own);
    return { topicPrefix, publisher: own };
  };
  /** A test's own topics (`ownTopics`), the broker name of its `hil-response` topic, and a consumer group of its own. */
  const ownAnswers = async (label: string) => {
    const own = await ownTopics(label);
    return { ...own, topic: `${own.topicPrefix}${Topics.hilResponse.name}`, groupId: `${label}-${randomUUID()}` };
  };
  /** The offset a group has committed on a partition (-1 before any). */
  const committed = async (groupId: string, topic: string, partition: number): Promise<number> =>
    Number((await committedOffsets(admin, groupId, [topic])).find((p) => p.partition === partition)?.offset ?? -1);
  /** A topic's offsets, retried while a partition of a new topic is still being taken up (`partitionRanges`). */
  const topicOffsets = (topic: string) => partitionRanges(admin, [topic]);
  /** A Kafka whose consumers count the requests of one API they send (`sent`), to hear what a FactConsumer asks. */
  const counting = (apiName: string) => {
    const heard = { sent: 0, kafka: kafka };
    heard.kafka = {
      consumer: (config: ConsumerConfig) => {
        const inner = kafka.consumer(config);
        inner.on(inner.events.REQUEST, ({ payload }) => {
          if (payload.apiName === apiName) heard.sent++;
        });
        return inner;
      },
    } as Kafka;
    return heard;
  };
  const endOf = async (topic: string, partition: number): Promise<number> =>
    Number((await topicOffsets(topic)).find((p) => p.partition === partition)?.high ?? -1);

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, prefix, 3);
    await publisher.connect();
  });
  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.stop().catch(() => {})));
    await Promise.all([publisher, ...publishers].map((p) => p.disconnect()));
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

  it('publishes made while one is in flight travel together in the next request, in the order they were made', async () => {
    const burst = new FactPublisher({ kafka, topicPrefix: prefix, log });
    await burst.connect();
    onTestFinished(() => burst.disconnect());
    const conversationId = `conv-burst-${randomUUID()}`;
    const facts = Array.from({ length: 40 }, (_, i) => uiMessage(conversationId, `line ${i}`));
    await Promise.all(facts.map((fact) => burst.publish(fact)));
    // the first alone; the 39 made while it was in flight, together
    expect(burst.requests).toBe(2);
    const messages = await readTopic(kafka, `${prefix}ui-messages`, facts.length, (m) => m.key?.toString() === conversationId);
    expect(messages.map((m) => (JSON.parse(m.value?.toString() ?? '{}') as AnyFact).id)).toEqual(facts.map((f) => f.id));
  });

  it('publishes a fact holding text no fact can carry (a NUL, half an emoji) made storable, so the event store keeps it', async () => {
    const conversationId = `conv-nul-${randomUUID()}`;
    const fact = uiMessage(conversationId, `from a provider: a\u0000b, cut ${'😀'.slice(0, 1)}`);
    await publisher.publish(fact);
    const [message] = await readTopic(kafka, `${prefix}ui-messages`, 1, (m) => m.key?.toString() === conversationId);
    const sent = JSON.parse(message?.value?.toString() ?? '{}') as AnyFact & { content: string };
    expect(sent.id).toBe(fact.id);
    expect(sent.content).toBe('from a provider: a\ufffdb, cut \ufffd');
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

    const poison = POISON;
    await sendPoison(kafka, prefix, topicList);
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

  it('retries a transient failure, dead-letters a fact that fails for good without retrying it, and moves on', async () => {
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
      if (fact.id === poison.id) throw new HireloopError('VALIDATION_FAILED', 'downstream refuses this fact');
      if (fact.id === flaky.id && n === 1) throw new Error('blip');
      handled.push(fact.id);
    });
    await c.start();
    await publisher.publishAll([poison, flaky]);
    await until(() => handled.includes(flaky.id), 'the flaky fact');

    // a permanent failure is not retried; a transient one is, and succeeds
    expect(attempts.get(poison.id)).toBe(1);
    expect(attempts.get(flaky.id)).toBe(2);
    const [letter] = await readTopic(kafka, dlqName(`${prefix}${topic.name}`), 1, handlerFailed);
    const body = JSON.parse(letter?.value?.toString() ?? '{}') as DeadLetter;
    expect(body.reason).toBe('handler_failed');
    expect(body.error).toContain('downstream refuses this fact');
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

  it('handledBy (the tests’ barrier) waits for a group to handle what its topic held when called, and names where a group stays behind', async () => {
    const { publisher: own, topic, groupId, topicPrefix } = await ownAnswers('handled');
    const facts = Array.from({ length: 6 }, (_, i) =>
      makeFact(
        'HILResponse',
        { orgId: 'acme', correlation: { executionId: 'exec-h' } },
        { executionId: 'exec-h', promptId: `p-${i}`, kind: 'options', payload: { selected: ['a'] } },
      ),
    );
    const seen: string[] = [];
    const held = gate();
    const c = consumer(groupId, { topics: [Topics.hilResponse], topicPrefix });
    c.on('HILResponse', async (fact) => {
      if (fact.promptId === 'p-3') await held.closed;
      seen.push(fact.promptId);
    });
    await c.start();
    await own.publishAll(facts);
    let done = false;
    const waiting = handledBy(admin, groupId, [topic]).then(() => {
      done = true;
    });
    // the three before the held one are handled and committed, and still it waits
    const [{ partition = 0 } = {}] = (await topicOffsets(topic)).filter((p) => Number(p.high) > 0);
    await eventually(async () => (await committed(groupId, topic, partition)) >= 3, 'the first three committed');
    expect(done).toBe(false);
    held.open();
    await waiting;
    expect(seen).toEqual(facts.map((f) => f.promptId));

    // a group that reads nothing: it gives up, naming the partition it is behind on
    await expect(handledBy(admin, `idle-${randomUUID()}`, [topic], 1_000)).rejects.toThrow(`behind on ${topic}:${partition}`);
  });

  it('a crash kafkajs does not restart from (a non-retriable error in joining) is started again by the consumer, which then reads what was published', async () => {
    const groupId = `crash-${randomUUID()}`;
    const topic = Topics.hilResponse;
    // the group's first assignments fail as a coordinator lost in a broker restart fails a start: non-retriably
    let refusals = 1;
    const refusing: PartitionAssigner = (config) => {
      const roundRobin = PartitionAssigners.roundRobin(config);
      return {
        ...roundRobin,
        assign: async (group) => {
          if (refusals-- > 0) throw new KafkaJSNonRetriableError('assignment refused');
          return roundRobin.assign(group);
        },
      };
    };
    // the kafkajs consumer underneath, to hear its crashes: whether kafkajs itself restarts from them
    let inner: Consumer | undefined;
    const flaky = {
      consumer: (config: ConsumerConfig) => {
        inner = kafka.consumer({ ...config, partitionAssigners: [refusing] });
        return inner;
      },
    } as Kafka;
    const c = consumer(groupId, { kafka: flaky, topics: [topic] });
    const restartedByKafkajs: boolean[] = [];
    const kafkaCrash = new Promise<void>((resolve) => {
      inner?.on(inner.events.CRASH, ({ payload }) => {
        restartedByKafkajs.push(payload.restart);
        resolve();
      });
    });
    const seen: string[] = [];
    c.on('HILResponse', async (fact) => void seen.push(fact.promptId));
    await c.start();
    await kafkaCrash;
    await until(() => refusals < 0, 'the group joined after the refusals');
    expect(restartedByKafkajs).toEqual([false]);
    const fact = answer('exec-crash', 'p-after-crash');
    await publisher.publish(fact);
    await until(() => seen.includes('p-after-crash'), 'the fact read after the consumer started again');
    await c.ready();
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
      if (deliveries.some((d) => d.fact.id === bad.id)) throw new HireloopError('VALIDATION_FAILED', 'cannot store exec-b0');
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

  it('pipelined batch mode hands over other partitions while a batch is in the handler, holds its own partition back, and commits a partition only past batches handled', async () => {
    const { topic, groupId, ...own } = await ownAnswers('pipe-order');
    // one execution is one key, so one partition, in publication order; the others spread over the rest
    const [held, ...sameLater] = Array.from({ length: 4 }, (_, i) => answer('exec-pipe', `p-${i}`));
    const others = Array.from({ length: 12 }, (_, i) => answer(`exec-other-${i}`, 'p-0'));
    if (!held) throw new Error('no facts');
    const handled: string[] = [];
    const partitionOf = new Map<string, number>();
    let partition = -1;
    let heldOffset = -1;
    const first = gate();
    const c = consumer(groupId, { topics: [Topics.hilResponse], topicPrefix: own.topicPrefix, publisher: own.publisher });
    c.onBatch(
      async (deliveries) => {
        for (const d of deliveries) partitionOf.set(d.fact.id, d.partition);
        const mine = deliveries.find((d) => d.fact.id === held.id);
        if (mine) {
          partition = mine.partition;
          heldOffset = Number(mine.offset);
          await first.closed;
        }
        handled.push(...deliveries.map((d) => d.fact.id));
      },
      { maxFactsInFlight: 100 },
    );
    await c.start();

    await own.publisher.publish(held);
    await until(() => partition >= 0, 'the first batch in the handler');
    await own.publisher.publishAll(sameLater);
    await own.publisher.publishAll(others);
    const elsewhere = () => others.filter((f) => partitionOf.has(f.id) && partitionOf.get(f.id) !== partition);
    // facts of the other partitions are handed over and handled while the first batch is held
    await until(() => elsewhere().length > 0 && elsewhere().every((f) => handled.includes(f.id)), 'other partitions handled');
    // its own partition's later facts are fetched, but wait for it: nothing of that partition is
    // handled, and nothing past the held batch is committed
    const watchUntil = Date.now() + 1_500;
    while (Date.now() < watchUntil) {
      expect(handled.filter((id) => partitionOf.get(id) === partition && id !== held.id)).toEqual([]);
      expect(await committed(groupId, topic, partition)).toBeLessThanOrEqual(heldOffset);
      await new Promise((r) => setTimeout(r, 100));
    }

    first.open();
    await until(() => [held, ...sameLater].every((f) => handled.includes(f.id)), 'the held batch, then the ones after it');
    // in the partition's order
    const ofPartition = handled.filter((id) => [held, ...sameLater].some((f) => f.id === id));
    expect(ofPartition).toEqual([held, ...sameLater].map((f) => f.id));
    const end = await endOf(topic, partition);
    await eventually(async () => (await committed(groupId, topic, partition)) === end, 'the partition committed to its end');
    await until(() => others.every((f) => handled.includes(f.id)), 'every fact handled');
    expect(handled.length).toBe(1 + sameLater.length + others.length);
  });

  it('pipelined: a batch neither handled nor dead-lettered is read again', async () => {
    const own = await ownTopics('pipe-again', (topicPrefix) => new UnreachableDlq({ kafka, topicPrefix, log }));
    const dlq = own.publisher;
    const topic = `${own.topicPrefix}${Topics.hilResponse.name}`;
    const groupId = `pipelined-again-${randomUUID()}`;
    const [before, poison, ...after] = Array.from({ length: 4 }, (_, i) => answer('exec-again', `p-${i}`));
    if (!before || !poison) throw new Error('no facts');
    const handled = new Set<string>();
    let poisonCalls = 0;
    let callsWhenRefused = -1;
    let poisonOffset = -1;
    let partition = -1;
    dlq.onRefused = () => {
      if (callsWhenRefused < 0) callsWhenRefused = poisonCalls;
    };
    onTestFinished(() => {
      dlq.away = false;
    });
    // no retries: one reading of the poison batch is one call with the batch, then one with the poison alone
    const c = consumer(groupId, { topics: [Topics.hilResponse], topicPrefix: own.topicPrefix, publisher: dlq, retries: 0 });
    c.onBatch(
      async (deliveries) => {
        const mine = deliveries.find((d) => d.fact.id === poison.id);
        if (mine) {
          poisonCalls++;
          poisonOffset = Number(mine.offset);
          partition = mine.partition;
          if (dlq.away) throw new HireloopError('VALIDATION_FAILED', 'the poison cannot be handled, and its DLQ is away');
        }
        for (const d of deliveries) handled.add(d.fact.id);
      },
      { maxFactsInFlight: 100 },
    );
    await c.start();

    await dlq.publish(before);
    await until(() => handled.has(before.id), 'the fact before the poison');
    await dlq.publish(poison);
    await until(() => callsWhenRefused >= 0, 'the poison failing to be dead-lettered');
    await dlq.publishAll(after);
    await until(() => poisonCalls > callsWhenRefused, 'the poison batch read again after its failure');
    expect(callsWhenRefused).toBe(2);
    await eventually(
      async () => (await committed(groupId, topic, partition)) === poisonOffset,
      'the fact before the poison committed',
    );
    // still failing: the partition is not committed past the poison, whatever came after it
    await until(() => poisonCalls >= callsWhenRefused + 4, 'the poison batch read twice more');
    expect(await committed(groupId, topic, partition)).toBe(poisonOffset);

    dlq.away = false;
    const all = [before, poison, ...after].map((f) => f.id);
    await until(() => all.every((id) => handled.has(id)), 'every fact handled once the failure is gone');
    const end = await endOf(topic, partition);
    expect(end).toBe(all.length);
    await eventually(async () => (await committed(groupId, topic, partition)) === end, 'the partition committed to its end');
  });

  it('pipelined stop finishes the batches in hand and commits them; the group resumes after them', async () => {
    const { topic, groupId, ...own } = await ownAnswers('pipe-stop');
    const facts = Array.from({ length: 7 }, (_, i) => answer('exec-pipe-stop', `p-${i}`));
    const [f0, f1, slow, f3, f4, f5, last] = facts;
    if (!f0 || !f1 || !slow || !f3 || !f4 || !f5 || !last) throw new Error('no facts');
    const first: string[] = [];
    let partition = -1;
    let inHand = false;
    const held = gate();
    const a = consumer(groupId, { topics: [Topics.hilResponse], topicPrefix: own.topicPrefix, publisher: own.publisher });
    a.onBatch(
      async (deliveries) => {
        partition = deliveries[0]?.partition ?? partition;
        if (deliveries.some((d) => d.fact.id === slow.id)) {
          inHand = true; // the batch in hand when the stop arrives
          await held.closed;
        }
        first.push(...deliveries.map((d) => d.fact.id));
      },
      { maxFactsInFlight: 100 },
    );
    await a.start();
    await own.publisher.publishAll([f0, f1]);
    await until(() => first.length === 2, 'two facts before the slow one');
    await own.publisher.publish(slow);
    await until(() => inHand, 'the slow batch in the handler');
    // fetched while the slow one is held, they wait for it
    await own.publisher.publishAll([f3, f4, f5]);
    await new Promise((r) => setTimeout(r, 300));

    let opened = false;
    const stopping = a.stop();
    setTimeout(() => {
      opened = true;
      held.open();
    }, 500);
    await stopping;
    expect(opened).toBe(true);
    expect(first).toContain(slow.id);
    // the first consumer handled a prefix of the partition, in order, and committed exactly past it
    expect(first).toEqual(facts.slice(0, first.length).map((f) => f.id));
    expect(await committed(groupId, topic, partition)).toBe(first.length);

    const second: string[] = [];
    const b = consumer(groupId, { topics: [Topics.hilResponse], topicPrefix: own.topicPrefix, publisher: own.publisher });
    b.onBatch(async (deliveries) => void second.push(...deliveries.map((d) => d.fact.id)), { maxFactsInFlight: 100 });
    await b.start();
    await own.publisher.publish(last);
    // the partition is read in order: reaching the new fact, the second consumer passed every earlier one
    await until(() => second.includes(last.id), 'the fact published after the stop');
    expect([...first, ...second]).toEqual(facts.map((f) => f.id));
  });

  it.each(MODES)(
    '%s: commits what it handled at most once every COMMIT_INTERVAL_MS, however many batches it handles',
    async (_name, mode) => {
      const { topic, groupId, ...own } = await ownAnswers(`commits-${mode}`);
      const commits = counting('OffsetCommit');
      const c = consumer(groupId, {
        kafka: commits.kafka,
        topics: [Topics.hilResponse],
        topicPrefix: own.topicPrefix,
        publisher: own.publisher,
      });
      const handled: string[] = [];
      let partition = -1;
      const take = (deliveries: Delivery[]) => {
        partition = deliveries[0]?.partition ?? partition;
        handled.push(...deliveries.map((d) => d.fact.id));
      };
      handleIn(c, mode, take);
      await c.start();

      const facts = Array.from({ length: 20 }, (_, i) => answer(`exec-commits-${mode}`, `p-${i}`));
      const started = Date.now();
      // one fact at a time, each handled before the next is published: a batch each
      for (const fact of facts) {
        await own.publisher.publish(fact);
        await until(() => handled.includes(fact.id), `fact ${fact.id} handled`);
      }
      const elapsed = Date.now() - started;
      expect(handled).toEqual(facts.map((f) => f.id));
      expect(commits.sent).toBeLessThanOrEqual(Math.ceil(elapsed / COMMIT_INTERVAL_MS) + 1);
      // and what was handled is committed, without a stop
      await eventually(
        async () => (await committed(groupId, topic, partition)) === facts.length,
        'the partition committed to its end',
      );
    },
  );

  it.each(MODES)(
    '%s: commits what it handled as soon as a rebalance starts, so the next owner of a partition does not read it again',
    async (_name, mode) => {
      const { topic, groupId, ...own } = await ownAnswers(`rebalance-${mode}`);
      // an interval no test waits out: only the rebalance (or a stop, which this test makes none of) commits
      const member = (into: string[]) => {
        const c = consumer(groupId, {
          topics: [Topics.hilResponse],
          topicPrefix: own.topicPrefix,
          publisher: own.publisher,
          commitIntervalMs: 600_000,
        });
        handleIn(c, mode, (deliveries) => void into.push(...deliveries.map((d) => d.fact.id)));
        return c;
      };
      const first: string[] = [];
      await member(first).start();
      // keyed by execution: spread over the topic's three partitions
      const facts = Array.from({ length: 12 }, (_, i) => answer(`exec-rebalance-${mode}-${i}`, `p-${i}`));
      for (const fact of facts) await own.publisher.publish(fact);
      await until(() => first.length === facts.length, 'every fact handled by the first member');
      const partitions = (await topicOffsets(topic)).map((p) => p.partition);
      const committedSum = async () =>
        (await Promise.all(partitions.map((p) => committed(groupId, topic, p)))).reduce((a, n) => a + Math.max(0, n), 0);
      expect(await committedSum()).toBe(0);

      // a second member joins: the group rebalances, and the first commits before it rejoins. Not a race:
      // the commit is written to the coordinator's connection in the same turn as kafkajs emits REBALANCING,
      // while the rejoin first waits for a FindCoordinator answer, so its JoinGroup comes after the commit
      const second: string[] = [];
      await member(second).start();
      await eventually(async () => (await committedSum()) === facts.length, 'what the first member handled committed');
      // the partitions the second member took are read from there: nothing handled is delivered again
      const late = answer(`exec-rebalance-${mode}-late`, 'p-late');
      await own.publisher.publish(late);
      await until(() => [...first, ...second].includes(late.id), 'a fact published after the rebalance');
      expect([...first, ...second].sort()).toEqual([...facts, late].map((f) => f.id).sort());
    },
  );

  /** A started pipelined consumer of its own `hil-response` with `fetchLingerMs`, and the ids it handled. */
  const lingering = async (label: string, lingerMs: number, through = kafka, mode: Mode = 'pipelined') => {
    const own = await ownTopics(label);
    const c = consumer(`${label}-${randomUUID()}`, {
      kafka: through,
      topics: [Topics.hilResponse],
      topicPrefix: own.topicPrefix,
      publisher: own.publisher,
      fetchLingerMs: lingerMs,
    });
    const handled: string[] = [];
    handleIn(c, mode, (deliveries) => void handled.push(...deliveries.map((d) => d.fact.id)));
    await c.start();
    return { own, consumer: c, handled };
  };

  it.each(MODES)(
    '%s with fetchLingerMs: a steady trickle is read in a fetch per window, and a quiet stream is not polled more for it',
    async (_name, mode) => {
      const lingerMs = 250;
      const fetches = counting('Fetch');
      const { own, handled } = await lingering(`linger-${mode}`, lingerMs, fetches.kafka, mode);
      const warmUp = answer('exec-pipe-linger', 'p-warm');
      await own.publisher.publish(warmUp);
      await until(() => handled.includes(warmUp.id), 'the first fact handled');

      // 40 facts of one execution (one partition), one every 10 ms, each published on its own
      const facts = Array.from({ length: 40 }, (_, i) => answer('exec-pipe-linger', `p-${i}`));
      fetches.sent = 0;
      const started = Date.now();
      for (const fact of facts) {
        await own.publisher.publish(fact);
        await new Promise((r) => setTimeout(r, 10));
      }
      await until(() => handled.length === facts.length + 1, 'every fact handled');
      const elapsed = Date.now() - started;
      expect(handled).toEqual([warmUp, ...facts].map((f) => f.id));
      // without the linger each fact or two is a fetch of its own (about 40)
      expect(fetches.sent).toBeLessThanOrEqual(Math.ceil(elapsed / lingerMs) + 2);

      // nothing more published: the consumer long-polls as before, it does not fetch every window
      fetches.sent = 0;
      await new Promise((r) => setTimeout(r, 4 * lingerMs));
      expect(fetches.sent).toBeLessThanOrEqual(2);
    },
  );

  it.each([
    // fewer slots than partitions with facts: were every batch to wait out the window, the third would be
    // handed over only once one of the first two had (a window later)
    ['pipelined, two slots', 'pipelined', { partitionsConsumedConcurrently: 2 }],
    // no slots named: a lingering consumer takes enough that the batch waiting holds no other back
    ['one by one, no concurrency named', 'one', {}],
  ] as const)(
    '%s, with fetchLingerMs: the batches of one fetch are all handled at once, however many partitions bring facts',
    async (_name, mode, slots) => {
      const lingerMs = 3_000;
      const own = await ownTopics(`linger-parts-${mode}`);
      // facts of a dozen executions, spread over the topic's three partitions, there before the consumer starts
      const facts = Array.from({ length: 12 }, (_, i) => answer(`exec-linger-${mode}-${i}`, `p-${i}`));
      for (const fact of facts) await own.publisher.publish(fact);
      const c = consumer(`linger-parts-${mode}-${randomUUID()}`, {
        topics: [Topics.hilResponse],
        topicPrefix: own.topicPrefix,
        publisher: own.publisher,
        fetchLingerMs: lingerMs,
        ...slots,
      });
      const handledAt: number[] = [];
      const partitions = new Set<number>();
      const take = (delivery: Delivery) => {
        handledAt.push(Date.now());
        partitions.add(delivery.partition);
      };
      if (mode === 'one') c.on('HILResponse', async (_fact, delivery) => take(delivery));
      else c.onBatch(async (deliveries) => deliveries.forEach(take), { maxFactsInFlight: 100 });
      await c.start();
      await until(() => handledAt.length === facts.length, 'every fact handled');
      expect(partitions.size).toBe(3);
      // handled together, not a window apart
      expect(Math.max(...handledAt) - Math.min(...handledAt)).toBeLessThan(lingerMs / 2);
    },
  );

  it.each(MODES)('%s with fetchLingerMs: stop does not wait out the window', async (_name, mode) => {
    const lingerMs = 20_000;
    const { own, consumer: c, handled } = await lingering(`linger-stop-${mode}`, lingerMs, kafka, mode);
    const fact = answer('exec-linger-stop', 'p-1');
    await own.publisher.publish(fact);
    await until(() => handled.includes(fact.id), 'the fact handed over');
    const stopping = Date.now();
    await c.stop();
    expect(Date.now() - stopping).toBeLessThan(lingerMs / 2);
  });

  it('a consumer stopped before it started refuses to start: it never joins its group', async () => {
    const own = await ownTopics('stopped-first');
    const groupId = `stopped-first-${randomUUID()}`;
    const c = consumer(groupId, { topics: [Topics.hilResponse], topicPrefix: own.topicPrefix, publisher: own.publisher });
    c.on('HILResponse', async () => {});
    await c.stop();
    await expect(c.start()).rejects.toThrow(/was stopped/);
    const { groups } = await admin.listGroups();
    expect(groups.map((g) => g.groupId)).not.toContain(groupId);
  });

  /** Every message a topic holds now, counted from its partitions' high watermarks. */
  const countOf = async (topic: string): Promise<number> =>
    (await topicOffsets(topic)).reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);

  /** A failure like Postgres being away: a plain error with no code, or a connection error's code. */
  const outage = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

  for (const mode of ['one by one', 'batch', 'pipelined'] as const) {
    it(`${mode}: a handler failing for a while (Postgres away) dead-letters nothing valid, keeps the order, and handles every fact once it is back`, async () => {
      const own = await ownTopics(`outage-${mode.replaceAll(' ', '-')}`);
      const topic = `${own.topicPrefix}${Topics.hilResponse.name}`;
      const facts = Array.from({ length: 6 }, (_, i) => answer('exec-outage', `p-${i}`));
      const handled: string[] = [];
      let failures = 0;
      let away = true;
      // one retry, so the outage outlasts several readings of the same facts
      const c = consumer(`outage-${randomUUID()}`, { topics: [Topics.hilResponse], topicPrefix: own.topicPrefix, retries: 1 });
      const handle = async (fact: AnyFact) => {
        if (away && fact.type === 'HILResponse' && fact.promptId === 'p-2') {
          failures++;
          throw outage();
        }
        if (!handled.includes(fact.id)) handled.push(fact.id);
      };
      if (mode === 'one by one') c.on('HILResponse', (fact) => handle(fact));
      else
        c.onBatch(
          async (deliveries) => {
            for (const d of deliveries) await handle(d.fact);
          },
          mode === 'pipelined' ? { maxFactsInFlight: 100 } : {},
        );
      await c.start();
      await own.publisher.publishAll(facts);
      await until(() => failures >= 6, 'the failing fact read again three times');
      expect(handled).not.toContain(facts[3]?.id);
      away = false;
      await until(() => handled.length === facts.length, 'every fact handled once Postgres is back');
      expect(handled).toEqual(facts.map((f) => f.id));
      expect(await countOf(dlqName(topic))).toBe(0);
    });
  }

  it('a batch read again after a transient failure does not dead-letter its invalid messages a second time', async () => {
    const own = await ownTopics('letters-once');
    const topic = `${own.topicPrefix}${Topics.hilResponse.name}`;
    const good = answer('exec-once', 'p-0');
    let failures = 0;
    let done = false;
    const c = consumer(`letters-once-${randomUUID()}`, {
      topics: [Topics.hilResponse],
      topicPrefix: own.topicPrefix,
      retries: 0,
    });
    c.onBatch(async () => {
      if (failures < 3) {
        failures++;
        throw outage();
      }
      done = true;
    });
    // the poison and the good fact on one partition, so that they come in one batch and are read again together
    const producer = kafka.producer();
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    await producer.send({
      topic,
      messages: [
        { key: 'exec-once', value: '{ this is not json', partition: 0 },
        { key: 'exec-once', value: JSON.stringify(good), partition: 0 },
      ],
    });
    await c.start();
    await until(() => done, 'the batch handled after three failed readings');
    expect(failures).toBe(3);
    expect(await countOf(dlqName(topic))).toBe(1);
  });

  it('a connected publisher left idle sets no timers: its connections do not wake the process every millisecond', async () => {
    // Measured in a process of its own, so that the other clients of this run are not counted. Before
    // the patch of kafkajs' request queue (patches/), each connection set a 1 ms timer again and again.
    const fixture = fileURLToPath(new URL('./fixtures/idle-publisher.ts', import.meta.url));
    const { stdout } = await execFileAsync(
      process.execPath,
      ['--import', 'tsx', fixture, inject('kafkaBrokers').join(','), prefix],
      {
        cwd: fileURLToPath(new URL('../', import.meta.url)),
        timeout: 60_000,
      },
    );
    const { timers } = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as { timers: number };
    expect(timers).toBeLessThan(20);
  });

  it('fails a publish loudly when the broker cannot be reached', async () => {
    const away = createKafka({ clientId: 'away', brokers: ['127.0.0.1:1'], log });
    const lonely = new FactPublisher({ kafka: away, topicPrefix: prefix, log, retries: 1 });
    const error = await lonely.publish(uiMessage('conv-away', 'anyone?')).catch((e: unknown) => e);
    expect(hasCode(error, 'PUBLISH_FAILED')).toBe(true);
  }, 120_000);
});
