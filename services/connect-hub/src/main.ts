import { FactPublisher } from '@hireloop/fact-stream';
import { bootService, ensureTopics, loadJwtSecret, tokenVerifier } from '@hireloop/platform';
import { factAnnouncer } from './announce';
import { registerConnectHub } from './app';
import { type ConnectHubConfig, loadConnectHubConfig } from './config';
import { postgresStore } from './store';

const service = await bootService('connect-hub');

let config: ConnectHubConfig;
try {
  config = loadConnectHubConfig();
} catch (error) {
  service.log.fatal({ err: error }, 'invalid configuration');
  await service.lifecycle.shutdown();
  process.exit(1);
}

// a change of an org's connections is a fact on `org-connections`: every worker drops its cached view
// of that org's catalog on it (docs/decisions.md, 2026-11-27)
// (the topic is new: a deployment that upgrades the hub first has it created here)
await ensureTopics(service.admin, service.config.topicPrefix, service.config.topicPartitions);
const publisher = new FactPublisher({ kafka: service.kafka, topicPrefix: service.config.topicPrefix, log: service.log });
await publisher.connect();
service.lifecycle.onStop('publisher', () => publisher.disconnect());

await registerConnectHub(service.http, {
  store: postgresStore(service.pool),
  verify: tokenVerifier(loadJwtSecret()),
  announce: factAnnouncer(publisher),
  rateLimitPerMinute: config.rateLimitPerMinute,
});
await service.listen();
