import type { Delivery } from '@hireloop/fact-stream';
import { HireloopError, type Logger, type Pool, statementNames, withTransaction } from '@hireloop/platform';
import type { AnyFact, FactType } from '@hireloop/schemas';
import { canonicalJson, chainHash, chainKey, conversationIdOf, executionIdOf, lockStatement } from './chain';
import { copyJson, copyLines, copyText } from './copy';
import {
  type ConversationExecution,
  conversationExecutions,
  type Employee,
  type EmployeeActivation,
  type EmployeeHistory,
  type Execution,
  type ExecutionEffect,
  employeeActivations,
  employees,
  executionEffects,
  executions,
  fold,
  isoTime,
  keyIn,
  type OrgPolicyState,
  orgPolicies,
  type Projection,
} from './projections';
import {
  type ActivationRow,
  activationFromRow,
  type ConversationExecutionRow,
  conversationFromRow,
  type EffectRow,
  type EmployeeRow,
  type ExecutionRow,
  effectFromRow,
  employeeHistories,
  executionFromRow,
  liveTables,
  loadSql,
  type PolicyRow,
  type ProjectionTables,
  policyFromRow,
  projectionStatements,
  runAsOne,
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

/** A delivery with what storing it needs that does not depend on the database: worked out before the transaction. */
interface Prepared {
  fact: AnyFact;
  delivery: Recorded;
  canonical: string;
  executionId: string | null;
  conversationId: string | null;
  chain: string;
}

/** The deliveries of a batch, each fact once, prepared. */
const prepare = (deliveries: readonly Recorded[]): Prepared[] =>
  dedupe(
    deliveries.map((delivery) => {
      const { fact } = delivery;
      const executionId = executionIdOf(fact);
      const conversationId = conversationIdOf(fact);
      return {
        fact,
        delivery,
        canonical: canonicalJson(fact),
        executionId,
        conversationId,
        chain: chainKey(fact.orgId, executionId, conversationId),
      };
    }),
  );

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

interface ReadRow {
  /** ids of the batch already stored (read only when the batch is checked for them) */
  existing: string[] | null;
  heads: Record<string, string>;
  /** [execution_id, xmin] of the rows of the batch's executions */
  versions: [string, string][];
  /** this transaction's id as a row's xmin shows it */
  xid: string;
  conversations: ConversationExecutionRow[];
  employees: EmployeeRow[];
  /** seqs for every fact of the batch (allocated here only when the batch is assumed new) */
  seqs: string[] | null;
}

/** What a batch touches besides `facts`: the keys of its chains and of the projection rows it may change. */
interface Touched {
  chains: string[];
  executions: string[];
  conversations: string[];
  /** `org/name` of the employee names the batch registers, with the executions and employee ids registering them */
  employees: { keys: string[]; executionIds: string[]; employeeIds: string[] };
  /** employee ids the batch activates or deactivates */
  activations: string[];
  /** idempotency keys of the effects the batch records */
  effects: string[];
  /** orgs whose policy the batch sets */
  policies: string[];
}

function touched(batch: readonly Prepared[]): Touched {
  const keysOf = <S, T extends FactType>(projection: Projection<S, T>) => [
    ...new Set(batch.flatMap((p) => keyIn(projection, p.fact) ?? [])),
  ];
  const registering = batch.filter((p) => keyIn(employees, p.fact) !== null).map((p) => p.fact);
  return {
    chains: [...new Set(batch.map((p) => p.chain))],
    executions: keysOf(executions),
    conversations: keysOf(conversationExecutions),
    employees: {
      keys: keysOf(employees),
      executionIds: registering.flatMap((f) => (f.type === 'ExecutionResult' ? [f.executionId] : [])),
      employeeIds: registering.flatMap((f) =>
        f.type === 'ExecutionResult' && f.output?.employee ? [f.output.employee.employeeId] : [],
      ),
    },
    activations: keysOf(employeeActivations),
    effects: keysOf(executionEffects),
    policies: keysOf(orgPolicies),
  };
}

/**
 * The one read of a transaction, after its locks: the chains' heads, the versions of the execution
 * rows, the conversation rows and the employee versions the batch's facts may change, and — as the
 * batch is checked or assumed new — the ids already stored or the seqs of the whole batch.
 */
function readStatement(tables: ProjectionTables, batch: readonly Prepared[], keys: Touched, checked: boolean) {
  const values: unknown[] = [];
  const param = (value: unknown, type: string): string => {
    values.push(value);
    return `$${values.length}::${type}`;
  };
  const { employees: named } = keys;
  const text = `SELECT
  ${
    checked
      ? `(SELECT coalesce(json_agg(id), '[]') FROM facts WHERE id = ANY(${param(
          batch.map((p) => p.fact.id),
          'uuid[]',
        )}))`
      : 'NULL'
  } AS existing,
  (SELECT coalesce(json_object_agg(k, h), '{}') FROM (
     SELECT k, (SELECT hash FROM facts WHERE chain_key = k ORDER BY seq DESC LIMIT 1) AS h FROM unnest(${param(keys.chains, 'text[]')}) AS k
   ) heads WHERE h IS NOT NULL) AS heads,
  ${
    keys.executions.length > 0
      ? `(SELECT coalesce(json_agg(json_build_array(execution_id, xmin::text)), '[]') FROM ${tables.executions}
     WHERE execution_id = ANY(${param(keys.executions, 'text[]')}))`
      : `'[]'::json`
  } AS versions,
  (txid_current() % 4294967296)::text AS xid,
  ${keys.conversations.length > 0 ? loadSql.conversations(tables, param(keys.conversations, 'text[]')) : `'[]'::json`} AS conversations,
  ${
    named.keys.length > 0
      ? loadSql.registrations(
          tables,
          param(
            named.keys.map((k) => k.slice(0, k.indexOf('/'))), // `org/name`: an org id holds no `/`
            'text[]',
          ),
          param(
            named.keys.map((k) => k.slice(k.indexOf('/') + 1)),
            'text[]',
          ),
          param(named.executionIds, 'text[]'),
          param(named.employeeIds, 'text[]'),
        )
      : `'[]'::json`
  } AS employees,
  ${checked ? 'NULL' : `(SELECT array_agg(nextval('facts_seq_seq')) FROM generate_series(1, ${param(batch.length, 'int')}))`} AS seqs`;
  return { text, values };
}

const ALLOCATE_SEQS = `SELECT array_agg(nextval('facts_seq_seq')) AS seqs FROM generate_series(1, $1::int)`;

const loadExecutions = (t: ProjectionTables) => `SELECT ${loadSql.executions(t, '$1')} AS executions`;

/** The columns of `facts` the projector writes, in order, with their types. */
const FACT_TYPES = {
  seq: 'bigint',
  id: 'uuid',
  topic: 'text',
  type: 'text',
  org_id: 'text',
  execution_id: 'text',
  conversation_id: 'text',
  payload: 'jsonb',
  headers: 'jsonb',
  kafka_partition: 'int',
  kafka_offset: 'bigint',
  ts: 'timestamptz',
  prev_hash: 'text',
  hash: 'text',
} as const;
const FACT_COLUMN_NAMES = Object.keys(FACT_TYPES);
const FACT_IS_JSON = Object.values(FACT_TYPES).map((type) => type === 'jsonb');
const FACT_COLUMNS = FACT_COLUMN_NAMES.join(', ');
const FACT_RECORD = Object.entries(FACT_TYPES)
  .map(([column, type]) => `${column} ${type}`)
  .join(', ');

const COPY_FACTS = `facts (${FACT_COLUMNS})`;

/**
 * Up to this many new facts go into `facts` with the transaction's projection upserts, as one statement;
 * more (a backlog, a redelivered stretch) are streamed by COPY first. A small batch — the usual one once
 * the projector keeps up — then costs one round trip fewer, and none of COPY's own (issue 16).
 */
export const INSERT_FACTS_MAX = 256;

/**
 * Each fact's row, in the order of FACT_TYPES: every value as its text (null for SQL NULL), the JSON
 * columns as JSON text. The one description of a row that both ways in encode. Pure.
 */
function* factRows(
  fresh: readonly Prepared[],
  seqs: readonly number[],
  prev: readonly (string | null)[],
  hashes: readonly string[],
): Generator<(string | null)[]> {
  for (let i = 0; i < fresh.length; i++) {
    const { fact, delivery, canonical, executionId, conversationId } = fresh[i] as Prepared;
    yield [
      String(seqs[i]),
      fact.id,
      delivery.topic,
      fact.type,
      fact.orgId,
      executionId,
      conversationId,
      canonical,
      JSON.stringify(delivery.headers),
      String(delivery.partition),
      delivery.offset,
      isoTime(fact.ts),
      prev[i] ?? null,
      hashes[i] as string,
    ];
  }
}

/**
 * The facts as one data-modifying statement reading one JSON parameter, which it appends to `params`:
 * each fact's canonical JSON goes in as it is, nothing escaped again. No I/O.
 */
export function insertFactsStatement(
  fresh: readonly Prepared[],
  seqs: readonly number[],
  prev: readonly (string | null)[],
  hashes: readonly string[],
  params: unknown[],
): string {
  const objects: string[] = [];
  for (const row of factRows(fresh, seqs, prev, hashes)) {
    const fields = row.map(
      (value, c) => `"${FACT_COLUMN_NAMES[c]}":${value === null ? 'null' : FACT_IS_JSON[c] ? value : JSON.stringify(value)}`,
    );
    objects.push(`{${fields.join(',')}}`);
  }
  params.push(`[${objects.join(',')}]`);
  return `INSERT INTO facts (${FACT_COLUMNS}) SELECT ${FACT_COLUMNS} FROM json_to_recordset($${params.length}::json) AS x(${FACT_RECORD})`;
}

/** The COPY lines of the facts (text format). */
function* factLines(
  fresh: readonly Prepared[],
  seqs: readonly number[],
  prev: readonly (string | null)[],
  hashes: readonly string[],
): Generator<string> {
  for (const row of factRows(fresh, seqs, prev, hashes)) {
    yield `${row.map((value, c) => (value === null ? '\\N' : FACT_IS_JSON[c] ? copyJson(value) : copyText(value))).join('\t')}\n`;
  }
}

// ---------------------------------------------------------------------------------------------

/** Another transaction stored one of the batch's ids: the batch is tried again, checked for stored ids. */
const isStoredId = (error: unknown): boolean =>
  (error as { code?: unknown }).code === '23505' && (error as { constraint?: unknown }).constraint === 'facts_id_key';

/** Postgres refused the data itself (class 22 data exception, 23 integrity): retrying cannot help. */
function classify(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  if (isStoredId(error))
    return new Error(`a fact of the batch was stored meanwhile: ${(error as Error).message}`, { cause: error });
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
export function projectBatch(
  pool: Pool,
  deliveries: readonly Recorded[],
  options: ProjectBatchOptions = {},
): Promise<ProjectResult> {
  return projectPrepared(pool, prepare(deliveries), deliveries.length, options).then(({ result }) => result);
}

/**
 * A batch is first assumed new — the common case: facts are delivered again only after a crash or a
 * rebalance — so the transaction reads no ids and copies every fact; when one was stored already,
 * the unique `id` fails the COPY, and the batch is done again checked: the ids already stored are
 * read under the locks and left out. `checked` starts checked straight away (the projector does after
 * a batch that held stored facts: the ones after it, redelivered too, would fail their COPY as well).
 */
async function projectPrepared(
  pool: Pool,
  batch: readonly Prepared[],
  received: number,
  options: ProjectBatchOptions,
  checked = false,
): Promise<{ result: ProjectResult; checked: boolean }> {
  if (batch.length === 0) return { result: { received, inserted: 0, duplicates: received }, checked };
  if (!checked) {
    try {
      return { result: await store(pool, batch, received, options, false), checked: false };
    } catch (error) {
      if (!isStoredId(error)) throw classify(error);
    }
  }
  try {
    return { result: await store(pool, batch, received, options, true), checked: true };
  } catch (error) {
    throw classify(error);
  }
}

async function store(
  pool: Pool,
  batch: readonly Prepared[],
  received: number,
  options: ProjectBatchOptions,
  checked: boolean,
): Promise<ProjectResult> {
  const { tables = liveTables, cache = new ExecutionCache(0) } = options;
  const keys = touched(batch);
  // an execution's row is locked under its chain's key: one lock
  const lockSet = [
    ...keys.chains,
    ...keys.executions.map((k) => chainKey('', k, null)),
    ...keys.employees.keys.map((k) => `employees/${k}`),
    ...keys.activations.map((k) => `activation/${k}`),
    ...keys.effects.map((k) => `effect/${k}`),
    ...keys.policies.map((k) => `policy/${k}`),
  ];

  let cached: [string, Execution, string][] = [];
  // BEGIN and the locks in one round trip: under load each round trip of the writer also waits its turn
  // on the event loop behind the consumer's work
  const outcome = await withTransaction(
    pool,
    async (client) => {
      const read = readStatement(tables, batch, keys, checked);
      const row = (await client.query<ReadRow>(statementNames.query(read.text, read.values))).rows[0] as ReadRow;
      const existing = new Set((row.existing ?? []).map((id) => id.toLowerCase()));
      const fresh = checked ? batch.filter((p) => !existing.has(p.fact.id.toLowerCase())) : batch;
      if (fresh.length === 0) return { received, inserted: 0, duplicates: received };

      const allocated = row.seqs ?? (await client.query<{ seqs: string[] }>(ALLOCATE_SEQS, [fresh.length])).rows[0]?.seqs ?? [];
      const seqs = allocated.map(Number).sort((x, y) => x - y);
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
      const params: unknown[] = [];
      const statements: string[] = [];
      if (fresh.length <= INSERT_FACTS_MAX) statements.push(insertFactsStatement(fresh, seqs, prev, hashes, params));
      else await copyLines(client, COPY_FACTS, factLines(fresh, seqs, prev, hashes));
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
      // rarer facts: their rows are read only by a batch that holds some
      const activationStates = new Map<string, EmployeeActivation>();
      const effectStates = new Map<string, ExecutionEffect>();
      const policyStates = new Map<string, OrgPolicyState>();
      if (keys.activations.length > 0 || keys.effects.length > 0 || keys.policies.length > 0) {
        const loaded = await client.query<{ activations: ActivationRow[]; effects: EffectRow[]; policies: PolicyRow[] }>(
          `SELECT ${loadSql.activations(tables, '$1')} AS activations, ${loadSql.effects(tables, '$2')} AS effects,
             ${loadSql.policies(tables, '$3')} AS policies`,
          [keys.activations, keys.effects, keys.policies],
        );
        for (const r of loaded.rows[0]?.activations ?? []) activationStates.set(r.employee_id, activationFromRow(r));
        for (const r of loaded.rows[0]?.effects ?? []) effectStates.set(r.idempotency_key, effectFromRow(r));
        for (const r of loaded.rows[0]?.policies ?? []) policyStates.set(r.org_id, policyFromRow(r));
      }
      const changedActivations = fold(employeeActivations, activationStates, folded);
      const changedEffects = fold(executionEffects, effectStates, folded);
      const changedPolicies = fold(orgPolicies, policyStates, folded);

      const newEmployees: Employee[] = [...changedEmployees].flatMap(
        (k) => employeeStates.get(k)?.versions.filter((v) => !known.has(v.employeeId)) ?? [],
      );
      const projected = projectionStatements(
        tables,
        {
          executions: [...changedExecutions].map((k) => executionStates.get(k) as Execution),
          conversations: [...changedConversations].map((k) => conversationStates.get(k) as ConversationExecution),
          employees: newEmployees,
          activations: [...changedActivations].map((k) => activationStates.get(k) as EmployeeActivation),
          effects: [...changedEffects].map((k) => effectStates.get(k) as ExecutionEffect),
          policies: [...changedPolicies].map((k) => policyStates.get(k) as OrgPolicyState),
        },
        params,
      );
      // the facts (when not copied) and the projections' upserts: one statement
      await runAsOne(client, [...statements, ...projected], params);
      // remembered once the transaction has committed: the written rows carry this transaction's id
      const versions = new Map(row.versions);
      cached = [...executionStates].map(([id, state]) => [
        id,
        state,
        changedExecutions.has(id) ? row.xid : (versions.get(id) ?? ''),
      ]);
      return { received, inserted: fresh.length, duplicates: received - fresh.length };
    },
    'READ COMMITTED',
    lockStatement(lockSet),
  );
  for (const [id, state, xmin] of cached) if (xmin !== '') cache.set(id, state, xmin);
  return outcome;
}

/** Partitions whose batches the consumer validates at once. */
export const PROJECTOR_PARTITIONS_CONCURRENTLY = 6;

/**
 * The projector's consumer is pipelined (fact-stream `BatchOptions`): while a transaction runs, the
 * next batches are fetched, validated and prepared, up to this many facts, and they make the next
 * transaction.
 */
export const PROJECTOR_FACTS_IN_FLIGHT = 20_000;

/**
 * After a fetch that brought facts, the projector's consumer waits this long before fetching again
 * (fact-stream `fetchLingerMs`). Under load each fetch then lists every topic's partitions once for
 * what several would have brought, and its batches make one transaction instead of several; a quiet
 * stream is still read at once. The projections trail by up to this much more under a steady load
 * (docs/decisions.md, 2026-11-25).
 */
export const PROJECTOR_FETCH_LINGER_MS = 50;

interface Waiting {
  batch: readonly Prepared[];
  received: number;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export interface ProjectorOptions {
  /** at most this many facts in one transaction (a batch's part is never split) */
  maxFacts?: number;
}

/**
 * The event-store's batch handler: one writer, one transaction at a time, with group commit —
 * whatever batches arrive while a transaction runs are prepared at once (canonical JSON, chains) and
 * written together by the next one. A call returns once the transaction holding its facts has
 * committed, so the consumer commits the batch's offsets only then. When a shared transaction fails,
 * each batch in it is tried on its own, so that a failure is reported only for the batch that caused
 * it (the consumer then retries it, whose stored facts are duplicates by then, or takes it fact by fact).
 */
export function createProjector(
  pool: Pool,
  log: Logger,
  options: ProjectorOptions = {},
): (deliveries: readonly Recorded[]) => Promise<void> {
  const maxFacts = options.maxFacts ?? 10_000;
  const cache = new ExecutionCache();
  let check = false;
  const queue: Waiting[] = [];
  let draining = false;

  const write = async (group: readonly Waiting[]): Promise<void> => {
    const started = performance.now();
    const batch = group.length === 1 ? (group[0] as Waiting).batch : dedupe(group.flatMap((w) => w.batch));
    const received = group.reduce((n, w) => n + w.received, 0);
    const outcome = await projectPrepared(pool, batch, received, { cache }, check);
    // checked, and some facts were stored already: a redelivery, the next batches are likely stored too
    check = outcome.checked && outcome.result.inserted < batch.length;
    log.debug({ ...outcome.result, parts: group.length, ms: Math.round(performance.now() - started) }, 'projected');
  };

  const drain = async (): Promise<void> => {
    while (queue.length > 0) {
      const group: Waiting[] = [];
      let facts = 0;
      while (queue.length > 0 && (group.length === 0 || facts + (queue[0]?.batch.length ?? 0) <= maxFacts)) {
        const next = queue.shift() as Waiting;
        facts += next.batch.length;
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

  // batches are prepared one after the other, so that they are written in the order they came in
  let preparing: Promise<unknown> = Promise.resolve();
  return async (deliveries) => {
    const prepared = preparing.then(() => prepareInSlices(deliveries));
    preparing = prepared.catch(() => {});
    const batch = await prepared;
    await new Promise<void>((resolve, reject) => {
      queue.push({ batch, received: deliveries.length, resolve, reject });
      // the other batches of the same fetch, prepared meanwhile, mostly join this transaction
      if (!draining) {
        draining = true;
        setImmediate(() => void drain());
      }
    });
  };
}

/**
 * A batch prepared a slice at a time, letting the event loop run in between: the transaction in flight
 * goes on as soon as Postgres answers instead of waiting for the whole batch.
 */
async function prepareInSlices(deliveries: readonly Recorded[]): Promise<Prepared[]> {
  const parts: Prepared[][] = [];
  for (let i = 0; i < deliveries.length; i += PREPARE_SLICE) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve));
    parts.push(prepare(deliveries.slice(i, i + PREPARE_SLICE)));
  }
  return parts.length === 1 ? (parts[0] as Prepared[]) : dedupe(parts.flat());
}

/** Facts prepared between two turns of the event loop. */
const PREPARE_SLICE = 250;

/** Prepared facts, each fact once (the first of each id; Postgres' uuid is case-blind). */
function dedupe(batch: readonly Prepared[]): Prepared[] {
  const seen = new Set<string>();
  return batch.filter((p) => {
    const id = p.fact.id.toLowerCase();
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  });
}
