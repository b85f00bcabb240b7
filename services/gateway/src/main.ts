/**
 * The gateway process: configuration, the publisher, the app, this instance's broadcast consumer, and
 * shutdown in order — stop consuming, close the sockets (1001), stop HTTP, then the publisher.
 */
import { randomBytes } from 'node:crypto';
import { FactPublisher } from '@hireloop/fact-stream';
import { bootService, ConfigError, createLogger, signToken, streamMetrics } from '@hireloop/platform';
import { gatewayApp } from './app';
import { gatewayVerifier } from './auth';
import { Broadcast } from './broadcast';
import { BroadcastHub } from './chat/hub';
import { sweepRequestKeys } from './commands/request-keys';
import { type GatewayConfig, loadGatewayConfig } from './config';
import { HttpConnectHub } from './hooks/connect-hub';
import { DEFAULT_PAGE_DIR, pageOptions } from './page';

function loadConfigOrExit(): GatewayConfig {
  try {
    return loadGatewayConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    createLogger('gateway', process.env.LOG_LEVEL ?? 'info').fatal(
      { code: error.code },
      `gateway cannot start: ${error.message}`,
    );
    process.exit(1);
  }
}

const config = loadConfigOrExit();
const instanceId = randomBytes(6).toString('hex');
let broadcast: Broadcast | undefined;

const service = await bootService('gateway', {
  checks: {
    // ready only once this instance receives broadcasts, so that no prompt is missed by its sockets
    broadcast: async () => {
      if (!broadcast?.ready) throw new Error('the broadcast consumer has not joined its group yet');
    },
  },
});
const { log, lifecycle } = service;

const publisher = new FactPublisher({ kafka: service.kafka, topicPrefix: service.config.topicPrefix, log });
await publisher.connect();
lifecycle.onStop('publisher', () => publisher.disconnect());

const hub = new BroadcastHub();
const connectHub = new HttpConnectHub({ baseUrl: config.connectHubUrl, secret: config.jwtSecret });
await service.http.register(gatewayApp, {
  pool: service.pool,
  publisher,
  verify: gatewayVerifier(config.jwtSecret),
  config,
  hub,
  connectHub,
  hookSecretKey: config.hookSecretKey,
  ...(config.publicUrl !== undefined ? { publicUrl: config.publicUrl } : {}),
  page: pageOptions({
    dir: process.env.GATEWAY_PAGE_DIR || DEFAULT_PAGE_DIR,
    nodeEnv: service.config.nodeEnv,
    sign: (principal, expiresIn) => signToken(principal, config.jwtSecret, expiresIn),
  }),
});

await service.listen();

// Registered after `listen` (whose HTTP step they precede): lifecycle stops run in reverse order.
lifecycle.onStop('sockets', () => hub.closeAll(1001, 'gateway shutting down'));
const consumer = new Broadcast({
  kafka: service.kafka,
  topicPrefix: service.config.topicPrefix,
  instanceId,
  hub,
  publisher,
  log,
  metrics: streamMetrics(service.metrics),
  onConnectionsChanged: (orgId) => connectHub.forget(orgId),
});
lifecycle.onStop('broadcast', async () => {
  await consumer.stop();
  // the group is this instance's alone: nobody will resume it
  await service.admin
    .deleteGroups([consumer.groupId])
    .catch((error: unknown) => log.warn({ err: error }, 'could not delete the broadcast group'));
});
await consumer.start();
broadcast = consumer;

// the keys of requests (Idempotency-Keys, webhook delivery ids) are remembered for a week, then forgotten
const sweep = setInterval(
  () =>
    void sweepRequestKeys(service.pool)
      .then((forgotten) => forgotten > 0 && log.info({ forgotten }, 'request keys forgotten'))
      .catch((error: unknown) => log.warn({ err: error }, 'could not forget old request keys')),
  3_600_000,
);
sweep.unref();
lifecycle.onStop('request keys', () => clearInterval(sweep));
log.info({ groupId: consumer.groupId }, 'broadcasting to chat sockets');
