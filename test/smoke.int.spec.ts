import { randomBytes, randomUUID } from 'node:crypto';
import { createKafka, createLogger, createPool, withTransaction } from '@hireloop/platform';
import { CompressionTypes, type Consumer, type Producer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const FACTS = 10_000;
const KEYS = 50;

/**
 * The foundation's smoke test: facts keyed across partitions go through the real broker to a
 * consumer group, which writes them to Postgres and commits offsets only after the write commits.
 */
describe('smoke: 10,000 facts through Kafka into Postgres', () => {
  const run = randomBytes(4).toString('hex');
  const topic = `${inject('topicPrefix')}smoke-${run}`;
  const log = createLogger('smoke', 'warn');
  const kafka = createKafka({ clientId: 'smoke', brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const pool = createPool(inject('databaseUrl'));
  let producer: Producer;
  let consumer: Consumer;

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 6, replicationFactor: 1 }] });
    await pool.query(
      `CREATE TABLE smoke_${run} (seq bigserial PRIMARY KEY, id uuid UNIQUE NOT NULL, key text NOT NULL, n int NOT NULL)`,
    );
    producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
    consumer = kafka.consumer({ groupId: `smoke-${run}` });
    await Promise.all([producer.connect(), consumer.connect()]);
  });

  afterAll(async () => {
    await Promise.all([producer.disconnect(), consumer.disconnect()]);
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.disconnect();
    await pool.end();
  });

  it('stores every fact exactly once and in order per key', async () => {
    const sent = new Map<string, number>();
    const messages = Array.from({ length: FACTS }, (_, i) => {
      const key = `key-${i % KEYS}`;
      const n = sent.get(key) ?? 0;
      sent.set(key, n + 1);
      return { key, value: JSON.stringify({ id: randomUUID(), key, n }) };
    });
    for (let i = 0; i < messages.length; i += 1_000) {
      await producer.send({ topic, compression: CompressionTypes.None, messages: messages.slice(i, i + 1_000) });
    }

    let stored = 0;
    const done = new Promise<void>((resolve, reject) => {
      consumer
        .subscribe({ topic, fromBeginning: true })
        .then(() =>
          consumer.run({
            eachBatchAutoResolve: false,
            autoCommit: false,
            eachBatch: async ({ batch, resolveOffset, commitOffsetsIfNecessary, heartbeat }) => {
              const facts = batch.messages.map(
                (m) => JSON.parse(m.value?.toString() ?? '{}') as { id: string; key: string; n: number },
              );
              await withTransaction(pool, (client) =>
                client.query(
                  `INSERT INTO smoke_${run} (id, key, n)
                   SELECT id, key, n FROM unnest($1::uuid[], $2::text[], $3::int[]) WITH ORDINALITY AS u(id, key, n, ord)
                   ORDER BY ord
                   ON CONFLICT (id) DO NOTHING`,
                  [facts.map((f) => f.id), facts.map((f) => f.key), facts.map((f) => f.n)],
                ),
              );
              const last = batch.messages.at(-1);
              if (last) resolveOffset(last.offset);
              await commitOffsetsIfNecessary({
                topics: [
                  {
                    topic: batch.topic,
                    partitions: [{ partition: batch.partition, offset: (Number(last?.offset ?? -1) + 1).toString() }],
                  },
                ],
              });
              await heartbeat();
              stored += facts.length;
              if (stored >= FACTS) resolve();
            },
          }),
        )
        .catch(reject);
    });
    await done;

    const { rows } = await pool.query<{ key: string; n: number; id: string }>(`SELECT key, n, id FROM smoke_${run} ORDER BY seq`);
    expect(rows).toHaveLength(FACTS);
    expect(new Set(rows.map((r) => r.id)).size).toBe(FACTS);

    const seen = new Map<string, number[]>();
    for (const row of rows) seen.set(row.key, [...(seen.get(row.key) ?? []), row.n]);
    expect(seen.size).toBe(KEYS);
    for (const [key, ns] of seen) {
      expect(ns, `order of ${key}`).toEqual(Array.from({ length: sent.get(key) ?? 0 }, (_, i) => i));
    }

    const partitions = await admin.fetchTopicOffsets(topic);
    expect(partitions.filter((p) => Number(p.high) > 0).length).toBeGreaterThan(1);
  });
});
