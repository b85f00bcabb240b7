import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HireloopError } from '@hireloop/platform';
import {
  ApiLimits,
  CancelAccepted,
  EffectList,
  ExecutionList,
  ExecutionParams,
  ExecutionView,
  ListExecutionsQuery,
  NoQuery,
  RespondBody,
  ResponseAccepted,
  Timeline,
} from '@hireloop/schemas';
import { principalOf } from '../auth';
import { ownExecution } from '../commands/access';
import { cancel } from '../commands/cancel';
import type { CommandDeps } from '../commands/deps';
import { respond } from '../commands/respond';
import { noBodyFields } from '../errors';
import { callerExecutions, executionEffects, executionTimeline, findExecution } from '../read-model';
import { traceOf } from '../trace';
import { executionView, timelineEntry } from '../views';
import { COMMON_ERRORS, errorResponses } from './responses';

export const executionRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  const { pool } = commands;

  app.get(
    '/v1/executions',
    {
      schema: {
        summary: 'The executions the caller may see, newest first',
        description:
          "Their own, the runs of employees they own, and every run of the org's employees for an admin; `employeeId` narrows to one employee's runs, `status=awaiting_input` to those waiting on a prompt the caller may answer (the inbox), any other `status` to the executions in it (`queued`, `running`, `waiting`, `completed`, `cancelled`, `failed`). At most `limit` (default and largest 500); when more follow, `next` names the last one shown: `after=<next>` lists the next page.",
        tags: ['executions'],
        querystring: ListExecutionsQuery,
        response: { 200: ExecutionList, ...errorResponses(...COMMON_ERRORS) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { conversationId, employeeId, status, limit = ApiLimits.list, after } = request.query;
      // one more than shown: whether a next page follows
      const executions = await callerExecutions(pool, principal, {
        ...(conversationId !== undefined ? { conversationId } : {}),
        ...(employeeId !== undefined ? { employeeId } : {}),
        awaitingInput: status === 'awaiting_input',
        ...(status !== undefined && status !== 'awaiting_input' ? { status } : {}),
        limit: limit + 1,
        ...(after !== undefined ? { after } : {}),
      });
      // a cursor that names no execution of the org (mistyped, or of another org) is said so, not read as the end
      if (after !== undefined && executions.length === 0 && !(await findExecution(pool, principal.orgId, after)))
        throw new HireloopError('BAD_REQUEST', `querystring/after: ${after} is no page's next of this list`, {
          field: 'after',
        });
      const page = executions.slice(0, limit);
      const last = page.at(-1);
      return { executions: page.map(executionView), ...(executions.length > limit && last ? { next: last.executionId } : {}) };
    },
  );

  app.get(
    '/v1/executions/:id',
    {
      schema: {
        querystring: NoQuery,
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
        querystring: NoQuery,
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

  app.get(
    '/v1/executions/:id/effects',
    {
      schema: {
        querystring: NoQuery,
        summary: 'What a run did: one record per call (idempotency key), in the order the calls began',
        tags: ['executions'],
        params: ExecutionParams,
        response: { 200: EffectList, ...errorResponses(...COMMON_ERRORS, 404) },
        description: 'The effects as ARCHITECTURE §11 names them: an array, oldest first.',
      },
    },
    async (request) => {
      const principal = principalOf(request);
      ownExecution(await findExecution(pool, principal.orgId, request.params.id), principal, request.params.id);
      const effects = await executionEffects(pool, principal.orgId, request.params.id);
      return effects.map(({ executionId: _executionId, ...effect }) => effect);
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
        response: { 202: CancelAccepted, ...errorResponses(...COMMON_ERRORS, 404, 409, 422) },
      },
      preValidation: noBodyFields,
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
