import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ConversationMessages, ConversationParams, NoQuery } from '@hireloop/schemas';
import { principalOf } from '../auth';
import { ownConversation } from '../commands/access';
import type { CommandDeps } from '../commands/deps';
import { conversationLines, conversationOwnership } from '../read-model';
import { COMMON_ERRORS, errorResponses } from './responses';

export const conversationRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  const { pool } = commands;

  app.get(
    '/v1/conversations/:id/messages',
    {
      schema: {
        querystring: NoQuery,
        summary: "A conversation's chat lines: the caller's and hireloop's replies to them, oldest first",
        description:
          "What a client shows again after a reload, beside its executions' timelines (prompts and answers). 404 when the conversation is someone else's.",
        tags: ['conversations'],
        params: ConversationParams,
        response: { 200: ConversationMessages, ...errorResponses(...COMMON_ERRORS, 404) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const conversationId = request.params.id;
      ownConversation(await conversationOwnership(pool, principal.orgId, conversationId), principal, conversationId);
      return { conversationId, messages: await conversationLines(pool, principal, conversationId) };
    },
  );
};
