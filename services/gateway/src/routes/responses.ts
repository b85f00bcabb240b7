import { ApiError } from '@hireloop/schemas';

/** The error responses a route documents: every one is an `ApiError`. */
export const errorResponses = (...statuses: number[]): Record<number, typeof ApiError> =>
  Object.fromEntries(statuses.map((status) => [status, ApiError]));

/** What every authenticated route may answer besides its own errors. */
export const COMMON_ERRORS = [400, 401, 429, 500, 503] as const;
