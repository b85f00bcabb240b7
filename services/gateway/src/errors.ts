import { type ErrorCode, HireloopError, isHireloopError } from '@hireloop/platform';
import { type ApiError, type ApiErrorCode, describeErrors, type FieldError } from '@hireloop/schemas';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What a client is told about an error, and whether it is ours (5xx: logged, internals hidden). */
export interface ErrorReply {
  status: number;
  body: ApiError;
  internal: boolean;
}

const MAX_MESSAGE = 2_000;
const clip = (message: string): string => (message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message);

const codeOf = (code: ErrorCode): ApiErrorCode => code.toLowerCase() as ApiErrorCode;

/** A 422 naming the first failing field (prefixed, e.g. `/payload` + `/answers/q1`). */
export function validationFailed(errors: readonly FieldError[], prefix = ''): HireloopError {
  const prefixed = errors.map((e) => ({ path: `${prefix}${e.path === '/' && prefix ? '' : e.path}`, message: e.message }));
  return new HireloopError('VALIDATION_FAILED', describeErrors(prefixed), { field: prefixed[0]?.path ?? (prefix || '/') });
}

const hidden: Partial<Record<number, string>> = {
  500: 'internal error: it is logged; quote the ref when reporting it',
  503: 'hireloop cannot reach one of its dependencies right now: retry shortly',
};

/** Fastify's own 4xx errors (body parsing, validation), by code. */
function fastifyError(error: FastifyError, bodyLimit: number | undefined): ErrorReply | undefined {
  if (error.validation) {
    const context = error.validationContext ?? 'body';
    const first = error.validation[0];
    const path = first?.instancePath || '/';
    const isBody = context === 'body';
    // In params and the query string the field is the parameter's name; in a body, its JSON pointer.
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
        body: {
          code: 'payload_too_large',
          message: `the request body is over the limit${bodyLimit ? ` of ${bodyLimit} bytes` : ''}: send a smaller body`,
        },
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
    return {
      status,
      body: { code: status === 429 ? 'rate_limited' : 'bad_request', message: clip(error.message) },
      internal: false,
    };
  }
  return undefined;
}

/**
 * The one mapping from an error to what a client sees: HireloopError codes to their statuses, fastify's
 * validation and body errors to 400/413/415/422 naming the field, anything else to a 500 whose
 * internals are hidden behind `ref` (the id the log line carries).
 */
export function toErrorReply(error: unknown, ref: string, bodyLimit?: number): ErrorReply {
  if (isHireloopError(error)) {
    if (error.status >= 500) {
      return {
        status: error.status,
        body: { code: codeOf(error.code), message: hidden[error.status] ?? hidden[500]!, ref },
        internal: true,
      };
    }
    const field = typeof error.details?.field === 'string' ? error.details.field : undefined;
    return {
      status: error.status,
      body: { code: codeOf(error.code), message: clip(error.message), ...(field ? { field } : {}) },
      internal: false,
    };
  }
  if (error instanceof Error) {
    const reply = fastifyError(error as FastifyError, bodyLimit);
    if (reply) return reply;
  }
  return { status: 500, body: { code: 'internal', message: hidden[500]!, ref }, internal: true };
}

/** The app's error and not-found handlers: every failure is `{code, message, field?}`. */
export const errorHandler = fp(
  async (app: FastifyInstance, { bodyLimit }: { bodyLimit: number }) => {
    app.setErrorHandler((error, request, reply) => {
      const { status, body, internal } = toErrorReply(error, request.id, bodyLimit);
      if (internal) request.log.error({ err: error, ref: request.id }, 'request failed');
      else request.log.info({ code: body.code, field: body.field, status }, body.message);
      return reply.code(status).send(body);
    });
    app.setNotFoundHandler((request, reply) =>
      reply
        .code(404)
        .send({ code: 'not_found', message: `no route ${request.method} ${request.url.split('?')[0]}` } satisfies ApiError),
    );
  },
  { name: 'hireloop-gateway-errors' },
);
