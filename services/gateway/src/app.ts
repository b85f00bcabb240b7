/**
 * The gateway's app: a fastify plugin, so that tests build it with `app.inject()` and no port, and
 * `main.ts` only listens and closes. External plugins (swagger, websocket, rate limit) are registered
 * here apart from the app's own (errors, auth, routes, chat).
 */

import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import type { Pool } from '@hireloop/platform';
import { type Clock, HireloopError, type IdSource, systemClock, uuidV7, validatorCompiler } from '@hireloop/platform';
import { ApiError, ClientFrame, ServerFrame, unstorableText } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { auth, type Verify } from './auth';
import type { BroadcastHub } from './chat/hub';
import { CHAT_PATH, chat } from './chat/socket';
import type { CommandDeps, Publisher } from './commands/deps';
import { wsMaxPayload } from './config';
import { errorHandler, validationFailed } from './errors';
import type { ConnectHub } from './hooks/connect-hub';
import { type PageOptions, pageRoutes } from './page';
import { conversationRoutes } from './routes/conversations';
import { employeeRoutes } from './routes/employees';
import { executionRoutes } from './routes/executions';
import { hookRoutes } from './routes/hooks';
import { policyRoutes } from './routes/policy';
import { runLogRoutes } from './routes/run-log';
import { triggerRoutes } from './routes/triggers';
import { requestIdOf } from './trace';

export interface GatewayLimits {
  /** largest HTTP body in bytes */
  bodyLimit: number;
  /** largest WebSocket frame in bytes */
  frameLimit: number;
  /** HTTP requests per user per minute, and WebSocket frames per user per minute */
  rateLimitPerMinute: number;
}

export interface GatewayDeps {
  pool: Pool;
  publisher: Publisher;
  verify: Verify;
  config: GatewayLimits;
  /** the chat sockets of this instance; the broadcast consumer delivers to it */
  hub: BroadcastHub;
  /** the Connect Hub: the org's connections and trigger schemas (activation, webhooks) */
  connectHub: ConnectHub;
  /** `HOOK_SECRET_KEY`: webhook secrets derive from it (hooks/secret.ts) */
  hookSecretKey: string;
  /** `GATEWAY_PUBLIC_URL`: the base of webhook URLs; absent: the address a request came to */
  publicUrl?: string;
  ids?: IdSource;
  clock?: Clock;
  /** the chat page at `/` (and, outside production, the dev token route); absent: no page */
  page?: PageOptions;
}

const CHAT_PROTOCOL = `Chat: \`GET /v1/chat\` upgrades to a WebSocket (token as Authorization: Bearer, \`?token=\`, or a \`token\` field
in a frame; \`?conversationId=\` joins a conversation at once). Frames are JSON: the client sends \`message\` (type may be
omitted), \`hil_response\` and \`cancel\`; the gateway sends \`hil_prompt\`, \`execution_event\`, \`execution_result\`,
\`message\` and \`error\` (the socket stays open). Their schemas are the ClientFrame and ServerFrame components.`;

export const gatewayApp = fp(
  async (app: FastifyInstance, deps: GatewayDeps) => {
    const { config } = deps;
    const commands: CommandDeps = {
      pool: deps.pool,
      publisher: deps.publisher,
      ids: deps.ids ?? uuidV7,
      clock: deps.clock ?? systemClock,
      live: deps.hub.live,
      log: app.log,
    };
    const employeeCommands = { ...commands, connectHub: deps.connectHub, hookSecretKey: deps.hookSecretKey };

    // Validation by TypeBox (its errors name the field); responses are built from the same types and
    // written with JSON.stringify, so the response schemas document rather than filter.
    app.setGenReqId(requestIdOf);
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(() => (data) => JSON.stringify(data));
    app.addHook('onRoute', (route) => {
      route.bodyLimit ??= config.bodyLimit;
    });
    // an Upgrade to a WebSocket anywhere but the chat socket is refused in HTTP, before any handshake
    app.addHook('onRequest', async (request, reply) => {
      if (request.headers.upgrade?.toLowerCase() !== 'websocket' || request.routeOptions.url === CHAT_PATH) return;
      return reply.code(404).send({
        code: 'not_found',
        message: `no WebSocket at ${request.url.split('?')[0]}: the chat socket is GET ${CHAT_PATH}`,
      } satisfies ApiError);
    });
    // text no fact can carry (a NUL, a lone surrogate) is refused before anything is published
    app.addHook('preValidation', async (request) => {
      const unstorable = unstorableText(request.body);
      if (unstorable) throw validationFailed([unstorable]);
    });

    await app.register(errorHandler, { bodyLimit: config.bodyLimit });
    await app.register(swagger, {
      // shared schemas (those with an $id, such as EmployeeGraphSpec) keep their names in the document
      refResolver: {
        buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
      },
      openapi: {
        info: { title: 'hireloop gateway', version: '0.1.0', description: CHAT_PROTOCOL },
        components: {
          securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
          schemas: {
            ApiError: ApiError as unknown as Record<string, unknown>,
            ClientFrame: ClientFrame as unknown as Record<string, unknown>,
            ServerFrame: ServerFrame as unknown as Record<string, unknown>,
          },
        },
        security: [{ bearer: [] }],
      },
    });
    await app.register(swaggerUi, { routePrefix: '/docs' });
    await app.register(websocket, {
      options: { maxPayload: wsMaxPayload(config.frameLimit) },
      // A client breaking the protocol (a frame over the hard cap: ws closes it 1009) is the client's
      // fault, told in the chat socket's own warning; anything else a socket's handler throws is ours.
      errorHandler(error, socket, request) {
        if (!String((error as { code?: unknown }).code ?? '').startsWith('WS_ERR_')) {
          request.log.error({ err: error }, 'chat socket failed');
        }
        socket.terminate();
      },
      // On close, every socket is told 1001 "going away" (clients reconnect to another instance).
      preClose(done) {
        deps.hub.closeAll(1001, 'gateway shutting down');
        app.websocketServer.close();
        done();
      },
    });

    // signed webhooks: no token, the signature is the credential; limited per address
    await app.register(async (hooks) => {
      await hooks.register(rateLimit, {
        max: config.rateLimitPerMinute,
        timeWindow: 60_000,
        errorResponseBuilder: (_request, context) =>
          new HireloopError('RATE_LIMITED', `more than ${context.max} requests per minute: retry in ${context.after}`),
      });
      await hooks.register(hookRoutes, { commands: employeeCommands, bodyLimit: config.bodyLimit });
    });
    if (deps.page) await app.register(pageRoutes, deps.page);

    await app.register(async (v1) => {
      await v1.register(auth, { verify: deps.verify });
      await v1.register(rateLimit, {
        max: config.rateLimitPerMinute,
        timeWindow: 60_000,
        // after auth (onRequest), so that the key is the token's user; anonymous callers by address
        hook: 'preParsing',
        keyGenerator: (request) =>
          request.principal ? `user:${request.principal.orgId}/${request.principal.userId}` : `ip:${request.ip}`,
        errorResponseBuilder: (_request, context) =>
          new HireloopError('RATE_LIMITED', `more than ${context.max} requests per minute: retry in ${context.after}`),
      });
      await v1.register(triggerRoutes, { commands });
      await v1.register(executionRoutes, { commands });
      await v1.register(employeeRoutes, {
        commands: employeeCommands,
        ...(deps.publicUrl !== undefined ? { publicUrl: deps.publicUrl } : {}),
      });
      await v1.register(conversationRoutes, { commands });
      await v1.register(policyRoutes, { commands, connectHub: deps.connectHub });
      await v1.register(runLogRoutes, { commands });
      await v1.register(chat, {
        commands,
        hub: deps.hub,
        verify: deps.verify,
        frameLimit: config.frameLimit,
        framesPerMinute: config.rateLimitPerMinute,
      });
    });
  },
  { name: 'hireloop-gateway', fastify: '5.x' },
);
