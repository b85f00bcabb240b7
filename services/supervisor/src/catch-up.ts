import { committedOffsets, type PartitionOffset } from '@hireloop/fact-stream';
import type { Logger, Pool } from '@hireloop/platform';
import type { Admin, Kafka } from 'kafkajs';

/** A partition's position: `offset` is the next offset to read, as Kafka commits it. */
export type Position = PartitionOffset;

/**
 * Where the supervisor's group must resume so that no input is lost between the event store and
 * Kafka. The rebuild folds what the store holds; the group's committed offsets say what the last
 * instance handled. A fact handled and committed but not yet stored (the store lagging, or down, at
 * the moment of a restart) is in neither the rebuild nor what the consumer will read — a queued
 * trigger would be dropped. So each partition resumes at the earlier of its committed offset and the
 * store's next offset; facts read twice are no-ops, because `evolve` is idempotent.
 *
 * `stored` maps `topic:partition` to the highest kafka_offset the store holds; a partition with none
 * stored resumes from its start. Partitions with no committed offset are left alone (the consumer
 * reads them from the beginning anyway).
 */
export function rewindTargets(committed: readonly Position[], stored: ReadonlyMap<string, bigint>): Position[] {
  return committed.flatMap((position) => {
    const at = BigInt(position.offset);
    if (at < 0n) return [];
    const highest = stored.get(`${position.topic}:${position.partition}`);
    const next = highest === undefined ? 0n : highest + 1n;
    return next < at ? [{ ...position, offset: next.toString() }] : [];
  });
}

/**
 * Where a group that has never committed a partition starts, when another group read that partition
 * for the same purpose before it (the supervisor's follow-ups moved out of its one group, docs/decisions.md,
 * 2026-11-27): at the former group's position. Without it the new group reads every partition from its
 * start, and decisions taken on facts the rebuild already folded cannot be undone (an old prompt made
 * current again frees a slot, or is timed out). Partitions either group committed are left alone.
 */
export function adoptedPositions(own: readonly Position[], former: readonly Position[]): Position[] {
  const before = new Map(former.map((p) => [`${p.topic}:${p.partition}`, p.offset]));
  return own.flatMap((position) => {
    if (BigInt(position.offset) >= 0n) return [];
    const offset = before.get(`${position.topic}:${position.partition}`);
    return offset !== undefined && BigInt(offset) >= 0n ? [{ ...position, offset }] : [];
  });
}

/** Starts `groupId` where `formerGroupId` stands on the partitions it never committed (`adoptedPositions`); the group must be empty. */
export async function adoptFormerGroup(options: {
  kafka: Kafka;
  admin: Admin;
  groupId: string;
  formerGroupId: string;
  topics: readonly string[];
  log: Logger;
}): Promise<Position[]> {
  const { kafka, admin, groupId, formerGroupId, topics, log } = options;
  const targets = adoptedPositions(
    await committedOffsets(admin, groupId, topics),
    await committedOffsets(admin, formerGroupId, topics),
  );
  if (targets.length === 0) return [];
  await commitPositions(kafka, groupId, targets);
  log.info({ groupId, formerGroupId, adopted: targets }, 'starting where the former consumer group stood');
  return targets;
}

export interface CatchUpOptions {
  kafka: Kafka;
  admin: Admin;
  pool: Pool;
  groupId: string;
  /** broker names of the topics the group consumes */
  topics: readonly string[];
  log: Logger;
  /** how long to wait for a crashed predecessor to leave the group (its session timeout) */
  waitMs?: number;
}

/** Moves the group's offsets back to what the store holds (see `rewindTargets`); the group must be empty. */
export async function rewindToStore({
  kafka,
  admin,
  pool,
  groupId,
  topics,
  log,
  waitMs = 40_000,
}: CatchUpOptions): Promise<Position[]> {
  const committed = await committedOffsets(admin, groupId, topics);
  const { rows } = await pool.query<{ topic: string; partition: number; offset: string }>(
    `SELECT topic, kafka_partition AS partition, max(kafka_offset)::text AS offset
       FROM facts WHERE topic = ANY($1) AND kafka_partition IS NOT NULL AND kafka_offset IS NOT NULL
      GROUP BY topic, kafka_partition`,
    [topics],
  );
  const stored = new Map(rows.map((r) => [`${r.topic}:${r.partition}`, BigInt(r.offset)]));
  const targets = rewindTargets(committed, stored);
  if (targets.length === 0) return [];

  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      await commitPositions(kafka, groupId, targets);
      log.info({ rewound: targets }, 'resuming where the event store ends: facts it has not stored are read again');
      return targets;
    } catch (error) {
      // A predecessor that crashed stays a member until its session times out; wait for it.
      if (Date.now() > deadline) throw error;
      log.warn({ err: error }, 'the consumer group is not empty yet; waiting to rewind it');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    }
  }
}

/**
 * Commits positions for an empty group: what kafkajs' `admin.setOffsets` does, but for every topic in
 * one join and without its 5 s fetch wait per topic (join, seek every partition — a seek commits —,
 * leave at the first fetch).
 */
async function commitPositions(kafka: Kafka, groupId: string, targets: readonly Position[]): Promise<void> {
  const topics = [...new Set(targets.map((t) => t.topic))];
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 100 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topics, fromBeginning: true });
    const { state } = await consumer.describeGroup();
    if (state !== 'Empty' && state !== 'Dead') throw new Error(`the consumer group ${groupId} has running members (${state})`);
    await new Promise<void>((resolve, reject) => {
      consumer.on(consumer.events.FETCH, () => {
        consumer.stop().then(resolve, reject);
      });
      consumer.run({ eachBatchAutoResolve: false, eachBatch: async () => {} }).catch(reject);
      consumer.pause(topics.map((topic) => ({ topic })));
      for (const { topic, partition, offset } of targets) consumer.seek({ topic, partition, offset });
    });
  } finally {
    await consumer.disconnect();
  }
}
