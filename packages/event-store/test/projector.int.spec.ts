import { randomUUID } from 'node:crypto';
import { makeFact } from '@hireloop/fact-stream';
import { createLogger, createPool, hasCode } from '@hireloop/platform';
import type { AnyFact } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  checkChain,
  conversationOwners,
  createProjector,
  type Execution,
  evolveExecution,
  getEmployee,
  getExecution,
  getTimeline,
  INSERT_FACTS_MAX,
  listEmployees,
  listExecutions,
  liveTables,
  pendingPrompt,
  projectBatch,
  type Recorded,
  verifyProjections,
  writeProjections,
} from '../src';
import { creation, factsFor, recorded, script, steppingClock } from './builders';
import { ownDatabase, type TestDatabase } from './db';

const project = (db: TestDatabase, facts: AnyFact[]) =>
  projectBatch(
    db.pool,
    facts.map((f) => recorded(f)),
  );

const count = async (db: TestDatabase, sql: string, params: unknown[] = []): Promise<number> =>
  Number((await db.pool.query<{ n: string }>(sql, params)).rows[0]?.n);

/**
 * The two ways facts go in: with the projection upserts in one statement (a batch of up to
 * INSERT_FACTS_MAX new facts), or streamed by COPY (a bigger one: here padded with other chats' messages).
 */
const WRITE_PATHS = [
  { path: 'one statement', padding: 0 },
  { path: 'COPY', padding: INSERT_FACTS_MAX },
] as const;
const padding = (n: number): Recorded[] =>
  Array.from({ length: n }, () => {
    const s = script({ orgId: 'padding' });
    return recorded(factsFor(s).uiMessage('padding'));
  });

describe('projector (real Postgres)', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await ownDatabase(inject('databaseUrl'), 'proj');
  });
  afterAll(async () => {
    await db.drop();
  });

  it('prepares the statements of a small batch once per connection, and reuses them for the next batches', async () => {
    const one = createPool(db.url, 1);
    try {
      const prepared = async () =>
        (
          await one.query<{ statement: string }>(
            "SELECT statement FROM pg_prepared_statements WHERE name LIKE 'hireloop-%' ORDER BY statement",
          )
        ).rows.map((r) => r.statement);
      const [first, second] = [creation(script()), creation(script())].map((facts) => facts.map((f) => recorded(f)));
      await projectBatch(one, first ?? []);
      const after = await prepared();
      expect(after.some((text) => text.includes('INSERT INTO facts'))).toBe(true);
      expect(after.some((text) => text.includes('AS heads'))).toBe(true);
      await projectBatch(one, second ?? []);
      expect(await prepared()).toEqual(after);
    } finally {
      await one.end();
    }
  });

  it('stores a fact delivered twice (in one batch or two) once, and folds it once', async () => {
    const s = script();
    const f = factsFor(s);
    const [start, prompt] = [f.start(), f.prompt('p1', 20)];

    expect(await project(db, [start, start, prompt])).toEqual({ received: 3, inserted: 2, duplicates: 1 });
    const before = await getExecution(db.pool, 'acme', s.executionId);
    expect(await project(db, [prompt, start])).toEqual({ received: 2, inserted: 0, duplicates: 2 });

    expect(await count(db, 'SELECT count(*) AS n FROM facts WHERE execution_id = $1', [s.executionId])).toBe(2);
    expect(await getExecution(db.pool, 'acme', s.executionId)).toEqual(before);
    expect(before).toMatchObject({ status: 'waiting', currentPrompt: prompt, progress: 20, lastSeq: expect.any(Number) });
  });

  it.each(WRITE_PATHS)(
    'records topic, partition, offset and headers, and links each fact to the previous one of its execution ($path)',
    async ({ padding: n }) => {
      const s = script();
      const facts = creation(s);
      await projectBatch(db.pool, [
        ...padding(n),
        ...facts.map((fact, i) => ({ ...recorded(fact, 'pfx.'), partition: 2, offset: String(100 + i) })),
      ]);
      const { rows } = await db.pool.query(
        `SELECT topic, type, kafka_partition, kafka_offset, headers, chain_key, prev_hash, hash FROM facts
       WHERE execution_id = $1 ORDER BY seq`,
        [s.executionId],
      );
      expect(rows.map((r) => r.type)).toEqual(facts.slice(2).map((f) => f.type));
      expect(rows[0]).toMatchObject({
        topic: 'pfx.runIntent',
        kafka_partition: 2,
        kafka_offset: '102',
        headers: { factType: 'RunIntent' },
      });
      for (let i = 1; i < rows.length; i++) expect(rows[i].prev_hash).toBe(rows[i - 1].hash);
      expect(rows[0].chain_key).toBe(`execution/${s.executionId}`);
    },
  );

  it('projects a whole creation: completed, the employee registered, who may answer recorded', async () => {
    const s = script({ orgId: 'initech', userId: 'peter' });
    const facts = creation(s, steppingClock(), 'Reports clerk');
    await project(db, facts);
    const execution = await getExecution(db.pool, 'initech', s.executionId);
    expect(execution).toMatchObject({
      status: 'completed',
      ownerUserId: 'peter',
      conversationId: s.conversationId,
      phase: 'assembly',
      progress: 100,
      currentPrompt: null,
      createdAt: facts[2]?.ts,
      updatedAt: facts.at(-1)?.ts,
    });
    const [employee] = await listEmployees(db.pool, 'initech');
    expect(employee).toMatchObject({ name: 'Reports clerk', version: 1, executionId: s.executionId });
    expect((await getEmployee(db.pool, 'initech', employee?.employeeId ?? ''))?.spec).toMatchObject({
      name: 'Reports clerk',
      version: 1,
    });
    const { rows } = await db.pool.query('SELECT * FROM conversation_executions WHERE execution_id = $1', [s.executionId]);
    expect(rows).toEqual([
      { execution_id: s.executionId, conversation_id: s.conversationId, org_id: 'initech', user_id: 'peter' },
    ]);
  });

  it('reads only within the org: another org sees nothing', async () => {
    const s = script({ orgId: 'umbrella' });
    const f = factsFor(s);
    await project(db, [f.start(), f.prompt('p1')]);
    expect(await getExecution(db.pool, 'acme', s.executionId)).toBeNull();
    expect(await getTimeline(db.pool, 'acme', s.executionId)).toEqual([]);
    expect(await pendingPrompt(db.pool, 'acme', s.conversationId)).toBeNull();
    expect((await listExecutions(db.pool, 'acme', { conversationId: s.conversationId })).length).toBe(0);
    expect(await conversationOwners(db.pool, 'acme', s.conversationId)).toEqual([]);

    expect(await pendingPrompt(db.pool, 'umbrella', s.conversationId)).toMatchObject({
      executionId: s.executionId,
      ownerUserId: s.userId,
      prompt: { promptId: 'p1' },
    });
    const timeline = await getTimeline(db.pool, 'umbrella', s.executionId);
    expect(timeline.map((t) => [t.type, t.who])).toEqual([
      ['RunIntent', 'supervisor'],
      ['HILPrompt', 'graph-creator'],
    ]);
    expect((await listExecutions(db.pool, 'umbrella', { conversationId: s.conversationId })).map((e) => e.executionId)).toEqual([
      s.executionId,
    ]);
    // a second execution of the same owner in the conversation, and one of another user: each owner once
    const again = script({ orgId: 'umbrella', conversationId: s.conversationId, userId: s.userId });
    const other = script({ orgId: 'umbrella', conversationId: s.conversationId, userId: 'someone-else' });
    await project(db, [factsFor(again).start(), factsFor(other).start()]);
    expect((await conversationOwners(db.pool, 'umbrella', s.conversationId)).sort()).toEqual([s.userId, 'someone-else'].sort());
  });

  it('ends in the same state when every answer is consumed before the prompts it answers', async () => {
    const natural = script();
    const reversed = script();
    const order = (facts: AnyFact[]) => [
      ...facts.filter((f) => f.type === 'HILResponse'),
      ...facts.filter((f) => f.type !== 'HILResponse'),
    ];
    const clock = steppingClock();
    const a = factsFor(natural, clock);
    const b = factsFor(reversed, steppingClock());
    const script1 = [a.start(), a.prompt('p1', 10), a.answer('p1'), a.prompt('p2', 20), a.answer('p2'), a.prompt('p3', 30)];
    const script2 = [b.start(), b.prompt('p1', 10), b.answer('p1'), b.prompt('p2', 20), b.answer('p2'), b.prompt('p3', 30)];
    for (const fact of script1) await project(db, [fact]);
    for (const fact of order(script2)) await project(db, [fact]);
    const view = async (id: string) => {
      const e = await getExecution(db.pool, 'acme', id);
      return { status: e?.status, prompt: e?.currentPrompt?.promptId, progress: e?.progress };
    };
    expect(await view(natural.executionId)).toEqual({ status: 'waiting', prompt: 'p3', progress: 30 });
    expect(await view(reversed.executionId)).toEqual(await view(natural.executionId));
  });

  it('refuses, as a permanent failure, a batch Postgres cannot store, and stores nothing of it', async () => {
    const s = script();
    const f = factsFor(s);
    const bad = f.uiMessage('nul \u0000 byte');
    const error = await project(db, [f.start(), bad]).catch((e: unknown) => e);
    expect(hasCode(error, 'VALIDATION_FAILED')).toBe(true);
    expect(await count(db, 'SELECT count(*) AS n FROM facts WHERE execution_id = $1', [s.executionId])).toBe(0);
    expect(await getExecution(db.pool, 'acme', s.executionId)).toBeNull();
  });

  it('keeps every chain intact and the projections equal to a replay when many projectors write at once', async () => {
    const scripts = Array.from({ length: 40 }, () => script({ orgId: 'concurrent' }));
    const facts = scripts.flatMap((s) => creation(s, steppingClock(), 'Same name'));
    // each fact delivered twice, spread over 8 "instances" working in parallel in batches of 7
    const deliveries = [...facts, ...facts].map((f) => recorded(f));
    const lanes = Array.from({ length: 8 }, (_, lane) => deliveries.filter((_, i) => i % 8 === lane));
    await Promise.all(
      lanes.map(async (lane) => {
        for (let i = 0; i < lane.length; i += 7) await projectBatch(db.pool, lane.slice(i, i + 7));
      }),
    );
    expect(await count(db, `SELECT count(*) AS n FROM facts WHERE org_id = 'concurrent'`)).toBe(facts.length);
    expect((await listEmployees(db.pool, 'concurrent')).map((e) => e.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    const chain = await checkChain(db.pool);
    expect(chain.broken).toBeNull();
    const verify = await verifyProjections(db.pool);
    expect(verify.difference).toBeNull();
  });

  it.each(WRITE_PATHS)(
    'stores facts whose text holds tabs, newlines, backslashes, quotes and non-ASCII exactly, and their chain checks ($path)',
    async ({ padding: n }) => {
      // what COPY's text format gives a meaning to (tab, newline, CR, backslash, `\N`, `\.` alone on a
      // line), what JSON escapes (quotes, control characters), and what is more than one byte
      const tricky = [
        'tab\there',
        'newline\nthere',
        'cr\rlf\r\n',
        'back\\slash and \\\\ two',
        '"quoted" \'single\'',
        'caf\u00e9 \u00e9t\u00e9 \u4e2d\u6587 \u2028',
        'emoji \u{1f389} \u{1f469}\u200d\u{1f4bb}',
        'literal \\N and \\t and \\n',
        '\n\\.\n',
        'controls \b \f \u0001 \u007f',
        'ends with a backslash \\',
      ].join(' | ');
      const s = script();
      const clock = steppingClock();
      const f = factsFor(s, clock);
      const messages = [f.uiMessage(tricky), f.uiMessage('\\N'), f.uiMessage(`${tricky}\t`)];
      const answer = makeFact(
        'HILResponse',
        { orgId: s.orgId, correlation: { executionId: s.executionId, conversationId: s.conversationId, userId: s.userId } },
        {
          executionId: s.executionId,
          promptId: 'p-free-text',
          kind: 'questions',
          payload: { answers: { q1: tricky, q2: '\\N', q3: '\\' } },
        },
        { clock },
      );
      const headers = { factType: 'HILResponse', note: tricky, nul: '\\N' };
      await projectBatch(db.pool, [
        ...padding(n),
        ...messages.map((m) => recorded(m)),
        { ...recorded(f.start()), headers: { factType: 'RunIntent' } },
      ]);
      await projectBatch(db.pool, [...padding(n), { ...recorded(answer), headers }]);

      for (const fact of [...messages, answer]) {
        const { rows } = await db.pool.query('SELECT payload, headers FROM facts WHERE id = $1', [fact.id]);
        expect(rows).toHaveLength(1);
        expect(rows[0].payload).toEqual(fact);
      }
      const { rows } = await db.pool.query('SELECT headers FROM facts WHERE id = $1', [answer.id]);
      expect(rows[0].headers).toEqual(headers);
      expect((await checkChain(db.pool)).broken).toBeNull();
    },
  );

  it('a completion delivered again under a new fact id, after several later versions of its name, registers nothing', async () => {
    const orgId = `redeliver-${randomUUID().slice(0, 8)}`;
    const name = 'Night auditor';
    const clock = steppingClock();
    const versions = async () =>
      (await listEmployees(db.pool, orgId))
        .filter((e) => e.name === name)
        .map((e) => ({ version: e.version, executionId: e.executionId, employeeId: e.employeeId }))
        .sort((a, b) => a.version - b.version);
    const scripts = Array.from({ length: 4 }, () => script({ orgId }));
    for (const s of scripts) await project(db, creation(s, clock, name)); // a batch each
    const registered = await versions();
    expect(registered.map((v) => [v.version, v.executionId])).toEqual(scripts.map((s, i) => [i + 1, s.executionId]));

    // the first execution's completion published anew (a new fact id, a newly made employee id):
    // only its execution ties it to version 1, three versions back
    const first = scripts[0] as (typeof scripts)[number];
    const again = factsFor(first, clock).completed(name);
    expect(await project(db, [again])).toEqual({ received: 1, inserted: 1, duplicates: 0 });
    expect(await versions()).toEqual(registered);

    // another execution completing with an employee id registered already (version 2's)
    const stray = factsFor(script({ orgId }), clock).completed(name, registered[1]?.employeeId);
    expect(await project(db, [stray])).toEqual({ received: 1, inserted: 1, duplicates: 0 });
    expect(await versions()).toEqual(registered);

    const fifth = script({ orgId });
    await project(db, creation(fifth, clock, name));
    expect((await versions()).map((v) => [v.version, v.executionId])).toEqual([
      ...scripts.map((s, i) => [i + 1, s.executionId]),
      [5, fifth.executionId],
    ]);
    expect((await verifyProjections(db.pool)).difference).toBeNull();
  });

  it('stores batches in the order they were handed over, however long each takes to prepare', async () => {
    const project = createProjector(db.pool, createLogger('projector-test', 'silent'));
    // the first batch takes many slices to prepare, the second one: handed over at once, the second
    // is ready first, yet it must be written after the first
    const first = Array.from({ length: 60 }, () => creation(script({ orgId: 'ordered' }))).flat();
    const second = creation(script({ orgId: 'ordered' }));
    await Promise.all([project(first.map((f) => recorded(f))), project(second.map((f) => recorded(f)))]);
    const { rows } = await db.pool.query<{ id: string }>(`SELECT id FROM facts WHERE org_id = 'ordered' ORDER BY seq`);
    expect(rows.map((r) => r.id)).toEqual([...first, ...second].map((f) => f.id));
  });

  it('writes batches that arrive together in shared transactions, and fails only the batch that holds a refused fact', async () => {
    const project = createProjector(db.pool, createLogger('projector-test', 'silent'));
    const good = Array.from({ length: 6 }, () => creation(script({ orgId: 'grouped' })));
    const poisoned = creation(script({ orgId: 'grouped' }));
    const s = script({ orgId: 'grouped' });
    const refused = factsFor(s).uiMessage('nul \u0000 byte');
    const outcomes = await Promise.allSettled([
      ...good.map((facts) => project(facts.map((f) => recorded(f)))),
      project([...poisoned, refused].map((f) => recorded(f))),
    ]);
    expect(outcomes.slice(0, 6).map((o) => o.status)).toEqual(Array(6).fill('fulfilled'));
    const failed = outcomes[6] as PromiseRejectedResult;
    expect(failed.status).toBe('rejected');
    expect(hasCode(failed.reason, 'VALIDATION_FAILED')).toBe(true);
    expect(await count(db, `SELECT count(*) AS n FROM facts WHERE org_id = 'grouped'`)).toBeGreaterThanOrEqual(6 * 11);
    expect(await count(db, 'SELECT count(*) AS n FROM facts WHERE id = $1', [refused.id])).toBe(0);
    // the consumer then takes the failed batch fact by fact: all but the refused one are stored
    for (const fact of poisoned) await project([recorded(fact)]);
    expect(await count(db, `SELECT count(*) AS n FROM facts WHERE org_id = 'grouped'`)).toBe(7 * 11);
    expect((await verifyProjections(db.pool)).difference).toBeNull();
  });

  it("rewrites an execution's row in place (a heap-only update) when a fact moves only its phase, progress and time", async () => {
    const s = script({ orgId: 'hot' });
    const f = factsFor(s);
    const started = evolveExecution(null, f.start(), 1) as Execution;
    const phased = evolveExecution(started, f.event('matching', 40), 2) as Execution;
    expect(phased.updatedAt > started.updatedAt).toBe(true);
    const client = await db.pool.connect();
    try {
      // the backend's own counts, not flushed yet (they may hold earlier transactions'): compared before and after
      const counts = async () =>
        (
          await client.query<{ updated: string; hot: string }>(
            `SELECT pg_stat_get_xact_tuples_updated('executions'::regclass) AS updated,
                    pg_stat_get_xact_tuples_hot_updated('executions'::regclass) AS hot`,
          )
        ).rows.map((r) => ({ updated: Number(r.updated), hot: Number(r.hot) }))[0] ?? { updated: 0, hot: 0 };
      await client.query('BEGIN');
      await writeProjections(client, liveTables, { executions: [started], conversations: [], employees: [] });
      const before = await counts();
      await writeProjections(client, liveTables, { executions: [phased], conversations: [], employees: [] });
      const after = await counts();
      // no index of executions holds a column such a fact changes
      expect({ updated: after.updated - before.updated, hot: after.hot - before.hot }).toEqual({ updated: 1, hot: 1 });
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
