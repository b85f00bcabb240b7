import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import { type AddressInfo, connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createHttpApp, lingerOnClose } from '../src/http';
import { createLogger } from '../src/logger';

const BODY_LIMIT = 1_024;
/** generous: a paced 2 MB upload on a slow, shared host */
const TIMEOUT_MS = 30_000;
const DECLARED = 2_000_000;
const CHUNK = Buffer.alloc(32 * 1_024, 'x');

interface Exchange {
  /** what the client read */
  answer: string;
  /** the client's socket error, if any (a reset: EPIPE, ECONNRESET) */
  error: NodeJS.ErrnoException | undefined;
  /** the server half-closed (the client read a FIN) */
  ended: boolean;
  /** body bytes the client wrote */
  sent: number;
}

/**
 * A client that declares a body far over the limit and keeps writing it, a chunk every `paceMs`,
 * whatever the server answers meanwhile (its side stays open on the server's FIN); then closes its side
 * and waits for the connection to close.
 */
async function postTooLarge(port: number, paceMs: number): Promise<Exchange> {
  const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
  await once(socket, 'connect');
  const exchange: Exchange = { answer: '', error: undefined, ended: false, sent: 0 };
  socket.on('data', (chunk: Buffer) => {
    exchange.answer += chunk.toString('latin1');
  });
  socket.on('end', () => {
    exchange.ended = true;
  });
  socket.on('error', (error) => {
    exchange.error = error;
  });
  // not `once(socket, 'close')`, which rejects on the socket's error
  const closed = new Promise((resolve) => socket.once('close', resolve));
  socket.write(
    `POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${DECLARED}\r\n\r\n`,
  );
  while (exchange.sent < DECLARED && !exchange.error && !socket.destroyed) {
    const piece = CHUNK.subarray(0, Math.min(CHUNK.length, DECLARED - exchange.sent));
    const written = await new Promise<boolean>((resolve) => socket.write(piece, (error) => resolve(!error)));
    if (written) exchange.sent += piece.length;
    await new Promise((resolve) => setTimeout(resolve, paceMs));
  }
  if (!socket.destroyed) socket.end();
  await closed;
  return exchange;
}

describe('a lingering close (HTTP apps of every service)', () => {
  let server: Server | undefined;
  const apps: { close(): Promise<unknown> }[] = [];
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()));
    server?.closeAllConnections();
    server?.close();
    server = undefined;
  });

  it(
    'given a body declared over the limit, when the client goes on writing it, then it reads the 413 and a clean close, never a reset',
    async () => {
      const app = createHttpApp(createLogger('test', 'silent'));
      apps.push(app);
      app.post('/upload', { bodyLimit: BODY_LIMIT }, async () => ({ stored: true }));
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;

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
      // answers every request at once with `connection: close`, as a refused body is answered
      server = createServer((_request, response) => {
        response.writeHead(413, { connection: 'close', 'content-type': 'text/plain' }).end('too large');
      });
      server.on('connection', (socket: Socket) => lingerOnClose(socket, 200));
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as AddressInfo;

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
      const app = createHttpApp(createLogger('test', 'silent'));
      apps.push(app);
      let handled = 0;
      app.post('/upload', { bodyLimit: BODY_LIMIT }, async () => ({ stored: true }));
      app.post('/count', async () => {
        handled += 1;
        return { handled };
      });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = app.server.address() as AddressInfo;

      const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true });
      await once(socket, 'connect');
      let answer = '';
      socket.on('data', (chunk: Buffer) => {
        answer += chunk.toString('latin1');
      });
      socket.on('error', () => {});
      const closed = new Promise((resolve) => socket.once('close', resolve));
      const body = 'x'.repeat(4 * BODY_LIMIT);
      socket.write(
        `POST /upload HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
      );
      await vi.waitFor(() => expect(answer).toMatch(/^HTTP\/1\.1 413 /), { timeout: TIMEOUT_MS / 2 });
      // the rest of the refused body, then a second request on the connection the 413 closed
      socket.write(body);
      socket.write('POST /count HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
      socket.end();
      await closed;

      expect(handled).toBe(0);
      expect(answer.match(/HTTP\/1\.1 /g)).toHaveLength(1);
    },
    TIMEOUT_MS,
  );
});
