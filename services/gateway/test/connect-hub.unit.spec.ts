import { describe, expect, it } from 'vitest';
import { HttpConnectHub } from '../src/hooks/connect-hub';

/** A Connect Hub answering from `providers`, counting the requests it gets. */
function hub(providers: () => string[]) {
  const asked: string[] = [];
  const fetch = (async (url: string | URL) => {
    const path = String(url).replace('http://hub', '');
    asked.push(path);
    const body = path.includes('/connections')
      ? { providers: providers() }
      : path.includes('/capabilities')
        ? { capabilities: [{ id: 'stripe.refund_payment', providerId: 'stripe', inputSchema: { properties: { amount: {} } } }] }
        : { triggers: [] };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { asked, fetch };
}

describe("the gateway's view of an org in the Connect Hub", () => {
  it('given a view read a moment ago, then a webhook reuses it, and an activation reads it afresh', async () => {
    let connected = ['zendesk'];
    let now = 0;
    const { asked, fetch } = hub(() => connected);
    const client = new HttpConnectHub({ baseUrl: 'http://hub', secret: 's'.repeat(32), fetch, now: () => now });
    expect((await client.orgView('acme')).providers).toEqual(['zendesk']);
    connected = ['zendesk', 'hubspot'];
    now = 1_000;
    // within the few seconds a view is kept: the same view, no request
    expect((await client.orgView('acme')).providers).toEqual(['zendesk']);
    expect(asked).toHaveLength(2);
    // "connect the provider, activate again, and it is on"
    expect((await client.orgView('acme', { fresh: true })).providers).toEqual(['zendesk', 'hubspot']);
    expect(asked).toHaveLength(4);
    // and what it read is the view kept from then on
    expect((await client.orgView('acme')).providers).toEqual(['zendesk', 'hubspot']);
    expect(asked).toHaveLength(4);
  });

  it("given a policy to check, then the catalog's tools are the hub's, in the org's view", async () => {
    const { asked, fetch } = hub(() => []);
    const client = new HttpConnectHub({ baseUrl: 'http://hub', secret: 's'.repeat(32), fetch });
    expect((await client.capabilities('acme')).map((c) => c.id)).toEqual(['stripe.refund_payment']);
    expect(asked).toEqual(['/v1/capabilities?orgId=acme']);
  });
});
