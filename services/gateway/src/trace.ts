import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { PublishOptions } from '@hireloop/fact-stream';
import type { FastifyRequest } from 'fastify';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

const incoming = (headers: IncomingMessage['headers']): RegExpExecArray | null => {
  const header = headers.traceparent;
  return typeof header === 'string' ? TRACEPARENT.exec(header) : null;
};

/**
 * A request's id is its W3C trace id: the caller's (from `traceparent`) or a new one. Log lines, the
 * `ref` of a 5xx and the facts the request publishes then share one id.
 */
export const requestIdOf = (raw: IncomingMessage): string => incoming(raw.headers)?.[1] ?? randomBytes(16).toString('hex');

/** The trace the facts of this request continue (the publisher derives a child span from it). */
export function traceOf(request: FastifyRequest): PublishOptions {
  const header = incoming(request.headers);
  if (header && header[1] === request.id) return { traceparent: header[0] };
  return /^[0-9a-f]{32}$/.test(request.id) ? { traceparent: `00-${request.id}-${randomBytes(8).toString('hex')}-01` } : {};
}
