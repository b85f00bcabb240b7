import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ApiLimits,
  CancelAccepted,
  ExecutionList,
  ExecutionParams,
  ExecutionView,
  ListExecutionsQuery,
  RespondBody,
  ResponseAccepted,
  Timeline,
} from '@hireloop/schemas';
import { principalOf } from '../auth';
import { ownExecution } from '../commands/access';
import { cancel } from '../commands/cancel';
import type { CommandDeps } from '../commands/deps';
import { respond } from '../commands/respond';
import { callerExecutions, executionTimeline, findExecution } from '../read-model';
import { traceOf } from '../trace';
import { executionView, timelineEntry } from '../views';
import { COMMON_ERRORS, errorResponses } from './responses';

export const executionRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  const { pool } = commands;

  app.get(
    '/v1/executions',
    {
      schema: {
        summary: "The caller's executions, newest first",
        tags: ['executions'],
        querystring: ListExecutionsQuery,
        response: { 200: ExecutionList, ...errorResponses(...COMMON_ERRORS) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const executions = await callerExecutions(pool, principal, request.query.conversationId);
      return { executions: executions.slice(0, ApiLimits.list).map(executionView) };
    },
  );

  app.get(
    '/v1/executions/:id',
    {
      schema: {
        summary: 'An execution: status, current prompt, progress, phase, result',
        tags: ['executions'],
        params: ExecutionParams,
        response: { 200: ExecutionView, ...errorResponses(...COMMON_ERRORS, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const execution = ownExecution(await findExecution(pool, principal.orgId, request.params.id), principal, request.params.id);
      return executionView(execution);
    },
  );

  app.get(
    '/v1/executions/:id/events',
    {
      schema: {
        summary: "An execution's audit timeline from the event store",
        tags: ['executions'],
        params: ExecutionParams,
        response: { 200: Timeline, ...errorResponses(...COMMON_ERRORS, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      ownExecution(await findExecution(pool, principal.orgId, request.params.id), principal, request.params.id);
      return {
        executionId: request.params.id,
        events: (await executionTimeline(pool, principal.orgId, request.params.id)).map(timelineEntry),
      };
    },
  );

  app.post(
    '/v1/executions/:id/respond',
    {
      schema: {
        summary: 'Answer the pending prompt',
        description:
          "404 when the execution is not the caller's, 409 when the promptId is not the pending prompt, 422 (naming the field) when the payload breaks the prompt's inputSchema.",
        tags: ['executions'],
        params: ExecutionParams,
        body: RespondBody,
        response: { 202: ResponseAccepted, ...errorResponses(...COMMON_ERRORS, 404, 409, 413, 415, 422) },
      },
    },
    async (request, reply) => {
      const fact = await respond(
        commands,
        principalOf(request),
        {
          executionId: request.params.id,
          promptId: request.body.promptId,
          kind: request.body.kind,
          payload: request.body.payload,
        },
        traceOf(request),
      );
      return reply.code(202).send({ responseId: fact.id, executionId: fact.executionId, promptId: fact.promptId });
    },
  );

  app.post(
    '/v1/executions/:id/cancel',
    {
      schema: {
        summary: 'Cancel an execution',
        description: 'Publishes TriggerCreated{triggerType:cancel_execution}; 409 when the execution has already ended.',
        tags: ['executions'],
        params: ExecutionParams,
        response: { 202: CancelAccepted, ...errorResponses(...COMMON_ERRORS, 404, 409) },
      },
    },
    async (request, reply) => {
      const fact = await cancel(
        commands,
        principalOf(request),
        { executionId: request.params.id, source: 'http' },
        traceOf(request),
      );
      return reply.code(202).send({ triggerId: fact.triggerId, executionId: request.params.id });
    },
  );
};
