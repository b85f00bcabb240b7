/**
 * The run log of the caller's org (ARCHITECTURE §12's refusals, counted): `GET /v1/metrics/executions`
 * — executions by status, failed ones by reason, tool calls by outcome — from the `executions`
 * projection and the worker's `tool_effects` records.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ExecutionMetrics, ExecutionMetricsQuery } from '@hireloop/schemas';
import { principalOf } from '../auth';
import type { CommandDeps } from '../commands/deps';
import { COMMON_ERRORS, errorResponses } from './responses';

const STATUSES = ['running', 'waiting', 'completed', 'cancelled', 'failed'] as const;

/** Rows of (code, n) into the answer's shape, with the total. */
export function tally(rows: readonly { code: string | null; n: number }[]): {
  total: number;
  counts: { code: string; count: number }[];
} {
  const counts = rows.map((r) => ({ code: r.code ?? 'unknown', count: r.n }));
  return { total: counts.reduce((sum, c) => sum + c.count, 0), counts };
}

export const runLogRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  const { pool } = commands;

  app.get(
    '/v1/metrics/executions',
    {
      schema: {
        summary: "How the org's executions and tool calls ended: by status, by failure reason, by tool-call outcome",
        tags: ['metrics'],
        querystring: ExecutionMetricsQuery,
        response: { 200: ExecutionMetrics, ...errorResponses(...COMMON_ERRORS) },
      },
    },
    async (request): Promise<ExecutionMetrics> => {
      const { orgId } = principalOf(request);
      const since = request.query.since ?? null;
      const employeeId = request.query.employeeId ?? null;
      const scope = `org_id = $1 AND ($2::timestamptz IS NULL OR created_at >= $2) AND ($3::text IS NULL OR employee_id = $3)`;
      const [statuses, failures, calls] = await Promise.all([
        pool.query<{ code: string; n: number }>(
          `SELECT status AS code, count(*)::int AS n FROM executions WHERE ${scope} GROUP BY status`,
          [orgId, since, employeeId],
        ),
        pool.query<{ code: string | null; n: number }>(
          `SELECT error->>'code' AS code, count(*)::int AS n FROM executions WHERE ${scope} AND status = 'failed'
            GROUP BY 1 ORDER BY n DESC, code LIMIT 50`,
          [orgId, since, employeeId],
        ),
        pool.query<{ code: string | null; n: number }>(
          `SELECT COALESCE(t.error->>'code', t.status) AS code, count(*)::int AS n FROM tool_effects t
            WHERE t.org_id = $1 AND ($2::timestamptz IS NULL OR t.at >= $2)
              AND ($3::text IS NULL OR EXISTS (SELECT 1 FROM executions e WHERE e.execution_id = t.execution_id AND e.employee_id = $3))
            GROUP BY 1 ORDER BY n DESC, code LIMIT 50`,
          [orgId, since, employeeId],
        ),
      ]);
      const byStatus = Object.fromEntries(STATUSES.map((s) => [s, statuses.rows.find((r) => r.code === s)?.n ?? 0])) as Record<
        (typeof STATUSES)[number],
        number
      >;
      const tools = tally(calls.rows);
      return {
        orgId,
        since,
        employeeId,
        executions: { total: tally(statuses.rows).total, ...byStatus },
        failures: tally(failures.rows).counts,
        toolCalls: { total: tools.total, byOutcome: tools.counts },
      };
    },
  );
};
