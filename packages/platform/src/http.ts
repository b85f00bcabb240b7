import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { type ApiError, Limits } from '@hireloop/schemas';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { collectDefaultMetrics, Registry } from 'prom-client';
import { parseJsonBody } from './http-errors';
import type { Logger } from './logger';
import { observeHttp } from './metrics';

export type Check = () => Promise<void>;

export interface HealthOptions {
  service: string;
  log: Logger;
  /** each dependency the service needs; /readyz is 200 only when every one answers */
  checks: Record<string, Check>;
  checkTimeoutMs?: number;
}

function withTimeout(check: Check, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms}ms`)), ms);
    check().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** How often the event loop's delay is sampled for `/metrics` (`nodejs_eventloop_lag_*`). */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Adds `GET /healthz` (the process is alive), `GET /readyz` (its dependencies answer) and
 * `GET /metrics` (Prometheus text) to a fastify app.
 */
export function registerHealth(app: FastifyInstance, { service, checks, checkTimeoutMs = 2_000 }: HealthOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The event loop's delay is sampled every 100 ms, not every 10 ms (the default): a timer a hundred times
  // a second woke every idle service for a histogram read every few seconds; ten samples a second still
  // catch any stall longer than 100 ms.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  observeHttp(app, registry);

  app.get('/healthz', async () => ({ status: 'ok', service }));
  app.get('/readyz', async (_request, reply) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check, checkTimeoutMs);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : String(error)] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', service, checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  return registry;
}

const probes = new Set(['/healthz', '/readyz', '/metrics']);

/** Request logs for everything but the probes that orchestrators call every few seconds. */
export const probeQuietLogs = (): LogController =>
  new LogController({ disableRequestLogging: (request) => probes.has(request.url.split('?')[0] ?? '') });

/**
 * How long, at most, a connection the server closes after its answer stays open to read and drop what
 * the client is still sending.
 */
export const LINGER_MS = 5_000;

/** Connections lingering after their last answer (`lingerOnClose`): no request read from them is handled. */
const lingering = new WeakSet<Socket>();

/**
 * A lingering close for one connection. Node's HTTP server closes a connection it answered with
 * `connection: close` (fastify's answer to a body refused before it was read: 413 on a declared length
 * over the limit) by destroying the socket once the answer is written. With the client's bytes still
 * arriving unread, the kernel then answers them with a reset, and a client still writing its body fails
 * its write (EPIPE, ECONNRESET) and may never read the answer. Lingering, the server sends the answer and
 * its half-close, goes on reading (the HTTP parser drops the rest of the refused body), and closes the
 * socket once the client has closed its side too, or after `ms` at most. A request that still arrives
 * on it is not handled (`createHttpApp`): after `connection: close` a server takes no further request on
 * that connection (RFC 9112 §9.6).
 */
function lingerOnClose(socket: Socket, ms = LINGER_MS): void {
  const closeAtOnce = socket.destroySoon.bind(socket);
  socket.destroySoon = () => {
    // already half-closed by the client: nothing unread can arrive, so the plain close is safe
    if (socket.destroyed || socket.readableEnded) return closeAtOnce();
    lingering.add(socket);
    const timer = setTimeout(() => socket.destroy(), ms);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // the client's half-close: nothing more will arrive; closed once the answer is flushed
    socket.once('end', closeAtOnce);
    socket.end();
    socket.resume();
  };
}

/**
 * The longest path parameter fastify's router reads: an id of hireloop's at its longest (`Limits.id`, 128), every
 * character percent-escaped — so an id the socket and the query take is never refused by the router; the route's
 * own schema then names a decoded id over 128.
 */
export const MAX_PARAM_LENGTH = 3 * Limits.id;

/**
 * What a client is told when fastify's router cannot read the path (a percent-escape that is not UTF-8,
 * a path parameter over `maxParamLength`): a `bad_request` body, never the path itself (it may be huge).
 * Pure.
 */
export function frameworkErrorBody(code: string, maxParamLength: number): { code: 'bad_request'; message: string } {
  if (code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return { code: 'bad_request', message: `a part of the path is over ${maxParamLength} characters: no id is that long` };
  }
  if (code === 'FST_ERR_BAD_URL') {
    return { code: 'bad_request', message: 'the path is not a valid URL: a percent-escape in it does not decode to text' };
  }
  return { code: 'bad_request', message: 'the request cannot be routed' };
}

/** What a request no route answers is told: 405 naming the methods the path does take, else 404. Pure. */
export function unroutedReply(
  method: string,
  path: string,
  allowed: readonly string[],
): { status: 404 | 405; allow?: string; body: ApiError } {
  // the path is said back, cut short: it may be far longer than a message may be
  const said = path.length > 200 ? `${path.slice(0, 199)}…` : path;
  if (allowed.length === 0) return { status: 404, body: { code: 'not_found', message: `no route ${method} ${said}` } };
  const allow = allowed.join(', ');
  return {
    status: 405,
    allow,
    body: { code: 'method_not_allowed', message: `${said} does not take ${method}: it takes ${allow}` },
  };
}

interface RouteTable {
  routes: ReturnType<typeof FindMyWay>;
  methods: Set<HTTPMethod>;
}

/** Each app's routes (`createHttpApp`), by its HTTP server: one table for the app and its plugins. */
const routeTables = new WeakMap<object, RouteTable>();

/**
 * The not-found handler of every service (`createHttpApp`): 405 with `Allow` when the path is served with
 * other methods, else 404, in hireloop's error body. A plugin that sets its own not-found handler for its
 * prefix, so that its hooks (authentication) run first, sets this one.
 */
export function replyUnrouted(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = request.url.split('?')[0] ?? '/';
  const table = routeTables.get(request.server.server);
  // a route that serves this method and found nothing itself (a static file that is not there) is a 404
  const served = !table || table.routes.find(request.method as HTTPMethod, path) !== null;
  const allowed = served
    ? []
    : [...table.methods].filter((method) => method !== request.method && table.routes.find(method, path) !== null);
  const { status, allow, body } = unroutedReply(request.method, path, allowed);
  if (allow) void reply.header('allow', allow);
  return reply.code(status).send(body);
}

/**
 * What a connection is told when Node's HTTP parser refuses its request before any route sees it (a
 * header block over Node's limit, a request that took too long to arrive, bytes that are not HTTP): the
 * raw response, in hireloop's error body, closing the connection. Pure.
 */
export function unparsedRequestResponse(errorCode: string | undefined): string {
  const [status, body]: [number, ApiError] =
    errorCode === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          {
            code: 'headers_too_large',
            message: 'the request headers are over the server’s limit: send fewer or shorter headers',
          },
        ]
      : errorCode === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, { code: 'request_timeout', message: 'the request did not arrive in time: send it again' }]
        : [400, { code: 'bad_request', message: 'the request is not valid HTTP/1.1' }];
  const text = JSON.stringify(body);
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${text}`;
}

/**
 * The fastify app of a service (`bootService`): the service's logger, quiet probes, a lingering close on
 * every connection (`lingerOnClose`, at most `lingerMs`), and every refusal fastify or Node makes before
 * a route runs (an unknown path, a method the path does not take, a request Node cannot parse) in
 * hireloop's error body.
 */
export function createHttpApp(log: Logger, lingerMs = LINGER_MS): FastifyInstance {
  const app = Fastify({
    loggerInstance: log,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    logController: probeQuietLogs(),
    // a path the router cannot read is answered in hireloop's error body, like every other 4xx
    frameworkErrors: (error, _request, reply) => {
      void (reply as unknown as FastifyReply).code(400).send(frameworkErrorBody(error.code, MAX_PARAM_LENGTH));
    },
    clientErrorHandler: (error: NodeJS.ErrnoException, socket) => {
      if (error.code === 'ECONNRESET' || socket.destroyed) return;
      if (socket.writable) socket.write(unparsedRequestResponse(error.code));
      socket.destroy(error);
    },
  }) as unknown as FastifyInstance;
  // every route as the router holds it, so that a path taken with another method is told which it takes
  const table: RouteTable = { routes: FindMyWay({ maxParamLength: MAX_PARAM_LENGTH }), methods: new Set() };
  routeTables.set(app.server, table);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat().map((m) => m.toUpperCase() as HTTPMethod)) {
      table.routes.on(method, route.url, () => undefined);
      table.methods.add(method);
    }
  });
  app.setNotFoundHandler(replyUnrouted);
  app.server.on('connection', (socket: Socket) => lingerOnClose(socket, lingerMs));
  // bodies are JSON (a route may parse its own in its own context): text/plain is a 415, not a string
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, parseJsonBody);
  // a request read from a connection already answered for the last time is dropped with it, unhandled
  app.addHook('onRequest', (request, reply, done) => {
    if (!lingering.has(request.raw.socket)) return done();
    reply.hijack();
    request.raw.socket.destroy();
  });
  return app;
}
