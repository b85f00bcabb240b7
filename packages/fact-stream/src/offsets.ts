import type { Admin } from 'kafkajs';

/** Where a partition stands: `offset` is the next offset to read, as Kafka commits it (-1: none committed). */
export interface PartitionOffset {
  topic: string;
  partition: number;
  offset: string;
}

/** A partition's first offset still held and its end (the offset its next message will get). */
export interface PartitionRange {
  topic: string;
  partition: number;
  low: string;
  high: string;
}

/**
 * Every partition's range of `topics` (names as on the broker). A partition of a topic created moments
 * ago may answer "not the leader" while the broker takes it up, which kafkajs' admin does not retry:
 * this does, a few times.
 */
export async function partitionRanges(admin: Admin, topics: readonly string[], attempts = 10): Promise<PartitionRange[]> {
  const ranges: PartitionRange[] = [];
  for (const topic of topics) {
    for (let attempt = 1; ; attempt++) {
      try {
        const offsets = await admin.fetchTopicOffsets(topic);
        ranges.push(...offsets.map(({ partition, low, high }) => ({ topic, partition, low, high })));
        break;
      } catch (error) {
        if (attempt >= attempts || (error as { retriable?: unknown }).retriable !== true) throw error;
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }
  return ranges;
}

/** The offset a consumer group committed on every partition of `topics`: -1 where it committed none. */
export async function committedOffsets(admin: Admin, groupId: string, topics: readonly string[]): Promise<PartitionOffset[]> {
  const fetched = await admin.fetchOffsets({ groupId, topics: [...topics] });
  return fetched.flatMap(({ topic, partitions }) => partitions.map(({ partition, offset }) => ({ topic, partition, offset })));
}
