/** The gateway's public HTTP routes (ARCHITECTURE §4a, §11), with the caller's token. */

/** An execution's statuses that do not change again (its result's `ExecutionStatus`, §3). */
export const ENDED: ReadonlySet<string> = new Set(['completed', 'cancelled', 'failed']);

export type ApiResult<T> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number; code: string; message: string; field?: string };

export class Api {
  /** `unauthorized`: told when the gateway refuses the token (forged, expired): the page signs out and says why */
  constructor(
    readonly token: string,
    readonly unauthorized: (message: string) => void = () => {},
  ) {}

  async call<T>(method: string, path: string, body?: unknown): Promise<ApiResult<T>> {
    let res: Response;
    try {
      res = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${this.token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch {
      return { ok: false, status: 0, code: 'unavailable', message: 'hireloop cannot be reached right now: retry in a moment' };
    }
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = null;
    }
    if (res.ok) return { ok: true, status: res.status, body: parsed as T };
    const err = (parsed ?? {}) as { code?: string; message?: string; field?: string };
    if (res.status === 401 && this.token) this.unauthorized(err.message ?? 'the token was refused');
    return {
      ok: false,
      status: res.status,
      code: err.code ?? `http_${res.status}`,
      message: err.message ?? `the gateway answered ${res.status}`,
      ...(err.field ? { field: err.field } : {}),
    };
  }

  get = <T>(path: string) => this.call<T>('GET', path);
  post = <T>(path: string, body: unknown = {}) => this.call<T>('POST', path, body);
}

/** Signs in by name: only a development gateway has this route (404 with NODE_ENV=production). */
export async function devToken(user: string, org: string): Promise<ApiResult<{ token: string }>> {
  return new Api('').call<{ token: string }>('POST', '/dev/token', { user, org });
}

/** What the token says about its holder (for display only: the gateway checks it). */
export function tokenClaims(token: string): { userId: string; orgId: string } | null {
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: unknown; org?: unknown; exp?: unknown };
    if (typeof json.sub !== 'string' || typeof json.org !== 'string') return null;
    if (typeof json.exp === 'number' && json.exp * 1000 < Date.now()) return null;
    return { userId: json.sub, orgId: json.org };
  } catch {
    return null;
  }
}
