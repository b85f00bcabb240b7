import { randomUUID } from 'node:crypto';
import { type AnyFact, type FactOf, parseFact, type TopicSpec } from '@hireloop/schemas';
import type { Consumer, Kafka } from 'kafkajs';

/** Collects every fact published on some topics (its own consumer group, from the beginning), for tests. */
export class FactCollector {
  readonly facts: AnyFact[] = [];
  private readonly consumer: Consumer;

  constructor(
    kafka: Kafka,
    private readonly topicPrefix: string,
    private readonly topics: readonly TopicSpec[],
  ) {
    this.consumer = kafka.consumer({ groupId: `collector-${randomUUID()}` });
  }

  async start(): Promise<this> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: this.topics.map((t) => `${this.topicPrefix}${t.name}`), fromBeginning: true });
    await this.consumer.run({
      eachMessage: async ({ message }) => {
        const parsed = parseFact(message.value);
        if (parsed.ok) this.facts.push(parsed.value);
      },
    });
    return this;
  }

  stop(): Promise<void> {
    return this.consumer.disconnect();
  }

  of<T extends AnyFact['type']>(type: T, where: (f: FactOf<T>) => boolean = () => true): FactOf<T>[] {
    return this.facts.filter((f): f is FactOf<T> => f.type === type && where(f as FactOf<T>));
  }

  /** Waits until `probe` returns a value (polling the collected facts). */
  async until<T>(probe: () => T | undefined | false, what: string, timeoutMs = 30_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = probe();
      if (value !== undefined && value !== false) return value;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; collected ${this.facts.length} facts`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }
}
