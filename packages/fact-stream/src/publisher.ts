import { HireloopError, type Logger, traceparent } from '@hireloop/platform';
import { type AnyFact, describeErrors, Limits, storable, topicFor, validateFact } from '@hireloop/schemas';
import { type IHeaders, type Kafka, Partitioners, type Producer } from 'kafkajs';
import { canonicalJson } from './canonical';
import { logContext } from './fact';
import { retrying } from './retry';

/** How JSON writes a NUL or a lone surrogate: escaped (a pair is written as it is). */
const ESCAPED_UNSTORABLE = /\\u0000|\\ud[89a-f][0-9a-f]{2}/i;

export interface PublisherOptions {
  kafka: Kafka;
  topicPrefix: string;
  log: Logger;
  /** attempts after the first when the broker cannot be reached (on top of kafkajs' own) */
  retries?: number;
}

export interface PublishOptions {
  /** the traceparent of the message that caused this fact; a child span is derived from it */
  traceparent?: string;
}

/** The Kafka key of a fact: the value of its topic's key field (ARCHITECTURE §2). */
export function keyOf(fact: AnyFact): string {
  const { key } = topicFor(fact);
  const value = (fact as unknown as Record<string, unknown>)[key] ?? (fact.correlation as Record<string, unknown>)[key];
  if (typeof value !== 'string' || value === '') {
    throw new HireloopError('VALIDATION_FAILED', `${fact.type} has no ${key} to key it by`);
  }
  return value;
}

type TopicMessages = NonNullable<Parameters<Producer['sendBatch']>[0]['topicMessages']>[number];

/** Publishes waiting for the request in flight, sent together in the next one. */
interface Outgoing {
  topicMessages: TopicMessages[];
  facts: readonly AnyFact[];
  bytes: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * At most this many bytes of values in one request made of several publishes (one publish alone is
 * never split): well under the broker's `message.max.bytes` (1 MB by default), which bounds the batch
 * of one partition.
 */
const MAX_REQUEST_BYTES = 256 * 1024;

const bytesOf = (topicMessages: readonly TopicMessages[]): number =>
  topicMessages.reduce(
    (n, t) =>
      n +
      t.messages.reduce(
        (m, message) => m + (message.value === null ? 0 : Buffer.byteLength(message.value as string | Buffer)),
        0,
      ),
    0,
  );

/** The messages of several publishes, per topic, in the order they were published. */
function merged(group: readonly Outgoing[]): TopicMessages[] {
  const byTopic = new Map<string, TopicMessages['messages']>();
  for (const { topicMessages } of group) {
    for (const { topic, messages } of topicMessages) byTopic.set(topic, [...(byTopic.get(topic) ?? []), ...messages]);
  }
  return [...byTopic].map(([topic, messages]) => ({ topic, messages }));
}

/**
 * Publishes facts: validated against their schema, keyed by the registry's key field, with
 * `traceparent` and `causationId` headers, through an idempotent producer. A broker that stays
 * away fails the publish loudly (PUBLISH_FAILED) after retries; an invalid fact fails at once.
 */
export class FactPublisher {
  private readonly producer: Producer;
  private readonly retries: number;
  private readonly outgoing: Outgoing[] = [];
  private flushing = false;
  private sent = 0;

  constructor(private readonly options: PublisherOptions) {
    this.producer = options.kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
      retry: { retries: 5, initialRetryTime: 100 },
    });
    this.retries = options.retries ?? 3;
  }

  connect(): Promise<void> {
    return this.producer.connect();
  }

  disconnect(): Promise<void> {
    return this.producer.disconnect();
  }

  topicName(fact: AnyFact): string {
    return `${this.options.topicPrefix}${topicFor(fact).name}`;
  }

  async publish(fact: AnyFact, options: PublishOptions = {}): Promise<void> {
    await this.publishAll([fact], options);
  }

  /** Publishes several facts in one request per topic; all or none are acknowledged. */
  async publishAll(facts: readonly AnyFact[], options: PublishOptions = {}): Promise<void> {
    const byTopic = new Map<string, { key: string; value: string; headers: IHeaders }[]>();
    for (const fact of facts) {
      const valid = validateFact(fact);
      if (!valid.ok) {
        throw new HireloopError(
          'VALIDATION_FAILED',
          `refusing to publish an invalid ${fact.type}: ${describeErrors(valid.errors)}`,
          {
            errors: valid.errors,
          },
        );
      }
      // canonical: a consumer that needs the fact's canonical text again (the event store) gets it at the cost of a `JSON.stringify`
      let value = canonicalJson(fact);
      // text no fact can carry (a NUL, half of a surrogate pair: JSON writes both escaped) would be dead-lettered by
      // the event store and the fact lost; the edge refuses a user's own, so what is left came from outside (a
      // provider) or a cut through an emoji, and is made storable here, said so, rather than lost
      if (ESCAPED_UNSTORABLE.test(value)) {
        const cleaned = storable(fact);
        const again = canonicalJson(cleaned);
        if (again !== value) {
          this.options.log.warn(
            { ...logContext(fact) },
            'a fact held text no fact can carry: made storable (U+FFFD) before publishing',
          );
          value = again;
        }
      }
      if (Buffer.byteLength(value) > Limits.factBytes) {
        throw new HireloopError(
          'VALIDATION_FAILED',
          `${fact.type} is ${Buffer.byteLength(value)} bytes, over ${Limits.factBytes}`,
        );
      }
      const headers: IHeaders = { traceparent: traceparent(options.traceparent), factType: fact.type };
      if (fact.causationId) headers.causationId = fact.causationId;
      const topic = this.topicName(fact);
      byTopic.set(topic, [...(byTopic.get(topic) ?? []), { key: keyOf(fact), value, headers }]);
    }
    await this.send(
      [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      facts,
    );
  }

  /** Sends raw messages (a DLQ entry keeps the original bytes). */
  async sendRaw(
    topic: string,
    messages: { key: string | Buffer | null; value: string | Buffer; headers?: IHeaders }[],
  ): Promise<void> {
    await this.send([{ topic, messages }], []);
  }

  /** Produce requests sent so far (several publishes waiting at once travel in one). */
  get requests(): number {
    return this.sent;
  }

  /**
   * Queues the messages and resolves once they are acknowledged. The idempotent producer has one
   * request at a time in flight per broker (kafkajs serialises them for its sequence numbers, whatever
   * `maxInFlightRequests` says), so publishes that arrive while one is in flight do not each wait for a
   * request of their own: they go together in the next one, up to MAX_REQUEST_BYTES, in the order they
   * came. Nothing waits when nothing is in flight: there is no linger.
   */
  private send(topicMessages: TopicMessages[], facts: readonly AnyFact[]): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.outgoing.push({ topicMessages, facts, bytes: bytesOf(topicMessages), resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.outgoing.length > 0) {
      const group: Outgoing[] = [];
      let bytes = 0;
      while (
        this.outgoing.length > 0 &&
        (group.length === 0 || bytes + (this.outgoing[0] as Outgoing).bytes <= MAX_REQUEST_BYTES)
      ) {
        const next = this.outgoing.shift() as Outgoing;
        bytes += next.bytes;
        group.push(next);
      }
      try {
        await this.sendNow(
          group.length === 1 ? (group[0] as Outgoing).topicMessages : merged(group),
          group.flatMap((g) => g.facts),
        );
        for (const g of group) g.resolve();
      } catch (error) {
        for (const g of group) g.reject(error);
      }
    }
    this.flushing = false;
  }

  private async sendNow(topicMessages: TopicMessages[], facts: readonly AnyFact[]): Promise<void> {
    try {
      await retrying(
        () => {
          this.sent += 1;
          return this.producer.sendBatch({ topicMessages, acks: -1 });
        },
        {
          retries: this.retries,
          minTimeout: 200,
          maxTimeout: 2_000,
          onFailedAttempt: ({ error, attemptNumber }) =>
            this.options.log.warn({ err: error, attemptNumber }, 'publish failed; retrying'),
        },
      );
    } catch (error) {
      const context = facts[0] ? logContext(facts[0]) : {};
      this.options.log.error({ err: error, ...context, count: facts.length }, 'publish failed after retries');
      throw new HireloopError('PUBLISH_FAILED', `could not publish to Kafka: ${(error as Error).message}`, context, {
        cause: error,
      });
    }
  }
}
