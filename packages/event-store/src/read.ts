import { type Pool, statementNames } from '@hireloop/platform';
import {
  type AnyFact,
  AnyFactSchema,
  Effect,
  EmployeeGraphSpec,
  ExecutionProjectionStatuses,
  ExecutionResult,
  firstUnits,
  HILPrompt,
  type OrgPolicyView,
  WorkflowActivation,
} from '@hireloop/schemas';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import type { ExecutionStatus } from './projections';
import { EFFECT_COLUMNS, type EffectRow, effectFromRow, POLICY_COLUMNS, type PolicyRow, policyFromRow } from './tables';
import { summarize, whoOf } from './timeline';

/**
 * The read side other services use (the gateway's GET routes): every function is scoped to one
 * org, and another org's execution or employee reads as absent. The response shapes are TypeBox
 * schemas so that the gateway can declare them on its routes and in its OpenAPI document.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: 'date-time' });

export const ExecutionStatusSchema = Type.Union(ExecutionProjectionStatuses.map((s) => Type.Literal(s)));

export const ExecutionView = Type.Object(
  {
    executionId: Type.String(),
    orgId: Type.String(),
    ownerUserId: Nullable(Type.String()),
    conversationId: Nullable(Type.String()),
    employeeId: Nullable(Type.String()),
    triggerId: Nullable(Type.String()),
    /** the employee's workflow a run runs; null for a creation */
    workflowId: Nullable(Type.String()),
    status: ExecutionStatusSchema,
    currentPrompt: Nullable(HILPrompt),
    progress: Nullable(Type.Number()),
    phase: Nullable(Type.String()),
    result: Nullable(ExecutionResult.properties.output),
    error: Nullable(ExecutionResult.properties.error),
    createdAt: Time,
    updatedAt: Time,
    lastSeq: Type.Integer(),
    /** the owner of the registered employee this execution runs (the owner of its creation), if it runs one */
    employeeOwnerUserId: Nullable(Type.String()),
    position: Nullable(Type.Integer({ minimum: 1, description: "queued: its place in its organisation's queue (1 = next)" })),
  },
  { description: 'an execution as the executions projection holds it' },
);
export type ExecutionView = Static<typeof ExecutionView>;

export const TimelineEntry = Type.Object(
  {
    seq: Type.Integer(),
    id: Type.String({ format: 'uuid' }),
    ts: Time,
    topic: Type.String(),
    type: Type.String(),
    who: Type.String({ description: 'the user who acted, or the service that produced the fact' }),
    summary: Type.String(),
    fact: Type.Unsafe<AnyFact>(AnyFactSchema),
  },
  { description: 'one fact of an execution, from the event store' },
);
export type TimelineEntry = Static<typeof TimelineEntry>;

export const PendingPrompt = Type.Object(
  {
    executionId: Type.String(),
    conversationId: Type.String(),
    ownerUserId: Nullable(Type.String()),
    prompt: HILPrompt,
  },
  { description: 'a prompt that waits for its answer' },
);
export type PendingPrompt = Static<typeof PendingPrompt>;

export const EmployeeSummary = Type.Object(
  {
    employeeId: Type.String(),
    orgId: Type.String(),
    name: Type.String(),
    version: Type.Integer({ minimum: 1 }),
    executionId: Type.String(),
    registeredAt: Time,
    /** who owns it: the owner of the creation that registered it */
    ownerUserId: Nullable(Type.String()),
    /** inactive until activated */
    status: Type.Union([Type.Literal('active'), Type.Literal('inactive')]),
    /** the latest activation's id (webhook secrets derive from it), or null */
    activationId: Nullable(Type.String()),
    /** per workflow: on or off with the reason, as the latest activation decided; empty before one */
    workflows: Type.Array(WorkflowActivation),
  },
  { description: 'a registered employee version' },
);
export type EmployeeSummary = Static<typeof EmployeeSummary>;

export const EmployeeView = Type.Composite([EmployeeSummary, Type.Object({ spec: EmployeeGraphSpec })], {
  description: 'a registered employee version with its spec',
});
export type EmployeeView = Static<typeof EmployeeView>;

const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();

/**
 * The position of a queued execution is counted when read (the queue moves with every start): one
 * plus the executions of its org queued with an earlier ticket of the supervisor's. The employee
 * owner: who owns the creation that registered the employee the execution runs, if it runs one.
 */
const EXECUTION_SELECT = `SELECT x.execution_id, x.org_id, x.owner_user_id, x.conversation_id, x.employee_id, x.trigger_id,
  x.workflow_id, x.status, x.current_prompt, x.progress, x.phase, x.result, x.error, x.created_at, x.updated_at, x.last_seq,
  CASE WHEN x.status = 'queued' AND x.queue_ticket IS NOT NULL THEN 1 + (
    SELECT count(*) FROM executions q WHERE q.org_id = x.org_id AND q.status = 'queued' AND q.queue_ticket < x.queue_ticket
  ) END AS position,
  (SELECT c.owner_user_id FROM employees m JOIN executions c ON c.execution_id = m.execution_id
    WHERE m.employee_id = x.employee_id AND m.org_id = x.org_id) AS employee_owner_user_id
  FROM executions x`;

interface ExecutionRecord {
  execution_id: string;
  org_id: string;
  owner_user_id: string | null;
  conversation_id: string | null;
  employee_id: string | null;
  trigger_id: string | null;
  workflow_id: string | null;
  status: ExecutionView['status'];
  current_prompt: ExecutionView['currentPrompt'];
  progress: number | null;
  phase: string | null;
  result: ExecutionView['result'];
  error: ExecutionView['error'];
  created_at: Date;
  updated_at: Date;
  last_seq: string;
  employee_owner_user_id: string | null;
  position: string | null;
}

const executionView = (r: ExecutionRecord): ExecutionView => ({
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
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  lastSeq: Number(r.last_seq),
  employeeOwnerUserId: r.employee_owner_user_id,
  position: r.position === null ? null : Number(r.position),
});

export async function getExecution(pool: Pool, orgId: string, executionId: string): Promise<ExecutionView | null> {
  // read for every answer (the gateway's checks): prepared once per connection
  const { rows } = await pool.query<ExecutionRecord>(
    statementNames.query(`${EXECUTION_SELECT} WHERE x.org_id = $1 AND x.execution_id = $2`, [orgId, executionId]),
  );
  return rows[0] ? executionView(rows[0]) : null;
}

export interface ListExecutionsOptions {
  conversationId?: string;
  /** the runs of one employee */
  employeeId?: string;
  /** only executions waiting on a prompt */
  waiting?: boolean;
  /** only executions whose status is this one */
  status?: ExecutionStatus;
  /**
   * only what this user may answer: their own executions and the runs of employees they own, and
   * every run of a registered employee of the org when they are an admin
   */
  answerableBy?: { userId: string; admin: boolean };
  /** newest first; default 100, at most 1000 */
  limit?: number;
  /** only those listed after this execution (a page's last), newest first: the next page */
  after?: string;
}

/**
 * Who owns the executions of a conversation in an org, each owner once (null: an execution nobody owns):
 * all that decides whether a user may use the conversation, read without the rest of each execution.
 */
export async function conversationOwners(pool: Pool, orgId: string, conversationId: string): Promise<(string | null)[]> {
  const { rows } = await pool.query<{ owner_user_id: string | null }>(
    statementNames.query('SELECT DISTINCT owner_user_id FROM executions WHERE org_id = $1 AND conversation_id = $2', [
      orgId,
      conversationId,
    ]),
  );
  return rows.map((r) => r.owner_user_id);
}

export async function listExecutions(pool: Pool, orgId: string, options: ListExecutionsOptions = {}): Promise<ExecutionView[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000);
  const who = options.answerableBy;
  const { rows } = await pool.query<ExecutionRecord>(
    `SELECT * FROM (${EXECUTION_SELECT}
       WHERE x.org_id = $1 AND ($2::text IS NULL OR x.conversation_id = $2) AND ($3::text IS NULL OR x.employee_id = $3)
         AND (NOT $4::bool OR (x.status = 'waiting' AND x.current_prompt IS NOT NULL))
         AND ($8::text IS NULL OR x.status = $8)) v
     WHERE ($5::text IS NULL OR v.owner_user_id = $5 OR v.employee_owner_user_id = $5
        OR ($6::bool AND v.employee_owner_user_id IS NOT NULL))
       AND ($9::text IS NULL OR EXISTS (SELECT 1 FROM executions c WHERE c.org_id = $1 AND c.execution_id = $9
             AND (v.created_at < c.created_at OR (v.created_at = c.created_at AND v.execution_id > c.execution_id))))
     ORDER BY v.created_at DESC, v.execution_id LIMIT $7`,
    [
      orgId,
      options.conversationId ?? null,
      options.employeeId ?? null,
      options.waiting ?? false,
      who?.userId ?? null,
      who?.admin ?? false,
      limit,
      options.status ?? null,
      options.after ?? null,
    ],
  );
  return rows.map(executionView);
}

interface FactRecord {
  seq: string;
  id: string;
  ts: Date;
  topic: string;
  type: string;
  payload: AnyFact;
}

export const timelineEntry = (r: FactRecord): TimelineEntry => ({
  seq: Number(r.seq),
  id: r.id,
  ts: iso(r.ts),
  topic: r.topic,
  type: r.type,
  who: whoOf(r.payload),
  summary: summarize(r.payload),
  fact: r.payload,
});

/** Every fact of one of the org's executions, by time (`ts`, then the order recorded); empty when none. */
export async function getTimeline(pool: Pool, orgId: string, executionId: string): Promise<TimelineEntry[]> {
  const { rows } = await pool.query<FactRecord>(
    `SELECT seq, id, ts, topic, type, payload FROM facts WHERE chain_key = 'execution/' || $2 AND org_id = $1 ORDER BY ts, seq`,
    [orgId, executionId],
  );
  return rows.map(timelineEntry);
}

/** The prompts of a conversation that wait for an answer, newest first. */
export async function pendingPrompts(pool: Pool, orgId: string, conversationId: string): Promise<PendingPrompt[]> {
  const { rows } = await pool.query<{
    execution_id: string;
    conversation_id: string;
    owner_user_id: string | null;
    current_prompt: PendingPrompt['prompt'];
  }>(
    statementNames.query(
      `SELECT execution_id, conversation_id, owner_user_id, current_prompt FROM executions
     WHERE org_id = $1 AND conversation_id = $2 AND status = 'waiting' AND current_prompt IS NOT NULL
     ORDER BY updated_at DESC, execution_id`,
      [orgId, conversationId],
    ),
  );
  return rows.map((r) => ({
    executionId: r.execution_id,
    conversationId: r.conversation_id,
    ownerUserId: r.owner_user_id,
    prompt: r.current_prompt,
  }));
}

/** The newest prompt of a conversation that waits for an answer (what a reconnecting client is shown again). */
export async function pendingPrompt(pool: Pool, orgId: string, conversationId: string): Promise<PendingPrompt | null> {
  return (await pendingPrompts(pool, orgId, conversationId))[0] ?? null;
}

interface EmployeeRecord {
  employee_id: string;
  org_id: string;
  name: string;
  version: number;
  execution_id: string;
  registered_at: Date;
  owner_user_id: string | null;
  status: 'active' | 'inactive' | null;
  activation_id: string | null;
  workflows: EmployeeSummary['workflows'] | null;
  spec?: EmployeeView['spec'];
}

const employeeSummary = (r: EmployeeRecord): EmployeeSummary => ({
  employeeId: r.employee_id,
  orgId: r.org_id,
  name: r.name,
  version: r.version,
  executionId: r.execution_id,
  registeredAt: iso(r.registered_at),
  ownerUserId: r.owner_user_id,
  status: r.status ?? 'inactive',
  activationId: r.activation_id,
  // an inactive employee runs none of its workflows, whatever its last activation left on
  workflows:
    r.status === 'active'
      ? (r.workflows ?? [])
      : (r.workflows ?? []).map((w) => ({
          ...w,
          status: 'off' as const,
          // (and why it was off before, if it was: "waiting for stripe to be connected")
          reason: firstUnits(
            `the employee is inactive: activate it to run this${w.status === 'off' && w.reason ? `; ${w.reason}` : ''}`,
            500,
          ),
        })),
});

const EMPLOYEE_SELECT = `SELECT e.employee_id, e.org_id, e.name, e.version, e.execution_id, e.registered_at,
  c.owner_user_id, a.status, a.activation_id, a.workflows
  FROM employees e
  LEFT JOIN executions c ON c.execution_id = e.execution_id AND c.org_id = e.org_id
  LEFT JOIN employee_activations a ON a.employee_id = e.employee_id AND a.org_id = e.org_id`;

/** Every registered employee version of the org, by name, newest version first (without the specs). */
export async function listEmployees(pool: Pool, orgId: string): Promise<EmployeeSummary[]> {
  const { rows } = await pool.query<EmployeeRecord>(`${EMPLOYEE_SELECT} WHERE e.org_id = $1 ORDER BY e.name, e.version DESC`, [
    orgId,
  ]);
  return rows.map(employeeSummary);
}

export async function getEmployee(pool: Pool, orgId: string, employeeId: string): Promise<EmployeeView | null> {
  const { rows } = await pool.query<EmployeeRecord & { spec: EmployeeView['spec'] }>(
    `${EMPLOYEE_SELECT.replace('e.registered_at,', 'e.registered_at, e.spec,')} WHERE e.org_id = $1 AND e.employee_id = $2`,
    [orgId, employeeId],
  );
  const row = rows[0];
  return row ? { ...employeeSummary(row), spec: row.spec } : null;
}

export const EffectView = Type.Composite([Effect, Type.Object({ executionId: Type.String() })], {
  description: 'one effect of a run: the latest record of its idempotency key',
});
export type EffectView = Static<typeof EffectView>;

/** The effects of one of the org's executions, in the order they began; empty when none. */
export async function listEffects(pool: Pool, orgId: string, executionId: string, limit = 1000): Promise<EffectView[]> {
  // rows as the projector reads them (json_agg), through the projection's own row mapper
  const { rows } = await pool.query<{ effects: EffectRow[] }>(
    `SELECT coalesce(json_agg(x ORDER BY x.first_seq, x.idempotency_key), '[]') AS effects FROM (
       SELECT ${EFFECT_COLUMNS} FROM execution_effects
        WHERE org_id = $1 AND execution_id = $2 ORDER BY first_seq, idempotency_key LIMIT $3) x`,
    [orgId, executionId, limit],
  );
  return (rows[0]?.effects ?? [])
    .map(effectFromRow)
    .map(({ orgId: _org, firstSeq: _first, lastSeq: _last, ...effect }) => effect);
}

/**
 * An employee by id alone, whatever its org: for a signed webhook, which carries no token — the caller
 * proves itself with the workflow's secret, and learns nothing of the employee before that.
 */
export async function getEmployeeById(pool: Pool, employeeId: string): Promise<EmployeeView | null> {
  const { rows } = await pool.query<EmployeeRecord & { spec: EmployeeView['spec'] }>(
    `${EMPLOYEE_SELECT.replace('e.registered_at,', 'e.registered_at, e.spec,')} WHERE e.employee_id = $1`,
    [employeeId],
  );
  const row = rows[0];
  return row ? { ...employeeSummary(row), spec: row.spec } : null;
}

/** The org's policy as the `org_policies` projection holds it: `{}` with `updatedAt` null while it has set none. */
export async function getOrgPolicy(pool: Pool, orgId: string): Promise<OrgPolicyView> {
  const { rows } = await pool.query<PolicyRow>(`SELECT ${POLICY_COLUMNS} FROM org_policies WHERE org_id = $1`, [orgId]);
  const row = rows[0];
  if (!row) return { orgId, policy: {}, updatedAt: null };
  const state = policyFromRow(row);
  return { orgId, policy: state.policy, updatedAt: state.updatedAt };
}

/**
 * The seq of a fact once the event store has recorded it (and folded it into the projections, in the
 * same transaction), or null while it has not.
 */
export async function recordedSeq(pool: Pool, factId: string): Promise<number | null> {
  const { rows } = await pool.query<{ seq: string }>('SELECT seq FROM facts WHERE id = $1', [factId]);
  return rows[0] ? Number(rows[0].seq) : null;
}
