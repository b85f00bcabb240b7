/**
 * The run log of the caller's org (ARCHITECTURE §12's refusals, counted): `GET /v1/metrics/executions`
 * — executions by status, failures by reason, tool calls by outcome, refusals, prompts, approvals,
 * loops, budget use and duration — answered by the event store's `readRunLog`, the same query
 * `hireloop runs stats` and `make eval` print.
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { readRunLog } from '@hireloop/event-store';
import { ExecutionMetrics, ExecutionMetricsQuery } from '@hireloop/schemas';
import { principalOf } from '../auth';
import type { CommandDeps } from '../commands/deps';
import { COMMON_ERRORS, errorResponses } from './responses';

export const runLogRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  app.get(
    '/v1/metrics/executions',
    {
      schema: {
        summary:
          "How the org's executions and tool calls went: statuses, failures, refusals, prompts, approvals, loops, budgets, durations",
        tags: ['metrics'],
        querystring: ExecutionMetricsQuery,
        response: { 200: ExecutionMetrics, ...errorResponses(...COMMON_ERRORS) },
      },
    },
    async (request): Promise<ExecutionMetrics> =>
      readRunLog(commands.pool, { ...request.query, orgId: principalOf(request).orgId }),
  );
};
