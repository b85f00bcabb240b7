import { type PoolClient, statementNames } from '@hireloop/platform';
import type { Effect, HILPrompt, OrgPolicy, WorkflowActivation } from '@hireloop/schemas';
import { copyJson, copyLines, copyText } from './copy';
import {
  type ConversationExecution,
  type Employee,
  type EmployeeActivation,
  type EmployeeHistory,
  type Execution,
  type ExecutionEffect,
  type ExecutionError,
  type ExecutionOutput,
  type ExecutionStatus,
  employeeKey,
  isoTime,
  type OrgPolicyState,
} from './projections';

/**
 * The projections' rows in Postgres: the live tables, or the fresh ones a replay builds. Rows are
 * read as one JSON array per table and written with one parameter per column, so that a batch of any
 * size is one round trip.
 */

export interface ProjectionTables {
  executions: string;
  conversationExecutions: string;
  employees: string;
  activations: string;
  effects: string;
  policies: string;
}

export const liveTables: ProjectionTables = {
  executions: 'executions',
  conversationExecutions: 'conversation_executions',
  employees: 'employees',
  activations: 'employee_activations',
  effects: 'execution_effects',
  policies: 'org_policies',
};

/** Rows as they come out of `json_agg` (snake_case, timestamps as ISO strings with an offset). */
export interface ExecutionRow {
  execution_id: string;
  org_id: string;
  owner_user_id: string | null;
  conversation_id: string | null;
  employee_id: string | null;
  trigger_id: string | null;
  workflow_id: string | null;
  status: ExecutionStatus;
  current_prompt: HILPrompt | null;
  progress: number | null;
  phase: string | null;
  result: ExecutionOutput | null;
  error: ExecutionError | null;
  created_at: string;
  updated_at: string;
  last_seq: number;
  prompt_ids: string[];
  early_answers: string[];
  progress_at: string | null;
  queue_ticket: number | null;
}

export interface ConversationExecutionRow {
  execution_id: string;
  conversation_id: string;
  org_id: string;
  user_id: string | null;
}

export interface EmployeeRow {
  employee_id: string;
  org_id: string;
  name: string;
  version: number;
  spec: Employee['spec'];
  execution_id: string;
  registered_at: string;
}

export interface ActivationRow {
  employee_id: string;
  org_id: string;
  version: number;
  status: EmployeeActivation['status'];
  activation_id: string | null;
  workflows: WorkflowActivation[];
  updated_at: string;
  last_seq: number;
}

export interface EffectRow {
  idempotency_key: string;
  execution_id: string;
  org_id: string;
  step_id: string;
  capability_id: string;
  args: Effect['args'];
  status: Effect['status'];
  output: Effect['output'] | null;
  error: Effect['error'] | null;
  at: string;
  first_seq: number;
  last_seq: number;
}

export interface PolicyRow {
  org_id: string;
  policy: OrgPolicy;
  changed_by: string;
  updated_at: string;
  last_seq: number;
}

const EXECUTION_COLUMNS = `execution_id, org_id, owner_user_id, conversation_id, employee_id, trigger_id, workflow_id, status,
  current_prompt, progress, phase, result, error, created_at, updated_at, last_seq, prompt_ids, early_answers, progress_at, queue_ticket`;
const CONVERSATION_COLUMNS = 'execution_id, conversation_id, org_id, user_id';
const EMPLOYEE_COLUMNS = 'employee_id, org_id, name, version, spec, execution_id, registered_at';

/** A column's SQL type; `json` columns travel as one JSON array, the others as a Postgres array. */
type ColumnTypes<R> = { [K in keyof R]: string };

const EXECUTION_TYPES: ColumnTypes<ExecutionRow> = {
  execution_id: 'text',
  org_id: 'text',
  owner_user_id: 'text',
  conversation_id: 'text',
  employee_id: 'text',
  trigger_id: 'text',
  workflow_id: 'text',
  status: 'text',
  current_prompt: 'json',
  progress: 'float8',
  phase: 'text',
  result: 'json',
  error: 'json',
  created_at: 'timestamptz',
  updated_at: 'timestamptz',
  last_seq: 'bigint',
  prompt_ids: 'json',
  early_answers: 'json',
  progress_at: 'timestamptz',
  queue_ticket: 'int',
};
const CONVERSATION_TYPES: ColumnTypes<ConversationExecutionRow> = {
  execution_id: 'text',
  conversation_id: 'text',
  org_id: 'text',
  user_id: 'text',
};
const EMPLOYEE_TYPES: ColumnTypes<EmployeeRow> = {
  employee_id: 'text',
  org_id: 'text',
  name: 'text',
  version: 'int',
  spec: 'json',
  execution_id: 'text',
  registered_at: 'timestamptz',
};

const ACTIVATION_TYPES: ColumnTypes<ActivationRow> = {
  employee_id: 'text',
  org_id: 'text',
  version: 'int',
  status: 'text',
  activation_id: 'text',
  workflows: 'json',
  updated_at: 'timestamptz',
  last_seq: 'bigint',
};
const EFFECT_TYPES: ColumnTypes<EffectRow> = {
  idempotency_key: 'text',
  execution_id: 'text',
  org_id: 'text',
  step_id: 'text',
  capability_id: 'text',
  args: 'json',
  status: 'text',
  output: 'json',
  error: 'json',
  at: 'timestamptz',
  first_seq: 'bigint',
  last_seq: 'bigint',
};
const POLICY_TYPES: ColumnTypes<PolicyRow> = {
  org_id: 'text',
  policy: 'json',
  changed_by: 'text',
  updated_at: 'timestamptz',
  last_seq: 'bigint',
};
const ACTIVATION_COLUMNS = Object.keys(ACTIVATION_TYPES).join(', ');
export const POLICY_COLUMNS = Object.keys(POLICY_TYPES).join(', ');
export const EFFECT_COLUMNS = Object.keys(EFFECT_TYPES).join(', ');

/**
 * `INSERT INTO table … SELECT … FROM ROWS FROM (unnest($1::text[]), json_array_elements($2::json), …)`:
 * one parameter per column whatever the number of rows. A JSON column's values travel as one JSON
 * array (nothing to escape, each value parsed once by Postgres; JSON null becomes SQL NULL).
 */
function bulkInsert<R extends object>(table: string, types: ColumnTypes<R>, rows: readonly R[], params: unknown[]): string {
  const columns = Object.keys(types) as (keyof R & string)[];
  const sources = columns.map((c) => {
    const values = rows.map((r) => r[c]);
    params.push(types[c] === 'json' ? JSON.stringify(values) : values);
    return types[c] === 'json' ? `json_array_elements($${params.length}::json)` : `unnest($${params.length}::${types[c]}[])`;
  });
  const select = columns.map((c) => (types[c] === 'json' ? `nullif(${c}::text, 'null')::jsonb` : c));
  return `INSERT INTO ${table} (${columns.join(', ')}) SELECT ${select.join(', ')} FROM ROWS FROM (${sources.join(', ')}) AS x(${columns.join(', ')})`;
}

const updateAll = (columns: string, key: string): string =>
  columns
    .split(',')
    .map((c) => c.trim())
    .filter((c) => c !== key)
    .map((c) => `${c} = EXCLUDED.${c}`)
    .join(', ');

export const executionToRow = (e: Execution): ExecutionRow => ({
  execution_id: e.executionId,
  org_id: e.orgId,
  owner_user_id: e.ownerUserId,
  conversation_id: e.conversationId,
  employee_id: e.employeeId,
  trigger_id: e.triggerId,
  workflow_id: e.workflowId,
  status: e.status,
  current_prompt: e.currentPrompt,
  progress: e.progress,
  phase: e.phase,
  result: e.result,
  error: e.error,
  created_at: e.createdAt,
  updated_at: e.updatedAt,
  last_seq: e.lastSeq,
  prompt_ids: e.promptIds,
  early_answers: e.earlyAnswers,
  progress_at: e.progressAt,
  queue_ticket: e.queueTicket,
});

export const executionFromRow = (r: ExecutionRow): Execution => ({
  executionId: r.execution_id,
  orgId: r.org_id,
  ownerUserId: r.owner_user_id,
  conversationId: r.conversation_id,
  employeeId: r.employee_id,
  triggerId: r.trigger_id,
  workflowId: r.workflow_id,
  status: r.status,
  currentPrompt: r.current_prompt,
  progress: r.progress,
  phase: r.phase,
  result: r.result,
  error: r.error,
  createdAt: isoTime(r.created_at),
  updatedAt: isoTime(r.updated_at),
  lastSeq: Number(r.last_seq),
  promptIds: r.prompt_ids,
  earlyAnswers: r.early_answers,
  progressAt: r.progress_at === null ? null : isoTime(r.progress_at),
  queueTicket: r.queue_ticket === null || r.queue_ticket === undefined ? null : Number(r.queue_ticket),
});

export const conversationToRow = (c: ConversationExecution): ConversationExecutionRow => ({
  execution_id: c.executionId,
  conversation_id: c.conversationId,
  org_id: c.orgId,
  user_id: c.userId,
});

export const conversationFromRow = (r: ConversationExecutionRow): ConversationExecution => ({
  executionId: r.execution_id,
  conversationId: r.conversation_id,
  orgId: r.org_id,
  userId: r.user_id,
});

export const employeeToRow = (e: Employee): EmployeeRow => ({
  employee_id: e.employeeId,
  org_id: e.orgId,
  name: e.name,
  version: e.version,
  spec: e.spec,
  execution_id: e.executionId,
  registered_at: e.registeredAt,
});

export const employeeFromRow = (r: EmployeeRow): Employee => ({
  employeeId: r.employee_id,
  orgId: r.org_id,
  name: r.name,
  version: r.version,
  spec: r.spec,
  executionId: r.execution_id,
  registeredAt: isoTime(r.registered_at),
});

export const activationToRow = (a: EmployeeActivation): ActivationRow => ({
  employee_id: a.employeeId,
  org_id: a.orgId,
  version: a.version,
  status: a.status,
  activation_id: a.activationId,
  workflows: a.workflows,
  updated_at: a.updatedAt,
  last_seq: a.lastSeq,
});

export const activationFromRow = (r: ActivationRow): EmployeeActivation => ({
  employeeId: r.employee_id,
  orgId: r.org_id,
  version: r.version,
  status: r.status,
  activationId: r.activation_id,
  workflows: r.workflows,
  updatedAt: isoTime(r.updated_at),
  lastSeq: Number(r.last_seq),
});

export const effectToRow = (e: ExecutionEffect): EffectRow => ({
  idempotency_key: e.idempotencyKey,
  execution_id: e.executionId,
  org_id: e.orgId,
  step_id: e.stepId,
  capability_id: e.capabilityId,
  args: e.args,
  status: e.status,
  output: e.output ?? null,
  error: e.error ?? null,
  at: e.at,
  first_seq: e.firstSeq,
  last_seq: e.lastSeq,
});

export const effectFromRow = (r: EffectRow): ExecutionEffect => ({
  idempotencyKey: r.idempotency_key,
  executionId: r.execution_id,
  orgId: r.org_id,
  stepId: r.step_id,
  capabilityId: r.capability_id,
  args: r.args,
  status: r.status,
  ...(r.output !== null ? { output: r.output } : {}),
  ...(r.error !== null ? { error: r.error } : {}),
  at: isoTime(r.at),
  firstSeq: Number(r.first_seq),
  lastSeq: Number(r.last_seq),
});

export const policyToRow = (p: OrgPolicyState): PolicyRow => ({
  org_id: p.orgId,
  policy: p.policy,
  changed_by: p.changedBy,
  updated_at: p.updatedAt,
  last_seq: p.lastSeq,
});

/** Also the read side's (read.ts): `updated_at` may come as a Date from a plain query or a string from `json_agg`. */
export const policyFromRow = (r: Omit<PolicyRow, 'updated_at'> & { updated_at: string | Date }): OrgPolicyState => ({
  orgId: r.org_id,
  policy: r.policy,
  changedBy: r.changed_by,
  updatedAt: isoTime(r.updated_at instanceof Date ? r.updated_at.toISOString() : r.updated_at),
  lastSeq: Number(r.last_seq),
});

/**
 * Groups employee rows (oldest version first) into the histories the employees projection folds — the
 * whole histories for a rebuild, the part `loadSql.registrations` reads for the projector.
 */
export function employeeHistories(rows: readonly EmployeeRow[]): Map<string, EmployeeHistory> {
  const histories = new Map<string, EmployeeHistory>();
  for (const row of [...rows].sort((a, b) => a.version - b.version)) {
    const key = employeeKey(row.org_id, row.name);
    const history = histories.get(key) ?? { orgId: row.org_id, name: row.name, versions: [] };
    history.versions.push(employeeFromRow(row));
    histories.set(key, history);
  }
  return histories;
}

/** SQL fragments selecting the current rows of some keys as JSON arrays, for the projector's one read. */
export const loadSql = {
  executions: (t: ProjectionTables, param: string) =>
    `(SELECT coalesce(json_agg(x), '[]') FROM (SELECT ${EXECUTION_COLUMNS} FROM ${t.executions} WHERE execution_id = ANY(${param}::text[])) x)`,
  conversations: (t: ProjectionTables, param: string) =>
    `(SELECT coalesce(json_agg(x), '[]') FROM (SELECT ${CONVERSATION_COLUMNS} FROM ${t.conversationExecutions} WHERE execution_id = ANY(${param}::text[])) x)`,
  activations: (t: ProjectionTables, param: string) =>
    `(SELECT coalesce(json_agg(x), '[]') FROM (SELECT ${ACTIVATION_COLUMNS} FROM ${t.activations} WHERE employee_id = ANY(${param}::text[])) x)`,
  effects: (t: ProjectionTables, param: string) =>
    `(SELECT coalesce(json_agg(x), '[]') FROM (SELECT ${EFFECT_COLUMNS} FROM ${t.effects} WHERE idempotency_key = ANY(${param}::text[])) x)`,
  policies: (t: ProjectionTables, param: string) =>
    `(SELECT coalesce(json_agg(x), '[]') FROM (SELECT ${POLICY_COLUMNS} FROM ${t.policies} WHERE org_id = ANY(${param}::text[])) x)`,
  /**
   * What the employees fold needs of the histories of some (org, name) — `orgs` and `names` pair up —
   * to register versions by some executions and employee ids: the latest version of each name, and
   * the versions those executions or employee ids registered already. Nothing else of a history
   * changes the fold's result, and each part is found through an index (the latest by the name's
   * versions, the others by `employee_id` and `execution_id`): what is read stays bounded however
   * many versions a name has.
   */
  registrations: (t: ProjectionTables, orgs: string, names: string, executionIds: string, employeeIds: string) =>
    `(SELECT coalesce(json_agg(x), '[]') FROM (
      SELECT ${EMPLOYEE_COLUMNS} FROM ${t.employees}
       WHERE employee_id IN (
         SELECT employee_id FROM ${t.employees}
          WHERE (execution_id = ANY(${executionIds}) OR employee_id = ANY(${employeeIds}))
            AND (org_id, name) IN (SELECT * FROM unnest(${orgs}, ${names}))
         UNION
         SELECT (SELECT m.employee_id FROM ${t.employees} m WHERE m.org_id = p.org_id AND m.name = p.name ORDER BY m.version DESC LIMIT 1)
           FROM unnest(${orgs}, ${names}) AS p(org_id, name))) x)`,
};

export interface ProjectionWrites {
  /** rows to insert or replace */
  executions: readonly Execution[];
  conversations: readonly ConversationExecution[];
  /** versions not in the table yet */
  employees: readonly Employee[];
  /** rows to insert or replace (absent: none) */
  activations?: readonly EmployeeActivation[];
  effects?: readonly ExecutionEffect[];
  policies?: readonly OrgPolicyState[];
}

/** A row as a COPY text line, its columns in the order of `types`. */
function copyLine<R extends object>(types: ColumnTypes<R>, row: R): string {
  const values: string[] = [];
  for (const column of Object.keys(types) as (keyof R & string)[]) {
    const value: unknown = row[column];
    values.push(
      value === null || value === undefined
        ? '\\N'
        : types[column] === 'json'
          ? copyJson(JSON.stringify(value))
          : copyText(String(value)),
    );
  }
  return `${values.join('\t')}\n`;
}

function* copyRows<R extends object, S>(types: ColumnTypes<R>, items: Iterable<S>, toRow: (item: S) => R): Generator<string> {
  for (const item of items) yield copyLine(types, toRow(item));
}

const columnList = (types: object): string => `(${Object.keys(types).join(', ')})`;

/**
 * Writes rows into empty projection tables — a rebuild's — with one COPY per table. An employee id
 * registered under two names keeps its first registration, as `writeProjections` does.
 */
export async function copyProjections(client: PoolClient, tables: ProjectionTables, writes: ProjectionWrites): Promise<void> {
  const seen = new Set<string>();
  const employees = writes.employees.filter((e) => !seen.has(e.employeeId) && seen.add(e.employeeId));
  await copyLines(
    client,
    `${tables.executions} ${columnList(EXECUTION_TYPES)}`,
    copyRows(EXECUTION_TYPES, writes.executions, executionToRow),
  );
  await copyLines(
    client,
    `${tables.conversationExecutions} ${columnList(CONVERSATION_TYPES)}`,
    copyRows(CONVERSATION_TYPES, writes.conversations, conversationToRow),
  );
  await copyLines(
    client,
    `${tables.employees} ${columnList(EMPLOYEE_TYPES)}`,
    copyRows(EMPLOYEE_TYPES, employees, employeeToRow),
  );
  await copyLines(
    client,
    `${tables.activations} ${columnList(ACTIVATION_TYPES)}`,
    copyRows(ACTIVATION_TYPES, writes.activations ?? [], activationToRow),
  );
  await copyLines(
    client,
    `${tables.effects} ${columnList(EFFECT_TYPES)}`,
    copyRows(EFFECT_TYPES, writes.effects ?? [], effectToRow),
  );
  await copyLines(
    client,
    `${tables.policies} ${columnList(POLICY_TYPES)}`,
    copyRows(POLICY_TYPES, writes.policies ?? [], policyToRow),
  );
}

/** Writes projection rows in one statement (up to six inserts). */
export async function writeProjections(client: PoolClient, tables: ProjectionTables, writes: ProjectionWrites): Promise<void> {
  const params: unknown[] = [];
  await runAsOne(client, projectionStatements(tables, writes, params), params);
}

/** The upserts of `writes`, each a data-modifying statement whose parameters are appended to `params`. */
export function projectionStatements(tables: ProjectionTables, writes: ProjectionWrites, params: unknown[]): string[] {
  const parts: string[] = [];
  if (writes.executions.length > 0) {
    const insert = bulkInsert(tables.executions, EXECUTION_TYPES, writes.executions.map(executionToRow), params);
    parts.push(`${insert} ON CONFLICT (execution_id) DO UPDATE SET ${updateAll(EXECUTION_COLUMNS, 'execution_id')}`);
  }
  if (writes.conversations.length > 0) {
    const insert = bulkInsert(
      tables.conversationExecutions,
      CONVERSATION_TYPES,
      writes.conversations.map(conversationToRow),
      params,
    );
    parts.push(`${insert} ON CONFLICT (execution_id) DO UPDATE SET ${updateAll(CONVERSATION_COLUMNS, 'execution_id')}`);
  }
  if (writes.employees.length > 0) {
    // an employee id registered under two names keeps its first registration (see decisions.md)
    parts.push(
      `${bulkInsert(tables.employees, EMPLOYEE_TYPES, writes.employees.map(employeeToRow), params)} ON CONFLICT DO NOTHING`,
    );
  }
  if (writes.activations && writes.activations.length > 0) {
    const insert = bulkInsert(tables.activations, ACTIVATION_TYPES, writes.activations.map(activationToRow), params);
    parts.push(`${insert} ON CONFLICT (employee_id) DO UPDATE SET ${updateAll(ACTIVATION_COLUMNS, 'employee_id')}`);
  }
  if (writes.effects && writes.effects.length > 0) {
    const insert = bulkInsert(tables.effects, EFFECT_TYPES, writes.effects.map(effectToRow), params);
    parts.push(`${insert} ON CONFLICT (idempotency_key) DO UPDATE SET ${updateAll(EFFECT_COLUMNS, 'idempotency_key')}`);
  }
  if (writes.policies && writes.policies.length > 0) {
    const insert = bulkInsert(tables.policies, POLICY_TYPES, writes.policies.map(policyToRow), params);
    parts.push(`${insert} ON CONFLICT (org_id) DO UPDATE SET ${updateAll(POLICY_COLUMNS, 'org_id')}`);
  }
  return parts;
}

/**
 * Data-modifying statements run as one (all but the last as CTEs): one round trip, and all of them or
 * none. Pure.
 */
function asOneStatement(parts: readonly string[]): string | null {
  if (parts.length <= 1) return parts[0] ?? null;
  return `WITH ${parts
    .slice(0, -1)
    .map((p, i) => `w${i} AS (${p})`)
    .join(', ')} ${parts.at(-1)}`;
}

/** Runs `parts` as one statement (`asOneStatement`), prepared on its connection; nothing when there are none. */
export async function runAsOne(client: PoolClient, parts: readonly string[], params: unknown[]): Promise<void> {
  const sql = asOneStatement(parts);
  if (sql !== null) await client.query(statementNames.query(sql, params));
}
