import type { Pool } from '@hireloop/platform';
import type { Effect } from '@hireloop/schemas';

/** The worker's idempotency records (migration 0008): one per call key, shared by every worker, surviving restarts. */
export interface EffectStore {
  get(idempotencyKey: string): Promise<Effect | undefined>;
  /** Records an effect; if the key is already recorded (another worker won), the recorded one is returned. */
  record(effect: Effect, ids: { executionId: string; orgId: string }): Promise<Effect>;
  list(executionId: string): Promise<Effect[]>;
}

interface Row {
  idempotency_key: string;
  step_id: string;
  capability_id: string;
  args: Record<string, unknown>;
  status: Effect['status'];
  output: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  at: Date;
}

const toEffect = (r: Row): Effect => ({
  stepId: r.step_id,
  capabilityId: r.capability_id,
  args: r.args,
  idempotencyKey: r.idempotency_key,
  status: r.status,
  ...(r.output ? { output: r.output } : {}),
  ...(r.error ? { error: r.error } : {}),
  at: r.at.toISOString(),
});

const COLUMNS = 'idempotency_key, step_id, capability_id, args, status, output, error, at';

export function postgresEffects(pool: Pool): EffectStore {
  return {
    get: async (key) => {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM tool_effects WHERE idempotency_key = $1`, [key]);
      return rows[0] ? toEffect(rows[0]) : undefined;
    },
    record: async (effect, ids) => {
      const { rows } = await pool.query<Row>(
        `INSERT INTO tool_effects (idempotency_key, execution_id, org_id, step_id, capability_id, args, status, output, error, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
         ON CONFLICT (idempotency_key) DO NOTHING RETURNING ${COLUMNS}`,
        [
          effect.idempotencyKey,
          ids.executionId,
          ids.orgId,
          effect.stepId,
          effect.capabilityId,
          JSON.stringify(effect.args),
          effect.status,
          effect.output ? JSON.stringify(effect.output) : null,
          effect.error ? JSON.stringify(effect.error) : null,
          effect.at,
        ],
      );
      if (rows[0]) return toEffect(rows[0]);
      const { rows: held } = await pool.query<Row>(`SELECT ${COLUMNS} FROM tool_effects WHERE idempotency_key = $1`, [
        effect.idempotencyKey,
      ]);
      return held[0] ? toEffect(held[0]) : effect;
    },
    list: async (executionId) => {
      const { rows } = await pool.query<Row>(`SELECT ${COLUMNS} FROM tool_effects WHERE execution_id = $1 ORDER BY at, step_id`, [
        executionId,
      ]);
      return rows.map(toEffect);
    },
  };
}

/** The same records in memory (unit tests; one process only). */
export function memoryEffects(): EffectStore & { executions: Map<string, string> } {
  const byKey = new Map<string, Effect>();
  const executions = new Map<string, string>();
  return {
    executions,
    get: async (key) => byKey.get(key),
    record: async (effect, ids) => {
      const held = byKey.get(effect.idempotencyKey);
      if (held) return held;
      byKey.set(effect.idempotencyKey, effect);
      executions.set(effect.idempotencyKey, ids.executionId);
      return effect;
    },
    list: async (executionId) => [...byKey.values()].filter((e) => executions.get(e.idempotencyKey) === executionId),
  };
}
