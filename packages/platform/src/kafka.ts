import { allTopicNames } from '@hireloop/schemas';
import { type Admin, Kafka, type LogEntry, logLevel } from 'kafkajs';
// kafkajs' own table of the broker's error codes: which of them it retries by itself
import kafkaErrors from 'kafkajs/src/protocol/error.js';
import type { Logger } from './logger';

export interface KafkaOptions {
  clientId: string;
  brokers: string[];
  log: Logger;
}

const toPino: Record<logLevel, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.NOTHING]: 'debug',
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

/** The broker's answers that kafkajs retries by itself (its `retriable` error codes), by their message. */
const retriableAnswers: ReadonlySet<string> = new Set(kafkaErrors.errorCodes.filter((e) => e.retriable).map((e) => e.message));

/** kafkajs' lines about a retriable answer it goes on from: a consumer's crash (restarted), a producer's send (sent again). */
const RETRIED_PREFIXES = ['Crash: KafkaJSProtocolError: ', 'Failed to send messages: '] as const;

/**
 * The level a kafkajs log line is written at. kafkajs logs every error answer of the broker as an error,
 * and a consumer it restarts as one too, although it retries them itself: a broker that has just started
 * answers "the coordinator is loading" or "not the leader" for a moment, and every service would log
 * errors on every start. Those are warnings, and so are a consumer's crash on such an answer and a
 * producer's send refused with one; an answer it does not retry, and a crash after its retries ran
 * out, stay errors. Pure.
 */
export function kafkaLogLevel(
  level: logLevel,
  entry: { readonly message: string; readonly [field: string]: unknown },
): 'error' | 'warn' | 'info' | 'debug' {
  if (level !== logLevel.ERROR) return toPino[level];
  const retried =
    (typeof entry.error === 'string' && retriableAnswers.has(entry.error)) ||
    entry.message.startsWith('Restarting the consumer in ') ||
    RETRIED_PREFIXES.some(
      (prefix) => entry.message.startsWith(prefix) && retriableAnswers.has(entry.message.slice(prefix.length)),
    );
  return retried ? 'warn' : 'error';
}

/** A kafkajs client whose own logs go through pino (JSON, with the service name). */
export function createKafka({ clientId, brokers, log }: KafkaOptions): Kafka {
  const child = log.child({ component: 'kafkajs' });
  return new Kafka({
    clientId,
    brokers,
    connectionTimeout: 3_000,
    requestTimeout: 30_000,
    retry: { initialRetryTime: 100, retries: 8 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log: entry }: LogEntry) => {
        const { message, ...rest } = entry;
        child[kafkaLogLevel(level, entry)](rest, message);
      },
  });
}

export async function pingKafka(admin: Admin): Promise<void> {
  const cluster = await admin.describeCluster();
  if (cluster.brokers.length === 0) throw new Error('no broker in the cluster');
}

/**
 * Creates every topic of the registry and its DLQ, idempotently: existing topics are left as they
 * are, and a topic created meanwhile by another process is not an error.
 */
export async function ensureTopics(admin: Admin, prefix: string, partitions: number): Promise<string[]> {
  // A broker that has just started may still answer "does not host this topic-partition" or "leader
  // not available" while it settles: those errors are retriable, so try again for a while.
  for (let attempt = 1; ; attempt++) {
    try {
      return await createMissingTopics(admin, prefix, partitions);
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable || attempt >= 15) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 200 * attempt)));
    }
  }
}

async function createMissingTopics(admin: Admin, prefix: string, partitions: number): Promise<string[]> {
  const wanted = allTopicNames(prefix);
  const existing = new Set(await admin.listTopics());
  const missing = wanted.filter((t) => !existing.has(t));
  if (missing.length > 0) {
    try {
      await admin.createTopics({
        waitForLeaders: true,
        topics: missing.map((topic) => ({ topic, numPartitions: partitions, replicationFactor: 1 })),
      });
    } catch (error) {
      if (!isAlreadyExists(error)) throw error;
    }
  }
  return missing;
}

function isAlreadyExists(error: unknown): boolean {
  const e = error as { type?: string; errors?: { type?: string }[] };
  if (e.type === 'TOPIC_ALREADY_EXISTS') return true;
  return Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x) => x.type === 'TOPIC_ALREADY_EXISTS');
}
