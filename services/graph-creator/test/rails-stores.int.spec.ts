import { createPool } from '@hireloop/platform';
import { afterAll, inject } from 'vitest';
import { postgresCircuits, postgresPolicies, postgresRateLimits } from '../src/tools/guards';
import { railStoresContract } from './rails-stores.contract';

const pool = createPool(inject('databaseUrl'));
afterAll(() => pool.end());

railStoresContract('Postgres', {
  policies: () => postgresPolicies(pool),
  rates: () => postgresRateLimits(pool),
  circuits: () => postgresCircuits(pool),
});
