import { type FactPublisher, makeFact } from '@hireloop/fact-stream';
import { createLogger, type Pool } from '@hireloop/platform';
import type { RunIntent } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { ExecutionRunner, type GraphAdapter } from '../src/runner';

/**
 * The execution lock is a Postgres session lock, which outlives a failed statement: a connection whose
 * lock could not be taken cleanly, or given back, must be closed, never pooled with the lock still held.
 * A double of the pool's client records how each connection was given back.
 */
function poolDouble(failOn: 'lock' | 'unlock' | 'none') {
  const released: (Error | undefined)[] = [];
  const statements: string[] = [];
  const client = {
    query: async (q: string | { text: string }) => {
      const text = typeof q === 'string' ? q : q.text;
      statements.push(text);
      if (failOn === 'lock' && text.includes('lock_graph_execution'))
        throw new Error('structure of query does not match function result type');
      if (failOn === 'unlock' && text.includes('pg_advisory_unlock')) throw new Error('connection reset');
      return { rows: [] };
    },
    release: (error?: Error) => void released.push(error),
  };
  const pool = {
    connect: async () => client,
    query: async () => ({ rows: [] }),
  } as unknown as Pool;
  return { pool, released, statements };
}

const cancelIntent = (): RunIntent =>
  makeFact(
    'RunIntent',
    { orgId: 'acme', correlation: { executionId: 'x-1', conversationId: 'c-1', userId: 'u-1' } },
    {
      executionId: 'x-1',
      employeeId: 'graph-creator',
      action: 'cancel',
      trigger: { triggerId: 't-1', triggerType: 'create_graph', payload: { jobDescription: 'a job' } },
    },
  );

const runnerOn = (pool: Pool) =>
  new ExecutionRunner({
    adapter: {} as GraphAdapter<unknown>,
    pool,
    publisher: { publish: async () => {} } as unknown as FactPublisher,
    log: createLogger('runner-lock-test', 'silent'),
  });

describe('the execution lock and its connection', () => {
  it('given the lock and its read succeed, when a cancel runs, then the lock is given back and the connection pooled', async () => {
    const { pool, released, statements } = poolDouble('none');
    await runnerOn(pool).cancel(cancelIntent());
    expect(statements.filter((s) => s.includes('lock'))).toEqual([
      expect.stringContaining('lock_graph_execution'),
      expect.stringContaining('pg_advisory_unlock'),
    ]);
    expect(released).toEqual([undefined]);
  });

  it('given the statement taking the lock fails, when a cancel runs, then it fails and the connection is closed, not pooled', async () => {
    const { pool, released } = poolDouble('lock');
    await expect(runnerOn(pool).cancel(cancelIntent())).rejects.toThrow('does not match');
    expect(released).toHaveLength(1);
    expect(released[0]).toBeInstanceOf(Error);
  });

  it('given giving the lock back fails, when a cancel runs, then it fails and the connection is closed, not pooled', async () => {
    const { pool, released } = poolDouble('unlock');
    await expect(runnerOn(pool).cancel(cancelIntent())).rejects.toThrow('connection reset');
    expect(released).toHaveLength(1);
    expect(released[0]).toBeInstanceOf(Error);
  });
});
