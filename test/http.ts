/**
 * JSON over HTTP with a bearer token, for the end-to-end tests (test/stack.ts) and the bench
 * (scripts/bench/main.ts): no test runner import, so the bench can load it as a plain module.
 */
export async function api<T = Record<string, unknown>>(
  base: string,
  method: string,
  path: string,
  body?: unknown,
  bearer?: string,
  /** give up on an answer that has not come after this long (the bench under load); none by default */
  timeoutMs?: number,
): Promise<{ status: number; body: T }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    ...(timeoutMs !== undefined ? { signal: AbortSignal.timeout(timeoutMs) } : {}),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : {}) as T };
}
