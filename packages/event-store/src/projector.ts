import type { Delivery } from '@hireloop/fact-stream';
import { HireloopError, type Logger, type Pool, withTransaction } from '@hireloop/platform';
import type { AnyFact } from '@hireloop/schemas';
import { canonicalJson, chainHash, chainKey, chainKeyOf, conversationIdOf, executionIdOf, lockBucket, lockKeys } from './chain';
import {
  type ConversationExecution,
  conversationExecutions,
  type Employee,
  type EmployeeHistory,
  type Execution,
  employees,
  executions,
  fold,
  isoTime,
  type Projection,
} from './projections';
import {
  type ConversationExecutionRow,
  conversationFromRow,
  type EmployeeRow,
  type ExecutionRow,
  employeeHistories,
  executionFromRow,
  liveTables,
  loadSql,
  type ProjectionTables,
  writeProjections,
} from './tables';

/** What the projector records of a delivery (a fact-stream `Delivery` is one). */
export type Recorded = Pick<Delivery, 'fact' | 'topic' | 'partition' | 'offset' | 'headers'>;

export interface ProjectResult {
  received: number;
  /** facts appended to `facts` (and folded into the projections) */
  inserted: number;
  /** facts already stored, or repeated within the batch: nothing changed for them */
  duplicates: number;
}

interface Prepared {
  fact: AnyFact;
  delivery: Recorded;
  canonical: string;
  executionId: string | null;
  conversationId: string | null;
  chain: string;
}

interface ReadRow {
  existing: string[];
  heads: Record<string, string>;
  /** [execution_id, xmin] of the rows of the batch's executions */
  versions: [string, string][];
  /** this transaction's id as a row's xmin shows it */
  xid: string;
  conversations: ConversationExecutionRow[];
  employees: EmployeeRow[];
}

const readSql = (t: ProjectionTables) => `SELECT
  (SELECT coalesce(json_agg(id), '[]') FROM facts WHERE id = ANY($1::uuid[])) AS existing,
  (SELECT coalesce(json_object_agg(k, h), '{}') FROM (
     SELECT k, (SELECT hash FROM facts WHERE chain_key = k ORDER BY seq DESC LIMIT 1) AS h FROM unnest($2::text[]) AS k
   ) heads WHERE h IS NOT NULL) AS heads,
  (SELECT coalesce(json_agg(json_build_array(execution_id, xmin::text)), '[]') FROM ${t.executions}
     WHERE execution_id = ANY($3::text[])) AS versions,
  (txid_current() % 4294967296)::text AS xid,
  ${loadSql.conversations(t, '$3')} AS conversations,
  ${loadSql.employees(t, '$4', '$5')} AS employees`;

const loadExecutions = (t: ProjectionTables) => `SELECT ${loadSql.executions(t, '$1')} AS executions`;

/**
 * Execution states this process wrote or read, each with the version of its row (`xmin`) it is
 * the state of: a transaction reads only the versions of its executions' rows, and whole rows only
 * for the ones it does not hold at that version (new to it, evicted, or written by another
 * instance, a rebuild or a hand). Holds at most `max` executions, the least recently used leave.
 */
export class ExecutionCache {
  private readonly entries = new Map<string, { state: Execution; xmin: string }>();
  constructor(private readonly max = 50_000) {}

  get(executionId: string, xmin: string): Execution | undefined {
    const entry = this.entries.get(executionId);
    return entry?.xmin === xmin ? entry.state : undefined;
  }

  set(executionId: string, state: Execution, xmin: string): void {
    this.entries.delete(executionId);
    this.entries.set(executionId, { state, xmin });
    if (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

export interface ProjectBatchOptions {
  tables?: ProjectionTables;
  cache?: ExecutionCache;
}

// One array per column, one element per fact, in the order of the batch, zipped by ROWS FROM. The
// payloads and headers travel as one JSON array each: Postgres cuts it into elements and parses each
// once, and nothing has to be escaped on the way. The seqs are allocated first, in that order, so
// that a chain's seq order is its hash order by construction.
const INSERT_FACTS = `INSERT INTO facts (seq, id, topic, type, org_id, execution_id, conversation_id, payload, headers,
    kafka_partition, kafka_offset, ts, prev_hash, hash)
  SELECT seq, id, topic, type, org_id, execution_id, conversation_id, payload::jsonb, headers::jsonb, kafka_partition,
    kafka_offset, ts, prev_hash, hash
  FROM ROWS FROM (unnest($1::bigint[]), unnest($2::uuid[]), unnest($3::text[]), unnest($4::text[]), unnest($5::text[]),
    unnest($6::text[]), unnest($7::text[]), json_array_elements($8::json), json_array_elements($9::json), unnest($10::int[]),
    unnest($11::bigint[]), unnest($12::timestamptz[]), unnest($13::text[]), unnest($14::text[]))
    AS x(seq, id, topic, type, org_id, execution_id, conversation_id, payload, headers, kafka_partition, kafka_offset, ts,
    prev_hash, hash)
  ON CONFLICT (id) DO NOTHING`;

const ALLOCATE_SEQS = `SELECT array_agg(nextval('facts_seq_seq')) AS seqs FROM generate_series(1, $1::int)`;

/** The insert's parameters, one array per column. */
const factColumns = (
  fresh: readonly Prepared[],
  seqs: readonly number[],
  prev: readonly (string | null)[],
  hashes: readonly string[],
) => [
  seqs,
  fresh.map((p) => p.fact.id),
  fresh.map((p) => p.delivery.topic),
  fresh.map((p) => p.fact.type),
  fresh.map((p) => p.fact.orgId),
  fresh.map((p) => p.executionId),
  fresh.map((p) => p.conversationId),
  `[${fresh.map((p) => p.canonical).join(',')}]`,
  JSON.stringify(fresh.map((p) => p.delivery.headers)),
  fresh.map((p) => p.delivery.partition),
  fresh.map((p) => p.delivery.offset),
  fresh.map((p) => isoTime(p.fact.ts)),
  prev,
  hashes,
];

/** Postgres refused the data itself (class 22 data exception, 23 integrity): retrying cannot help. */
function classify(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'))) {
    return new HireloopError(
      'VALIDATION_FAILED',
      `Postgres refused the facts: ${(error as Error).message}`,
      { pgCode: code },
      { cause: error },
    );
  }
  return error;
}

/**
 * Appends a batch of deliveries to `facts` and folds the ones actually inserted into the three
 * projections, all in one transaction: the same fact delivered twice is one row and one change.
 * Several projector instances may run at once: the transaction first takes the advisory locks of
 * every chain and projection row it touches (chain.ts).
 */
export async function projectBatch(
  pool: Pool,
  deliveries: readonly Recorded[],
  options: ProjectBatchOptions = {},
): Promise<ProjectResult> {
  const { tables = liveTables, cache = new ExecutionCache(0) } = options;
  const seen = new Set<string>();
  const batch: Prepared[] = [];
  for (const delivery of deliveries) {
    const { fact } = delivery;
    const id = fact.id.toLowerCase(); // Postgres' uuid is case-blind
    if (seen.has(id)) continue;
    seen.add(id);
    const executionId = executionIdOf(fact);
    const conversationId = conversationIdOf(fact);
    batch.push({
      fact,
      delivery,
      canonical: canonicalJson(fact),
      executionId,
      conversationId,
      chain: chainKey(fact.orgId, executionId, conversationId),
    });
  }
  const result: ProjectResult = { received: deliveries.length, inserted: 0, duplicates: deliveries.length };
  if (batch.length === 0) return result;

  const chains = [...new Set(batch.map((p) => p.chain))];
  const keysOf = <S>(projection: Projection<S>) => [...new Set(batch.flatMap((p) => projection.keyOf(p.fact) ?? []))];
  const executionKeys = keysOf(executions);
  const employeeKeys = keysOf(employees);
  // an execution's row is locked under its chain's key: one lock, and the same lane (see createProjector)
  const lockSet = [...chains, ...executionKeys.map((k) => chainKey('', k, null)), ...employeeKeys.map((k) => `employees/${k}`)];

  let cached: [string, Execution, string][] = [];
  try {
    const outcome = await withTransaction(pool, async (client) => {
      await lockKeys(client, lockSet);
      const read = await client.query<ReadRow>(readSql(tables), [
        batch.map((p) => p.fact.id),
        chains,
        executionKeys,
        employeeKeys.map((k) => k.slice(0, k.indexOf('/'))), // `org/name`: an org id holds no `/`
        employeeKeys.map((k) => k.slice(k.indexOf('/') + 1)),
      ]);
      const row = read.rows[0] as ReadRow;
      const existing = new Set(row.existing.map((id) => id.toLowerCase()));
      const fresh = batch.filter((p) => !existing.has(p.fact.id.toLowerCase()));
      if (fresh.length === 0) return result;

      const allocated = await client.query<{ seqs: string[] }>(ALLOCATE_SEQS, [fresh.length]);
      const seqs = (allocated.rows[0]?.seqs ?? []).map(Number).sort((x, y) => x - y);
      const heads = new Map(Object.entries(row.heads));
      const prev: (string | null)[] = [];
      const hashes: string[] = [];
      for (const p of fresh) {
        const before = heads.get(p.chain) ?? null;
        const hash = chainHash(before, p.canonical);
        heads.set(p.chain, hash);
        prev.push(before);
        hashes.push(hash);
      }
      const inserted = await client.query(INSERT_FACTS, factColumns(fresh, seqs, prev, hashes));
      if (inserted.rowCount !== fresh.length) {
        // another transaction stored one of these ids under another chain meanwhile: try again
        throw new Error(`expected to append ${fresh.length} facts, appended ${inserted.rowCount}`);
      }
      const folded = fresh.map((p, i) => ({ fact: p.fact, seq: seqs[i] as number }));

      const executionStates = new Map<string, Execution>();
      const misses: string[] = [];
      for (const [id, xmin] of row.versions) {
        const state = cache.get(id, xmin);
        if (state) executionStates.set(id, state);
        else misses.push(id);
      }
      if (misses.length > 0) {
        const loaded = await client.query<{ executions: ExecutionRow[] }>(loadExecutions(tables), [misses]);
        for (const r of loaded.rows[0]?.executions ?? []) executionStates.set(r.execution_id, executionFromRow(r));
      }
      const conversationStates = new Map<string, ConversationExecution>(
        row.conversations.map((r) => [r.execution_id, conversationFromRow(r)]),
      );
      const employeeStates: Map<string, EmployeeHistory> = employeeHistories(row.employees);
      const known = new Set(row.employees.map((r) => r.employee_id));

      const changedExecutions = fold(executions, executionStates, folded);
      const changedConversations = fold(conversationExecutions, conversationStates, folded);
      const changedEmployees = fold(employees, employeeStates, folded);

      const newEmployees: Employee[] = [...changedEmployees].flatMap(
        (k) => employeeStates.get(k)?.versions.filter((v) => !known.has(v.employeeId)) ?? [],
      );
      await writeProjections(client, tables, {
        executions: [...changedExecutions].map((k) => executionStates.get(k) as Execution),
        conversations: [...changedConversations].map((k) => conversationStates.get(k) as ConversationExecution),
        employees: newEmployees,
      });
      // remembered once the transaction has committed: the written rows carry this transaction's id
      const versions = new Map(row.versions);
      cached = [...executionStates].map(([id, state]) => [
        id,
        state,
        changedExecutions.has(id) ? row.xid : (versions.get(id) ?? ''),
      ]);
      return { received: deliveries.length, inserted: fresh.length, duplicates: deliveries.length - fresh.length };
    });
    for (const [id, state, xmin] of cached) if (xmin !== '') cache.set(id, state, xmin);
    return outcome;
  } catch (error) {
    throw classify(error);
  }
}

/**
 * Batches of this many partitions are in hand at once: while transactions run, the next batches are
 * fetched and parsed, and they join the next transactions (see `createProjector`).
 */
export const PROJECTOR_PARTITIONS_CONCURRENTLY = 6;

interface Waiting {
  deliveries: readonly Recorded[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface ProjectorOptions {
  /** at most this many facts in one transaction (a batch's part is never split) */
  maxFacts?: number;
  /** transactions in flight at once, on disjoint sets of chains */
  lanes?: number;
}

/**
 * One writer: one transaction at a time, with group commit (whatever parts arrive while one runs
 * are written together by the next). When a shared transaction fails, each of its parts is tried
 * on its own, so that a failure is only reported for the part that caused it.
 */
function lane(
  pool: Pool,
  log: Logger,
  maxFacts: number,
  cache: ExecutionCache,
): (deliveries: readonly Recorded[]) => Promise<void> {
  const queue: Waiting[] = [];
  let draining = false;

  const write = async (group: readonly Waiting[]): Promise<void> => {
    const started = performance.now();
    const result = await projectBatch(
      pool,
      group.flatMap((w) => w.deliveries),
      { cache },
    );
    log.debug({ ...result, parts: group.length, ms: Math.round(performance.now() - started) }, 'projected');
  };

  const drain = async (): Promise<void> => {
    draining = true;
    while (queue.length > 0) {
      const group: Waiting[] = [];
      let facts = 0;
      while (queue.length > 0 && (group.length === 0 || facts + (queue[0]?.deliveries.length ?? 0) <= maxFacts)) {
        const next = queue.shift() as Waiting;
        facts += next.deliveries.length;
        group.push(next);
      }
      try {
        await write(group);
        for (const w of group) w.resolve();
      } catch (error) {
        if (group.length === 1) (group[0] as Waiting).reject(error);
        else for (const w of group) await write([w]).then(w.resolve, w.reject);
      }
    }
    draining = false;
  };

  return (deliveries) =>
    new Promise<void>((resolve, reject) => {
      queue.push({ deliveries, resolve, reject });
      if (!draining) void drain();
    });
}

/**
 * The event-store's batch handler. A batch's facts are split by chain into lanes (a chain, and so
 * an execution, always falls in the same lane, and two lanes only ever contend for the lock of an
 * employee name), each lane writes one transaction at a time with group commit, so that Postgres
 * works on one lane while Node prepares the other. The call returns once every transaction holding its facts has committed, so
 * the consumer commits the batch's offsets only then; it fails if any part failed (the consumer
 * then retries the batch, whose stored facts are duplicates by then, or takes it fact by fact).
 */
export function createProjector(
  pool: Pool,
  log: Logger,
  options: ProjectorOptions = {},
): (deliveries: readonly Recorded[]) => Promise<void> {
  const count = Math.max(1, options.lanes ?? 2);
  const cache = new ExecutionCache();
  const lanes = Array.from({ length: count }, () => lane(pool, log, options.maxFacts ?? 20_000, cache));
  return async (deliveries) => {
    const parts = Array.from({ length: count }, (): Recorded[] => []);
    for (const d of deliveries) parts[lockBucket(chainKeyOf(d.fact)) % count]?.push(d);
    const settled = await Promise.allSettled(parts.map((part, i) => (part.length > 0 ? lanes[i]?.(part) : undefined)));
    const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  };
}
