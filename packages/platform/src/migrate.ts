import { fileURLToPath } from 'node:url';
import { runner } from 'node-pg-migrate';
import pg from 'pg';
import { setupCheckpointer } from './checkpointer';
import { ensureDatabase } from './postgres';

export const migrationsDir = fileURLToPath(new URL('../../../infra/postgres/migrations', import.meta.url));

/** Our own lock key: every `migrate` waits for the one before it instead of failing. */
const MIGRATE_LOCK = 4_242_001;

export interface MigrateOptions {
  log?: (message: string) => void;
}

/**
 * Applies the versioned plain-SQL migrations in infra/postgres/migrations. Idempotent; safe to run
 * from several processes at once: each takes a session advisory lock and waits for the others.
 * Then LangGraph's checkpointer tables (schema `langgraph`) are set up under the same lock.
 */
export async function migrate(databaseUrl: string, options: MigrateOptions = {}): Promise<string[]> {
  await ensureDatabase(databaseUrl);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATE_LOCK]);
    const ran = await runner({
      dbClient: client,
      dir: migrationsDir,
      direction: 'up',
      migrationsTable: 'pgmigrations',
      noLock: true,
      checkOrder: true,
      singleTransaction: true,
      log: options.log ?? (() => {}),
    });
    // LangGraph's checkpoint tables, through the library's own versioned setup, under the same lock.
    await setupCheckpointer(databaseUrl);
    return ran.map((m) => m.name);
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATE_LOCK]).catch(() => {});
    await client.end();
  }
}
