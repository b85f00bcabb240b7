import { randomUUID } from 'node:crypto';
import { createPool } from '@hireloop/platform';
import { afterAll, describe, expect, inject, it } from 'vitest';

/**
 * `lock_graph_execution` (migration 0015): the worker's lock on one execution and the read of its row,
 * in one round trip. Against real Postgres, because what it promises is about snapshots.
 */
describe('lock_graph_execution (real Postgres)', () => {
  const pool = createPool(inject('databaseUrl'), 4);
  afterAll(() => pool.end());

  const lockAndRead = (client: { query: typeof pool.query }, id: string) =>
    client.query<{ execution_id: string; status: string; org_id: string }>('SELECT * FROM lock_graph_execution($1)', [id]);

  it('given no row yet, when locked, then it answers no row and holds the lock', async () => {
    const id = `lock-${randomUUID()}`;
    const a = await pool.connect();
    const b = await pool.connect();
    try {
      expect((await lockAndRead(a, id)).rows).toEqual([]);
      const other = await b.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 42)) AS got', [id]);
      expect(other.rows[0]?.got).toBe(false);
      await a.query('SELECT pg_advisory_unlock(hashtextextended($1, 42))', [id]);
      const after = await b.query<{ got: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 42)) AS got', [id]);
      expect(after.rows[0]?.got).toBe(true);
      await b.query('SELECT pg_advisory_unlock(hashtextextended($1, 42))', [id]);
    } finally {
      a.release();
      b.release();
    }
  });

  it('given a holder that changes the row and then unlocks, when a waiter gets the lock, then it reads the row as the holder left it', async () => {
    const id = `lock-${randomUUID()}`;
    await pool.query(
      `INSERT INTO graph_executions (execution_id, org_id, status, started_at) VALUES ($1, 'acme', 'running', now())`,
      [id],
    );
    const holder = await pool.connect();
    const waiter = await pool.connect();
    try {
      expect((await lockAndRead(holder, id)).rows[0]?.status).toBe('running');
      // the waiter's statement starts now, while the row still says running, and blocks on the lock
      const waiterPid = (await waiter.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid;
      const waited = lockAndRead(waiter, id);
      for (let i = 0; ; i++) {
        const { rows } = await pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = $1`,
          [waiterPid],
        );
        if (rows[0]?.n === 1) break;
        if (i > 500) throw new Error('the waiter never waited for the lock');
        await new Promise((r) => setTimeout(r, 10));
      }
      await holder.query(`UPDATE graph_executions SET status = 'completed', ended_at = now() WHERE execution_id = $1`, [id]);
      await holder.query('SELECT pg_advisory_unlock(hashtextextended($1, 42))', [id]);
      const { rows } = await waited;
      expect(rows).toEqual([expect.objectContaining({ execution_id: id, org_id: 'acme', status: 'completed' })]);
      await waiter.query('SELECT pg_advisory_unlock(hashtextextended($1, 42))', [id]);
    } finally {
      holder.release();
      waiter.release();
    }
  });
});
