import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HireloopError, unreadableBody, validatorCompiler } from '@hireloop/platform';
import { HookAccepted, HookParams, JsonObject } from '@hireloop/schemas';
import { acceptHook, type HookDeps } from '../commands/hook';
import { traceOf } from '../trace';
import { errorResponses } from './responses';

const DELIVERY_ID = /^[A-Za-z0-9._:@-]{1,200}$/;

/**
 * Signed webhooks (ARCHITECTURE §11), outside the token-authenticated scope: the signature is the
 * credential. The JSON body is kept raw (the HMAC covers its exact bytes) and parsed by the command.
 */
export const hookRoutes: FastifyPluginAsyncTypebox<{ commands: HookDeps; bodyLimit: number }> = async (
  app,
  { commands, bodyLimit },
) => {
  // the signature is over the bytes as sent: this context reads them raw instead of the app's JSON parser
  app.removeContentTypeParser('application/json');
  // (compressed or in another charset, it is refused as every other body is: the signature is over the bytes the sender meant)
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (request, body, done) => {
    const unreadable = unreadableBody(request);
    if (unreadable) done(unreadable);
    else done(null, body);
  });

  app.post(
    '/v1/hooks/:employeeId/:workflowId',
    {
      schema: {
        summary: "Fire a workflow of an active employee with a trigger event (signed with the workflow's secret)",
        description:
          'Headers: `x-hireloop-signature: sha256=<hex HMAC-SHA256 of the raw body with the workflow secret>`, optional `x-hireloop-delivery: <id>` (the same id twice with the same event is the same trigger and execution: one run; with another event it is a 422 naming `x-hireloop-delivery`; without it every call is a new run; an id is remembered for 7 days). 401 bad or missing signature, 404 unknown employee or workflow, 409 `employee_inactive` (or `conflict` when the workflow is off), 413 too large, 415 compressed or in a charset other than UTF-8, 422 a body that breaks the trigger event schema (naming the field).',
        tags: ['hooks'],
        security: [],
        params: HookParams,
        body: JsonObject('the trigger event, valid against the trigger’s event schema'),
        response: { 202: HookAccepted, ...errorResponses(400, 401, 404, 409, 413, 415, 422, 429, 500, 503) },
      },
      // the body is checked against the trigger's own schema by the command, from its raw bytes
      validatorCompiler: (route) =>
        route.httpPart === 'body' ? () => true : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]),
    },
    async (request, reply) => {
      const delivery = request.headers['x-hireloop-delivery'];
      if (delivery !== undefined && (typeof delivery !== 'string' || !DELIVERY_ID.test(delivery))) {
        throw new HireloopError('BAD_REQUEST', 'x-hireloop-delivery must be 1 to 200 characters of letters, digits and ._:@-', {
          field: 'x-hireloop-delivery',
        });
      }
      const signature = request.headers['x-hireloop-signature'];
      const accepted = await acceptHook(
        commands,
        {
          employeeId: request.params.employeeId,
          workflowId: request.params.workflowId,
          body: Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0),
          signature: typeof signature === 'string' ? signature : undefined,
          deliveryId: delivery,
        },
        traceOf(request),
      );
      return reply.code(202).send(accepted);
    },
  );
};
