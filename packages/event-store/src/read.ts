import type { Pool } from '@hireloop/platform';
import { type AnyFact, AnyFactSchema, EmployeeGraphSpec, ExecutionResult, HILPrompt } from '@hireloop/schemas';
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { summarize, whoOf } from './timeline';

/**
 * The read side other services use (the gateway's GET routes): every function is scoped to one
 * org, and another org's execution or employee reads as absent. The response shapes are TypeBox
 * schemas so that the gateway can declare them on its routes and in its OpenAPI document.
 */

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Time = Type.String({ format: 'date-time' });

export const ExecutionStatusSchema = Type.Union(
  (['queued', 'running', 'waiting', 'completed', 'cancelled', 'failed'] as const).map((s) => Type.Literal(s)),
);

export const ExecutionView = Type.Object(
  {
    executionId: Type.String(),
    orgId: Type.String(),
    ownerUserId: Nullable(Type.String()),
    conversationId: Nullable(Type.String()),
    employeeId: Nullable(Type.String()),
    triggerId: Nullable(Type.String()),
    status: ExecutionStatusSchema,
    currentPrompt: Nullable(HILPrompt),
    progress: Nullable(Type.Number()),
    phase: Nullable(Type.String()),
    result: Nullable(ExecutionResult.properties.output),
    error: Nullable(ExecutionResult.properties.error),
    createdAt: Time,
    updatedAt: Time,
    lastSeq: Type.Integer(),
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
 * plus the executions of its org queued with an earlier ticket of the supervisor's.
 */
const EXECUTION_SELECT = `SELECT execution_id, org_id, owner_user_id, conversation_id, employee_id, trigger_id, status,
  current_prompt, progress, phase, result, error, created_at, updated_at, last_seq,
  CASE WHEN e.status = 'queued' AND e.queue_ticket IS NOT NULL THEN 1 + (
    SELECT count(*) FROM executions q WHERE q.org_id = e.org_id AND q.status = 'queued' AND q.queue_ticket < e.queue_ticket
  ) END AS position
  FROM executions e`;

interface ExecutionRecord {
  execution_id: string;
  org_id: string;
  owner_user_id: string | null;
  conversation_id: string | null;
  employee_id: string | null;
  trigger_id: string | null;
  status: ExecutionView['status'];
  current_prompt: ExecutionView['currentPrompt'];
  progress: number | null;
  phase: string | null;
  result: ExecutionView['result'];
  error: ExecutionView['error'];
  created_at: Date;
  updated_at: Date;
  last_seq: string;
  position: string | null;
}

const executionView = (r: ExecutionRecord): ExecutionView => ({
  executionId: r.execution_id,
  orgId: r.org_id,
  ownerUserId: r.owner_user_id,
  conversationId: r.conversation_id,
  employeeId: r.employee_id,
  triggerId: r.trigger_id,
  status: r.status,
  currentPrompt: r.current_prompt,
  progress: r.progress,
  phase: r.phase,
  result: r.result,
  error: r.error,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at),
  lastSeq: Number(r.last_seq),
  position: r.position === null ? null : Number(r.position),
});

export async function getExecution(pool: Pool, orgId: string, executionId: string): Promise<ExecutionView | null> {
  const { rows } = await pool.query<ExecutionRecord>(`${EXECUTION_SELECT} WHERE org_id = $1 AND execution_id = $2`, [
    orgId,
    executionId,
  ]);
  return rows[0] ? executionView(rows[0]) : null;
}

export interface ListExecutionsOptions {
  conversationId?: string;
  /** newest first; default 100, at most 1000 */
  limit?: number;
}

export async function listExecutions(pool: Pool, orgId: string, options: ListExecutionsOptions = {}): Promise<ExecutionView[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? 100), 1), 1000);
  const { rows } = await pool.query<ExecutionRecord>(
    `${EXECUTION_SELECT} WHERE org_id = $1 AND ($2::text IS NULL OR conversation_id = $2)
     ORDER BY created_at DESC, execution_id LIMIT $3`,
    [orgId, options.conversationId ?? null, limit],
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
    `SELECT execution_id, conversation_id, owner_user_id, current_prompt FROM executions
     WHERE org_id = $1 AND conversation_id = $2 AND status = 'waiting' AND current_prompt IS NOT NULL
     ORDER BY updated_at DESC, execution_id`,
    [orgId, conversationId],
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
  spec?: EmployeeView['spec'];
}

const employeeSummary = (r: EmployeeRecord): EmployeeSummary => ({
  employeeId: r.employee_id,
  orgId: r.org_id,
  name: r.name,
  version: r.version,
  executionId: r.execution_id,
  registeredAt: iso(r.registered_at),
});

/** Every registered employee version of the org, by name, newest version first (without the specs). */
export async function listEmployees(pool: Pool, orgId: string): Promise<EmployeeSummary[]> {
  const { rows } = await pool.query<EmployeeRecord>(
    `SELECT employee_id, org_id, name, version, execution_id, registered_at FROM employees
     WHERE org_id = $1 ORDER BY name, version DESC`,
    [orgId],
  );
  return rows.map(employeeSummary);
}

export async function getEmployee(pool: Pool, orgId: string, employeeId: string): Promise<EmployeeView | null> {
  const { rows } = await pool.query<EmployeeRecord & { spec: EmployeeView['spec'] }>(
    `SELECT employee_id, org_id, name, version, execution_id, registered_at, spec FROM employees
     WHERE org_id = $1 AND employee_id = $2`,
    [orgId, employeeId],
  );
  const row = rows[0];
  return row ? { ...employeeSummary(row), spec: row.spec } : null;
}
