/**
 * The Connect Hub's HTTP API (ARCHITECTURE §8a), as a fastify plugin registered at `/v1`:
 * the catalog in an org's view (with ETags) and the org's connections. Every route needs a JWT; a
 * token reads only its own org; changing connections needs `role: 'admin'`; each user has a rate
 * limit (§7). `registerConnectHub` adds the OpenAPI document of those routes at `/docs`.
 */

import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bearer, HireloopError, isPermanent, type Principal, replyUnrouted, validatorCompiler } from '@hireloop/platform';
import {
  CapabilityList,
  Connections,
  HubError,
  NotModified,
  OrgParams,
  OrgQuery,
  PutConnectionsBody,
  TriggerList,
} from '@hireloop/schemas';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import pRetry from 'p-retry';
import { DEFAULT_RATE_LIMIT } from './config';
import { capabilityViews, notModified, readableOrg, triggerViews, viewEtag, writableOrg } from './decide';
import { toErrorReply } from './errors';
import type { ConnectHubStore, StoredCatalog } from './store';

/** An org's connections as a PUT set them, and who set them. */
export interface ConnectionsChange {
  orgId: string;
  providers: string[];
  version: number;
  changedBy: string;
}

export interface ConnectHubOptions {
  store: ConnectHubStore;
  /**
   * Tells the platform an org's connections were set, once they are saved (main: a `ConnectionsChanged`
   * fact on `org-connections`, which the workers' catalog caches drop the org on). A transient failure
   * answers 503 (the change is saved) and is tried again in the background for `announceRetryMs` at
   * most; the same PUT again announces it too. A permanent one (a fact that cannot be made) is a 500.
   */
  announce: (change: ConnectionsChange) => Promise<void>;
  /** how long an announcement that failed for now is tried again in the background (default 60 s) */
  announceRetryMs?: number;
  /** a bearer token to its caller, or throws UNAUTHORIZED saying why (platform `tokenVerifier`) */
  verify: (token: string) => Principal;
  /** `/v1` requests per user per minute (`CONNECT_HUB_RATE_LIMIT`); past it, 429 `rate_limited` */
  rateLimitPerMinute?: number;
}

/** Where main and the tests register the plugin. */
export const API_PREFIX = '/v1';

const PRINCIPAL = 'principal';
const principalOf = (request: FastifyRequest): Principal => {
  const principal = request.getDecorator<Principal | null>(PRINCIPAL);
  if (!principal) throw new HireloopError('UNAUTHORIZED', 'send a bearer token: Authorization: Bearer <JWT>');
  return principal;
};

const errors = {
  400: HubError,
  401: HubError,
  403: HubError,
  404: HubError,
  413: HubError,
  415: HubError,
  422: HubError,
  429: HubError,
  500: HubError,
  503: HubError,
};

export const connectHub: FastifyPluginAsyncTypebox<ConnectHubOptions> = async (
  app,
  { store, verify, announce, announceRetryMs = 60_000, rateLimitPerMinute = DEFAULT_RATE_LIMIT },
) => {
  // announcements tried again in the background stop when the app closes
  const closing = new AbortController();
  app.addHook('onClose', async () => closing.abort());
  const announceLater = (change: ConnectionsChange, log: FastifyRequest['log']) => {
    const until = Date.now() + announceRetryMs;
    void pRetry(() => announce(change), {
      retries: 1_000,
      minTimeout: 250,
      maxTimeout: 5_000,
      signal: closing.signal,
      shouldRetry: ({ error }) => !isPermanent(error) && Date.now() < until,
    }).then(
      () => log.info({ orgId: change.orgId, version: change.version }, 'connections change announced after all'),
      (error: unknown) =>
        log.error(
          { err: error, orgId: change.orgId, version: change.version },
          'connections change not announced: workers see it when their cached view expires (CATALOG_TTL_MS)',
        ),
    );
  };
  app.setValidatorCompiler(validatorCompiler);

  app.setErrorHandler((error, request, reply) => {
    const { status, body, internal } = toErrorReply(error, request.id);
    if (internal) request.log.error({ err: error, ref: request.id }, 'request failed');
    else request.log.info({ code: body.code, field: body.field, status }, body.message);
    return reply.code(status).send(body);
  });
  // set again in this plugin so that an unknown /v1 route is authenticated first (401 before 404 or 405)
  app.setNotFoundHandler(replyUnrouted);

  app.decorateRequest(PRINCIPAL, null);
  app.addHook('onRequest', async (request) => {
    const token = bearer(request.headers.authorization);
    if (!token) throw new HireloopError('UNAUTHORIZED', 'send a bearer token: Authorization: Bearer <JWT>');
    request.setDecorator(PRINCIPAL, verify(token));
  });

  // Counted per user, so after the token check (onRequest): a request refused 401 counts for nobody.
  // Only this plugin's routes: health, readiness, metrics and /docs live outside it.
  await app.register(rateLimit, {
    max: rateLimitPerMinute,
    timeWindow: 60_000,
    hook: 'preParsing',
    keyGenerator: (request) => {
      const principal = request.getDecorator<Principal | null>(PRINCIPAL);
      return principal ? `user:${principal.orgId}/${principal.userId}` : `ip:${request.ip}`;
    },
    // hireloop's own services (graph-creator reads the catalog for every creation of an org) are not
    // limited per user: their token is signed with the platform's secret and carries role `service`
    allowList: (request) => request.getDecorator<Principal | null>(PRINCIPAL)?.role === 'service',
    errorResponseBuilder: (_request, context) =>
      new HireloopError('RATE_LIMITED', `more than ${context.max} requests per minute from this user: retry in ${context.after}`),
  });

  /**
   * The org's view of the catalog, or 304 when the caller's ETag is still current. The ETag comes
   * from the versions of one consistent read, so a body is never older than its ETag says.
   */
  async function orgView<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    requested: string | undefined,
    render: (catalog: StoredCatalog, orgId: string, connected: ReadonlySet<string>) => T,
  ): Promise<T | undefined> {
    const orgId = readableOrg(principalOf(request), requested);
    const state = await store.orgState(orgId);
    const catalog = await store.catalog(state.catalogVersion);
    const etag = viewEtag(catalog.version, state.orgVersion);
    // Caches may keep the view but must ask again before using it: connections change at any time.
    reply.header('etag', etag).header('cache-control', 'private, no-cache').header('vary', 'authorization');
    if (notModified(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return undefined;
    }
    return render(catalog, orgId, new Set(state.connected));
  }

  app.get(
    '/capabilities',
    { schema: { querystring: OrgQuery, response: { 200: CapabilityList, 304: NotModified, ...errors } } },
    async (request, reply) => {
      const body = await orgView(request, reply, request.query.orgId, (catalog, orgId, connected) => ({
        orgId,
        capabilities: capabilityViews(catalog.capabilities, connected),
      }));
      return body ?? reply.send(null);
    },
  );

  app.get(
    '/triggers',
    { schema: { querystring: OrgQuery, response: { 200: TriggerList, 304: NotModified, ...errors } } },
    async (request, reply) => {
      const body = await orgView(request, reply, request.query.orgId, (catalog, orgId, connected) => ({
        orgId,
        triggers: triggerViews(catalog.triggers, connected),
      }));
      return body ?? reply.send(null);
    },
  );

  app.get(
    '/orgs/:orgId/connections',
    { schema: { params: OrgParams, response: { 200: Connections, ...errors } } },
    async (request) => {
      const orgId = readableOrg(principalOf(request), request.params.orgId);
      return { orgId, ...(await store.connections(orgId)) };
    },
  );

  app.put(
    '/orgs/:orgId/connections',
    { bodyLimit: 128 * 1024, schema: { params: OrgParams, body: PutConnectionsBody, response: { 200: Connections, ...errors } } },
    async (request) => {
      const principal = principalOf(request);
      const orgId = writableOrg(principal, request.params.orgId);
      const saved = await store.replaceConnections(orgId, request.body.providers);
      request.log.info({ orgId, providers: saved.providers, version: saved.version }, 'connections replaced');
      // every PUT is announced, a PUT that changed nothing too: repeating one whose announcement failed
      // must announce it (the workers' caches would otherwise keep the view from before)
      const change = { orgId, providers: saved.providers, version: saved.version, changedBy: principal.userId };
      try {
        await announce(change);
      } catch (error) {
        // a fact that cannot be made (say, a user id no fact may carry) is ours to fix: a 500 with its ref
        if (isPermanent(error))
          throw new HireloopError('INTERNAL', 'the connections change could not be announced', undefined, { cause: error });
        announceLater(change, request.log);
        throw new HireloopError(
          'UNAVAILABLE',
          'the connections are saved, but the platform could not be told of the change yet: it keeps trying; the same PUT again does no harm',
          undefined,
          { cause: error },
        );
      }
      return { orgId, ...saved };
    },
  );
};

/**
 * The hub's whole HTTP surface on a service's app: the OpenAPI document of the API's TypeBox
 * schemas (`/docs`, JSON at `/docs/json`, no token needed) and the API itself at `/v1`.
 */
export async function registerConnectHub(app: FastifyInstance, options: ConnectHubOptions): Promise<void> {
  // Before the API, so that swagger sees its routes being added.
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'hireloop Connect Hub',
        version: '0.1.0',
        description:
          "The directory of integrations (ARCHITECTURE §8a): the catalog of capabilities and triggers in an org's view, and the org's connections.",
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  await app.register(connectHub, { ...options, prefix: API_PREFIX });
}
