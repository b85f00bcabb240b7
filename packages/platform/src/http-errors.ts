import { checker, errorMessage } from '@hireloop/schemas';
import type { TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import type { FastifyError, FastifyRequest, FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import secureJson from 'secure-json-parse';

/** The code of a body sent compressed (`Content-Encoding`), which no hireloop service reads. */
export const CONTENT_ENCODING_REFUSED = 'HIRELOOP_ERR_CONTENT_ENCODING';
/** The code of a JSON body holding a `__proto__` or `constructor.prototype` key. */
export const PROTOTYPE_KEY_REFUSED = 'HIRELOOP_ERR_PROTOTYPE_KEY';

/** An error of the client's that `fastifyClientError` maps (a fastify-like `code` and `statusCode`). */
const clientError = (code: string, statusCode: number, message: string): FastifyError =>
  Object.assign(new Error(message), { code, statusCode, name: 'FastifyError' }) as FastifyError;

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A body no hireloop service reads as sent, refused as an unsupported media type (415): compressed (`Content-Encoding`
 * other than identity), or said to be in a charset other than UTF-8 (JSON is UTF-8, RFC 8259; its bytes would be read
 * as UTF-8 all the same, and a body in Latin-1 mangled).
 */
export function unreadableBody(request: FastifyRequest): FastifyError | null {
  const encoding = request.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity')
    return clientError(
      CONTENT_ENCODING_REFUSED,
      415,
      `bodies are read uncompressed: send it without Content-Encoding: ${encoding}`,
    );
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(request.headers['content-type'] ?? '')?.[1]?.toLowerCase();
  if (charset && charset !== 'utf-8' && charset !== 'utf8')
    return clientError(
      CONTENT_ENCODING_REFUSED,
      415,
      `JSON is read as UTF-8: send it as UTF-8 (charset=utf-8, or no charset), not ${charset}`,
    );
  return null;
}

/**
 * Every service's JSON body parser (`createHttpApp`): what fastify's own does — an empty body refused, a
 * `__proto__` or `constructor.prototype` key refused (secure-json-parse) — but saying what is wrong
 * (where the JSON breaks, which key is refused) instead of "not valid JSON", and refusing a compressed
 * body as a media type it does not read (415) rather than as JSON it cannot parse.
 */
export function parseJsonBody(
  request: FastifyRequest,
  raw: string | Buffer,
  done: (error: Error | null, value?: unknown) => void,
): void {
  const unreadable = unreadableBody(request);
  if (unreadable) {
    done(unreadable);
    return;
  }
  let body: string;
  try {
    // JSON is UTF-8 (RFC 8259): bytes that are not are refused, not replaced with U+FFFD and acted on
    body = typeof raw === 'string' ? raw : STRICT_UTF8.decode(raw);
  } catch {
    done(clientError('FST_ERR_CTP_INVALID_JSON_BODY', 400, 'the body is not UTF-8: JSON must be sent as UTF-8'));
    return;
  }
  if (body.length === 0) {
    done(clientError('FST_ERR_CTP_EMPTY_JSON_BODY', 400, 'the JSON body is empty'));
    return;
  }
  try {
    done(null, secureJson.parse(body, { protoAction: 'error', constructorAction: 'error' }));
  } catch (error) {
    const message = (error as Error).message;
    done(
      /forbidden prototype property/i.test(message)
        ? clientError(PROTOTYPE_KEY_REFUSED, 400, message)
        : clientError('FST_ERR_CTP_INVALID_JSON_BODY', 400, message),
    );
  }
}

/** What a client is told about one of its own mistakes (never an internal error). */
export interface ClientErrorReply {
  status: number;
  body: { code: string; message: string; field?: string };
  internal: false;
}

const MAX_MESSAGE = 2_000;

/** A message cut to a size a client can be sent. */
export const clipMessage = (message: string): string =>
  message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;

/**
 * fastify's own 4xx errors in hireloop's `{code, message, field?}` shape: schema validation (422 for a
 * body, naming its JSON pointer; 400 for params or query, naming the parameter), body size (413), media
 * type (415), JSON parsing (400), a rate limit (429); undefined for anything that is not a client error.
 */
export function fastifyClientError(error: FastifyError, bodyLimit?: number): ClientErrorReply | undefined {
  if (error.validation) {
    const context = error.validationContext ?? 'body';
    const path = error.validation[0]?.instancePath || '/';
    const isBody = context === 'body';
    const field = isBody ? path : path.replace(/^\//, '') || context;
    const message = error.validation.map((v) => `${context}${v.instancePath || ''}: ${v.message ?? 'invalid'}`).join('; ');
    return {
      status: isBody ? 422 : 400,
      body: { code: isBody ? 'validation_failed' : 'bad_request', message: clipMessage(message), field },
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
    case CONTENT_ENCODING_REFUSED:
      return { status: 415, body: { code: 'unsupported_media_type', message: clipMessage(error.message) }, internal: false };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { code: 'bad_request', message: 'the JSON body is empty' }, internal: false };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        body: { code: 'bad_request', message: `the body is not valid JSON: ${clipMessage(error.message)}` },
        internal: false,
      };
    case PROTOTYPE_KEY_REFUSED:
      return {
        status: 400,
        body: {
          code: 'bad_request',
          message: 'the body is refused: it holds a __proto__ or constructor.prototype key, which no body may hold',
        },
        internal: false,
      };
    default:
      break;
  }
  const status = error.statusCode;
  if (status !== undefined && status >= 400 && status < 500) {
    return {
      status,
      body: { code: status === 429 ? 'rate_limited' : 'bad_request', message: clipMessage(error.message) },
      internal: false,
    };
  }
  return undefined;
}

/**
 * Every service's schema compiler for routes: TypeBox's, as `@fastify/type-provider-typebox` has it
 * (params, query and headers converted to the schema's types first, the body taken as sent), but its
 * failures worded by `errorMessage`, so that a choice of constants names the values it allows.
 */
export const validatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = checker(schema);
  return (value: unknown) => {
    const converted = httpPart === 'body' ? value : Value.Convert(schema, value);
    if (check.Check(converted)) return { value: converted };
    const errors = [...check.Errors(converted)].map((e) => ({ message: errorMessage(e), instancePath: e.path }));
    return { error: errors as FastifySchemaValidationError[] };
  };
};
