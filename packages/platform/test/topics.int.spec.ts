import { randomBytes } from 'node:crypto';
import { allTopicNames } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createKafka, ensureTopics, pingKafka } from '../src/kafka';
import { createLogger } from '../src/logger';

describe('topic creation (real Kafka)', () => {
  const prefix = `topics-${randomBytes(4).toString('hex')}.`;
  const admin = createKafka({
    clientId: 'topics-test',
    brokers: inject('kafkaBrokers'),
    log: createLogger('test', 'warn'),
  }).admin();

  beforeAll(() => admin.connect());
  afterAll(async () => {
    await admin.deleteTopics({ topics: allTopicNames(prefix) }).catch(() => {});
    await admin.disconnect();
  });

  it('answers a readiness ping', async () => {
    await expect(pingKafka(admin)).resolves.toBeUndefined();
  });

  it('creates every registry topic and its DLQ with the configured partitions, idempotently and concurrently', async () => {
    const runs = await Promise.all([
      ensureTopics(admin, prefix, 3),
      ensureTopics(admin, prefix, 3),
      ensureTopics(admin, prefix, 3),
    ]);
    // every topic of the registry, each with its DLQ
    const names = allTopicNames(prefix);
    expect(names).toHaveLength(20);
    expect(runs.some((created) => created.length === names.length)).toBe(true);
    expect(await ensureTopics(admin, prefix, 3)).toEqual([]);

    const metadata = await admin.fetchTopicMetadata({ topics: allTopicNames(prefix) });
    expect(metadata.topics).toHaveLength(names.length);
    for (const topic of metadata.topics) expect(topic.partitions).toHaveLength(3);
  });
});
