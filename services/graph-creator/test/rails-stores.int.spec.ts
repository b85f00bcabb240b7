import { createPool } from '@hireloop/platform';
import { afterAll, inject } from 'vitest';
import { postgresCircuits, postgresPolicies, postgresRateLimits } from '../src/tools/guards';
import { setPolicy } from './policies';
import { railStoresContract } from './rails-stores.contract';

const pool = createPool(inject('databaseUrl'));
afterAll(() => pool.end());

railStoresContract('Postgres', {
  policies: () => ({ store: postgresPolicies(pool), set: (orgId, policy) => setPolicy(pool, orgId, policy) }),
  rates: () => postgresRateLimits(pool),
  circuits: () => postgresCircuits(pool),
});
