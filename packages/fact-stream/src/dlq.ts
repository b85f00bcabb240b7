/**
 * The dead-letter topics, for operators: list what is in them, and redrive a fact an operator has
 * fixed back onto the topic it came from. A redriven fact is validated like any other publish, so a
 * fix that is still wrong is refused with the field named, and nothing is sent.
 */

import { randomUUID } from 'node:crypto';
import { HireloopError } from '@hireloop/platform';
import { dlqName, parseFact, type TopicSpec, topicList } from '@hireloop/schemas';
import type { Admin, Kafka } from 'kafkajs';
import type { DeadLetter } from './consumer';
import { partitionRanges } from './offsets';
import type { FactPublisher } from './publisher';

export interface DlqEntry {
  /** the dead-letter topic and the letter's position in it */
  dlqTopic: string;
  partition: number;
  offset: string;
  letter: DeadLetter;
}

/** Every letter the DLQs of `topics` hold now, oldest first per partition. Reads up to each partition's end, then stops. */
export async function readDeadLetters(
  kafka: Kafka,
  admin: Admin,
  topicPrefix: string,
  topics: readonly TopicSpec[] = topicList,
  timeoutMs = 30_000,
): Promise<DlqEntry[]> {
  const names = topics.map((t) => dlqName(`${topicPrefix}${t.name}`));
  const ends = new Map<string, bigint>();
  for (const p of await partitionRanges(admin, names)) {
    if (BigInt(p.high) > BigInt(p.low)) ends.set(`${p.topic}:${p.partition}`, BigInt(p.high));
  }
  if (ends.size === 0) return [];
  const entries: DlqEntry[] = [];
  const consumer = kafka.consumer({ groupId: `dlq-reader-${randomUUID()}` });
  await consumer.connect();
  try {
    await consumer.subscribe({
      topics: names.filter((n) => [...ends.keys()].some((k) => k.startsWith(`${n}:`))),
      fromBeginning: true,
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the DLQs were not read to their end within ${timeoutMs} ms`)), timeoutMs);
      consumer
        .run({
          eachMessage: async ({ topic, partition, message }) => {
            const key = `${topic}:${partition}`;
            const end = ends.get(key);
            if (end === undefined) return;
            try {
              entries.push({ dlqTopic: topic, partition, offset: message.offset, letter: JSON.parse(String(message.value)) });
            } catch {
              // a letter is always JSON; one that is not is skipped rather than hiding the others
            }
            if (BigInt(message.offset) + 1n >= end) ends.delete(key);
            if (ends.size === 0) {
              clearTimeout(timer);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
  return entries;
}

/**
 * Publishes the fixed fact of a letter on the topic the letter came from. `fixed` is the operator's
 * corrected fact (JSON text); without it the original bytes are tried as they are (a fact that failed
 * only because a downstream was broken). Refused, naming the field, when it is still not a valid fact.
 */
export async function redrive(
  publisher: FactPublisher,
  letter: DeadLetter,
  fixed?: string,
): Promise<{ id: string; type: string }> {
  const parsed = parseFact(fixed ?? Buffer.from(letter.originalBase64, 'base64'));
  if (!parsed.ok) {
    const first = parsed.errors[0];
    throw new HireloopError(
      'VALIDATION_FAILED',
      `the fact to redrive is still invalid${first ? `: ${first.path || '/'} ${first.message}` : ''}`,
      { errors: parsed.errors },
    );
  }
  await publisher.publish(parsed.value);
  return { id: parsed.value.id, type: parsed.value.type };
}
