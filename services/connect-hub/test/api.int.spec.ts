import { createHmac, randomUUID } from 'node:crypto';
import { FactPublisher } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import {
  createHttpApp,
  createKafka,
  createLogger,
  createPool,
  databaseName,
  dropDatabase,
  migrate,
  type Pool,
  type Principal,
  signToken,
  tokenVerifier,
  withDatabase,
} from '@hireloop/platform';
import { waitUntil } from '@hireloop/platform/testing';
import type { CapabilityList, Connections, HubError, TriggerList } from '@hireloop/schemas';
import { builtInCatalog, Topics } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { section8a, section8aAcme, section8aCapabilityIds, section8aTriggerIds } from '../../../schemas/test/section-8a';
import { factAnnouncer } from '../src/announce';
import { API_PREFIX, type ConnectionsChange, connectHub } from '../src/app';
import { postgresStore } from '../src/store';

const SECRET = 'connect-hub-test-secret';
const token = (principal: Principal) => signToken(principal, SECRET);
const acmeMember = token({ userId: 'ada', orgId: 'acme' });
const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
/** An org of its own for each test that changes connections: acme is shared with the other test files. */
const freshOrg = () => `org-${randomUUID().slice(0, 8)}`;
const adminOf = (orgId: string) => token({ userId: 'root', orgId, role: 'admin' });

describe('the Connect Hub API against the real database', () => {
  const pool = createPool(inject('databaseUrl'), 4);
  const log = createLogger('connect-hub-test', 'silent');
  const kafka = createKafka({ clientId: 'connect-hub-test', brokers: inject('kafkaBrokers'), log });
  // the announcer main wires, on the real broker; `announcing` can make it fail, as a broker away would
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log, retries: 0 });
  const collector = new FactCollector(kafka, inject('topicPrefix'), [Topics.orgConnections]);
  let announcing: 'on' | 'failing' = 'on';
  /** announcements refused while `failing`, per org: the PUT's own and the background's retries */
  const refusals = new Map<string, number>();
  const announce = factAnnouncer(publisher);
  let app: FastifyInstance;

  beforeAll(async () => {
    await publisher.connect();
    await collector.start();
    // as main builds it (bootService): its parser, not-found and refusals
    app = createHttpApp(createLogger('connect-hub-test', 'silent'));
    await app.register(connectHub, {
      prefix: API_PREFIX,
      store: postgresStore(pool),
      verify: tokenVerifier(SECRET),
      announce: async (change: ConnectionsChange) => {
        if (announcing === 'failing') {
          refusals.set(change.orgId, (refusals.get(change.orgId) ?? 0) + 1);
          throw new Error('the broker is away');
        }
        await announce(change);
      },
    });
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await collector.stop();
    await publisher.disconnect();
    await pool.end();
  });
  const announced = (orgId: string) => collector.of('ConnectionsChanged', (f) => f.orgId === orgId);

  /** `t` null: no token at all. */
  const get = (url: string, t: string | null = acmeMember, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { ...(t ? bearer(t) : {}), ...headers } });
  const put = (orgId: string, body: unknown, t = adminOf(orgId)) =>
    app.inject({ method: 'PUT', url: `/v1/orgs/${orgId}/connections`, headers: bearer(t), payload: body as object });

  describe('the catalog', () => {
    it('lists every §8a capability with a description, a risk and the JSON Schema of its inputs', async () => {
      const res = await get('/v1/capabilities?orgId=acme');
      expect(res.statusCode).toBe(200);
      const { orgId, capabilities } = res.json<CapabilityList>();
      expect(orgId).toBe('acme');
      const byId = new Map(capabilities.map((c) => [c.id, c]));
      for (const id of section8aCapabilityIds) {
        const capability = byId.get(id);
        expect(capability, id).toBeDefined();
        expect(capability?.description.length, id).toBeGreaterThan(10);
        expect(['low', 'high']).toContain(capability?.risk);
        const schema = capability!.inputSchema;
        expect(schema.type).toBe('object');
        expect(Object.keys(schema.properties).length, id).toBeGreaterThan(0);
        for (const required of schema.required) expect(schema.properties, `${id} requires ${required}`).toHaveProperty(required);
        for (const [name, property] of Object.entries(schema.properties))
          expect(property.description, `${id}.${name}`).not.toBe('');
        // what a later step binds to (migration 0007)
        const output = capability!.outputSchema;
        expect(Object.keys(output.properties).length, `${id} output`).toBeGreaterThan(0);
        for (const required of output.required) expect(output.properties, `${id} answers ${required}`).toHaveProperty(required);
      }
    });

    it('lists every §8a trigger with a description and the JSON Schema of its parameters', async () => {
      const res = await get('/v1/triggers?orgId=acme');
      expect(res.statusCode).toBe(200);
      const { triggers } = res.json<TriggerList>();
      const byId = new Map(triggers.map((t) => [t.id, t]));
      for (const id of section8aTriggerIds) {
        const trigger = byId.get(id);
        expect(trigger, id).toBeDefined();
        expect(trigger?.description.length, id).toBeGreaterThan(10);
        expect(trigger?.paramsSchema.type).toBe('object');
        for (const required of trigger!.paramsSchema.required) expect(trigger!.paramsSchema.properties).toHaveProperty(required);
        // what a step binds to, and what a webhook body must satisfy (migration 0007)
        const event = trigger!.eventSchema;
        expect(event.type, id).toBe('object');
        for (const required of event.required) expect(event.properties, `${id} carries ${required}`).toHaveProperty(required);
      }
      expect(Object.keys(byId.get('zendesk.new_ticket')!.eventSchema.properties)).toContain('ticketId');
    });

    it('serves exactly the built-in catalog of schemas/src/catalog.ts, ids as <provider>.<name>', async () => {
      const capabilities = (await get('/v1/capabilities')).json<CapabilityList>().capabilities;
      const triggers = (await get('/v1/triggers')).json<TriggerList>().triggers;
      const strip = <T extends { connected: boolean }>({ connected: _connected, ...item }: T) => item;
      const byId = <T extends { id: string }>(items: T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
      expect(byId(capabilities.map(strip))).toEqual(byId(builtInCatalog.capabilities));
      expect(byId(triggers.map(strip))).toEqual(byId(builtInCatalog.triggers));
      for (const item of [...capabilities, ...triggers]) {
        expect(item.id).toBe(`${item.providerId}.${item.name}`);
        expect(Object.keys(section8a)).toContain(item.providerId);
      }
    });
  });

  describe("acme's view", () => {
    it("marks connected exactly the items of acme's providers, using the token's org when none is named", async () => {
      const capabilities = (await get('/v1/capabilities')).json<CapabilityList>();
      const triggers = (await get('/v1/triggers')).json<TriggerList>();
      expect(capabilities.orgId).toBe('acme');
      for (const item of [...capabilities.capabilities, ...triggers.triggers]) {
        expect(item.connected, item.id).toBe(section8aAcme.includes(item.providerId));
      }
      expect(capabilities.capabilities.find((c) => c.id === 'gmail.send_email')?.connected).toBe(true);
      expect(capabilities.capabilities.find((c) => c.id === 'stripe.refund_payment')?.connected).toBe(false);
    });

    it('reads acme as connected to the §8a providers', async () => {
      const res = await get('/v1/orgs/acme/connections');
      expect(res.statusCode).toBe(200);
      const body = res.json<Connections>();
      expect(body.orgId).toBe('acme');
      expect(body.providers).toEqual([...section8aAcme].sort());
      expect(body.version).toBeGreaterThanOrEqual(1);
    });

    it('shows an org with no connections every item, none connected, at version 0', async () => {
      const orgId = freshOrg();
      const t = token({ userId: 'bob', orgId });
      const capabilities = (await get('/v1/capabilities', t)).json<CapabilityList>();
      expect(capabilities.capabilities).toHaveLength(builtInCatalog.capabilities.length);
      expect(capabilities.capabilities.every((c) => !c.connected)).toBe(true);
      expect((await get(`/v1/orgs/${orgId}/connections`, t)).json()).toEqual({ orgId, providers: [], version: 0 });
    });
  });

  describe('tenancy and roles', () => {
    it("answers 404 for another org's catalog view and connections, never its data", async () => {
      for (const url of ['/v1/capabilities?orgId=globex', '/v1/triggers?orgId=globex', '/v1/orgs/globex/connections']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.json<HubError>()).toMatchObject({ code: 'not_found' });
        expect(res.body).not.toContain('providers');
      }
      // acme exists and has connections: a token of another org learns nothing of it either.
      const other = token({ userId: 'eve', orgId: 'globex', role: 'admin' });
      expect((await get('/v1/orgs/acme/connections', other)).statusCode).toBe(404);
      expect((await get('/v1/capabilities?orgId=acme', other)).statusCode).toBe(404);
      const write = await put('acme', { providers: [] }, other);
      expect(write.statusCode).toBe(404);
      expect((await get('/v1/orgs/acme/connections')).json<Connections>().providers).toEqual([...section8aAcme].sort());
    });

    it('answers an authenticated caller 405 naming the methods a path takes, and 404 for a path it does not serve', async () => {
      const wrong = await app.inject({ method: 'DELETE', url: '/v1/orgs/acme/connections', headers: bearer(adminOf('acme')) });
      expect(wrong.statusCode).toBe(405);
      expect(wrong.headers.allow).toBe('GET, HEAD, PUT');
      expect(wrong.json<HubError>()).toMatchObject({ code: 'method_not_allowed' });
      // without a token, the route's existence is not told: 401 first
      const anonymous = await app.inject({ method: 'DELETE', url: '/v1/orgs/acme/connections' });
      expect(anonymous.statusCode).toBe(401);
      const unknown = await get('/v1/nowhere');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json<HubError>()).toEqual({ code: 'not_found', message: 'no route GET /v1/nowhere' });
    });

    it('refuses PUT without the admin role: 403, nothing changes', async () => {
      const orgId = freshOrg();
      const res = await put(orgId, { providers: ['gmail'] }, token({ userId: 'bob', orgId }));
      expect(res.statusCode).toBe(403);
      expect(res.json<HubError>()).toMatchObject({ code: 'forbidden', message: expect.stringContaining("role 'admin'") });
      expect((await get(`/v1/orgs/${orgId}/connections`, adminOf(orgId))).json<Connections>().providers).toEqual([]);
    });

    it.each([
      ['no token', null, {}],
      ['a token signed with another secret', signToken({ userId: 'ada', orgId: 'acme' }, 'another-secret'), {}],
      ['a token that is not a JWT', 'not-a-jwt', {}],
      ['an expired token', signToken({ userId: 'ada', orgId: 'acme' }, SECRET, '-1s'), {}],
      ['a Basic header', null, { authorization: 'Basic YWRhOnB3' }],
    ])('answers 401 to %s on every route', async (_what, t, headers) => {
      for (const url of ['/v1/capabilities', '/v1/triggers?orgId=acme', '/v1/orgs/acme/connections', '/v1/nowhere']) {
        const res = await get(url, t, headers);
        expect(res.statusCode, url).toBe(401);
        expect(res.json<HubError>()).toMatchObject({ code: 'unauthorized', message: expect.any(String) });
      }
      const res = await app.inject({
        method: 'PUT',
        url: '/v1/orgs/acme/connections',
        headers: { ...(t ? bearer(t) : {}), ...headers },
        payload: { providers: [] },
      });
      expect(res.statusCode).toBe(401);
    });

    it('answers 401 to a token without an org claim', async () => {
      const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${part({ alg: 'HS256', typ: 'JWT' })}.${part({ sub: 'ada', iat: Math.floor(Date.now() / 1000) })}`;
      const noOrg = `${unsigned}.${createHmac('sha256', SECRET).update(unsigned).digest('base64url')}`;
      expect((await get('/v1/capabilities', noOrg)).statusCode).toBe(401);
    });
  });

  describe('changing connections', () => {
    it('replaces the set, bumps the version and the ETag, and the views follow', async () => {
      const orgId = freshOrg();
      const t = token({ userId: 'bob', orgId });
      const before = await get('/v1/capabilities', t);
      const etagBefore = before.headers.etag;

      const first = await put(orgId, { providers: ['stripe', 'gmail', 'stripe'] });
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ orgId, providers: ['gmail', 'stripe'], version: 1 });
      expect((await get(`/v1/orgs/${orgId}/connections`, t)).json()).toEqual({
        orgId,
        providers: ['gmail', 'stripe'],
        version: 1,
      });

      const after = await get('/v1/capabilities', t);
      expect(after.headers.etag).not.toBe(etagBefore);
      const connected = after
        .json<CapabilityList>()
        .capabilities.filter((c) => c.connected)
        .map((c) => c.providerId);
      expect(new Set(connected)).toEqual(new Set(['gmail', 'stripe']));

      const second = await put(orgId, { providers: ['slack'] });
      expect(second.json()).toEqual({ orgId, providers: ['slack'], version: 2 });
      const triggers = (await get('/v1/triggers', t)).json<TriggerList>().triggers;
      expect(triggers.filter((x) => x.connected).map((x) => x.id)).toEqual(['slack.mention', 'slack.new_message']);

      const none = await put(orgId, { providers: [] });
      expect(none.json()).toEqual({ orgId, providers: [], version: 3 });
    });

    it('announces every PUT as a ConnectionsChanged fact on org-connections: the providers, the version, who set them', async () => {
      const orgId = freshOrg();
      await put(orgId, { providers: ['stripe', 'gmail'] }, token({ userId: 'root', orgId, role: 'admin' }));
      await put(orgId, { providers: ['slack'] }, token({ userId: 'eve', orgId, role: 'admin' }));
      const facts = await collector.until(() => announced(orgId).length === 2 && announced(orgId), 'two changes announced');
      expect(facts.map((f) => ({ orgId: f.orgId, providers: f.providers, version: f.version, changedBy: f.changedBy }))).toEqual([
        { orgId, providers: ['gmail', 'stripe'], version: 1, changedBy: 'root' },
        { orgId, providers: ['slack'], version: 2, changedBy: 'eve' },
      ]);
      expect(facts[1]?.correlation).toEqual({ userId: 'eve' });
    });

    it('a change it could not announce for now is saved, answered 503, and announced once the broker answers, once', async () => {
      const orgId = freshOrg();
      announcing = 'failing';
      const refused = await put(orgId, { providers: ['jira'] });
      expect(refused.statusCode).toBe(503);
      expect(refused.json<HubError>()).toMatchObject({ code: 'unavailable', message: expect.stringContaining('keeps trying') });
      expect((await get(`/v1/orgs/${orgId}/connections`, adminOf(orgId))).json()).toEqual({
        orgId,
        providers: ['jira'],
        version: 1,
      });
      // it keeps trying in the background (the PUT's attempt and two more), and nothing went out meanwhile
      await waitUntil(async () => ((refusals.get(orgId) ?? 0) >= 3 ? true : undefined), 'two retries in the background', 15_000);
      await collector.caughtUp();
      expect(announced(orgId)).toEqual([]);
      // the broker is back: the hub tells the platform by itself, no second PUT
      announcing = 'on';
      const facts = await collector.until(() => announced(orgId)[0] && announced(orgId), 'the change announced', 15_000);
      await new Promise((r) => setTimeout(r, 1_500));
      expect(announced(orgId).map((f) => [f.providers, f.version])).toEqual([[['jira'], 1]]);
      expect(facts[0]?.changedBy).toBe('root');
    });

    it('a change no fact can record (a user id a fact may not carry) is saved and answered 500, not “try again”', async () => {
      const orgId = freshOrg();
      const res = await put(orgId, { providers: ['notion'] }, token({ userId: 'auth0|root', orgId, role: 'admin' }));
      expect(res.statusCode).toBe(500);
      expect(res.json<HubError>()).toMatchObject({ code: 'internal', ref: expect.any(String) });
      expect((await get(`/v1/orgs/${orgId}/connections`, adminOf(orgId))).json()).toMatchObject({ providers: ['notion'] });
    });

    it('announces nothing for a PUT it refuses', async () => {
      const orgId = freshOrg();
      expect((await put(orgId, { providers: ['gmail'] }, token({ userId: 'bob', orgId }))).statusCode).toBe(403);
      expect((await put(orgId, { providers: ['no-such-provider'] })).statusCode).toBe(422);
      // a later change of the same org is announced, and is the only one
      await put(orgId, { providers: ['notion'] });
      const facts = await collector.until(() => announced(orgId)[0] && announced(orgId), 'the accepted change announced');
      expect(facts.map((f) => f.providers)).toEqual([['notion']]);
    });

    it('keeps the version and the ETag when a PUT changes nothing', async () => {
      const orgId = freshOrg();
      await put(orgId, { providers: ['jira', 'github'] });
      const etag = (await get('/v1/triggers', adminOf(orgId))).headers.etag;
      const again = await put(orgId, { providers: ['github', 'jira'] });
      expect(again.json()).toEqual({ orgId, providers: ['github', 'jira'], version: 1 });
      expect((await get('/v1/triggers', adminOf(orgId))).headers.etag).toBe(etag);
    });

    it('keeps when each kept provider was connected', async () => {
      const orgId = freshOrg();
      await put(orgId, { providers: ['jira'] });
      const at = async () =>
        (
          await pool.query<{ connected_at: Date }>(
            'SELECT connected_at FROM org_connections WHERE org_id = $1 AND provider_id = $2',
            [orgId, 'jira'],
          )
        ).rows[0]?.connected_at;
      const first = await at();
      await put(orgId, { providers: ['jira', 'slack'] });
      expect(await at()).toEqual(first);
    });

    it('refuses unknown provider ids with 422 naming them, and changes nothing', async () => {
      const orgId = freshOrg();
      await put(orgId, { providers: ['gmail'] });
      const res = await put(orgId, { providers: ['slack', 'myspace', 'friendster'] });
      expect(res.statusCode).toBe(422);
      const body = res.json<HubError>();
      expect(body).toMatchObject({ code: 'validation_failed', field: '/providers/1' });
      expect(body.message).toContain('"myspace"');
      expect(body.message).toContain('"friendster"');
      expect((await get(`/v1/orgs/${orgId}/connections`, adminOf(orgId))).json()).toEqual({
        orgId,
        providers: ['gmail'],
        version: 1,
      });
    });

    it('refuses a malformed body with 422 naming the field, and a bad org id with 400', async () => {
      const orgId = freshOrg();
      const notArray = await put(orgId, { providers: 'gmail' });
      expect(notArray.statusCode).toBe(422);
      expect(notArray.json<HubError>()).toMatchObject({ code: 'validation_failed', field: '/providers' });
      const extra = await put(orgId, { providers: [], also: 1 });
      expect(extra.statusCode).toBe(422);
      const badId = await put(orgId, { providers: ['no spaces'] });
      expect(badId.json<HubError>()).toMatchObject({ code: 'validation_failed', field: '/providers/0' });
      const badQuery = await get('/v1/capabilities?orgId=a%20b');
      expect(badQuery.statusCode).toBe(400);
      expect(badQuery.json<HubError>()).toMatchObject({ code: 'bad_request', field: 'orgId' });
      const notJson = await app.inject({
        method: 'PUT',
        url: `/v1/orgs/${orgId}/connections`,
        headers: { ...bearer(adminOf(orgId)), 'content-type': 'application/json' },
        payload: '{"providers": [',
      });
      expect(notJson.statusCode).toBe(400);
      expect(notJson.json<HubError>().code).toBe('bad_request');
    });

    it('applies concurrent PUTs of one org one after the other: every change gets its own version', async () => {
      const orgId = freshOrg();
      const sets = [['gmail'], ['slack'], ['jira'], ['github'], ['notion'], ['stripe'], ['twilio'], ['http']];
      const results = await Promise.all(sets.map((providers) => put(orgId, { providers })));
      const versions = results.map((r) => r.json<Connections>().version).sort((a, b) => a - b);
      expect(versions).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
      const last = results.find((r) => r.json<Connections>().version === 8)!.json<Connections>();
      expect((await get(`/v1/orgs/${orgId}/connections`, adminOf(orgId))).json()).toEqual(last);
    });
  });

  describe('ETags', () => {
    it('answers 304 without a body to a matching If-None-Match, and 200 to a stale one', async () => {
      for (const url of ['/v1/capabilities?orgId=acme', '/v1/triggers']) {
        const first = await get(url);
        const etag = first.headers.etag as string;
        expect(etag).toMatch(/^"c\d+\.o\d+"$/);
        expect(first.headers['cache-control']).toBe('private, no-cache');

        const cached = await get(url, acmeMember, { 'if-none-match': etag });
        expect(cached.statusCode).toBe(304);
        expect(cached.body).toBe('');
        expect(cached.headers.etag).toBe(etag);
        expect((await get(url, acmeMember, { 'if-none-match': `W/${etag}` })).statusCode).toBe(304);
        expect((await get(url, acmeMember, { 'if-none-match': `"stale", ${etag}` })).statusCode).toBe(304);

        const stale = await get(url, acmeMember, { 'if-none-match': '"c0.o0"' });
        expect(stale.statusCode).toBe(200);
        expect(stale.json()).toEqual(first.json());
      }
    });

    it('never answers 304 to a request that may not read the org', async () => {
      const etag = (await get('/v1/capabilities')).headers.etag as string;
      expect(
        (await get('/v1/capabilities?orgId=acme', token({ userId: 'eve', orgId: 'globex' }), { 'if-none-match': etag }))
          .statusCode,
      ).toBe(404);
      expect((await get('/v1/capabilities', null, { 'if-none-match': etag })).statusCode).toBe(401);
    });
  });
});

describe('a change to the catalog', () => {
  // Its own database: bumping the catalog version of the shared one would make other test files' caches miss.
  const databaseUrl = withDatabase(inject('databaseUrl'), `${databaseName(inject('databaseUrl'))}_catalog`);
  let pool: Pool;
  let app: FastifyInstance;

  beforeAll(async () => {
    await migrate(databaseUrl);
    pool = createPool(databaseUrl, 2);
    // as main builds it (bootService): its parser, not-found and refusals
    app = createHttpApp(createLogger('connect-hub-test', 'silent'));
    // no connections change here: nothing to announce
    await app.register(connectHub, {
      prefix: API_PREFIX,
      store: postgresStore(pool),
      verify: tokenVerifier(SECRET),
      announce: async () => {},
    });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await pool?.end();
    await dropDatabase(databaseUrl);
  });

  it("makes every org's ETag stale, and the new catalog is served", async () => {
    const orgs = [acmeMember, token({ userId: 'bob', orgId: freshOrg() })];
    const etags = async () =>
      Promise.all(orgs.map(async (t) => (await app.inject({ url: '/v1/capabilities', headers: bearer(t) })).headers.etag));
    const before = await etags();
    await pool.query("UPDATE capabilities SET description = 'Send an email, now better.' WHERE id = 'gmail.send_email'");
    const after = await etags();
    expect(after[0]).not.toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    const res = await app.inject({
      url: '/v1/capabilities',
      headers: { ...bearer(acmeMember), 'if-none-match': before[0] as string },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json<CapabilityList>().capabilities.find((c) => c.id === 'gmail.send_email')?.description).toBe(
      'Send an email, now better.',
    );
  });
});
