/**
 * The run log (issue 13's meta-evaluation), one query for every reader: `GET /v1/metrics/executions`,
 * `hireloop runs stats` and the summary of `make eval` all call `readRunLog`, so they cannot disagree.
 * Counts come from the `executions` projection, the worker's `tool_effects` and the facts themselves
 * (prompts, approvals, budget events), scoped to one org and optionally one employee and a start time.
 */
import type { ExecutionMetrics, ExecutionMetricsQuery } from '@hireloop/schemas';
import { RefusalCodes } from '@hireloop/schemas';
import type { Pool } from 'pg';

const STATUSES = ['running', 'waiting', 'completed', 'cancelled', 'failed'] as const;

export interface RunLogQuery extends ExecutionMetricsQuery {
  orgId: string;
}

/** Rows of (code, n) into the answer's shape, with the total. */
export function tally(rows: readonly { code: string | null; n: number }[]): {
  total: number;
  counts: { code: string; count: number }[];
} {
  const counts = rows.map((r) => ({ code: r.code ?? 'unknown', count: r.n }));
  return { total: counts.reduce((sum, c) => sum + c.count, 0), counts };
}

/** Seconds rounded to milliseconds; null while nothing is measured. */
const seconds = (value: number | string | null): number | null =>
  value === null ? null : Math.round(Number(value) * 1000) / 1000;

/** Rows the SQL answers, folded into the run log's shape: the decision, apart from the I/O. */
export interface RunLogRows {
  statuses: { code: string; n: number }[];
  failures: { code: string | null; n: number }[];
  calls: { code: string | null; n: number }[];
  facts: { prompts: number; requested: number; granted: number; rejected: number; budget: number };
  loops: { creations: number; total: number; max: number | null; routes: { code: string; n: number }[] };
  /** creations that spent tokens on a language model: how many, their sum and the most one spent */
  tokens: { creations: number; total: number; max: number | null };
  perExecution: { executions: number; calls: number; max: number | null };
  durations: { finished: number; average: number | string | null; p50: number | string | null; max: number | string | null };
}

export function foldRunLog(query: RunLogQuery, rows: RunLogRows): ExecutionMetrics {
  const byStatus = Object.fromEntries(STATUSES.map((s) => [s, rows.statuses.find((r) => r.code === s)?.n ?? 0])) as Record<
    (typeof STATUSES)[number],
    number
  >;
  const tools = tally(rows.calls);
  const refusals = tools.counts.filter((c) => (RefusalCodes as readonly string[]).includes(c.code));
  const average = (sum: number, n: number) => (n === 0 ? null : Math.round((sum / n) * 100) / 100);
  return {
    orgId: query.orgId,
    since: query.since ?? null,
    employeeId: query.employeeId ?? null,
    executions: { total: tally(rows.statuses).total, ...byStatus },
    failures: tally(rows.failures).counts,
    toolCalls: { total: tools.total, byOutcome: tools.counts },
    refusals,
    prompts: { asked: rows.facts.prompts },
    approvals: { requested: rows.facts.requested, granted: rows.facts.granted, rejected: rows.facts.rejected },
    loops: {
      creations: rows.loops.creations,
      perExecution: average(rows.loops.total, rows.loops.creations),
      max: rows.loops.max,
      routesAfterFailedChecks: tally(rows.loops.routes).counts,
    },
    budget: {
      exceeded: rows.facts.budget,
      toolCallsPerExecution: average(rows.perExecution.calls, rows.perExecution.executions),
      maxToolCalls: rows.perExecution.max,
      tokensPerCreation: average(rows.tokens.total, rows.tokens.creations),
      maxTokens: rows.tokens.max,
    },
    durationSeconds: {
      finished: rows.durations.finished,
      average: seconds(rows.durations.average),
      p50: seconds(rows.durations.p50),
      max: seconds(rows.durations.max),
    },
  };
}

/** The run log of an org (and an employee, and since a time): every number of `ExecutionMetrics`. */
export async function readRunLog(pool: Pool, query: RunLogQuery): Promise<ExecutionMetrics> {
  const params = [query.orgId, query.since ?? null, query.employeeId ?? null];
  const scope = `org_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::text IS NULL OR employee_id = $3)`;
  const inScope = `SELECT execution_id FROM executions WHERE ${scope}`;
  const [statuses, failures, calls, facts, loops, routes, perExecution, durations, tokens] = await Promise.all([
    pool.query<{ code: string; n: number }>(
      `SELECT status AS code, count(*)::int AS n FROM executions WHERE ${scope} GROUP BY status`,
      params,
    ),
    pool.query<{ code: string | null; n: number }>(
      `SELECT error->>'code' AS code, count(*)::int AS n FROM executions WHERE ${scope} AND status = 'failed'
        GROUP BY 1 ORDER BY n DESC, code LIMIT 50`,
      params,
    ),
    pool.query<{ code: string | null; n: number }>(
      // calls made or refused by a rail; a step skipped (its condition, a dependency) or rejected by its approver was no call
      `SELECT COALESCE(t.error->>'code', t.status) AS code, count(*)::int AS n FROM tool_effects t
        WHERE t.org_id = $1 AND ($2::timestamptz IS NULL OR t.at >= $2) AND t.status IN ('succeeded', 'failed')
          AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM executions e WHERE e.execution_id = t.execution_id AND e.employee_id = $3))
        GROUP BY 1 ORDER BY n DESC, code LIMIT 50`,
      params,
    ),
    pool.query<RunLogRows['facts']>(
      `SELECT count(DISTINCT f.payload->>'promptId') FILTER (WHERE f.type = 'HILPrompt')::int AS prompts,
              count(*) FILTER (WHERE f.payload->>'event' = 'approval_requested')::int AS requested,
              count(*) FILTER (WHERE f.payload->>'event' = 'approval_granted')::int AS granted,
              count(*) FILTER (WHERE f.payload->>'event' = 'approval_rejected')::int AS rejected,
              count(*) FILTER (WHERE f.payload->>'event' = 'budget_exceeded')::int AS budget
         FROM facts f
        WHERE f.org_id = $1 AND f.type IN ('HILPrompt', 'ExecutionEvent') AND f.execution_id IN (${inScope})`,
      params,
    ),
    pool.query<{ creations: number; total: number; max: number | null }>(
      `SELECT count(*)::int AS creations, COALESCE(sum(it), 0)::int AS total, max(it)::int AS max FROM (
         SELECT (result->'employee'->'history'->>'iterations')::int AS it FROM executions
          WHERE ${scope} AND result->'employee'->'history' IS NOT NULL) loops`,
      params,
    ),
    pool.query<{ code: string; n: number }>(
      `SELECT (r->>'failedCheck') || ' -> ' || (r->>'routedTo') AS code, count(*)::int AS n FROM executions,
              jsonb_array_elements(COALESCE(result->'employee'->'history'->'routingTrace', '[]'::jsonb)) r
        WHERE ${scope} GROUP BY 1 ORDER BY n DESC, code LIMIT 50`,
      params,
    ),
    pool.query<{ executions: number; calls: number; max: number | null }>(
      `SELECT count(*)::int AS executions, COALESCE(sum(n), 0)::int AS calls, max(n)::int AS max FROM (
         SELECT t.execution_id, count(*) AS n FROM tool_effects t
          WHERE t.org_id = $1 AND t.execution_id IN (${inScope}) AND t.status IN ('succeeded', 'failed')
          GROUP BY t.execution_id) per`,
      params,
    ),
    pool.query<RunLogRows['durations']>(
      `SELECT count(*)::int AS finished, avg(s) AS average,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY s) AS p50, max(s) AS max FROM (
         SELECT extract(epoch FROM updated_at - created_at) AS s FROM executions
          WHERE ${scope} AND status IN ('completed', 'cancelled', 'failed')) d`,
      params,
    ),
    pool.query<RunLogRows['tokens']>(
      `SELECT count(*)::int AS creations, COALESCE(sum(t), 0)::int AS total, max(t)::int AS max FROM (
         SELECT (result->'employee'->'history'->>'tokensUsed')::int AS t FROM executions
          WHERE ${scope} AND result->'employee'->'history'->'tokensUsed' IS NOT NULL) tokens`,
      params,
    ),
  ]);
  const loop = loops.rows[0] ?? { creations: 0, total: 0, max: null };
  return foldRunLog(query, {
    statuses: statuses.rows,
    failures: failures.rows,
    calls: calls.rows,
    facts: facts.rows[0] ?? { prompts: 0, requested: 0, granted: 0, rejected: 0, budget: 0 },
    loops: { ...loop, routes: routes.rows },
    perExecution: perExecution.rows[0] ?? { executions: 0, calls: 0, max: null },
    durations: durations.rows[0] ?? { finished: 0, average: null, p50: null, max: null },
    tokens: tokens.rows[0] ?? { creations: 0, total: 0, max: null },
  });
}

/** The run log as lines of text, for `hireloop runs stats` and `make eval`. */
export function formatRunLog(log: ExecutionMetrics): string {
  const list = (counts: readonly { code: string; count: number }[]) =>
    counts.length === 0 ? 'none' : counts.map((c) => `${c.code} ${c.count}`).join(', ');
  const e = log.executions;
  const d = log.durationSeconds;
  const scope = [`org ${log.orgId}`, log.employeeId ? `employee ${log.employeeId}` : '', log.since ? `since ${log.since}` : '']
    .filter(Boolean)
    .join(', ');
  return [
    `run log (${scope})`,
    `  executions        ${e.total}: completed ${e.completed}, failed ${e.failed}, cancelled ${e.cancelled}, waiting ${e.waiting}, running ${e.running}`,
    `  failures          ${list(log.failures)}`,
    `  loops             ${log.loops.creations} creations, ${log.loops.perExecution ?? '-'} per execution, at most ${log.loops.max ?? '-'}`,
    `  routes after failed checks  ${list(log.loops.routesAfterFailedChecks)}`,
    `  prompts asked     ${log.prompts.asked}`,
    `  approvals         requested ${log.approvals.requested}, granted ${log.approvals.granted}, rejected ${log.approvals.rejected}`,
    `  tool calls        ${log.toolCalls.total}: ${list(log.toolCalls.byOutcome)}`,
    `  refusals          ${list(log.refusals)}`,
    `  budget            ${log.budget.exceeded} exceeded, ${log.budget.toolCallsPerExecution ?? '-'} tool calls per execution, at most ${log.budget.maxToolCalls ?? '-'}; ${log.budget.tokensPerCreation ?? '-'} tokens per creation, at most ${log.budget.maxTokens ?? '-'}`,
    `  duration (s)      ${d.finished} finished: average ${d.average ?? '-'}, p50 ${d.p50 ?? '-'}, max ${d.max ?? '-'}`,
  ].join('\n');
}
