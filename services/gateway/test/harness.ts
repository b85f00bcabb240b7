/** The gateway app built in-process (no port), on the test run's Postgres and Kafka topics. */
import { projectBatch } from '@hireloop/event-store';
import { FactPublisher } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createHttpApp, createKafka, createLogger, createPool } from '@hireloop/platform';
import { Topics } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { recorded } from '../../../packages/event-store/test/builders';
import { type GatewayDeps, type GatewayLimits, gatewayApp } from '../src/app';
import { gatewayVerifier } from '../src/auth';
import { BroadcastHub } from '../src/chat/hub';
import type { Publisher } from '../src/commands/deps';
import { fakeConnectHub, HOOK_KEY, SECRET } from './fixtures';

export const log = createLogger('gateway-test', 'silent');

export interface Harness {
  pool: ReturnType<typeof createPool>;
  publisher: FactPublisher;
  collector: FactCollector;
  build(
    limits?: Partial<GatewayLimits>,
    hub?: BroadcastHub,
    publisher?: Publisher,
    extra?: Partial<Pick<GatewayDeps, 'connectHub' | 'hookSecretKey' | 'publicUrl'>>,
  ): Promise<FastifyInstance>;
  close(): Promise<void>;
}

export async function harness(): Promise<Harness> {
  const kafka = createKafka({ clientId: 'gateway-test', brokers: inject('kafkaBrokers'), log });
  const pool = createPool(inject('databaseUrl'));
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log });
  const collector = new FactCollector(kafka, inject('topicPrefix'), [
    Topics.triggers,
    Topics.hilResponse,
    Topics.uiMessages,
    Topics.employees,
    Topics.orgPolicies,
  ]);
  await Promise.all([publisher.connect(), collector.start()]);
  const apps: FastifyInstance[] = [];
  return {
    pool,
    publisher,
    collector,
    async build(limits = {}, hub = new BroadcastHub(), publishTo: Publisher = publisher, extra = {}) {
      // the app every service is built on (`bootService`): its JSON parser and router errors too
      const app = createHttpApp(log);
      await app.register(gatewayApp, {
        pool,
        publisher: publishTo,
        verify: gatewayVerifier(SECRET),
        hub,
        config: { bodyLimit: 256 * 1024, frameLimit: 256 * 1024, rateLimitPerMinute: 10_000, ...limits },
        connectHub: fakeConnectHub(),
        hookSecretKey: HOOK_KEY,
        ...extra,
      });
      await app.ready();
      apps.push(app);
      return app;
    },
    async close() {
      await Promise.all(apps.map((a) => a.close()));
      await Promise.all([collector.stop(), publisher.disconnect()]);
      await pool.end();
    },
  };
}

/**
 * A publisher that publishes to Kafka, then hands the fact to the event store's own projector (as the
 * event-store service would a moment later), so that a command that waits for its fact to be recorded
 * answers. `later` holds the recording back, to see the command wait.
 */
export function recording(h: Pick<Harness, 'pool' | 'publisher'>, later?: Promise<void>): Publisher {
  return {
    publish: async (fact, options) => {
      await h.publisher.publish(fact, options);
      const stored = (later ?? Promise.resolve()).then(() => projectBatch(h.pool, [recorded(fact, inject('topicPrefix'))]));
      if (!later) await stored;
    },
  };
}
