import pg from 'pg';
import { poolTypes } from './bytea-array';

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;

export interface PoolOptions {
  /**
   * How values are read: by pg's parsers but for `bytea[]`, read by `parseByteaArray` (`hireloop`, the
   * default), or by pg's own for every type (`pg`, as the bare-library floor of `make bench` reads them).
   */
  readers?: 'hireloop' | 'pg';
  /**
   * The name its connections show Postgres (`pg_stat_activity.application_name`, `%a` in the server's
   * log line prefix), so an operator sees which service holds a connection or ran a statement; an
   * `application_name` in the URL wins.
   */
  applicationName?: string;
}

/** A pool of `max` connections. */
export function createPool(databaseUrl: string, max = 10, { readers = 'hireloop', applicationName }: PoolOptions = {}): pg.Pool {
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    max,
    connectionTimeoutMillis: 5_000,
    ...(readers === 'hireloop' ? { types: poolTypes } : {}),
    ...(applicationName ? { application_name: applicationName } : {}),
  });
  // An idle client losing its connection must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor may a client checked out and between queries (an advisory lock held, a transaction waiting on
  // other work): pg-pool listens only to idle ones, and an 'error' nobody hears ends the process. The
  // query in hand fails (a transient error for its caller) and the pool drops the client on release.
  pool.on('connect', (client) => client.on('error', () => {}));
  return pool;
}

export async function pingPostgres(pool: pg.Pool): Promise<void> {
  await pool.query('SELECT 1');
}

export type IsolationLevel = 'READ COMMITTED' | 'REPEATABLE READ' | 'SERIALIZABLE';

/**
 * Runs `fn` inside one transaction on one client; rolls back on any error. `first`, a statement without
 * parameters (advisory locks, say), goes to Postgres with the `BEGIN`, in the same round trip.
 */
export async function withTransaction<T>(
  pool: pg.Pool,
  fn: (client: pg.PoolClient) => Promise<T>,
  isolation: IsolationLevel = 'READ COMMITTED',
  first: string | null = null,
): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(`BEGIN ISOLATION LEVEL ${isolation}${first === null ? '' : `; ${first}`}`);
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** The same URL pointing at another database on the same server. */
export function withDatabase(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

export function databaseName(databaseUrl: string): string {
  return decodeURIComponent(new URL(databaseUrl).pathname.replace(/^\//, ''));
}

/** Creates the URL's database when it does not exist yet (connecting through the `postgres` database). */
export async function ensureDatabase(databaseUrl: string): Promise<void> {
  const name = databaseName(databaseUrl);
  const admin = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await admin.connect();
  try {
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`).catch((error: { code?: string }) => {
        // created meanwhile by another process: 42P04 duplicate_database, or 23505 when both inserted at once
        if (error.code !== '42P04' && error.code !== '23505') throw error;
      });
    }
  } finally {
    await admin.end();
  }
}

export async function dropDatabase(databaseUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: withDatabase(databaseUrl, 'postgres') });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(databaseName(databaseUrl))} WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
