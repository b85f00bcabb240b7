import { randomUUID } from 'node:crypto';
import { createLogger, createPool, type Principal, registerHealth, signToken, tokenVerifier } from '@hireloop/platform';
import type { HubError } from '@hireloop/schemas';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type ConnectHubOptions, registerConnectHub } from '../src/app';
import { postgresStore } from '../src/store';

const SECRET = 'connect-hub-limits-secret';
const bearer = (principal: Principal) => ({ authorization: `Bearer ${signToken(principal, SECRET)}` });

describe("the hub's rate limit and OpenAPI document", () => {
  const pool = createPool(inject('databaseUrl'), 2);
  const apps: FastifyInstance[] = [];
  /** Wired as main wires it: health, readiness and metrics first (bootService), then the hub. */
  const build = async (options: Partial<ConnectHubOptions> = {}) => {
    const app = Fastify();
    registerHealth(app, { service: 'connect-hub', log: createLogger('connect-hub', 'silent'), checks: {} });
    const v1Routes: string[] = [];
    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) if (route.url.startsWith('/v1/')) v1Routes.push(`${method} ${route.url}`);
    });
    // the announcements of a PUT are the API suite's (api.int.spec.ts, on the real broker)
    await registerConnectHub(app, {
      store: postgresStore(pool),
      verify: tokenVerifier(SECRET),
      announce: async () => {},
      ...options,
    });
    await app.ready();
    apps.push(app);
    return { app, v1Routes };
  };
  let limited: FastifyInstance;

  beforeAll(async () => {
    limited = (await build({ rateLimitPerMinute: 3 })).app;
  });
  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
    await pool.end();
  });

  describe('the rate limit', () => {
    it('answers 429 rate_limited past the limit for one user, while other users still get 200', async () => {
      const orgId = `org-${randomUUID().slice(0, 8)}`;
      const ada = { userId: 'ada', orgId };
      // every /v1 route counts towards the same per-user budget
      expect((await limited.inject({ url: '/v1/capabilities', headers: bearer(ada) })).statusCode).toBe(200);
      expect((await limited.inject({ url: '/v1/triggers', headers: bearer(ada) })).statusCode).toBe(200);
      expect((await limited.inject({ url: `/v1/orgs/${orgId}/connections`, headers: bearer(ada) })).statusCode).toBe(200);

      const refused = await limited.inject({ url: '/v1/capabilities', headers: bearer(ada) });
      expect(refused.statusCode).toBe(429);
      const body = refused.json<HubError>();
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
      expect(body).toEqual({ code: 'rate_limited', message: expect.stringContaining('3 requests per minute') });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      // a new token of the same user is the same user
      const put = await limited.inject({
        method: 'PUT',
        url: `/v1/orgs/${orgId}/connections`,
        headers: bearer({ ...ada, role: 'admin' }),
        payload: { providers: ['gmail'] },
      });
      expect(put.statusCode).toBe(429);
      expect(put.json<HubError>().code).toBe('rate_limited');

      // another user of the same org, and a user of another org with the same user id, are counted apart
      expect((await limited.inject({ url: '/v1/capabilities', headers: bearer({ userId: 'bob', orgId }) })).statusCode).toBe(200);
      expect(
        (await limited.inject({ url: '/v1/triggers', headers: bearer({ userId: 'ada', orgId: `${orgId}-b` }) })).statusCode,
      ).toBe(200);
    });

    it("does not limit hireloop's own services (role service): the graph-creator reads for every creation", async () => {
      const orgId = `org-${randomUUID().slice(0, 8)}`;
      const service = { userId: 'service:graph-creator', orgId, role: 'service' };
      for (let i = 0; i < 6; i++) {
        expect((await limited.inject({ url: '/v1/capabilities', headers: bearer(service) })).statusCode).toBe(200);
      }
    });

    it('does not limit health, readiness, metrics or the documentation', async () => {
      for (let i = 0; i < 5; i++) {
        for (const url of ['/healthz', '/readyz', '/metrics', '/docs/json']) {
          const res = await limited.inject({ url });
          expect(res.statusCode, url).toBe(200);
          expect(res.headers['x-ratelimit-limit'], url).toBeUndefined();
        }
      }
    });

    it('allows 600 requests per user per minute unless told otherwise', async () => {
      const { app } = await build();
      const res = await app.inject({ url: '/v1/triggers', headers: bearer({ userId: 'ada', orgId: 'acme' }) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['x-ratelimit-limit']).toBe('600');
      expect(res.headers['x-ratelimit-remaining']).toBe('599');
    });
  });

  describe('the OpenAPI document', () => {
    type Operation = { parameters?: { in: string; name: string }[]; requestBody?: unknown; responses: Record<string, unknown> };
    type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: object } };

    it('lists every /v1 route at /docs/json with its parameters, body and answers, without a token', async () => {
      const { app, v1Routes } = await build();
      const res = await app.inject({ url: '/docs/json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json<Doc>();
      expect(doc.openapi).toMatch(/^3\./);
      expect(doc.components.securitySchemes).toHaveProperty('bearer');
      const listed = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
      );
      expect(listed).toEqual(
        expect.arrayContaining([
          'GET /v1/capabilities',
          'GET /v1/triggers',
          'GET /v1/orgs/{orgId}/connections',
          'PUT /v1/orgs/{orgId}/connections',
        ]),
      );
      // every route the hub serves under /v1 (HEAD being GET's twin)
      const served = v1Routes.filter((r) => !r.startsWith('HEAD ')).map((r) => r.replace(/:(\w+)/g, '{$1}'));
      expect(served.length).toBeGreaterThanOrEqual(4);
      expect(listed).toEqual(expect.arrayContaining(served));
      expect(listed.filter((r) => r.includes(' /v1/'))).toHaveLength(served.length);

      const capabilities = doc.paths['/v1/capabilities']?.get;
      expect(capabilities?.parameters).toEqual(expect.arrayContaining([expect.objectContaining({ in: 'query', name: 'orgId' })]));
      expect(Object.keys(capabilities?.responses ?? {})).toEqual(expect.arrayContaining(['200', '304', '401', '404', '429']));
      const putConnections = doc.paths['/v1/orgs/{orgId}/connections']?.put;
      expect(putConnections?.requestBody).toBeDefined();
      expect(putConnections?.parameters).toEqual(
        expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'orgId' })]),
      );
      expect(Object.keys(putConnections?.responses ?? {})).toEqual(expect.arrayContaining(['200', '403', '422', '429']));
      expect(res.body).toContain('inputSchema');

      expect((await app.inject({ url: '/docs' })).statusCode).toBeLessThan(400);
    });
  });
});
