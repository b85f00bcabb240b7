import { isPermanent, type Logger } from '@hireloop/platform';
import {
  type AnyFact,
  describeErrors,
  dlqName,
  type FactOf,
  type FactType,
  type FieldError,
  parseFact,
  type TopicSpec,
} from '@hireloop/schemas';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import pRetry from 'p-retry';
import { logContext } from './fact';
import type { FactPublisher } from './publisher';

export interface Delivery<F extends AnyFact = AnyFact> {
  fact: F;
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  /** the traceparent the fact arrived with; pass it on to the facts this one causes */
  traceparent?: string;
  /** a logger carrying the fact's executionId / conversationId */
  log: Logger;
}

export type FactHandler<T extends FactType> = (fact: FactOf<T>, delivery: Delivery<FactOf<T>>) => Promise<void>;
export type BatchHandler = (deliveries: Delivery[]) => Promise<void>;

export interface ConsumerOptions {
  kafka: Kafka;
  topicPrefix: string;
  groupId: string;
  topics: readonly TopicSpec[];
  log: Logger;
  /** publishes dead letters */
  publisher: FactPublisher;
  /** attempts after the first before a failing fact goes to the DLQ */
  retries?: number;
  /** backoff of the first retry in ms (doubles each time) */
  retryDelayMs?: number;
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
}

/** What a DLQ entry holds: the reason, where the fact came from, and its original bytes. */
export interface DeadLetter {
  reason: 'invalid' | 'wrong_topic' | 'handler_failed';
  error: string;
  errors?: FieldError[];
  topic: string;
  partition: number;
  offset: string;
  groupId: string;
  failedAt: string;
  key: string | null;
  originalBase64: string;
  original: string;
}

const headerStrings = (message: KafkaMessage): Record<string, string> =>
  Object.fromEntries(
    Object.entries(message.headers ?? {}).flatMap(([k, v]) =>
      v === undefined ? [] : [[k, Array.isArray(v) ? String(v[0]) : String(v)]],
    ),
  );

/**
 * Consumes facts: each is validated on receipt; an invalid one, one on the wrong topic, or one whose
 * handler keeps failing after bounded retries goes to `<topic>.dlq` with the error and the original
 * bytes, and the consumer moves on. Offsets are resolved only after the handler returned (its effect
 * is durable), and committed after each batch. Stopping finishes the message in hand.
 */
export class FactConsumer {
  private readonly consumer: Consumer;
  private readonly handlers = new Map<FactType, FactHandler<FactType>>();
  private batchHandler: BatchHandler | undefined;
  private readonly topicByName: Map<string, TopicSpec>;

  private joined = false;

  constructor(private readonly options: ConsumerOptions) {
    this.consumer = options.kafka.consumer({ groupId: options.groupId, sessionTimeout: 30_000, heartbeatInterval: 3_000 });
    this.topicByName = new Map(options.topics.map((t) => [`${options.topicPrefix}${t.name}`, t]));
    this.consumer.on(this.consumer.events.GROUP_JOIN, () => {
      this.joined = true;
    });
  }

  /** A readiness check: passes once the consumer has joined its group (and so has partitions to read). */
  readonly ready = async (): Promise<void> => {
    if (!this.joined) throw new Error(`consumer group ${this.options.groupId} not joined yet`);
  };

  /** Handles one fact type, fact by fact. */
  on<T extends FactType>(type: T, handler: FactHandler<T>): this {
    this.handlers.set(type, handler as unknown as FactHandler<FactType>);
    return this;
  }

  /** Batch mode: every valid fact of a fetched batch at once (one transaction for a projector). */
  onBatch(handler: BatchHandler): this {
    this.batchHandler = handler;
    return this;
  }

  async start(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.topicByName.keys()], fromBeginning: this.options.fromBeginning ?? true });
    await this.consumer.run({
      autoCommit: true,
      autoCommitInterval: 1_000,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently: this.options.partitionsConsumedConcurrently ?? 1,
      eachBatch: (payload) => (this.batchHandler ? this.eachBatchAtOnce(payload) : this.eachBatchOneByOne(payload)),
    });
  }

  /** Stops fetching, lets the message in hand finish, commits, and leaves the group. */
  async stop(): Promise<void> {
    await this.consumer.disconnect();
  }

  /** Events of the underlying kafkajs consumer (GROUP_JOIN, CRASH …), for tests and metrics. */
  get events(): Consumer['events'] {
    return this.consumer.events;
  }

  private async eachBatchOneByOne({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    for (const message of batch.messages) {
      if (!isRunning() || isStale()) return;
      const delivery = await this.receive(batch.topic, batch.partition, message);
      if (delivery) {
        const handler = this.handlers.get(delivery.fact.type);
        if (handler) await this.withRetries(() => handler(delivery.fact, delivery), delivery, message);
      }
      resolveOffset(message.offset);
      await heartbeat();
    }
  }

  private async eachBatchAtOnce({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    if (!isRunning() || isStale()) return;
    const handler = this.batchHandler;
    if (!handler) return;
    const valid: { delivery: Delivery; message: KafkaMessage }[] = [];
    for (const message of batch.messages) {
      const delivery = await this.receive(batch.topic, batch.partition, message);
      if (delivery) valid.push({ delivery, message });
    }
    if (valid.length > 0) {
      try {
        await this.retry(() => handler(valid.map((v) => v.delivery)), valid[0]?.delivery.log ?? this.options.log);
      } catch {
        // One poison fact must not hold the batch: take them one at a time, dead-lettering the failures.
        for (const { delivery, message } of valid) await this.withRetries(() => handler([delivery]), delivery, message);
      }
    }
    const last = batch.messages.at(-1);
    if (last) resolveOffset(last.offset);
    await heartbeat();
  }

  /** Parses and validates one message; dead-letters it and returns undefined when it is not a fact of its topic. */
  private async receive(topic: string, partition: number, message: KafkaMessage): Promise<Delivery | undefined> {
    const parsed = parseFact(message.value);
    if (!parsed.ok) {
      await this.deadLetter(topic, partition, message, 'invalid', describeErrors(parsed.errors), parsed.errors);
      return undefined;
    }
    const spec = this.topicByName.get(topic);
    if (spec && spec.fact !== parsed.value.type) {
      await this.deadLetter(
        topic,
        partition,
        message,
        'wrong_topic',
        `${parsed.value.type} does not belong on ${spec.name} (carries ${spec.fact})`,
      );
      return undefined;
    }
    const headers = headerStrings(message);
    const parent = this.options.log;
    const fact = parsed.value;
    let log: Logger | undefined;
    return {
      fact,
      topic,
      partition,
      offset: message.offset,
      headers,
      ...(headers.traceparent ? { traceparent: headers.traceparent } : {}),
      // made on first use: most deliveries are never logged about, and a child logger per fact costs
      get log() {
        log ??= parent.child(logContext(fact));
        return log;
      },
    };
  }

  private retry(run: () => Promise<void>, log: Logger): Promise<void> {
    return pRetry(run, {
      retries: this.options.retries ?? 3,
      minTimeout: this.options.retryDelayMs ?? 200,
      factor: 2,
      shouldRetry: ({ error }) => !isPermanent(error),
      onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
        log.warn({ err: error, attemptNumber, retriesLeft }, 'handler failed');
      },
    });
  }

  private async withRetries(run: () => Promise<void>, delivery: Delivery, message: KafkaMessage): Promise<void> {
    try {
      await this.retry(run, delivery.log);
    } catch (error) {
      delivery.log.error({ err: error }, 'handler failed for good: dead-lettering the fact');
      await this.deadLetter(
        delivery.topic,
        delivery.partition,
        message,
        'handler_failed',
        (error as Error).message ?? String(error),
      );
    }
  }

  private async deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    reason: DeadLetter['reason'],
    error: string,
    errors?: FieldError[],
  ): Promise<void> {
    const bytes = message.value ?? Buffer.alloc(0);
    const letter: DeadLetter = {
      reason,
      error,
      ...(errors ? { errors } : {}),
      topic,
      partition,
      offset: message.offset,
      groupId: this.options.groupId,
      failedAt: new Date().toISOString(),
      key: message.key?.toString() ?? null,
      originalBase64: bytes.toString('base64'),
      original: bytes.toString('utf8').slice(0, 10_000),
    };
    this.options.log.warn({ topic, partition, offset: message.offset, reason, error }, 'fact dead-lettered');
    // If the DLQ cannot be written the error propagates: the offset stays unresolved and the fact is redelivered.
    await this.options.publisher.sendRaw(dlqName(topic), [
      { key: message.key ?? null, value: JSON.stringify(letter), headers: { ...headerStrings(message), 'x-dlq-reason': reason } },
    ]);
  }
}
