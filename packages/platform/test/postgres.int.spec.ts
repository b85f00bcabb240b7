import { afterEach, describe, expect, inject, it } from 'vitest';
import { createPool, type Pool } from '../src/postgres';

const nameSeen = async (pool: Pool): Promise<string> =>
  (await pool.query<{ name: string }>('SELECT application_name AS name FROM pg_stat_activity WHERE pid = pg_backend_pid()'))
    .rows[0]?.name ?? '';

describe('a pool names its connections (real Postgres)', () => {
  const url = inject('databaseUrl');
  const pools: Pool[] = [];
  const open = (...args: Parameters<typeof createPool>) => {
    const pool = createPool(...args);
    pools.push(pool);
    return pool;
  };
  afterEach(async () => {
    await Promise.all(pools.splice(0).map((p) => p.end()));
  });

  it('given an application name, when it connects, then Postgres shows that name for its connection', async () => {
    expect(await nameSeen(open(url, 1, { applicationName: 'hireloop-gateway' }))).toBe('hireloop-gateway');
  });

  it('given an application_name in the URL too, when it connects, then the URL’s wins', async () => {
    const named = `${url}${url.includes('?') ? '&' : '?'}application_name=operator-choice`;
    expect(await nameSeen(open(named, 1, { applicationName: 'hireloop-gateway' }))).toBe('operator-choice');
  });
});
