import type { RunnableConfig } from '@langchain/core/runnables';
import {
  type ChannelVersions,
  type Checkpoint,
  type CheckpointMetadata,
  type CheckpointTuple,
  copyCheckpoint,
  type PendingWrite,
  WRITES_IDX_MAP,
} from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import type pg from 'pg';
import { createPool } from './postgres';
import { preparingPool } from './prepared';

/** LangGraph's checkpoints live in their own schema of hireloop's database (ARCHITECTURE §5). */
export const CHECKPOINT_SCHEMA = 'langgraph';

/** `$a, $b, …` for `width` parameters from `$from`. */
const params = (from: number, width: number) => Array.from({ length: width }, (_, i) => `$${from + i}`).join(', ');

/**
 * One statement that writes a checkpoint and its new channel blobs: PostgresSaver's own upserts (blobs
 * once per version, the checkpoint row replaced), in one round trip instead of BEGIN, one per blob, the
 * checkpoint and COMMIT. A single statement is its own transaction: all of it or nothing. Pure.
 */
export function putCheckpointSql(schema: string, blobs: number): string {
  const checkpoint = `INSERT INTO "${schema}".checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, checkpoint, metadata)
  VALUES ($1, $2, $3, $4, $5, $6)
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id) DO UPDATE SET checkpoint = EXCLUDED.checkpoint, metadata = EXCLUDED.metadata`;
  if (blobs === 0) return checkpoint;
  const rows = Array.from({ length: blobs }, (_, i) => `($1, $2, ${params(7 + i * 4, 4)})`).join(', ');
  return `WITH blobs AS (
  INSERT INTO "${schema}".checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
  VALUES ${rows}
  ON CONFLICT (thread_id, checkpoint_ns, channel, version) DO NOTHING
)
${checkpoint}`;
}

/**
 * One statement that writes a task's pending writes, as PostgresSaver does: replaced when every channel
 * is one of LangGraph's special ones (an interrupt, an error, a resume …), otherwise kept when already
 * there. Pure.
 */
export function putWritesSql(schema: string, writes: number, replace: boolean): string {
  const rows = Array.from({ length: writes }, (_, i) => `($1, $2, $3, $4, ${params(5 + i * 4, 4)})`).join(', ');
  return `INSERT INTO "${schema}".checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, blob)
  VALUES ${rows}
  ON CONFLICT (thread_id, checkpoint_ns, checkpoint_id, task_id, idx) ${
    replace ? 'DO UPDATE SET channel = EXCLUDED.channel, type = EXCLUDED.type, blob = EXCLUDED.blob' : 'DO NOTHING'
  }`;
}

/** The read of a thread's latest checkpoint while held (absent: none since the last write; null within: the thread has none). */
type Held = { read?: Promise<CheckpointTuple | null> };

/** A tuple handed out again: its own checkpoint object, for LangGraph writes into the one it is given (versions seen). */
const handedOut = (tuple: CheckpointTuple | null | undefined): CheckpointTuple | undefined =>
  tuple ? { ...tuple, checkpoint: copyCheckpoint(tuple.checkpoint), pendingWrites: [...(tuple.pendingWrites ?? [])] } : undefined;

/**
 * PostgresSaver, the same tables and rows (ARCHITECTURE §5), with fewer round trips on the hot path
 * (issue 16; docs/decisions.md, 2026-11-24):
 * - a checkpoint and its blobs are written by one statement, a task's writes by one statement;
 * - `holding(threadId, fn)`: while `fn` runs under the execution's lock, the thread's latest checkpoint
 *   is read from Postgres at most once until something is written to the thread — the runner's pending
 *   check (`getState`) and the resume that follows it (`stream`) share one read. Only the holder of the
 *   execution's lock writes its thread, so what was read is still the latest. The read starts as the
 *   hold does: once the lock is held (the runner reads the execution's row with the lock, migration 0015).
 */
export class HireloopSaver extends PostgresSaver {
  private readonly held = new Map<string, Held>();
  /** the pool, its statements prepared once per connection (`preparingPool`): the library's reads and this class's writes */
  private readonly db: pg.Pool;
  private readonly schema: string;

  constructor(pool: pg.Pool, schema = CHECKPOINT_SCHEMA) {
    const db = preparingPool(pool);
    super(db, undefined, { schema });
    this.db = db;
    this.schema = schema;
  }

  /** Runs `fn` with the thread's latest checkpoint read at most once between writes (see the class). */
  async holding<T>(threadId: string, fn: () => Promise<T>): Promise<T> {
    if (this.held.has(threadId)) return fn();
    this.held.set(threadId, { read: this.latest(threadId) });
    try {
      return await fn();
    } finally {
      this.held.delete(threadId);
    }
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const { thread_id: threadId, checkpoint_ns: ns = '', checkpoint_id: id } = config.configurable ?? {};
    const held = typeof threadId === 'string' && ns === '' && !id ? this.held.get(threadId) : undefined;
    if (!held) return super.getTuple(config);
    const read = held.read ?? this.latest(threadId as string);
    held.read = read;
    try {
      return handedOut(await read);
    } catch (error) {
      // a failed read is not kept: the next asks Postgres again
      if (held.read === read) held.read = undefined;
      throw error;
    }
  }

  /** Reads the thread's latest checkpoint; a read nobody ends up awaiting (the hold ended first) fails quietly. */
  private latest(threadId: string): Promise<CheckpointTuple | null> {
    const read = super.getTuple({ configurable: { thread_id: threadId, checkpoint_ns: '' } }).then((t) => t ?? null);
    read.catch(() => undefined);
    return read;
  }

  override async put(
    config: RunnableConfig,
    checkpoint: Checkpoint,
    metadata: CheckpointMetadata,
    newVersions: ChannelVersions,
  ): Promise<RunnableConfig> {
    if (config.configurable === undefined) throw new Error('Missing "configurable" field in "config" param');
    const { thread_id: threadId, checkpoint_ns: ns = '', checkpoint_id: parentId } = config.configurable;
    this.forget(threadId);
    const [blobs, meta] = await Promise.all([
      this._dumpBlobs(threadId, ns, checkpoint.channel_values, newVersions),
      this._dumpMetadata(metadata),
    ]);
    await this.db.query(putCheckpointSql(this.schema, blobs.length), [
      threadId,
      ns,
      checkpoint.id,
      parentId,
      this._dumpCheckpoint(checkpoint),
      meta,
      ...blobs.flatMap(([, , channel, version, type, blob]) => [channel, version, type, blob]),
    ]);
    this.forget(threadId);
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: id } = config.configurable ?? {};
    this.forget(threadId);
    if (writes.length === 0) return;
    const replace = writes.every(([channel]) => channel in WRITES_IDX_MAP);
    const dumped = await this._dumpWrites(threadId, ns, id, taskId, writes);
    await this.db.query(putWritesSql(this.schema, dumped.length, replace), [
      threadId,
      ns,
      id,
      taskId,
      ...dumped.flatMap(([, , , , idx, channel, type, blob]) => [idx, channel, type, blob]),
    ]);
    this.forget(threadId);
  }

  override async deleteThread(threadId: string): Promise<void> {
    this.forget(threadId);
    await super.deleteThread(threadId);
  }

  /** Something was written to the thread: a held read of it is no longer the latest. */
  private forget(threadId: unknown): void {
    const held = typeof threadId === 'string' ? this.held.get(threadId) : undefined;
    if (held) held.read = undefined;
  }
}

/** The service's checkpointer on its shared pool; its tables are created by `migrate`, never at run time. */
export const createCheckpointer = (pool: pg.Pool): HireloopSaver => new HireloopSaver(pool);

/** PostgresSaver as the library ships it, on the same tables: the bare-library floor of `make bench` (issue 16). */
export const createLibraryCheckpointer = (pool: pg.Pool): PostgresSaver =>
  new PostgresSaver(pool, undefined, { schema: CHECKPOINT_SCHEMA });

/** Runs PostgresSaver's own idempotent setup; `migrate` calls it under its advisory lock (concurrent setups race). */
export async function setupCheckpointer(databaseUrl: string): Promise<void> {
  const pool = createPool(databaseUrl, 1);
  try {
    await createLibraryCheckpointer(pool).setup();
  } finally {
    await pool.end();
  }
}
