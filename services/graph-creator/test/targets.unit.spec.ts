import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtInCatalog, type CatalogCapability } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnectors } from '../src/tools/connectors';
import { httpConnector } from '../src/tools/http';
import { deniedHosts, gatewayPort, ownEndpoints, refusedAddress, refusedTarget } from '../src/tools/targets';

const env = {
  CONNECT_HUB_URL: 'http://127.0.0.1:8085',
  DATABASE_URL: 'postgres://postgres@db.internal:6543/hireloop',
  KAFKA_BROKERS: '127.0.0.1:19092,kafka.internal:9092',
  GATEWAY_PORT: '8080',
};
const own = ownEndpoints(env);
const refused = (url: string) => refusedTarget(new URL(url), own, gatewayPort(env));

describe("an employee's HTTP call and the platform's own addresses", () => {
  it("given hireloop's services, broker and database, when an employee's call names them, then it is refused, whatever loopback name it uses", () => {
    for (const url of [
      'http://127.0.0.1:8085/v1/orgs/acme/connections',
      'http://localhost:8084/metrics',
      'http://[::1]:8082/healthz',
      'http://0.0.0.0:8083/',
      'http://127.0.0.1:19092/',
      'http://kafka.internal:9092/',
      'http://db.internal:6543/',
      'http://127.0.0.1:5432/',
    ])
      expect(refused(url), url).toMatch(/hireloop's own services/);
  });

  it('given a link-local or cloud metadata address, or loopback written inside IPv6, when called, then it is refused', () => {
    expect(refused('http://169.254.169.254/latest/meta-data/')).toMatch(/metadata/);
    expect(refused('http://169.254.170.2/v2/credentials')).toMatch(/link-local/);
    expect(refused('http://[::ffff:0:0]:8084/metrics')).toMatch(/own services/);
    expect(refused('http://[::ffff:127.0.0.1]:8085/')).toMatch(/own services/);
  });

  it('given the hosts the platform is reached by (HTTP_DENY_HOSTS), when called on any port, then refused, but for the gateway’s webhooks', () => {
    const denied = deniedHosts({ HTTP_DENY_HOSTS: 'gateway, event-store,kafka' });
    const by = (url: string) => refusedTarget(new URL(url), own, 8080, denied);
    expect(by('http://event-store:8084/metrics')).toMatch(/own hosts/);
    expect(by('http://kafka:9093/')).toMatch(/own hosts/);
    expect(by('http://gateway:8080/v1/employees')).toMatch(/own hosts/);
    expect(by('http://gateway:8080/v1/hooks/emp-1/wf-1')).toBeUndefined();
  });

  it('given the gateway, when an employee posts to a webhook of another employee, then it may; any other path of the gateway is refused', () => {
    expect(refused('http://127.0.0.1:8080/v1/hooks/emp-1/wf-1')).toBeUndefined();
    expect(refused('http://localhost:8080/v1/employees')).toMatch(/only its webhooks/);
  });

  it('given a name that resolves to an address of the platform, when its address is judged, then it is refused as the address would be, naming both', () => {
    const judge = (url: URL) => refusedTarget(url, own, gatewayPort(env));
    expect(refusedAddress('127.0.0.1', new URL('http://hub.example.test:8085/v1/capabilities'), judge)).toMatch(
      /^hub\.example\.test resolves to 127\.0\.0\.1: .*own services/,
    );
    expect(refusedAddress('::1', new URL('http://hub.example.test:8084/metrics'), judge)).toMatch(/resolves to ::1/);
    expect(refusedAddress('169.254.169.254', new URL('http://meta.example.test/latest/'), judge)).toMatch(/metadata/);
    expect(refusedAddress('127.0.0.1', new URL('http://gw.example.test:8080/v1/employees'), judge)).toMatch(/only its webhooks/);
    expect(refusedAddress('127.0.0.1', new URL('http://gw.example.test:8080/v1/hooks/e/w'), judge)).toBeUndefined();
    expect(refusedAddress('93.184.215.14', new URL('http://api.example.test:8085/'), judge)).toBeUndefined();
  });

  it('given any other address, a local server on a port of its own among them, when called, then it goes', () => {
    for (const url of ['https://api.example.com/v1/leads', 'http://127.0.0.1:39111/leads', 'http://db.internal:5432/'])
      expect(refused(url), url).toBeUndefined();
  });
});

describe('http.request and a redirect to a refused address', () => {
  const request = builtInCatalog.capabilities.find((c) => c.id === 'http.request') as CatalogCapability;
  const ctx = { orgId: 'acme', executionId: 'x-1', stepId: 's1', idempotencyKey: 'k' };
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const port = (server.address() as AddressInfo).port;
      if (req.url === '/away') res.writeHead(302, { location: 'http://127.0.0.1:8085/v1/capabilities' }).end();
      else if (req.url === '/moved') res.writeHead(301, { location: '/here' }).end();
      else if (req.url === '/elsewhere') res.writeHead(302, { location: `http://localhost:${port}/echo` }).end();
      else if (req.url === '/see-other') res.writeHead(303, { location: '/echo' }).end();
      else if (req.url === '/data') res.writeHead(302, { location: 'data:application/json,{"secret":1}' }).end();
      else if (req.url === '/broken') res.writeHead(302, { location: 'http://[::1' }).end();
      else if (req.url === '/echo')
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            method: req.method,
            auth: req.headers.authorization ?? null,
            type: req.headers['content-type'] ?? null,
          }),
        );
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  const connector = httpConnector({ refuse: (url) => refusedTarget(url, own, gatewayPort(env)) });

  it('given a server that redirects to a service of hireloop, when called, then the redirect is refused, not followed', async () => {
    await expect(connector.call(request, { method: 'GET', url: `${base}/away` }, ctx)).rejects.toMatchObject({
      code: 'target_refused',
    });
  });

  it('given a redirect within the same server, when called, then it is followed', async () => {
    await expect(connector.call(request, { method: 'GET', url: `${base}/moved` }, ctx)).resolves.toMatchObject({ status: 200 });
  });

  it('given a URL of hireloop itself, when called, then nothing is sent', async () => {
    await expect(
      connector.call(request, { method: 'GET', url: 'http://127.0.0.1:8085/v1/orgs/acme/connections' }, ctx),
    ).rejects.toMatchObject({ code: 'target_refused' });
  });

  it("given the worker's connectors as it loads them, when an employee's http.request or webhook.send names hireloop, then they refuse it", async () => {
    const connectors = await loadConnectors(env);
    const send = connectors.extraCapabilities().find((c) => c.id === 'webhook.send') as CatalogCapability;
    await expect(
      connectors.for('http').call(request, { method: 'GET', url: 'http://localhost:8085/v1/capabilities' }, ctx),
    ).rejects.toMatchObject({ code: 'target_refused' });
    await expect(
      connectors.for('webhook').call(send, { url: 'http://127.0.0.1:8084/metrics', payload: {} }, ctx),
    ).rejects.toMatchObject({ code: 'target_refused' });
  });

  it('given a redirect to another origin, when followed, then the caller’s credentials are not sent there', async () => {
    const out = await connector.call(
      request,
      { method: 'GET', url: `${base}/elsewhere`, headers: { authorization: 'Bearer SECRET', 'x-trace': '1' } },
      ctx,
    );
    expect(JSON.parse(String(out.body))).toEqual({ method: 'GET', auth: null, type: null });
  });

  it('given a 303 after a POST, when followed, then it is a GET without the body or its headers; the same origin keeps its credentials', async () => {
    const out = await connector.call(
      request,
      { method: 'POST', url: `${base}/see-other`, body: '{"a":1}', headers: { authorization: 'Bearer SECRET' } },
      ctx,
    );
    expect(JSON.parse(String(out.body))).toEqual({ method: 'GET', auth: 'Bearer SECRET', type: null });
  });

  it('given a redirect to another scheme or an unreadable location, when called, then the call fails as the provider’s answer', async () => {
    await expect(connector.call(request, { method: 'GET', url: `${base}/data` }, ctx)).rejects.toMatchObject({
      code: 'http_error',
      message: expect.stringContaining('data:'),
    });
    await expect(connector.call(request, { method: 'GET', url: `${base}/broken` }, ctx)).rejects.toMatchObject({
      code: 'http_error',
    });
  });
});

describe('http.request to a name that resolves to a refused address', () => {
  const request = builtInCatalog.capabilities.find((c) => c.id === 'http.request') as CatalogCapability;
  const ctx = { orgId: 'acme', executionId: 'x-2', stepId: 's1', idempotencyKey: 'k2' };
  let server: Server;
  let port = 0;
  let hits = 0;
  beforeAll(async () => {
    server = createServer((req, res) => {
      hits += 1;
      if (req.url === '/to-name') res.writeHead(302, { location: `http://inside.example.test:${port}/secret` }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise((r) => server.close(r)));

  /** The DNS the test controls: every *.example.test name is the loopback address, answered as the caller asks (one, or all). */
  const resolve = (
    hostname: string,
    options: { all?: boolean },
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | { address: string; family: number }[],
      family?: number,
    ) => void,
  ) => {
    const address = hostname.endsWith('.metadata.test') ? '169.254.169.254' : '127.0.0.1';
    if (!hostname.endsWith('.test'))
      return callback(Object.assign(new Error(`no such name ${hostname}`), { code: 'ENOTFOUND' }), '');
    if (options.all) callback(null, [{ address, family: 4 }]);
    else callback(null, address, 4);
  };
  /** hireloop's own services here: the test server's port on loopback (as the Connect Hub's is on the worker's host) */
  const platform = (): ReadonlySet<string> => new Set([`loopback:${port}`]);

  it('given a public-looking name that resolves to a service of hireloop, when called, then it is refused before anything is sent', async () => {
    const connector = httpConnector({ refuse: (url) => refusedTarget(url, platform(), 8080), resolve });
    const before = hits;
    await expect(
      connector.call(request, { method: 'GET', url: `http://records.example.test:${port}/` }, ctx),
    ).rejects.toMatchObject({
      code: 'target_refused',
      message: expect.stringContaining('records.example.test resolves to 127.0.0.1'),
    });
    expect(hits).toBe(before);
  });

  it('given a name that resolves to the cloud metadata address, when called, then it is refused', async () => {
    const connector = httpConnector({ refuse: (url) => refusedTarget(url, new Set(), 8080), resolve });
    await expect(
      connector.call(request, { method: 'GET', url: 'http://creds.metadata.test/latest/meta-data/' }, ctx),
    ).rejects.toMatchObject({ code: 'target_refused', message: expect.stringContaining('169.254.169.254') });
  });

  it('given a redirect to a name that resolves to a service of hireloop, when followed, then the redirect is refused', async () => {
    // the first hop (/to-name) is allowed; where it redirects, a name that resolves to a refused address, is not
    const connector = httpConnector({
      refuse: (url) => (url.pathname === '/to-name' ? undefined : refusedTarget(url, platform(), 8080)),
      resolve,
    });
    await expect(connector.call(request, { method: 'GET', url: `http://127.0.0.1:${port}/to-name` }, ctx)).rejects.toMatchObject({
      code: 'target_refused',
      message: expect.stringContaining('inside.example.test resolves to'),
    });
  });

  it('given a name that resolves to an address that is allowed, when called, then the call connects there and is answered', async () => {
    const connector = httpConnector({ refuse: (url) => refusedTarget(url, new Set(), 8080), resolve });
    const before = hits;
    await expect(
      connector.call(request, { method: 'GET', url: `http://records.example.test:${port}/` }, ctx),
    ).resolves.toMatchObject({ status: 200, body: '{"ok":true}' });
    expect(hits).toBe(before + 1);
  });
});

describe('an address a URL cannot hold', () => {
  it('given a name that resolves to a scoped IPv6 address, when judged, then it is refused, not judged by its name', () => {
    expect(refusedAddress('fe80::1%eth0', new URL('http://printer.example.test/'), () => undefined)).toMatch(/cannot be judged/);
  });
});
