import { bootService, loadJwtSecret, tokenVerifier } from '@hireloop/platform';
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

await registerConnectHub(service.http, {
  store: postgresStore(service.pool),
  verify: tokenVerifier(loadJwtSecret()),
  rateLimitPerMinute: config.rateLimitPerMinute,
});
await service.listen();
