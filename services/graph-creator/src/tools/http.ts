import { createHmac } from 'node:crypto';
import { lookup as dnsLookup } from 'node:dns';
import type { LookupFunction } from 'node:net';
import { webhookSendCapability } from '@hireloop/schemas';
import { Agent, fetch as undiciFetch } from 'undici';
import { type Connector, ConnectorError } from './connector';
import { refusedAddress } from './targets';

export interface HttpOptions {
  /** per call; default 10 s */
  timeoutMs?: number;
  /** bytes of response body kept; the rest is cut and `truncated` set; default 256 KiB */
  maxBodyBytes?: number;
  fetch?: typeof fetch;
  /** why a call may not go to a URL (the platform's own addresses), undefined when it may; default: none refused */
  refuse?: (url: URL) => string | undefined;
  /** how a host name is resolved when a connection is made; default: the system's (`dns.lookup`) */
  resolve?: Resolve;
}

/** How a host name is resolved: `dns.lookup`'s shape, as a socket calls it. */
type Resolve = LookupFunction;

/** A host name that resolved to an address calls may not go to. */
class RefusedAddress extends Error {}

/**
 * Connections whose every address is checked as it is resolved, for the URL `target()` names at the time: a name
 * may resolve to one of hireloop's own addresses however its URL reads, and only the address connected to says
 * where a call goes (a check before the call could be answered otherwise at connect time).
 */
function checkedConnections(target: () => URL, refuse: (url: URL) => string | undefined, resolve: Resolve): Agent {
  const lookup: Resolve = (hostname, options, callback) =>
    resolve(hostname, options, (error, address, family) => {
      if (error) return callback(error, address, family);
      const addresses = typeof address === 'string' ? [address] : address.map((a) => a.address);
      for (const one of addresses) {
        const refused = refusedAddress(one, target(), refuse);
        if (refused) return callback(new RefusedAddress(refused), address, family);
      }
      callback(null, address, family);
    });
  return new Agent({ connect: { lookup } });
}

/** Redirects followed by hand (when targets are checked) before the call fails. */
const MAX_REDIRECTS = 5;

/** Where a redirect leads: an http or https URL, else the call fails as the provider's answer (no other scheme). */
function nextHop(location: string, from: URL, method: string): URL {
  let to: URL;
  try {
    to = new URL(location, from);
  } catch {
    throw new ConnectorError('http_error', `${method} ${from.host}: redirected to an unreadable location`);
  }
  if (to.protocol !== 'http:' && to.protocol !== 'https:')
    throw new ConnectorError('http_error', `${method} ${from.host}: redirected to ${to.protocol}, not http or https`);
  return to;
}

/** Headers of the caller's credentials, not passed to another origin (as fetch's own redirects do). */
const CREDENTIALS = new Set(['authorization', 'cookie', 'proxy-authorization']);
/** Headers of a body, dropped with it. */
const BODY_HEADERS = new Set(['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']);

/**
 * The request a redirect makes: 303 (and 301/302 after a POST, as browsers do) goes on as a GET without its body and
 * the body's headers (a HEAD stays a HEAD); another origin gets no credentials. Pure.
 */
export function redirected<T extends { method: string; headers: Record<string, string>; body?: string }>(
  call: T,
  status: number,
  from: URL,
  to: URL,
): T {
  const toGet = (status === 303 && call.method !== 'HEAD') || ((status === 301 || status === 302) && call.method === 'POST');
  const crossOrigin = from.origin !== to.origin;
  const headers = Object.fromEntries(
    Object.entries(call.headers).filter(
      ([name]) => !(crossOrigin && CREDENTIALS.has(name.toLowerCase())) && !(toGet && BODY_HEADERS.has(name.toLowerCase())),
    ),
  );
  if (!toGet) return { ...call, headers };
  const { body: _dropped, ...rest } = call;
  return { ...rest, headers, method: 'GET' } as T;
}

/** Reads at most `max` bytes of a body, then stops reading. */
async function readCapped(res: Response, max: number): Promise<{ body: string; truncated: boolean }> {
  if (!res.body) return { body: '', truncated: false };
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  let truncated = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > max) {
      chunks.push(value.subarray(0, max - size));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    size += value.byteLength;
  }
  return { body: Buffer.concat(chunks).toString('utf8'), truncated };
}

async function send(
  options: HttpOptions,
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string },
  cancelled?: AbortSignal,
): Promise<{ status: number; headers: Record<string, string>; body: string; truncated: boolean }> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConnectorError('invalid_url', `not an absolute URL: ${url.slice(0, 200)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new ConnectorError('invalid_url', `only http and https URLs are called, not ${parsed.protocol}`);
  const deadline = AbortSignal.any([AbortSignal.timeout(options.timeoutMs ?? 10_000), ...(cancelled ? [cancelled] : [])]);
  let res: Response;
  let call = init;
  const connections = options.refuse
    ? checkedConnections(() => parsed, options.refuse, options.resolve ?? (dnsLookup as Resolve))
    : undefined;
  try {
    // a redirect is followed by hand when targets are checked, so that where it leads is checked as the first address was
    for (let hops = 0; ; hops++) {
      const refused = options.refuse?.(parsed);
      if (refused) throw new ConnectorError('target_refused', `${call.method} ${parsed.host}: ${refused}`);
      try {
        // (the checked connections are undici's own: its fetch takes them, whichever undici Node bundles)
        res = await (options.fetch ?? (connections ? (undiciFetch as unknown as typeof fetch) : fetch))(parsed, {
          ...call,
          redirect: options.refuse ? 'manual' : 'follow',
          signal: deadline,
          ...(connections ? { dispatcher: connections } : {}),
        } as RequestInit);
      } catch (error) {
        if (cancelled?.aborted)
          throw new ConnectorError('cancelled', `${call.method} ${parsed.host}: stopped, the run was cancelled while it waited`);
        const cause = (error as { cause?: unknown }).cause;
        if (cause instanceof RefusedAddress)
          throw new ConnectorError('target_refused', `${call.method} ${parsed.host}: ${cause.message}`);
        const timeout = (error as Error).name === 'TimeoutError';
        throw new ConnectorError(
          timeout ? 'timeout' : 'unreachable',
          `${call.method} ${parsed.host}: ${(error as Error).message}`.slice(0, 400),
        );
      }
      const location = res.headers.get('location');
      if (!options.refuse || res.status < 300 || res.status > 399 || !location) break;
      if (hops >= MAX_REDIRECTS)
        throw new ConnectorError('http_error', `${call.method} ${parsed.host}: more than ${MAX_REDIRECTS} redirects`);
      await res.body?.cancel();
      const from = parsed;
      parsed = nextHop(location, from, call.method);
      call = redirected(call, res.status, from, parsed);
    }
    const { body, truncated } = await readCapped(res, options.maxBodyBytes ?? 256 * 1024);
    const headers: Record<string, string> = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    // 5xx and 429 are the provider's passing trouble (retried); any other 4xx is the call's fault
    if (res.status >= 400)
      throw new ConnectorError(
        res.status >= 500 ? 'server_error' : res.status === 429 ? 'rate_limited_by_provider' : 'http_error',
        `${call.method} ${parsed.host}${parsed.pathname} answered ${res.status}: ${body.slice(0, 200)}`,
      );
    return { status: res.status, headers, body, truncated };
  } finally {
    // the call's own connections end with it
    void connections?.destroy();
  }
}

const stringHeaders = (value: unknown): Record<string, string> =>
  value && typeof value === 'object'
    ? Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, String(v)]))
    : {};

/** `http.request`, for real: the status, body (capped) and content type of the answer; 4xx and 5xx fail the step. */
export function httpConnector(options: HttpOptions = {}): Connector {
  return {
    call: async (_capability, args, ctx) => {
      const method = String(args.method);
      const headers: Record<string, string> = { 'idempotency-key': ctx.idempotencyKey, ...stringHeaders(args.headers) };
      const body = typeof args.body === 'string' && method !== 'GET' ? args.body : undefined;
      if (body !== undefined && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
        headers['content-type'] = 'application/json';
      const res = await send(options, String(args.url), { method, headers, ...(body !== undefined ? { body } : {}) }, ctx.signal);
      // the catalog's output of http.request: status, body (capped) and content type
      const contentType = res.headers['content-type'];
      return { status: res.status, body: res.body, ...(contentType ? { contentType } : {}) };
    },
  };
}

/**
 * `webhook.send`, for real: POSTs the payload as JSON with `x-hireloop-delivery: <idempotency key>`
 * (the receiver dedupes a repeat) and, given a secret, `x-hireloop-signature: sha256=<hex HMAC>`.
 */
export function webhookConnector(options: HttpOptions = {}): Connector {
  return {
    capabilities: [webhookSendCapability],
    call: async (_capability, args, ctx) => {
      const body = JSON.stringify(args.payload ?? {});
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-hireloop-delivery': ctx.idempotencyKey };
      if (typeof args.secret === 'string' && args.secret)
        headers['x-hireloop-signature'] = `sha256=${createHmac('sha256', args.secret).update(body).digest('hex')}`;
      const res = await send(options, String(args.url), { method: 'POST', headers, body }, ctx.signal);
      return { status: res.status };
    },
  };
}
