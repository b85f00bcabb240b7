import { tokenVerifier } from '@hireloop/platform';
import { builtInCatalog, type CapabilityView, type TriggerView } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { ConnectHubClient, connectHubUrl, toCatalog } from '../src/connect-hub/client';
import { markedList, sharedList, unmarked } from '../src/connect-hub/shared';

const SECRET = 'unit-secret';
const capabilities = builtInCatalog.capabilities.slice(0, 3);
const triggers = builtInCatalog.triggers.slice(0, 2);

/** A hub in memory: each org's version, and the ETags the client sent. */
function fakeHub(versionOf: (orgId: string, path: string) => number) {
  const seen: { path: string; orgId: string; ifNoneMatch: string | null; sub: string }[] = [];
  const verify = tokenVerifier(SECRET);
  const fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const principal = verify((headers.get('authorization') ?? '').replace(/^Bearer /, ''));
    const orgId = url.searchParams.get('orgId') ?? '';
    const path = url.pathname.replace('/v1/', '');
    seen.push({ path, orgId, ifNoneMatch: headers.get('if-none-match'), sub: principal.userId });
    expect(principal.orgId).toBe(orgId);
    const etag = `"c1.o${versionOf(orgId, path)}"`;
    if (headers.get('if-none-match') === etag) return new Response(null, { status: 304, headers: { etag } });
    const connected = (providerId: string) => providerId === 'gmail';
    const body =
      path === 'capabilities'
        ? { orgId, capabilities: capabilities.map((c) => ({ ...c, connected: connected(c.providerId) })) }
        : { orgId, triggers: triggers.map((t) => ({ ...t, connected: connected(t.providerId) })) };
    return Response.json(body, { headers: { etag } });
  };
  return { fetch: fetch as typeof globalThis.fetch, seen };
}

describe('the Connect Hub client', () => {
  it('defaults to the hub on 127.0.0.1:8085 and reads CONNECT_HUB_URL', () => {
    expect(connectHubUrl({})).toBe('http://127.0.0.1:8085');
    expect(connectHubUrl({ CONNECT_HUB_URL: 'http://hub:9000' })).toBe('http://hub:9000');
  });

  it('turns the views into the analyst catalog: items without the flag, connected providers sorted', () => {
    const catalog = toCatalog(
      capabilities.map((c) => ({ ...c, connected: c.providerId === 'gmail' })),
      triggers.map((t) => ({ ...t, connected: t.providerId === 'google-calendar' })),
    );
    expect(catalog.capabilities).toEqual(capabilities);
    expect(catalog.triggers).toEqual(triggers);
    expect(catalog.connected).toEqual(['gmail', 'google-calendar']);
  });

  it('signs its own token for the org it asks about, and sends the cached ETag', async () => {
    const hub = fakeHub(() => 1);
    const client = new ConnectHubClient({ baseUrl: 'http://hub/', secret: SECRET, fetch: hub.fetch });
    await client.catalog('acme');
    await client.catalog('globex');
    await client.catalog('acme');
    expect(hub.seen.map((s) => [s.orgId, s.ifNoneMatch])).toEqual([
      ['acme', null],
      ['acme', null],
      ['globex', null],
      ['globex', null],
      ['acme', '"c1.o1"'],
      ['acme', '"c1.o1"'],
    ]);
    expect(new Set(hub.seen.map((s) => s.sub))).toEqual(new Set(['service:graph-creator']));
    expect(client.stats).toEqual({ fetched: 4, notModified: 2, servedStale: 0 });
  });

  it('asks again when a change lands between its two requests, so capabilities and triggers agree', async () => {
    let calls = 0;
    // The first capabilities answer is at version 1; everything after it at version 2.
    const hub = fakeHub(() => (calls++ === 0 ? 1 : 2));
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch: hub.fetch });
    await client.catalog('acme');
    expect(hub.seen).toHaveLength(4);
    expect(hub.seen[2]).toMatchObject({ path: 'capabilities', ifNoneMatch: '"c1.o1"' });
    expect(hub.seen[3]).toMatchObject({ path: 'triggers', ifNoneMatch: '"c1.o2"' });
  });

  it('given a hub that is away for two calls, when the catalog is asked for the first time, then it is asked again and answered', async () => {
    const hub = fakeHub(() => 1);
    let away = 2;
    const flaky = (async (input: string | URL | Request, init?: RequestInit) => {
      if (away > 0) {
        away--;
        throw new TypeError('fetch failed: connect ECONNREFUSED');
      }
      return hub.fetch(input, init);
    }) as typeof globalThis.fetch;
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch: flaky, retryDelayMs: 1 });
    const catalog = await client.catalog('acme');
    expect(catalog.capabilities).toHaveLength(capabilities.length);
    expect(away).toBe(0);
  });

  it('given a view seen before, when the hub answers 503, then the last good view is served', async () => {
    const hub = fakeHub(() => 1);
    let down = false;
    const fetch = (async (input: string | URL | Request, init?: RequestInit) =>
      down ? new Response('restarting', { status: 503 }) : hub.fetch(input, init)) as typeof globalThis.fetch;
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch, retryDelayMs: 1 });
    const before = await client.catalog('acme');
    down = true;
    expect(await client.catalog('acme')).toBe(before);
    expect(client.stats.servedStale).toBe(2);
  });

  it('given a hub that refuses the request (4xx), then nothing is retried and the refusal stands', async () => {
    let calls = 0;
    const fetch = (async () => {
      calls++;
      return Response.json({ message: 'unknown org' }, { status: 404 });
    }) as typeof globalThis.fetch;
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch, retryDelayMs: 1 });
    await expect(client.catalog('acme')).rejects.toThrow(/404/);
    expect(calls).toBe(2); // one per view, none again
  });

  it('given a hub away for longer than its retries and nothing seen before, then the call fails as unavailable', async () => {
    const fetch = (async () => new Response('down', { status: 502 })) as typeof globalThis.fetch;
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch, retries: 2, retryDelayMs: 1 });
    await expect(client.catalog('acme')).rejects.toMatchObject({ code: 'UNAVAILABLE' });
  });

  it('keeps at most maxOrgs orgs, dropping the least recently used', async () => {
    const hub = fakeHub(() => 1);
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch: hub.fetch, maxOrgs: 2 });
    await client.catalog('a');
    await client.catalog('b');
    await client.catalog('a'); // a is now the most recent
    await client.catalog('c'); // b goes
    hub.seen.length = 0;
    await client.catalog('a');
    await client.catalog('b');
    expect(hub.seen.map((s) => [s.orgId, s.ifNoneMatch !== null])).toEqual([
      ['a', true],
      ['a', true],
      ['b', false],
      ['b', false],
    ]);
  });

  it('given two orgs whose views hold the same items, then both catalogs share one frozen list and keep their own connections', async () => {
    const hub = fakeHub(() => 1);
    const connectedOf = (orgId: string) => (orgId === 'acme' ? ['gmail'] : []);
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const res = await hub.fetch(input, init);
      if (res.status !== 200) return res;
      const orgId = new URL(String(input)).searchParams.get('orgId') ?? '';
      const body = (await res.json()) as { capabilities?: CapabilityView[]; triggers?: TriggerView[] };
      const mark = <T extends { providerId: string }>(items: T[] | undefined) =>
        items?.map((item) => ({ ...item, connected: connectedOf(orgId).includes(item.providerId) }));
      return Response.json(
        { ...body, capabilities: mark(body.capabilities), triggers: mark(body.triggers) },
        { headers: { etag: res.headers.get('etag') ?? '' } },
      );
    }) as typeof globalThis.fetch;
    const client = new ConnectHubClient({ baseUrl: 'http://hub', secret: SECRET, fetch });
    const acme = await client.catalog('acme');
    const globex = await client.catalog('globex');
    expect(globex.capabilities).toBe(acme.capabilities);
    expect(globex.triggers).toBe(acme.triggers);
    expect(Object.isFrozen(acme.capabilities[0])).toBe(true);
    expect(acme.capabilities).toEqual(capabilities);
    expect(acme.connected).toEqual(['gmail']);
    expect(globex.connected).toEqual([]);
    const marks = async (orgId: string) => (await client.capabilities(orgId)).filter((c) => c.connected).map((c) => c.providerId);
    expect(new Set(await marks('acme'))).toEqual(new Set(['gmail']));
    expect(await marks('globex')).toEqual([]);
  });
});

describe('catalog lists shared across orgs', () => {
  it('given the same content parsed twice, then the second read is the first list, deeply frozen', () => {
    const first = sharedList(JSON.parse(JSON.stringify(capabilities)) as typeof capabilities);
    const second = sharedList(JSON.parse(JSON.stringify(capabilities)) as typeof capabilities);
    expect(second).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first[0]?.inputSchema)).toBe(true);
  });

  it('given different content, then a different list', () => {
    expect(sharedList(capabilities.slice(0, 1))).not.toBe(sharedList(capabilities.slice(0, 2)));
  });

  it('given a list and the connected providers, then each item is marked by its provider, once per set of providers', () => {
    const list = sharedList(capabilities);
    const marked = markedList(list, ['gmail']);
    expect(marked.map((c) => c.connected)).toEqual(capabilities.map((c) => c.providerId === 'gmail'));
    expect(markedList(list, ['gmail'])).toBe(marked);
    expect(markedList(list, [])).not.toBe(marked);
    expect(unmarked(marked[0] as CapabilityView)).toEqual(capabilities[0]);
  });
});
