import { clipMessage, type ErrorCode, fastifyClientError, HireloopError, isHireloopError } from '@hireloop/platform';
import { type ApiError, type ApiErrorCode, describeErrors, type FieldError } from '@hireloop/schemas';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/** What a client is told about an error, and whether it is ours (5xx: logged, internals hidden). */
export interface ErrorReply {
  status: number;
  body: ApiError;
  internal: boolean;
}

const codeOf = (code: ErrorCode): ApiErrorCode => code.toLowerCase() as ApiErrorCode;

/** A 422 naming the first failing field (prefixed, e.g. `/payload` + `/answers/q1`). */
export function validationFailed(errors: readonly FieldError[], prefix = ''): HireloopError {
  const prefixed = errors.map((e) => ({ path: `${prefix}${e.path === '/' && prefix ? '' : e.path}`, message: e.message }));
  return new HireloopError('VALIDATION_FAILED', describeErrors(prefixed), { field: prefixed[0]?.path ?? (prefix || '/') });
}

/**
 * For a POST that takes no body (cancel, activate, deactivate): none, or an empty JSON object; anything else is a
 * 422 naming the field, as an unknown field of any other body is (a hook: fastify's body schema cannot allow "none").
 */
export async function noBodyFields(request: { body?: unknown }): Promise<void> {
  const body = request.body;
  if (body === undefined || body === null) return;
  if (typeof body !== 'object' || Array.isArray(body))
    throw validationFailed([{ path: '/', message: 'Expected no body, or an empty object' }]);
  const extra = Object.keys(body)[0];
  if (extra !== undefined) throw validationFailed([{ path: `/${extra}`, message: 'Unexpected property' }]);
}

const hidden: Partial<Record<number, string>> = {
  500: 'internal error: it is logged; quote the ref when reporting it',
  503: 'hireloop cannot reach one of its dependencies right now: retry shortly',
};

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
      body: { code: codeOf(error.code), message: clipMessage(error.message), ...(field ? { field } : {}) },
      internal: false,
    };
  }
  if (error instanceof Error) {
    // its codes are all ApiErrorCodes (schemas/src/api.ts)
    const reply = fastifyClientError(error as FastifyError, bodyLimit);
    if (reply) return reply as ErrorReply;
  }
  return { status: 500, body: { code: 'internal', message: hidden[500]!, ref }, internal: true };
}

/** The app's error handler: every failure is `{code, message, field?}` (an unknown route too: `createHttpApp`). */
export const errorHandler = fp(
  async (app: FastifyInstance, { bodyLimit }: { bodyLimit: number }) => {
    app.setErrorHandler((error, request, reply) => {
      const { status, body, internal } = toErrorReply(error, request.id, bodyLimit);
      if (internal) request.log.error({ err: error, ref: request.id }, 'request failed');
      else request.log.info({ code: body.code, field: body.field, status }, body.message);
      return reply.code(status).send(body);
    });
  },
  { name: 'hireloop-gateway-errors' },
);
