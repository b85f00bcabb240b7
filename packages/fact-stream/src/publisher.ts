import { HireloopError, type Logger, traceparent } from '@hireloop/platform';
import { type AnyFact, describeErrors, Limits, topicOf, validateFact } from '@hireloop/schemas';
import { type IHeaders, type Kafka, Partitioners, type Producer } from 'kafkajs';
import pRetry from 'p-retry';
import { canonicalJson } from './canonical';
import { logContext } from './fact';

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
  const { key } = topicOf(fact.type);
  const value = (fact as unknown as Record<string, unknown>)[key] ?? (fact.correlation as Record<string, unknown>)[key];
  if (typeof value !== 'string' || value === '') {
    throw new HireloopError('VALIDATION_FAILED', `${fact.type} has no ${key} to key it by`);
  }
  return value;
}

/**
 * Publishes facts: validated against their schema, keyed by the registry's key field, with
 * `traceparent` and `causationId` headers, through an idempotent producer. A broker that stays
 * away fails the publish loudly (PUBLISH_FAILED) after retries; an invalid fact fails at once.
 */
export class FactPublisher {
  private readonly producer: Producer;
  private readonly retries: number;

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
    return `${this.options.topicPrefix}${topicOf(fact.type).name}`;
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
      const value = canonicalJson(fact);
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

  private async send(
    topicMessages: Parameters<Producer['sendBatch']>[0]['topicMessages'],
    facts: readonly AnyFact[],
  ): Promise<void> {
    try {
      await pRetry(() => this.producer.sendBatch({ topicMessages, acks: -1 }), {
        retries: this.retries,
        minTimeout: 200,
        maxTimeout: 2_000,
        onFailedAttempt: ({ error, attemptNumber }) =>
          this.options.log.warn({ err: error, attemptNumber }, 'publish failed; retrying'),
      });
    } catch (error) {
      const context = facts[0] ? logContext(facts[0]) : {};
      this.options.log.error({ err: error, ...context, count: facts.length }, 'publish failed after retries');
      throw new HireloopError('PUBLISH_FAILED', `could not publish to Kafka: ${(error as Error).message}`, context, {
        cause: error,
      });
    }
  }
}
