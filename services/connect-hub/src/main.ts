import { bootService, loadJwtSecret, tokenVerifier } from '@hireloop/platform';
import { API_PREFIX, connectHub } from './app';
import { postgresStore } from './store';

const service = await bootService('connect-hub');
await service.http.register(connectHub, {
  prefix: API_PREFIX,
  store: postgresStore(service.pool),
  verify: tokenVerifier(loadJwtSecret()),
});
await service.listen();
