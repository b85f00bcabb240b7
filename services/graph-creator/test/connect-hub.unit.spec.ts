import { tokenVerifier } from '@hireloop/platform';
import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { ConnectHubClient, connectHubUrl, toCatalog } from '../src/connect-hub/client';

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
    expect(client.stats).toEqual({ fetched: 4, notModified: 2 });
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
});
