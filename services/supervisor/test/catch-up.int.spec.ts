import { randomBytes } from 'node:crypto';
import { createKafka, createLogger } from '@hireloop/platform';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { adoptFormerGroup } from '../src/catch-up';

/**
 * The follow group's first start after the upgrade (docs/decisions.md, 2026-11-27, "The supervisor reads
 * triggers at once") against the real broker: it takes the positions its former group stood at on the
 * partitions it never committed, and a consumer of it then reads from there, not from the beginning.
 */
describe('adoptFormerGroup (real Kafka)', () => {
  const run = randomBytes(3).toString('hex');
  const topic = `${inject('topicPrefix')}adopt${run}.hil-prompt`;
  const log = createLogger('catch-up-int', 'silent');
  const kafka = createKafka({ clientId: `catch-up-int-${run}`, brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const producer = kafka.producer();
  const PER_PARTITION = 5;

  const offsetsOf = async (groupId: string) =>
    Object.fromEntries(
      (await admin.fetchOffsets({ groupId, topics: [topic] }))
        .flatMap((t) => t.partitions)
        .map(({ partition, offset }) => [partition, Number(offset)]),
    );

  beforeAll(async () => {
    await admin.connect();
    await admin.createTopics({ topics: [{ topic, numPartitions: 3, replicationFactor: 1 }], waitForLeaders: true });
    await producer.connect();
    for (const partition of [0, 1, 2]) {
      await producer.send({
        topic,
        messages: Array.from({ length: PER_PARTITION }, (_, i) => ({ partition, value: `${partition}:${i}` })),
      });
    }
  });
  afterAll(async () => {
    await producer.disconnect();
    await admin.deleteTopics({ topics: [topic] }).catch(() => {});
    await admin.disconnect();
  });

  it('starts a new group where the former one stood, reads on from there, and never moves a partition the new group committed', async () => {
    const former = `adopt-former-${run}`;
    const follow = `adopt-follow-${run}`;
    // the former group read partition 0 up to 3 and partition 1 to its end; partition 2 never
    await admin.setOffsets({
      groupId: former,
      topic,
      partitions: [
        { partition: 0, offset: '3' },
        { partition: 1, offset: '5' },
      ],
    });

    const adopted = await adoptFormerGroup({ kafka, admin, groupId: follow, formerGroupId: former, topics: [topic], log });
    expect(adopted.sort((a, b) => a.partition - b.partition)).toEqual([
      { topic, partition: 0, offset: '3' },
      { topic, partition: 1, offset: '5' },
    ]);
    expect(await offsetsOf(follow)).toEqual({ 0: 3, 1: 5, 2: -1 });

    // a member of the new group reads what the former had not: 0:3, 0:4, and all of partition 2
    const consumer = kafka.consumer({ groupId: follow, maxWaitTimeInMs: 100 });
    const read: string[] = [];
    await consumer.connect();
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async ({ message }) => void read.push(String(message.value)) });
    const until = Date.now() + 30_000;
    while (read.length < 2 + PER_PARTITION && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 500));
    await consumer.disconnect();
    expect(read.sort()).toEqual(['0:3', '0:4', '2:0', '2:1', '2:2', '2:3', '2:4']);

    // adopting again (the next start) moves nothing the new group committed, even where the former moved on
    await admin.setOffsets({ groupId: former, topic, partitions: [{ partition: 0, offset: '1' }] });
    expect(await adoptFormerGroup({ kafka, admin, groupId: follow, formerGroupId: former, topics: [topic], log })).toEqual([]);
    expect(await offsetsOf(follow)).toEqual({ 0: 5, 1: 5, 2: 5 });
  });
});
