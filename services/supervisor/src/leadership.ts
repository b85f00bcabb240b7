import type { Logger, Pool, PoolClient } from '@hireloop/platform';

/** Class of hireloop's advisory locks held by the supervisor (the migration lock is 4_242_001). */
const SUPERVISOR_LOCK_CLASS = 4_242_003;

export interface Leadership {
  /** unlocks and returns the connection */
  release(): Promise<void>;
}

export interface LeadershipOptions {
  pool: Pool;
  /** one active supervisor per deployment: the deployment is its topic prefix */
  deployment: string;
  log: Logger;
  /** true once the process is shutting down: stop waiting */
  stopping: () => boolean;
  /** the lock's connection broke: another instance may take over, so this one must stop deciding */
  onLost: (error: unknown) => void;
  pollMs?: number;
}

/**
 * Waits until this instance holds the supervisor's Postgres session advisory lock, then keeps the
 * connection that holds it. Admission state lives in one process, so only the holder decides;
 * other instances stand by and take over when the holder's session ends (crash, stop, lost link).
 * Resolves to undefined when the process stops while waiting.
 */
export async function acquireLeadership({
  pool,
  deployment,
  log,
  stopping,
  onLost,
  pollMs = 2_000,
}: LeadershipOptions): Promise<Leadership | undefined> {
  let announced = false;
  while (!stopping()) {
    const client: PoolClient = await pool.connect();
    let held = false;
    try {
      const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS ok', [
        SUPERVISOR_LOCK_CLASS,
        deployment,
      ]);
      held = rows[0]?.ok === true;
    } finally {
      if (!held) client.release();
    }
    if (held) {
      let released = false;
      client.on('error', (error: unknown) => {
        if (!released) onLost(error);
      });
      return {
        async release() {
          if (released) return;
          released = true;
          await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', [SUPERVISOR_LOCK_CLASS, deployment]).catch(() => {});
          // destroyed, not pooled: a session that might still hold the lock must not be reused
          client.release(true);
        },
      };
    }
    if (!announced) {
      log.info({ deployment }, 'another supervisor is active: standing by');
      announced = true;
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  return undefined;
}
