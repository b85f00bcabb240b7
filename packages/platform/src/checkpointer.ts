import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import { createPool } from './postgres';

/** LangGraph's checkpoints live in their own schema of hireloop's database (ARCHITECTURE §5). */
export const CHECKPOINT_SCHEMA = 'langgraph';

/** A PostgresSaver on the service's shared pool; its tables are created by `migrate`, never at run time. */
export const createCheckpointer = (pool: pg.Pool): PostgresSaver =>
  new PostgresSaver(pool, undefined, { schema: CHECKPOINT_SCHEMA });

/** Runs PostgresSaver's own idempotent setup; `migrate` calls it under its advisory lock (concurrent setups race). */
export async function setupCheckpointer(databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, 1);
  try {
    await createCheckpointer(pool).setup();
  } finally {
    await pool.end();
  }
}
