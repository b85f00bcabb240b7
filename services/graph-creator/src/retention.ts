import type { Logger, Pool } from '@hireloop/platform';
import type { BaseCheckpointSaver } from '@langchain/langgraph';

/**
 * Deletes the checkpoints of executions that ended more than `retentionMs` ago; their facts stay in
 * the event store. Returns the executions pruned.
 */
export async function pruneCheckpoints(
  pool: Pool,
  checkpointer: BaseCheckpointSaver,
  retentionMs: number,
  now: Date,
  log: Logger,
): Promise<string[]> {
  const cutoff = new Date(now.getTime() - retentionMs).toISOString();
  const { rows } = await pool.query<{ execution_id: string }>(
    `SELECT execution_id FROM graph_executions
     WHERE ended_at IS NOT NULL AND ended_at < $1 AND checkpoints_pruned_at IS NULL
     ORDER BY ended_at LIMIT 500`,
    [cutoff],
  );
  for (const { execution_id } of rows) {
    await checkpointer.deleteThread(execution_id);
    await pool.query('UPDATE graph_executions SET checkpoints_pruned_at = $2 WHERE execution_id = $1', [
      execution_id,
      now.toISOString(),
    ]);
  }
  if (rows.length > 0) log.info({ pruned: rows.length }, 'pruned checkpoints of ended executions');
  return rows.map((r) => r.execution_id);
}
