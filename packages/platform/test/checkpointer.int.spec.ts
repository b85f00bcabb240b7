import { randomBytes, randomUUID } from 'node:crypto';
import { type Checkpoint, emptyCheckpoint, INTERRUPT } from '@langchain/langgraph-checkpoint';
import { PostgresSaver } from '@langchain/langgraph-checkpoint-postgres';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createCheckpointer, createLibraryCheckpointer } from '../src/checkpointer';
import { migrate } from '../src/migrate';
import { createPool, dropDatabase, withDatabase } from '../src/postgres';
import { preparingPool, StatementNames } from '../src/prepared';

/** A checkpoint with a value, an object and a channel that is empty at this version (stored as `empty`). */
function checkpointOf(step: number): { checkpoint: Checkpoint; versions: Record<string, number> } {
  const checkpoint = emptyCheckpoint();
  checkpoint.id = `1ef-${String(step).padStart(4, '0')}-${randomUUID()}`;
  checkpoint.channel_values = { phase: `step ${step}`, state: { rounds: step, answers: ['a', 'é \u0000 b'] } };
  checkpoint.channel_versions = { phase: step, state: step, gone: step };
  const versions = { phase: step, state: step, gone: step };
  return { checkpoint, versions };
}

const metadata = (step: number) => ({ source: 'loop' as const, step, parents: {} });

describe("hireloop's checkpointer (real Postgres)", () => {
  const url = withDatabase(inject('databaseUrl'), `hireloop_saver_${randomBytes(4).toString('hex')}`);
  const pool = createPool(url, 4);
  const saver = createCheckpointer(pool);
  const library = createLibraryCheckpointer(pool);
  beforeAll(() => migrate(url));
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
  });

  /** The same checkpoints and writes, put by `by` on a thread of its own; what the library reads back. */
  async function written(by: PostgresSaver) {
    const thread = randomUUID();
    let config = { configurable: { thread_id: thread, checkpoint_ns: '' } };
    for (const step of [1, 2]) {
      const { checkpoint, versions } = checkpointOf(step);
      config = (await by.put(config, checkpoint, metadata(step), versions)) as typeof config;
    }
    await by.putWrites(
      config,
      [
        ['phase', 'written by a task'],
        ['state', { partial: true }],
      ],
      'task-1',
    );
    await by.putWrites(config, [[INTERRUPT, { value: 'asked', id: 'p-1' }]], 'task-2');
    // the same interrupt again (a node re-run on resume): replaced, not doubled
    await by.putWrites(config, [[INTERRUPT, { value: 'asked again', id: 'p-1' }]], 'task-2');
    // an ordinary write again: the first one stays
    await by.putWrites(config, [['phase', 'not this one']], 'task-1');
    const tuple = await library.getTuple({ configurable: { thread_id: thread } });
    const history = [];
    for await (const t of library.list({ configurable: { thread_id: thread } })) history.push(t.checkpoint.channel_values);
    return { tuple, history };
  }

  /** A fresh thread holding one checkpoint, put by hireloop's saver. */
  async function threadWithOneCheckpoint() {
    const thread = randomUUID();
    const { checkpoint, versions } = checkpointOf(1);
    await saver.put({ configurable: { thread_id: thread, checkpoint_ns: '' } }, checkpoint, metadata(1), versions);
    return { thread, checkpoint };
  }

  it("given bytea arrays in Postgres, when hireloop's pool reads them, then it reads what pg's own parser reads", async () => {
    const plain = createPool(url, 1, { readers: 'pg' });
    try {
      const sql = `SELECT array_agg(array[convert_to('channel ' || i, 'UTF8'), decode(md5(i::text), 'hex'), CASE WHEN i % 3 = 0 THEN NULL ELSE ''::bytea END] ORDER BY i) AS triples,
        ARRAY['\\x00ff'::bytea, NULL] AS flat, '{}'::bytea[] AS empty FROM generate_series(1, 50) AS i`;
      const [ours, theirs] = await Promise.all([pool.query(sql), plain.query(sql)]);
      expect(ours.rows[0].triples).toHaveLength(50);
      expect(ours.rows[0].triples[0][0]).toEqual(Buffer.from('channel 1'));
      expect(ours.rows).toEqual(theirs.rows);
    } finally {
      await plain.end();
    }
  });

  it('given the same checkpoints and writes, when put by it and by the library, then the library reads back the same', async () => {
    const ours = await written(saver);
    const theirs = await written(library);
    const strip = (t: typeof ours.tuple) => ({
      values: t?.checkpoint.channel_values,
      versions: t?.checkpoint.channel_versions,
      metadata: t?.metadata,
      writes: t?.pendingWrites,
      hasParent: t?.parentConfig !== undefined,
    });
    expect(strip(ours.tuple)).toEqual(strip(theirs.tuple));
    expect(ours.tuple?.checkpoint.channel_values).toEqual({
      phase: 'step 2',
      state: { rounds: 2, answers: ['a', 'é \u0000 b'] },
    });
    expect(ours.tuple?.pendingWrites).toEqual([
      ['task-1', 'phase', 'written by a task'],
      ['task-1', 'state', { partial: true }],
      ['task-2', INTERRUPT, { value: 'asked again', id: 'p-1' }],
    ]);
    expect(ours.history).toEqual(theirs.history);
    expect(ours.history).toHaveLength(2);
  });

  it('given a thread held, when its latest checkpoint is read twice, then Postgres is read once and each reader gets its own copy', async () => {
    const { thread, checkpoint } = await threadWithOneCheckpoint();
    const reads = vi.spyOn(PostgresSaver.prototype, 'getTuple');
    try {
      const [first, second] = await saver.holding(thread, async () => {
        const a = await saver.getTuple({ configurable: { thread_id: thread } });
        if (a) a.checkpoint.channel_versions.phase = 99; // LangGraph writes into what it is given
        const b = await saver.getTuple({ configurable: { thread_id: thread } });
        return [a, b];
      });
      expect(reads).toHaveBeenCalledTimes(1);
      expect(first?.checkpoint.id).toBe(checkpoint.id);
      expect(second?.checkpoint.id).toBe(checkpoint.id);
      expect(second?.checkpoint.channel_versions.phase).toBe(1);
      // not held any more: read again
      await saver.getTuple({ configurable: { thread_id: thread } });
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('given a thread held, then its read starts with the hold, beside what the holder asks first, and is the one the holder gets', async () => {
    const { thread, checkpoint } = await threadWithOneCheckpoint();
    const reads = vi.spyOn(PostgresSaver.prototype, 'getTuple');
    try {
      const got = await saver.holding(thread, async () => {
        const startedWithTheHold = reads.mock.calls.length;
        await pool.query('SELECT 1'); // the runner's row of the execution, meanwhile
        return { startedWithTheHold, tuple: await saver.getTuple({ configurable: { thread_id: thread } }) };
      });
      expect(got.startedWithTheHold).toBe(1);
      expect(reads).toHaveBeenCalledTimes(1);
      expect(got.tuple?.checkpoint.id).toBe(checkpoint.id);
    } finally {
      reads.mockRestore();
    }
  });

  it('given a thread held, when its read fails (Postgres away), then the next read asks Postgres again', async () => {
    const { thread, checkpoint } = await threadWithOneCheckpoint();
    const reads = vi.spyOn(PostgresSaver.prototype, 'getTuple').mockRejectedValueOnce(new Error('connection terminated'));
    try {
      const outcome = await saver.holding(thread, async () => {
        const first = await saver.getTuple({ configurable: { thread_id: thread } }).catch((e: Error) => e.message);
        const second = await saver.getTuple({ configurable: { thread_id: thread } });
        return { first, second: second?.checkpoint.id };
      });
      expect(outcome).toEqual({ first: 'connection terminated', second: checkpoint.id });
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('given a thread held, when a checkpoint or a write is put meanwhile, then the next read is of Postgres and sees it', async () => {
    const thread = randomUUID();
    const base = { configurable: { thread_id: thread, checkpoint_ns: '' } };
    const one = checkpointOf(1);
    const after1 = await saver.put(base, one.checkpoint, metadata(1), one.versions);
    const seen = await saver.holding(thread, async () => {
      const before = await saver.getTuple({ configurable: { thread_id: thread } });
      await saver.putWrites(after1, [[INTERRUPT, { value: 'asked', id: 'p-1' }]], 'task-1');
      const withWrite = await saver.getTuple({ configurable: { thread_id: thread } });
      const two = checkpointOf(2);
      await saver.put(after1, two.checkpoint, metadata(2), two.versions);
      const latest = await saver.getTuple({ configurable: { thread_id: thread } });
      return { before, withWrite, latest, two: two.checkpoint.id };
    });
    expect(seen.before?.pendingWrites).toEqual([]);
    expect(seen.withWrite?.pendingWrites).toEqual([['task-1', INTERRUPT, { value: 'asked', id: 'p-1' }]]);
    expect(seen.latest?.checkpoint.id).toBe(seen.two);
    expect(seen.latest?.checkpoint.channel_values).toEqual({
      phase: 'step 2',
      state: { rounds: 2, answers: ['a', 'é \u0000 b'] },
    });
  });

  it('given a thread with no checkpoint yet, when it is held and read twice, then both reads find none', async () => {
    const thread = randomUUID();
    const reads = await saver.holding(thread, async () => [
      await saver.getTuple({ configurable: { thread_id: thread } }),
      await saver.getTuple({ configurable: { thread_id: thread } }),
    ]);
    expect(reads).toEqual([undefined, undefined]);
  });
  /** The statements prepared on a pool's one connection by hireloop's saver. */
  const preparedOn = async (one: ReturnType<typeof createPool>): Promise<string[]> =>
    (
      await one.query<{ statement: string }>(
        "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'hireloop-%' ORDER BY statement",
      )
    ).rows.map((r) => r.statement);

  it('given one connection, when checkpoints are put and read again and again, then each statement is prepared on it once and reused', async () => {
    const one = createPool(url, 1);
    try {
      const mine = createCheckpointer(one);
      const round = async () => {
        const thread = randomUUID();
        let config = { configurable: { thread_id: thread, checkpoint_ns: '' } };
        for (const step of [1, 2]) {
          const { checkpoint, versions } = checkpointOf(step);
          config = (await mine.put(config, checkpoint, metadata(step), versions)) as typeof config;
          await mine.putWrites(config, [[INTERRUPT, { value: 'asked', id: `p-${step}` }]], 'task-1');
        }
        return mine.getTuple({ configurable: { thread_id: thread } });
      };
      const first = await round();
      const prepared = await preparedOn(one);
      // the latest-checkpoint read, the checkpoint write and the pending write
      expect(prepared.some((text) => text.includes('ORDER BY checkpoint_id DESC LIMIT 1'))).toBe(true);
      expect(prepared.some((text) => text.includes('checkpoint_blobs') && text.startsWith('WITH blobs AS'))).toBe(true);
      expect(prepared.some((text) => text.startsWith('INSERT INTO "langgraph".checkpoint_writes'))).toBe(true);
      const second = await round();
      expect(await preparedOn(one)).toEqual(prepared);
      expect(second?.checkpoint.channel_values).toEqual(first?.checkpoint.channel_values);
      expect(second?.pendingWrites).toEqual([['task-1', INTERRUPT, { value: 'asked', id: 'p-2' }]]);
    } finally {
      await one.end();
    }
  });

  it('given a bound of two statements, when a third text comes, then it runs unprepared and answers all the same', async () => {
    const one = createPool(url, 1);
    try {
      const bounded = preparingPool(one, new StatementNames(2));
      const answers = [];
      for (const text of ['SELECT $1::int + 1 AS n', 'SELECT $1::int + 2 AS n', 'SELECT $1::int + 3 AS n']) {
        answers.push((await bounded.query<{ n: number }>(text, [10])).rows[0]?.n);
      }
      expect(answers).toEqual([11, 12, 13]);
      expect(await preparedOn(one)).toEqual(['SELECT $1::int + 1 AS n', 'SELECT $1::int + 2 AS n']);
    } finally {
      await one.end();
    }
  });
});
