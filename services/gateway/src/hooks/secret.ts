/**
 * Webhook secrets (docs/decisions.md, "Webhook secrets are derived, not stored"): each webhook-started
 * workflow's secret is HMAC-SHA256 of `hook/<activationId>/<employeeId>/<workflowId>` under the
 * gateway's `HOOK_SECRET_KEY`, so no fact holds a secret, every gateway instance recomputes it, and a
 * new activation (a new activationId) rotates every secret of the employee.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ConfigError } from '@hireloop/platform';

/** The key outside production when `HOOK_SECRET_KEY` is unset (never in production). */
export const DEV_HOOK_SECRET_KEY = 'hireloop-dev-hook-secret-key';

/** `HOOK_SECRET_KEY`; outside production it defaults to the dev key, in production its absence stops the gateway. */
export function loadHookSecretKey(env: Record<string, string | undefined> = process.env): string {
  const key = env.HOOK_SECRET_KEY;
  if (key) {
    if (key.length < 16) throw new ConfigError('invalid HOOK_SECRET_KEY: expected at least 16 characters');
    return key;
  }
  if (env.NODE_ENV === 'production') throw new ConfigError('HOOK_SECRET_KEY is required when NODE_ENV=production');
  return DEV_HOOK_SECRET_KEY;
}

export interface HookRef {
  activationId: string;
  employeeId: string;
  workflowId: string;
}

/** The secret of one workflow of one activation: hex of the HMAC. */
export const hookSecret = (key: string, ref: HookRef): string =>
  createHmac('sha256', key).update(`hook/${ref.activationId}/${ref.employeeId}/${ref.workflowId}`).digest('hex');

/** The `x-hireloop-signature` of a body under a secret: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const signBody = (secret: string, body: Buffer | string): string =>
  `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** Whether a signature header is the body's under the secret (constant time). */
export function signatureMatches(secret: string, body: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(signBody(secret, body));
  const given = Buffer.from(header.trim().toLowerCase());
  return given.length === expected.length && timingSafeEqual(given, expected);
}
