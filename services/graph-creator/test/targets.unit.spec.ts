import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtInCatalog, type CatalogCapability } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConnectors } from '../src/tools/connectors';
import { httpConnector } from '../src/tools/http';
import { deniedHosts, gatewayPort, ownEndpoints, refusedTarget } from '../src/tools/targets';

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
