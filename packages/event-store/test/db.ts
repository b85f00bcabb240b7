import { randomBytes } from 'node:crypto';
import { createPool, databaseName, dropDatabase, migrate, type Pool, withDatabase } from '@hireloop/platform';

export interface TestDatabase {
  url: string;
  pool: Pool;
  drop(): Promise<void>;
}

/**
 * A migrated database of its own, beside the run's: replay and chain checks read every fact of a
 * database, so a test that verifies all of them (or tampers with one) must not share it.
 */
export async function ownDatabase(runUrl: string, label: string): Promise<TestDatabase> {
  const url = withDatabase(runUrl, `${databaseName(runUrl)}_${label}_${randomBytes(3).toString('hex')}`);
  await migrate(url);
  const pool = createPool(url, 12);
  return {
    url,
    pool,
    async drop() {
      await pool.end();
      await dropDatabase(url);
    },
  };
}
