import { type ErrorCode, isHireloopError } from '@hireloop/platform';
import type { FastifyError } from 'fastify';
import type { HubError } from './api';

export interface ErrorReply {
  status: number;
  body: HubError;
  /** ours, not the caller's: logged with its ref, internals hidden */
  internal: boolean;
}

const MAX_MESSAGE = 2_000;
const clip = (message: string): string => (message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);
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

/** fastify's own 4xx: schema validation (naming the field), body parsing and size. */
function fastifyReply(error: FastifyError): ErrorReply | undefined {
  if (error.validation) {
    const context = error.validationContext ?? 'body';
    const isBody = context === 'body';
    const path = error.validation[0]?.instancePath || '/';
    // In a body the field is a JSON pointer; in params or the query string, the parameter's name.
    const field = isBody ? path : path.replace(/^\//, '') || context;
    const message = error.validation.map((v) => `${context}${v.instancePath || ''}: ${v.message ?? 'invalid'}`).join('; ');
    return {
      status: isBody ? 422 : 400,
      body: { code: isBody ? 'validation_failed' : 'bad_request', message: clip(message), field },
      internal: false,
    };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        body: { code: 'payload_too_large', message: 'the request body is too large: send a smaller body' },
        internal: false,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: { code: 'unsupported_media_type', message: 'send the body as JSON (Content-Type: application/json)' },
        internal: false,
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { code: 'bad_request', message: 'the JSON body is empty' }, internal: false };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        body: { code: 'bad_request', message: `the body is not valid JSON: ${clip(error.message)}` },
        internal: false,
      };
    default:
      break;
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return { status, body: { code: 'bad_request', message: clip(error.message) }, internal: false };
  }
  return undefined;
}

/** The one mapping from an error to what a client sees: `{code, message, field?}`, or a hidden 5xx with a `ref`. */
export function toErrorReply(error: unknown, ref: string): ErrorReply {
  if (isHireloopError(error)) {
    if (error.status >= 500) return hidden(error.status, ref);
    const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
    return {
      status: error.status,
      body: { code: codeOf(error.code), message: clip(error.message), ...(field ? { field } : {}) },
      internal: false,
    };
  }
  if (error instanceof Error) {
    const reply = fastifyReply(error as FastifyError);
    if (reply) return reply;
  }
  return hidden(unreachable(error) ? 503 : 500, ref);
}
