/**
 * hireloop's one error taxonomy: a stable code, the HTTP status where it reaches a client, and
 * whether it is permanent (bad input: DLQ or 4xx at once) or transient (retry with backoff).
 */
export const ErrorCodes = {
  VALIDATION_FAILED: { status: 422, permanent: true },
  BAD_REQUEST: { status: 400, permanent: true },
  UNAUTHORIZED: { status: 401, permanent: true },
  FORBIDDEN: { status: 403, permanent: true },
  NOT_FOUND: { status: 404, permanent: true },
  /** a trigger of an employee that is not active (ARCHITECTURE §11); before CONFLICT, which 409 reads back as */
  EMPLOYEE_INACTIVE: { status: 409, permanent: true },
  CONFLICT: { status: 409, permanent: true },
  PAYLOAD_TOO_LARGE: { status: 413, permanent: true },
  RATE_LIMITED: { status: 429, permanent: false },
  UNAVAILABLE: { status: 503, permanent: false },
  PUBLISH_FAILED: { status: 503, permanent: false },
  INTERNAL: { status: 500, permanent: false },
} as const;
export type ErrorCode = keyof typeof ErrorCodes;

export class HireloopError extends Error {
  readonly status: number;
  readonly permanent: boolean;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'HireloopError';
    this.status = ErrorCodes[code].status;
    this.permanent = ErrorCodes[code].permanent;
  }
}

export const isHireloopError = (error: unknown): error is HireloopError => error instanceof HireloopError;
/**
 * Permanent: retrying cannot help. A hireloop error says so itself; a Postgres error of class 22 (data
 * exception) or 23 (integrity constraint) means these facts cannot be stored as they are. Everything
 * else — a refused connection, a server restarting, a timeout, a broker away — is transient.
 */
export const isPermanent = (error: unknown): boolean => {
  if (isHireloopError(error)) return error.permanent;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|23)[0-9A-Z]{3}$/.test(code);
};
export const hasCode = (error: unknown, code: ErrorCode): error is HireloopError => isHireloopError(error) && error.code === code;
