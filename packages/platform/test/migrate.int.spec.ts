import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrate } from '../src/migrate';
import { createPool, dropDatabase, withDatabase } from '../src/postgres';

describe('migrations (real Postgres)', () => {
  const url = withDatabase(inject('databaseUrl'), `hireloop_migrate_${randomBytes(4).toString('hex')}`);
  afterAll(() => dropDatabase(url));

  it('apply once when five processes migrate a fresh database at the same time', async () => {
    const runs = await Promise.all(Array.from({ length: 5 }, () => migrate(url)));
    const applied = runs.filter((r) => r.length > 0);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toContain('0001_facts');

    const pool = createPool(url);
    try {
      const { rows } = await pool.query<{ name: string }>('SELECT name FROM pgmigrations ORDER BY id');
      expect(rows.map((r) => r.name)).toEqual(applied[0]);
      const facts = await pool.query("SELECT to_regclass('public.facts') AS t");
      expect(facts.rows[0].t).toBe('facts');
      const checkpoints = await pool.query("SELECT to_regclass('langgraph.checkpoints') AS t");
      expect(checkpoints.rows[0].t).toBe('langgraph.checkpoints');
    } finally {
      await pool.end();
    }
  });

  it('are a no-op when run again', async () => {
    expect(await migrate(url)).toEqual([]);
  });
});
