import { execFile } from 'node:child_process';
import { repoRoot } from '@hireloop/platform/testing';
import { type AnyFact, topicOf } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectBatch } from '../src';
import { creation, employeeFacts, factsFor, policyChanged, recorded, script, steppingClock } from './builders';
import { ownDatabase, type TestDatabase } from './db';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `pnpm -s hireloop <args>` as its own process, the way an operator runs it. */
const hireloop = (databaseUrl: string, ...args: string[]): Promise<Run> =>
  new Promise((resolve) => {
    execFile(
      'pnpm',
      ['-s', 'hireloop', ...args],
      { cwd: repoRoot, env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });

/** Every fact of many executions, each topic in its own order but the topics interleaved at random (as a projector reads them). */
function interleaved(facts: AnyFact[], seed = 7): AnyFact[] {
  const queues = new Map<string, AnyFact[]>();
  for (const fact of facts) {
    const topic = topicOf(fact.type).name;
    queues.set(topic, [...(queues.get(topic) ?? []), fact]);
  }
  let state = seed;
  const random = () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const out: AnyFact[] = [];
  const open = [...queues.values()];
  while (open.some((q) => q.length > 0)) {
    const candidates = open.filter((q) => q.length > 0);
    // take a run of up to 50 from one topic, the way batches come per partition
    const queue = candidates[Math.floor(random() * candidates.length)] as AnyFact[];
    out.push(...queue.splice(0, 1 + Math.floor(random() * 50)));
  }
  return out;
}

const snapshot = async (db: TestDatabase): Promise<string[]> =>
  (
    await db.pool.query<{ row: string }>(`
      SELECT to_jsonb(e)::text AS row FROM executions e
      UNION ALL SELECT to_jsonb(c)::text FROM conversation_executions c
      UNION ALL SELECT to_jsonb(m)::text FROM employees m
      UNION ALL SELECT to_jsonb(a)::text FROM employee_activations a
      UNION ALL SELECT to_jsonb(x)::text FROM execution_effects x
      UNION ALL SELECT to_jsonb(p)::text FROM org_policies p ORDER BY 1`)
  ).rows.map((r) => r.row);

describe('hireloop replay (the CLI, against a few thousand facts)', () => {
  let db: TestDatabase;
  const scripts = Array.from({ length: 270 }, (_, i) => script({ orgId: i % 3 === 0 ? 'globex' : 'acme', userId: `u-${i % 7}` }));
  const clock = steppingClock();

  beforeAll(async () => {
    db = await ownDatabase(inject('databaseUrl'), 'replay');
    const facts = scripts.flatMap((s, i) => {
      const all = creation(s, clock, i % 5 === 0 ? 'Recruiter' : 'Support agent');
      // some executions still wait on their second prompt, some failed
      if (i % 4 === 1) return all.slice(0, 8);
      if (i % 9 === 2) return [...all.slice(0, 6), factsFor(s, clock).failed()];
      return all;
    });
    // activations of some employees (some switched off again), and the effects of some runs, retried
    const lifecycle = scripts.flatMap((s, i): AnyFact[] => {
      const e = employeeFacts(s.orgId, `emp-${i % 40}`, clock, s.userId);
      // (the first execution's timeline is printed below as the creation alone)
      if (i === 0) return [e.activated()];
      if (i % 6 === 0) {
        return [e.activated(), e.effect(s.executionId, 's1', 'failed'), e.effect(s.executionId, 's1', 'succeeded', { id: i })];
      }
      if (i % 6 === 3) return [e.deactivated(), e.effect(s.executionId, 's2', 'rejected')];
      return [];
    });
    facts.push(...lifecycle);
    // the orgs' policies, set again and again: the last of each org's holds
    for (let i = 0; i < 12; i++) {
      const orgId = i % 2 === 0 ? 'acme' : 'globex';
      facts.push(policyChanged(orgId, { budgets: { maxToolCalls: 10 + i } }, clock));
    }
    const deliveries = interleaved(facts).map((f) => recorded(f));
    for (let i = 0; i < deliveries.length; i += 250) await projectBatch(db.pool, deliveries.slice(i, i + 250));
    expect(Number((await db.pool.query('SELECT count(*) AS n FROM facts')).rows[0].n)).toBeGreaterThan(2_500);
  });
  afterAll(async () => {
    await db.drop();
  });

  it('--verify rebuilds from the facts and finds the live projections identical', async () => {
    const run = await hireloop(db.url, 'replay', '--verify');
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /projections match the facts \(\d{4} facts; executions 270, conversation_executions 270, employees \d+, employee_activations 40, execution_effects 89, org_policies 2;/,
    );
  });

  it('a rebuild writes byte-identical projections', async () => {
    const before = await snapshot(db);
    const run = await hireloop(db.url, 'replay');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^replay: rebuilt executions \(270\)/);
    expect(await snapshot(db)).toEqual(before);
  });

  it('--execution prints the timeline as a table: time, topic, type, who, summary', async () => {
    const s = scripts[0] as (typeof scripts)[number];
    const run = await hireloop(db.url, 'replay', '--execution', s.executionId);
    expect(run.code).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^time\s+topic\s+type\s+who\s+summary$/);
    expect(lines[2]).toMatch(/^2026-11-22T\S+Z\s+runIntent\s+RunIntent\s+supervisor\s+start employee /);
    expect(lines.at(-1)).toMatch(/execution-result\s+ExecutionResult\s+graph-creator\s+completed: employee "Recruiter"$/);
    expect(lines).toHaveLength(2 + 9);
    expect((await hireloop(db.url, 'replay', '--execution', 'no-such-execution')).code).toBe(1);
  });

  it('--verify names the first difference when a projection row was changed by hand; a rebuild repairs it', async () => {
    const s = scripts[1] as (typeof scripts)[number];
    await db.pool.query(`UPDATE executions SET phase = 'tampered' WHERE execution_id = $1`, [s.executionId]);
    const run = await hireloop(db.url, 'replay', '--verify');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`executions differs at execution_id=${s.executionId} (1 row of executions differ)`);
    expect(run.stderr).toContain('columns: phase');
    expect((await hireloop(db.url, 'replay')).code).toBe(0);
    expect((await hireloop(db.url, 'replay', '--verify')).code).toBe(0);
  });

  it('--verify names a policy changed by hand; a rebuild gives back the last one each org set', async () => {
    await db.pool.query(`UPDATE org_policies SET policy = '{}' WHERE org_id = 'globex'`);
    const run = await hireloop(db.url, 'replay', '--verify');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('org_policies differs at org_id=globex (1 row of org_policies differ)');
    expect(run.stderr).toContain('columns: policy');
    expect((await hireloop(db.url, 'replay')).code).toBe(0);
    const { rows } = await db.pool.query('SELECT org_id, policy FROM org_policies ORDER BY org_id');
    expect(rows).toEqual([
      { org_id: 'acme', policy: { budgets: { maxToolCalls: 20 } } },
      { org_id: 'globex', policy: { budgets: { maxToolCalls: 21 } } },
    ]);
  });

  it('--check-chain passes, then names the fact whose payload was altered by hand', async () => {
    const intact = await hireloop(db.url, 'replay', '--check-chain');
    expect(intact.code).toBe(0);
    expect(intact.stdout).toMatch(/replay --check-chain: \d+ facts in \d+ chains, every chain intact/);

    const s = scripts[3] as (typeof scripts)[number];
    const { rows } = await db.pool.query<{ seq: string; id: string }>(
      `UPDATE facts SET payload = jsonb_set(payload, '{payload,selected}', '["b"]')
       WHERE seq = (SELECT min(seq) FROM facts WHERE execution_id = $1 AND type = 'HILResponse') RETURNING seq, id`,
      [s.executionId],
    );
    const tampered = rows[0] as { seq: string; id: string };
    const run = await hireloop(db.url, 'replay', '--check-chain');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`chain execution/${s.executionId} broken at seq ${tampered.seq}, fact ${tampered.id}: hash`);
    expect(run.stderr).toContain('does not match the payload');
  });

  it('--check-chain names the fact after one deleted from the middle of a chain', async () => {
    // undo the previous test's change: the chain holds again
    await db.pool.query(
      `UPDATE facts SET payload = jsonb_set(payload, '{payload,selected}', '["a"]')
      WHERE seq = (SELECT min(seq) FROM facts WHERE execution_id = $1 AND type = 'HILResponse')`,
      [scripts[3]?.executionId],
    );
    expect((await hireloop(db.url, 'replay', '--check-chain')).code).toBe(0);

    const s = scripts[5] as (typeof scripts)[number];
    const { rows } = await db.pool.query<{ seq: string; id: string }>(
      'SELECT seq, id FROM facts WHERE execution_id = $1 ORDER BY seq',
      [s.executionId],
    );
    await db.pool.query('DELETE FROM facts WHERE seq = $1', [rows[3]?.seq]);
    const run = await hireloop(db.url, 'replay', '--check-chain');
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`broken at seq ${rows[4]?.seq}, fact ${rows[4]?.id}: prev_hash`);
  });
});
