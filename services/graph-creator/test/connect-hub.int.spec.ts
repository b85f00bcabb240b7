import { randomUUID } from 'node:crypto';
import { HireloopError, signToken } from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { builtInCatalog, devOrgConnections } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { ConnectHubClient } from '../src/connect-hub/client';
import { connectHubTools } from '../src/connect-hub/tools';

const SECRET = 'graph-creator-connect-hub-test-secret';
/** Orgs of their own for tests that change connections: acme is shared with other test files. */
const freshOrg = () => `org-${randomUUID().slice(0, 8)}`;

describe('the Connect Hub client against the connect-hub process', () => {
  let hub: ServiceProcess;
  let baseUrl: string;

  beforeAll(async () => {
    hub = await startServiceProcess('connect-hub', {
      DATABASE_URL: inject('databaseUrl'),
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      TOPIC_PREFIX: inject('topicPrefix'),
      JWT_SECRET: SECRET,
    });
    baseUrl = hub.url('');
    await waitUntil(
      async () => ((await fetch(hub.url('/healthz')).catch(() => undefined))?.ok ? true : undefined),
      'connect-hub /healthz',
    );
  });
  afterAll(async () => {
    await hub?.stop();
  });

  const connect = async (orgId: string, providers: string[]) => {
    const res = await fetch(`${baseUrl}/v1/orgs/${orgId}/connections`, {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${signToken({ userId: 'root', orgId, role: 'admin' }, SECRET)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ providers }),
    });
    expect(res.status).toBe(200);
  };

  it("returns acme's catalog: every item of the built-in catalog and acme's connected providers", async () => {
    const client = new ConnectHubClient({ baseUrl, secret: SECRET });
    const catalog = await client.catalog('acme');
    const byId = <T extends { id: string }>(items: readonly T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));
    expect(byId(catalog.capabilities)).toEqual(byId(builtInCatalog.capabilities));
    expect(byId(catalog.triggers)).toEqual(byId(builtInCatalog.triggers));
    expect(catalog.connected).toEqual([...devOrgConnections].sort());
    expect(client.stats).toEqual({ fetched: 2, notModified: 0, servedStale: 0 });
  });

  it('serves the cached view while the hub answers 304, counting each', async () => {
    const client = new ConnectHubClient({ baseUrl, secret: SECRET });
    const first = await client.catalog('acme');
    const second = await client.catalog('acme');
    const third = await client.catalog('acme');
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(client.stats).toEqual({ fetched: 2, notModified: 4, servedStale: 0 });
    expect((await client.capabilities('acme')).length).toBe(builtInCatalog.capabilities.length);
    expect(client.stats.notModified).toBe(5);
  });

  it("refetches on the next call after the org's connections change, then caches again", async () => {
    const orgId = freshOrg();
    const client = new ConnectHubClient({ baseUrl, secret: SECRET });
    expect((await client.catalog(orgId)).connected).toEqual([]);
    expect(client.stats).toEqual({ fetched: 2, notModified: 0, servedStale: 0 });

    await connect(orgId, ['stripe', 'quickbooks']);
    const changed = await client.catalog(orgId);
    expect(changed.connected).toEqual(['quickbooks', 'stripe']);
    expect(client.stats).toEqual({ fetched: 4, notModified: 0, servedStale: 0 });

    expect(await client.catalog(orgId)).toBe(changed);
    expect(client.stats).toEqual({ fetched: 4, notModified: 2, servedStale: 0 });

    await connect(orgId, ['stripe', 'quickbooks']); // the same set: nothing changes, the cache holds
    expect(await client.catalog(orgId)).toBe(changed);
    expect(client.stats).toEqual({ fetched: 4, notModified: 4, servedStale: 0 });
  });

  it("keeps each org's view apart", async () => {
    const orgId = freshOrg();
    await connect(orgId, ['github']);
    const client = new ConnectHubClient({ baseUrl, secret: SECRET });
    const [acme, other] = await Promise.all([client.catalog('acme'), client.catalog(orgId)]);
    expect(acme.connected).toEqual([...devOrgConnections].sort());
    expect(other.connected).toEqual(['github']);
  });

  it('fails with UNAUTHORIZED when its secret is not the hub’s, and UNAVAILABLE when the hub does not answer', async () => {
    const wrongSecret = new ConnectHubClient({ baseUrl, secret: 'not-the-secret' });
    await expect(wrongSecret.catalog('acme')).rejects.toMatchObject({ code: 'UNAUTHORIZED', permanent: true });

    const away = new ConnectHubClient({ baseUrl: 'http://127.0.0.1:1', secret: SECRET, timeoutMs: 1_000 });
    const error = await away.catalog('acme').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HireloopError);
    expect(error).toMatchObject({ code: 'UNAVAILABLE', permanent: false });
  });

  describe('the get_capabilities and get_triggers tools', () => {
    it("answer with the org's capabilities as JSON, each marked connected", async () => {
      const { getCapabilities } = connectHubTools(new ConnectHubClient({ baseUrl, secret: SECRET }));
      expect(getCapabilities.name).toBe('get_capabilities');
      const out = JSON.parse(await getCapabilities.invoke({ orgId: 'acme' })) as {
        orgId: string;
        connected: string[];
        capabilities: {
          id: string;
          providerId: string;
          description: string;
          inputSchema: { type: string };
          connected: boolean;
        }[];
      };
      expect(out.orgId).toBe('acme');
      expect(out.connected).toEqual([...devOrgConnections].sort());
      expect(out.capabilities).toHaveLength(builtInCatalog.capabilities.length);
      const byId = new Map(out.capabilities.map((c) => [c.id, c]));
      expect(byId.get('zendesk.reply_ticket')).toMatchObject({
        providerId: 'zendesk',
        connected: true,
        inputSchema: { type: 'object' },
      });
      expect(byId.get('stripe.refund_payment')).toMatchObject({ providerId: 'stripe', connected: false });
      for (const c of out.capabilities) expect(c.connected, c.id).toBe(devOrgConnections.includes(c.providerId));
    });

    it("answer with the org's triggers as JSON, each marked connected", async () => {
      const orgId = freshOrg();
      await connect(orgId, ['schedule', 'greenhouse']);
      const { getTriggers } = connectHubTools(new ConnectHubClient({ baseUrl, secret: SECRET }));
      expect(getTriggers.name).toBe('get_triggers');
      const out = JSON.parse(await getTriggers.invoke({ orgId })) as {
        connected: string[];
        triggers: { id: string; paramsSchema: { required: string[] }; connected: boolean }[];
      };
      expect(out.connected).toEqual(['greenhouse', 'schedule']);
      expect(out.triggers).toHaveLength(builtInCatalog.triggers.length);
      expect(
        out.triggers
          .filter((t) => t.connected)
          .map((t) => t.id)
          .sort(),
      ).toEqual(['greenhouse.candidate_applied', 'schedule.cron']);
      expect(out.triggers.find((t) => t.id === 'schedule.cron')?.paramsSchema.required).toEqual(['expression']);
    });

    it("refuse an org id that breaks the input schema, and another org than the run's", async () => {
      const { getCapabilities, getTriggers } = connectHubTools(new ConnectHubClient({ baseUrl, secret: SECRET }));
      await expect(getCapabilities.invoke({ orgId: 'not an id' })).rejects.toThrow();
      await expect(getTriggers.invoke({ orgId: 'globex' }, { configurable: { orgId: 'acme' } })).rejects.toMatchObject({
        code: 'NOT_FOUND',
      });
      const own = JSON.parse(await getTriggers.invoke({ orgId: 'acme' }, { configurable: { orgId: 'acme' } })) as {
        triggers: unknown[];
      };
      expect(own.triggers.length).toBe(builtInCatalog.triggers.length);
    });
  });
});
