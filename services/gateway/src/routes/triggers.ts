import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CreateTriggerBody, CreateTriggerHeaders, TriggerAccepted } from '@hireloop/schemas';
import { principalOf } from '../auth';
import { createGraph } from '../commands/create-graph';
import type { CommandDeps } from '../commands/deps';
import { traceOf } from '../trace';
import { COMMON_ERRORS, errorResponses } from './responses';

export const triggerRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  app.post(
    '/v1/triggers',
    {
      schema: {
        summary: 'Start creating a digital employee',
        description:
          'Publishes TriggerCreated{triggerType:create_graph, source:http} for the caller’s org; prompts then arrive on the conversation’s chat sockets. ' +
          'With an Idempotency-Key the same request sent again answers the same triggerId and conversation and starts nothing new; ' +
          'the same key with another request is refused (422 naming idempotency-key) — a key names one request.',
        tags: ['triggers'],
        headers: CreateTriggerHeaders,
        body: CreateTriggerBody,
        response: { 202: TriggerAccepted, ...errorResponses(...COMMON_ERRORS, 403, 404, 413, 415, 422) },
      },
    },
    async (request, reply) =>
      reply
        .code(202)
        .send(
          await createGraph(commands, principalOf(request), request.body, traceOf(request), request.headers['idempotency-key']),
        ),
  );
};
