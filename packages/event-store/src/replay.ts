import { type Pool, type PoolClient, withTransaction } from '@hireloop/platform';
import type { AnyFact } from '@hireloop/schemas';
import { canonicalJson, chainHash, chainKey, conversationIdOf, executionIdOf, lockEverything } from './chain';
import {
  type ConversationExecution,
  conversationExecutions,
  type EmployeeActivation,
  type EmployeeHistory,
  type Execution,
  type ExecutionEffect,
  employeeActivations,
  employees,
  executionEffects,
  executions,
  fold,
  type OrgPolicyState,
  orgPolicies,
  type ProjectionName,
  passiveEvent,
  passiveEventSql,
  projectedTypes,
} from './projections';
import { type TimelineEntry, timelineEntry } from './read';
import { copyProjections, liveTables, type ProjectionTables } from './tables';

/**
 * Replay: the projections rebuilt from `facts` alone, with the same folds as the live projector.
 * Facts stream through a server-side cursor in large pages (the next page is requested before the
 * current one is folded), the states are folded in memory, and the rows are bulk-inserted.
 */

const PAGE = 20_000;

export interface ProjectionStates {
  executions: Map<string, Execution>;
  conversations: Map<string, ConversationExecution>;
  employees: Map<string, EmployeeHistory>;
  activations: Map<string, EmployeeActivation>;
  effects: Map<string, ExecutionEffect>;
  policies: Map<string, OrgPolicyState>;
}

export interface ReplayCounts {
  facts: number;
  executions: number;
  conversationExecutions: number;
  employees: number;
  activations: number;
  effects: number;
  policies: number;
}

export interface ReplayReport extends ReplayCounts {
  ms: number;
  factsPerSecond: number;
}

/** Streams the rows of a query through a cursor of the open transaction, page by page. */
async function streamRows<R>(client: PoolClient, sql: string, onPage: (rows: R[]) => void): Promise<number> {
  const cursor = `replay_${Math.random().toString(36).slice(2)}`;
  await client.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sql}`);
  let total = 0;
  let next = client.query<R & object>(`FETCH ${PAGE} FROM ${cursor}`);
  for (;;) {
    const page = await next;
    if (page.rows.length === 0) break;
    // ask for the next page before folding this one: Postgres reads while we fold
    if (page.rows.length === PAGE) next = client.query<R & object>(`FETCH ${PAGE} FROM ${cursor}`);
    onPage(page.rows as R[]);
    total += page.rows.length;
    if (page.rows.length < PAGE) break;
  }
  await client.query(`CLOSE ${cursor}`);
  return total;
}

interface FoldRow {
  seq: string;
  type: string;
  /** the payload, null for a passive event (`isPassiveEvent`) and for a fact no projection folds */
  payload: AnyFact | null;
  /** a passive event's execution, org, kind and time; null otherwise */
  execution_id: string | null;
  org_id: string | null;
  event: string | null;
  ts: string | null;
}

/**
 * Every fact in seq order, one pass: a fact some projection folds comes whole, a passive event as its
 * execution, org, kind and time only (Postgres then neither writes its payload out nor does Node parse
 * it), a fact no projection folds as its seq alone (it is counted).
 */
const FOLD_SQL = (() => {
  const folded = projectedTypes.map((t) => `'${t}'`).join(', ');
  const passive = (column: string) => `CASE WHEN passive THEN ${column} END`;
  return `SELECT seq, type,
  CASE WHEN passive OR type NOT IN (${folded}) THEN NULL ELSE payload END AS payload,
  ${passive('execution_id')} AS execution_id, ${passive('org_id')} AS org_id,
  ${passive(`payload->>'event'`)} AS event, ${passive(`payload->>'ts'`)} AS ts
FROM facts, LATERAL (SELECT ${passiveEventSql} AS passive) p ORDER BY seq`;
})();

/** Folds every fact, in seq order, into fresh in-memory projections. */
export async function foldFacts(client: PoolClient): Promise<{ facts: number; states: ProjectionStates }> {
  const states: ProjectionStates = {
    executions: new Map(),
    conversations: new Map(),
    employees: new Map(),
    activations: new Map(),
    effects: new Map(),
    policies: new Map(),
  };
  const facts = await streamRows<FoldRow>(client, FOLD_SQL, (rows) => {
    const page: { fact: AnyFact; seq: number }[] = [];
    for (const row of rows) {
      if (row.payload !== null) page.push({ fact: row.payload, seq: Number(row.seq) });
      else if (row.execution_id !== null && !states.executions.has(row.execution_id)) {
        // a passive event changes nothing but a missing row: folded only then, so that the row is made
        const { execution_id, org_id, event, ts } = row as { [K in keyof FoldRow]: NonNullable<FoldRow[K]> };
        page.push({ fact: passiveEvent(execution_id, org_id, event, ts), seq: Number(row.seq) });
      }
    }
    fold(executions, states.executions, page);
    fold(conversationExecutions, states.conversations, page);
    fold(employees, states.employees, page);
    fold(employeeActivations, states.activations, page);
    fold(executionEffects, states.effects, page);
    fold(orgPolicies, states.policies, page);
  });
  return { facts, states };
}

async function writeStates(client: PoolClient, tables: ProjectionTables, states: ProjectionStates): Promise<ReplayCounts> {
  const rows = {
    executions: [...states.executions.values()],
    conversations: [...states.conversations.values()],
    employees: [...states.employees.values()].flatMap((h) => h.versions),
    activations: [...states.activations.values()],
    effects: [...states.effects.values()],
    policies: [...states.policies.values()],
  };
  await copyProjections(client, tables, rows);
  return {
    facts: 0,
    executions: rows.executions.length,
    conversationExecutions: rows.conversations.length,
    employees: rows.employees.length,
    activations: rows.activations.length,
    effects: rows.effects.length,
    policies: rows.policies.length,
  };
}

const report = (counts: ReplayCounts, started: number): ReplayReport => {
  const ms = performance.now() - started;
  return { ...counts, ms: Math.round(ms), factsPerSecond: Math.round(counts.facts / (ms / 1000 || 1)) };
};

/**
 * Rebuilds the live projections from `facts` in one transaction: every projector transaction waits
 * meanwhile (all of the projector's advisory locks are taken), and so do readers of the projections
 * (TRUNCATE), for the second or two it takes; nobody ever sees them half built.
 */
export async function rebuildProjections(pool: Pool): Promise<ReplayReport> {
  const started = performance.now();
  return withTransaction(
    pool,
    async (client) => {
      await lockEverything(client);
      await client.query(
        `TRUNCATE ${liveTables.employees}, ${liveTables.conversationExecutions}, ${liveTables.executions}, ${liveTables.activations}, ${liveTables.effects}, ${liveTables.policies}`,
      );
      const { facts, states } = await foldFacts(client);
      const counts = await writeStates(client, liveTables, states);
      return report({ ...counts, facts }, started);
    },
    'READ COMMITTED',
  );
}

export interface Difference {
  table: ProjectionName;
  key: string;
  /** the row as canonical JSON (jsonb text), or null when it is missing on that side */
  live: string | null;
  replay: string | null;
  /** columns whose values differ */
  columns: string[];
  /** how many rows of that table differ */
  count: number;
}

export interface VerifyReport extends ReplayReport {
  difference: Difference | null;
}

const replayTables: ProjectionTables = {
  executions: 'pg_temp.replay_executions',
  conversationExecutions: 'pg_temp.replay_conversation_executions',
  employees: 'pg_temp.replay_employees',
  activations: 'pg_temp.replay_employee_activations',
  effects: 'pg_temp.replay_execution_effects',
  policies: 'pg_temp.replay_org_policies',
};

const COMPARED: { table: Difference['table']; replay: string; key: string }[] = [
  { table: 'executions', replay: replayTables.executions, key: 'execution_id' },
  { table: 'conversation_executions', replay: replayTables.conversationExecutions, key: 'execution_id' },
  { table: 'employees', replay: replayTables.employees, key: 'employee_id' },
  { table: 'employee_activations', replay: replayTables.activations, key: 'employee_id' },
  { table: 'execution_effects', replay: replayTables.effects, key: 'idempotency_key' },
  { table: 'org_policies', replay: replayTables.policies, key: 'org_id' },
];

function differingColumns(live: string | null, replay: string | null): string[] {
  const a = (live ? JSON.parse(live) : {}) as Record<string, unknown>;
  const b = (replay ? JSON.parse(replay) : {}) as Record<string, unknown>;
  const columns = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...columns].filter((c) => canonicalJson(a[c]) !== canonicalJson(b[c])).sort();
}

/**
 * Rebuilds the projections into temporary tables from one snapshot of `facts` and compares them
 * with the live ones of the same snapshot, row by row as canonical JSON (jsonb text); reports the
 * first difference by table and key. A projector may keep writing meanwhile.
 */
export async function verifyProjections(pool: Pool): Promise<VerifyReport> {
  const started = performance.now();
  return withTransaction(
    pool,
    async (client) => {
      for (const { table, replay } of COMPARED) {
        await client.query(`CREATE TEMP TABLE ${replay.replace('pg_temp.', '')} (LIKE ${table} INCLUDING ALL) ON COMMIT DROP`);
      }
      const { facts, states } = await foldFacts(client);
      const counts = await writeStates(client, replayTables, states);
      const result = report({ ...counts, facts }, started);
      for (const { table, replay, key } of COMPARED) {
        const { rows } = await client.query<{ key: string; live: string | null; replay: string | null; count: string }>(
          `SELECT coalesce(l.${key}, r.${key}) AS key, to_jsonb(l)::text AS live, to_jsonb(r)::text AS replay, count(*) OVER () AS count
         FROM ${table} l FULL JOIN ${replay} r ON l.${key} = r.${key}
         WHERE to_jsonb(l)::text IS DISTINCT FROM to_jsonb(r)::text
         ORDER BY 1 LIMIT 1`,
        );
        const first = rows[0];
        if (first) {
          return {
            ...result,
            difference: {
              table,
              key: first.key,
              live: first.live,
              replay: first.replay,
              columns: differingColumns(first.live, first.replay),
              count: Number(first.count),
            },
          };
        }
      }
      return { ...result, difference: null };
    },
    'REPEATABLE READ',
  );
}

export interface ChainBreak {
  seq: number;
  id: string;
  chain: string;
  reason: string;
}

export interface ChainReport {
  facts: number;
  chains: number;
  ms: number;
  /** the first fact (by seq) that breaks its chain, or null when every chain holds */
  broken: ChainBreak | null;
  /** how many facts break their chain */
  brokenCount: number;
}

interface ChainRow {
  seq: string;
  id: string;
  type: string;
  org_id: string;
  execution_id: string | null;
  conversation_id: string | null;
  chain_key: string;
  prev_hash: string | null;
  hash: string;
  payload: AnyFact;
}

/** Why a stored fact breaks its chain, or null. `previous` is the stored hash of the fact before it in its chain. */
function chainFault(row: ChainRow, previous: string | null): string | null {
  const fact = row.payload;
  const columns: [string, unknown, unknown][] = [
    ['id', row.id.toLowerCase(), String(fact.id).toLowerCase()],
    ['type', row.type, fact.type],
    ['org_id', row.org_id, fact.orgId],
    ['execution_id', row.execution_id, executionIdOf(fact)],
    ['conversation_id', row.conversation_id, conversationIdOf(fact)],
    ['chain_key', row.chain_key, chainKey(fact.orgId, executionIdOf(fact), conversationIdOf(fact))],
  ];
  for (const [column, stored, derived] of columns) {
    if (stored !== derived)
      return `column ${column} (${JSON.stringify(stored)}) disagrees with the payload (${JSON.stringify(derived)})`;
  }
  if (row.prev_hash !== previous) {
    return previous === null
      ? `prev_hash ${row.prev_hash} but it is the first fact of its chain`
      : `prev_hash ${row.prev_hash ?? 'null'} is not the hash of the fact before it in its chain (${previous})`;
  }
  const hash = chainHash(previous, canonicalJson(fact));
  if (hash !== row.hash) return `hash ${row.hash} does not match the payload (recomputed ${hash})`;
  return null;
}

/** Recomputes every chain from the payloads; names the first fact (by seq) that breaks one. */
export async function checkChain(pool: Pool): Promise<ChainReport> {
  const started = performance.now();
  return withTransaction(
    pool,
    async (client) => {
      const heads = new Map<string, string>();
      let broken: ChainBreak | null = null;
      let brokenCount = 0;
      const facts = await streamRows<ChainRow>(
        client,
        `SELECT seq, id, type, org_id, execution_id, conversation_id, chain_key, prev_hash, hash, payload FROM facts ORDER BY seq`,
        (rows) => {
          for (const row of rows) {
            const fault = chainFault(row, heads.get(row.chain_key) ?? null);
            if (fault) {
              brokenCount++;
              broken ??= { seq: Number(row.seq), id: row.id, chain: row.chain_key, reason: fault };
            }
            heads.set(row.chain_key, row.hash);
          }
        },
      );
      return { facts, chains: heads.size, ms: Math.round(performance.now() - started), broken, brokenCount };
    },
    'REPEATABLE READ',
  );
}

/** Every fact of an execution, whatever its org (for operators), by time (`ts`, then the order recorded). */
export async function executionTimeline(pool: Pool, executionId: string): Promise<TimelineEntry[]> {
  const { rows } = await pool.query<Parameters<typeof timelineEntry>[0]>(
    `SELECT seq, id, ts, topic, type, payload FROM facts WHERE chain_key = 'execution/' || $1 ORDER BY ts, seq`,
    [executionId],
  );
  return rows.map(timelineEntry);
}
