import { randomUUID } from 'node:crypto';
import { waitUntil } from '@hireloop/platform/testing';
import { type AnyFact, type FactOf, parseFact, type TopicSpec } from '@hireloop/schemas';
import type { Admin, Consumer, Kafka, KafkaMessage } from 'kafkajs';
import { committedOffsets, partitionRanges } from './offsets';

/**
 * Waits until consumer group `groupId` has committed, on every partition of `topics` (names as on the
 * broker, prefix included), at least the offset that partition ended at when this was called. From then
 * on every fact published before the call has been handled by that group: a hireloop `FactConsumer`
 * commits a partition only past facts it handled (or dead-lettered), on its own timer; a plain kafkajs
 * consumer in `eachMessage` mode commits a batch once every `eachMessage` of it returned. A test checks
 * that something did *not* happen after this, rather than after a guess of how long it takes; chained
 * (one group, then the group reading what that one published), it covers a fact's consequences too.
 *
 * Only for groups that read their topics from the beginning and whose offsets nothing else sets: a group
 * that starts at the latest offset never commits a partition that held facts before it joined (this then
 * times out), and offsets set by an admin or adopted from another group say nothing of what was handled.
 */
export async function handledBy(admin: Admin, groupId: string, topics: readonly string[], timeoutMs = 30_000): Promise<void> {
  const ends = (await partitionRanges(admin, topics)).filter(({ high }) => BigInt(high) > 0n);
  let late: string[] = [];
  await waitUntil(
    async () => {
      late = [];
      const committed = new Map(
        (await committedOffsets(admin, groupId, topics)).map((p) => [`${p.topic}:${p.partition}`, BigInt(p.offset)] as const),
      );
      late = ends
        .filter(({ topic, partition, high }) => (committed.get(`${topic}:${partition}`) ?? -1n) < BigInt(high))
        .map(({ topic, partition }) => `${topic}:${partition}`);
      return late.length === 0 ? true : undefined;
    },
    `consumer group ${groupId} to handle what ${topics.join(', ')} held`,
    timeoutMs,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}; behind on ${late.join(', ') || '(not known: the last check failed)'}`);
  });
}

/** Collects every fact published on some topics (its own consumer group, from the beginning), for tests. */
export class FactCollector {
  readonly facts: AnyFact[] = [];
  /** where each fact was read: topic (with its prefix), partition, offset */
  readonly positions: { topic: string; partition: number; offset: string; id: string }[] = [];
  private readonly consumer: Consumer;
  private readonly groupId = `collector-${randomUUID()}`;

  constructor(
    private readonly kafka: Kafka,
    private readonly topicPrefix: string,
    private readonly topics: readonly TopicSpec[],
  ) {
    this.consumer = kafka.consumer({ groupId: this.groupId });
  }

  /** Waits until it has read every fact its topics held when called (`handledBy` its own group). */
  async caughtUp(timeoutMs = 30_000): Promise<void> {
    const admin = this.kafka.admin();
    await admin.connect();
    try {
      await handledBy(
        admin,
        this.groupId,
        this.topics.map((t) => `${this.topicPrefix}${t.name}`),
        timeoutMs,
      );
    } finally {
      await admin.disconnect();
    }
  }

  async start(): Promise<this> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics.map((t) => `${this.topicPrefix}${t.name}`), fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ topic, partition, message }) => {
        const parsed = parseFact(message.value);
        if (!parsed.ok) return;
        this.facts.push(parsed.value);
        this.positions.push({ topic, partition, offset: message.offset, id: parsed.value.id });
      },
    });
    return this;
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }

  of<T extends AnyFact['type']>(type: T, where: (f: FactOf<T>) => boolean = () => true): FactOf<T>[] {
    return this.facts.filter((f): f is FactOf<T> => f.type === type && where(f as FactOf<T>));
  }

  /** Waits until `probe` returns a value (polling the collected facts). */
  async until<T>(probe: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; collected ${this.facts.length} facts`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}

/** Reads topics from the beginning (own consumer group) until `count` messages that `keep` accepts arrived. */
export async function readTopics(
  kafka: Kafka,
  topics: string[],
  count: number,
  keep: (message: KafkaMessage) => boolean = () => true,
  timeoutMs = 60_000,
): Promise<KafkaMessage[]> {
  const consumer = kafka.consumer({ groupId: `reader-${randomUUID()}` });
  const messages: KafkaMessage[] = [];
  await consumer.connect();
  await consumer.subscribe({ topics, fromBeginning: true });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`only ${messages.length}/${count} messages on ${topics.join(', ')}`)),
      timeoutMs,
    );
    consumer
      .run({
        eachMessage: async ({ message }) => {
          if (keep(message)) messages.push(message);
          if (messages.length >= count) {
            clearTimeout(timer);
            resolve();
          }
        },
      })
      .catch(reject);
  });
  await consumer.disconnect();
  return messages;
}

/** Messages no consumer may accept: not JSON, a fact missing its fields, a fact of no known type. */
export const POISON: readonly string[] = [
  'not json {',
  JSON.stringify({ type: 'UIMessage', id: 'nope' }),
  JSON.stringify({ type: 'Gossip', orgId: 'acme' }),
];

/** Sends every `POISON` message, keyed `poison`, to each of these topics. */
export async function sendPoison(kafka: Kafka, topicPrefix: string, topics: readonly TopicSpec[]): Promise<void> {
  const producer = kafka.producer();
  await producer.connect();
  try {
    for (const spec of topics) {
      await producer.send({ topic: `${topicPrefix}${spec.name}`, messages: POISON.map((value) => ({ key: 'poison', value })) });
    }
  } finally {
    await producer.disconnect();
  }
}
