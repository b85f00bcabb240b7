import { clipMessage, type ErrorCode, fastifyClientError, isHireloopError } from '@hireloop/platform';
import type { HubError } from '@hireloop/schemas';
import type { FastifyError } from 'fastify';

export interface ErrorReply {
  status: number;
  body: HubError;
  /** ours, not the caller's: logged with its ref, internals hidden */
  internal: boolean;
}

const codeOf = (code: ErrorCode): string => code.toLowerCase();

const hidden = (status: number, ref: string): ErrorReply => ({
  status,
  body:
    status === 503
      ? { code: 'unavailable', message: 'the Connect Hub cannot reach its database right now: retry shortly', ref }
      : { code: 'internal', message: 'internal error: it is logged; quote the ref when reporting it', ref },
  internal: true,
});

/** Postgres away (connection refused, reset, shutting down): transient, so 503 and the client retries. */
function unreachable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^(08|57P0)/.test(code) || /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH)$/.test(code));
}

/** The one mapping from an error to what a client sees: `{code, message, field?}`, or a hidden 5xx with a `ref`. */
export function toErrorReply(error: unknown, ref: string): ErrorReply {
  if (isHireloopError(error)) {
    // a 503 of ours says what to do (the hub's own words, never a driver's); anything else 5xx is hidden
    if (error.code === 'UNAVAILABLE') {
      return { status: error.status, body: { code: 'unavailable', message: clipMessage(error.message), ref }, internal: true };
    }
    if (error.status >= 500) return hidden(error.status, ref);
    const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
    return {
      status: error.status,
      body: { code: codeOf(error.code), message: clipMessage(error.message), ...(field ? { field } : {}) },
      internal: false,
    };
  }
  if (error instanceof Error) {
    const reply = fastifyClientError(error as FastifyError);
    if (reply) return reply;
  }
  return hidden(unreachable(error) ? 503 : 500, ref);
}
