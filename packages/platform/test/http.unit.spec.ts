import { once } from 'node:events';
import type { AddressInfo, Socket } from 'node:net';
import { connect } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { FastifyError, FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpApp, LINGER_MS } from '../src/http';
import { fastifyClientError } from '../src/http-errors';
import { createLogger } from '../src/logger';

const BODY_LIMIT = 1_024;
/** generous: a paced 2 MB upload on a slow, shared host */
const TIMEOUT_MS = 30_000;
const DECLARED = 2_000_000;
const CHUNK = Buffer.alloc(32 * 1_024, 'x');

/** A raw client connection whose side stays open on the server's FIN, and what it read. */
interface RawClient {
  socket: Socket;
  /** what the client read */
  answer: string;
  /** the client's socket error, if any (a reset: EPIPE, ECONNRESET) */
  error: NodeJS.ErrnoException | undefined;
  /** the server half-closed (the client read a FIN) */
  ended: boolean;
  /** resolves once the connection is closed (not `once(socket, 'close')`, which rejects on the socket's error) */
  closed: Promise<unknown>;
}

async function rawClient(port: number): Promise<RawClient> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  const client: RawClient = {
    socket,
    answer: '',
    error: undefined,
    ended: false,
    closed: new Promise((resolve) => socket.once('close', resolve)),
  };
  socket.on('data', (chunk: Buffer) => {
    client.answer += chunk.toString('latin1');
  });
  socket.on('end', () => {
    client.ended = true;
  });
  socket.on('error', (error) => {
    client.error = error;
  });
  return client;
}

const uploadHead = (length: number) =>
  `POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;

/**
 * A client that declares a body far over the limit and keeps writing it, a chunk every `paceMs`,
 * whatever the server answers meanwhile; then closes its side and waits for the connection to close.
 */
async function postTooLarge(port: number, paceMs: number): Promise<RawClient & { sent: number }> {
  const client = await rawClient(port);
  const { socket } = client;
  socket.write(uploadHead(DECLARED));
  let sent = 0;
  while (sent < DECLARED && !client.error && !socket.destroyed) {
    const piece = CHUNK.subarray(0, Math.min(CHUNK.length, DECLARED - sent));
    const written = await new Promise<boolean>((resolve) => socket.write(piece, (error) => resolve(!error)));
    if (written) sent += piece.length;
    await new Promise((resolve) => setTimeout(resolve, paceMs));
  }
  if (!socket.destroyed) socket.end();
  await client.closed;
  return { ...client, sent };
}

describe('a lingering close (HTTP apps of every service)', () => {
  const apps: FastifyInstance[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
  });

  /** A service's app with `/upload` refusing bodies over BODY_LIMIT (and any `routes`), listening on a free port. */
  async function listening(lingerMs = LINGER_MS, routes: (app: FastifyInstance) => void = () => {}): Promise<number> {
    const app = createHttpApp(createLogger('test', 'silent'), lingerMs);
    apps.push(app);
    app.post('/upload', { bodyLimit: BODY_LIMIT }, async () => ({ stored: true }));
    routes(app);
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as AddressInfo).port;
  }

  it(
    'given a body declared over the limit, when the client goes on writing it, then it reads the 413 and a clean close, never a reset',
    async () => {
      const port = await listening();

      for (let i = 0; i < 3; i += 1) {
        const exchange = await postTooLarge(port, 2);
        expect(exchange.error).toBeUndefined();
        expect(exchange.sent).toBe(DECLARED);
        expect(exchange.answer).toMatch(/^HTTP\/1\.1 413 /);
        expect(exchange.answer.toLowerCase()).toContain('connection: close');
        expect(exchange.ended).toBe(true);
      }
    },
    TIMEOUT_MS,
  );

  it(
    'given a client that goes on writing past the linger, then the server cuts the connection off',
    async () => {
      const port = await listening(200);

      // 2 MB a chunk every 50 ms is some 3 s of writing: the server does not wait for it all
      const exchange = await postTooLarge(port, 50);
      expect(exchange.answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(exchange.ended).toBe(true);
      expect(exchange.sent).toBeLessThan(DECLARED);
      expect(['EPIPE', 'ECONNRESET']).toContain(exchange.error?.code);
    },
    TIMEOUT_MS,
  );

  it(
    'given a request sent on after a refused body, on the same connection, then it is not handled',
    async () => {
      let handled = 0;
      const port = await listening(LINGER_MS, (app) =>
        app.post('/count', async () => {
          handled += 1;
          return { handled };
        }),
      );

      const client = await rawClient(port);
      const body = 'x'.repeat(4 * BODY_LIMIT);
      client.socket.write(uploadHead(body.length));
      await vi.waitFor(() => expect(client.answer).toMatch(/^HTTP\/1\.1 413 /), { timeout: TIMEOUT_MS / 2 });
      // the rest of the refused body, then a second request on the connection the 413 closed
      client.socket.write(body);
      client.socket.write(
        'POST /count HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}',
      );
      client.socket.end();
      await client.closed;

      expect(handled).toBe(0);
      expect(client.answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    },
    TIMEOUT_MS,
  );
});

describe('a path the router cannot read', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('given a bad percent-escape or an over-long path parameter, when requested, then 400 in hireloop’s error body, the path not echoed', async () => {
    app = createHttpApp(createLogger('http-test', 'silent'));
    app.get('/v1/things/:id', async () => ({ ok: true }));
    await app.ready();
    const bad = await app.inject({ method: 'GET', url: '/v1/things/%00%ff' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ code: 'bad_request', message: expect.stringContaining('not a valid URL') });
    const long = await app.inject({ method: 'GET', url: `/v1/things/${'a'.repeat(5_000)}` });
    expect(long.statusCode).toBe(400);
    expect(long.json()).toEqual({ code: 'bad_request', message: expect.stringContaining('over 384 characters') });
    expect(long.body.length).toBeLessThan(200);
    expect((await app.inject({ method: 'GET', url: '/v1/things/a-1' })).json()).toEqual({ ok: true });
    // an id at its longest (128), even with every character escaped, reaches the route
    expect((await app.inject({ method: 'GET', url: `/v1/things/${'M'.repeat(128)}` })).json()).toEqual({ ok: true });
    expect((await app.inject({ method: 'GET', url: `/v1/things/${'%3A'.repeat(128)}` })).json()).toEqual({ ok: true });
  });
});

describe('a body every service reads', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });
  const build = async () => {
    app = createHttpApp(createLogger('http-test', 'silent'));
    app.setErrorHandler((error, _request, reply) => {
      const mapped = fastifyClientError(error as FastifyError);
      return reply.code(mapped?.status ?? 500).send(mapped?.body ?? { code: 'internal' });
    });
    app.post('/v1/things', async (request) => ({ got: request.body }));
    await app.ready();
    return app;
  };
  const post = (payload: string | Buffer, headers: Record<string, string> = {}) =>
    (app as FastifyInstance).inject({
      method: 'POST',
      url: '/v1/things',
      payload,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('given JSON, then parsed; given broken JSON, then 400 saying where it breaks', async () => {
    await build();
    expect((await post('{"a":[1,2]}')).json()).toEqual({ got: { a: [1, 2] } });
    const broken = await post('{"a":');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toEqual({ code: 'bad_request', message: expect.stringMatching(/^the body is not valid JSON: \S/) });
    expect((await post('')).json()).toEqual({ code: 'bad_request', message: 'the JSON body is empty' });
  });

  it('given a __proto__ or constructor.prototype key, then 400 naming it, not "not valid JSON"', async () => {
    await build();
    for (const body of ['{"a":{"__proto__":{"x":1}}}', '{"constructor":{"prototype":{"x":1}}}']) {
      const res = await post(body);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toMatch(/^the body is refused: it holds a __proto__ or constructor.prototype key/);
    }
  });

  it('given a compressed body or a text/plain one, then 415', async () => {
    await build();
    const gzipped = await post(gzipSync('{"a":1}'), { 'content-encoding': 'gzip' });
    expect(gzipped.statusCode).toBe(415);
    expect(gzipped.json()).toEqual({
      code: 'unsupported_media_type',
      message: expect.stringContaining('without Content-Encoding: gzip'),
    });
    expect((await post('{"a":1}', { 'content-encoding': 'identity' })).json()).toEqual({ got: { a: 1 } });
    const text = await post('{"a":1}', { 'content-type': 'text/plain' });
    expect(text.statusCode).toBe(415);
    expect(text.json().code).toBe('unsupported_media_type');
  });

  it('given a body said to be in a charset other than UTF-8, then 415 naming it; UTF-8 said either way is read', async () => {
    await build();
    const latin = await post('{"a":1}', { 'content-type': 'application/json; charset=iso-8859-1' });
    expect(latin.statusCode).toBe(415);
    expect(latin.json()).toEqual({ code: 'unsupported_media_type', message: expect.stringContaining('not iso-8859-1') });
    for (const charset of ['utf-8', 'UTF8', '"utf-8"'])
      expect((await post('{"a":1}', { 'content-type': `application/json; charset=${charset}` })).json()).toEqual({
        got: { a: 1 },
      });
  });
});

describe('a request no route answers, or Node cannot parse', () => {
  let app: FastifyInstance | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('given a path the app serves with other methods, when asked with another, then 405 naming them in Allow; an unknown path is a 404', async () => {
    app = createHttpApp(createLogger('http-test', 'silent'));
    app.get('/v1/things/:id', async () => ({ ok: true }));
    app.get('/files/*', async (_request, reply) => reply.callNotFound());
    await app.register(
      async (child) => {
        child.post('/things/:id/cancel', async () => ({ ok: true }));
      },
      { prefix: '/v1' },
    );
    await app.ready();
    const wrong = await app.inject({ method: 'DELETE', url: '/v1/things/a-1?x=1' });
    expect(wrong.statusCode).toBe(405);
    expect(wrong.headers.allow).toBe('GET, HEAD');
    expect(wrong.json()).toEqual({
      code: 'method_not_allowed',
      message: '/v1/things/a-1 does not take DELETE: it takes GET, HEAD',
    });
    // an id at its longest is a path the app serves too
    const longest = await app.inject({ method: 'DELETE', url: `/v1/things/${'a'.repeat(128)}` });
    expect(longest.statusCode).toBe(405);
    expect(longest.headers.allow).toBe('GET, HEAD');
    const prefixed = await app.inject({ method: 'GET', url: '/v1/things/a-1/cancel' });
    expect(prefixed.statusCode).toBe(405);
    expect(prefixed.headers.allow).toBe('POST');
    // a route of this method that finds nothing itself (a static file that is not there) is a 404, not a 405
    const missingFile = await app.inject({ method: 'GET', url: '/files/nope.js' });
    expect(missingFile.statusCode).toBe(404);
    expect(missingFile.headers.allow).toBeUndefined();
    // a long path is said back cut short, within a message's length
    const long = await app.inject({ method: 'GET', url: `/v1/${'x'.repeat(3_000)}` });
    expect(long.statusCode).toBe(404);
    expect(long.json().message.length).toBeLessThan(300);
    const unknown = await app.inject({ method: 'GET', url: '/v1/nothing/here?x=1' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
    expect(unknown.json()).toEqual({ code: 'not_found', message: 'no route GET /v1/nothing/here' });
  });

  it('given a header block over Node’s limit or bytes that are not HTTP, then 431 or 400 in hireloop’s error body, and the connection closed', async () => {
    app = createHttpApp(createLogger('http-test', 'silent'));
    app.get('/v1/things', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as AddressInfo;
    const ask = async (request: string) => {
      const client = await rawClient(port);
      const ended = once(client.socket, 'end');
      client.socket.write(request);
      await ended;
      client.socket.end();
      const [head = '', body = ''] = client.answer.split('\r\n\r\n');
      return { statusLine: head.split('\r\n')[0], body: JSON.parse(body) as unknown };
    };
    const big = await ask(`GET /v1/things HTTP/1.1\r\nhost: 127.0.0.1\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(big.statusLine).toBe('HTTP/1.1 431 Request Header Fields Too Large');
    expect(big.body).toEqual({ code: 'headers_too_large', message: expect.stringContaining('headers are over') });
    const garbage = await ask('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(garbage.body).toEqual({ code: 'bad_request', message: 'the request is not valid HTTP/1.1' });
  });
});
