import { positiveIntegerEnv } from '@hireloop/platform';

/** The Connect Hub's own settings (README, "Configuration"); the platform's come from `loadServiceConfig`. */
export interface ConnectHubConfig {
  /** `/v1` requests per user per minute; past it, 429 `rate_limited` */
  rateLimitPerMinute: number;
}

export const DEFAULT_RATE_LIMIT = 600;

/** Reads `CONNECT_HUB_RATE_LIMIT`; fails with a ConfigError naming the variable. */
export function loadConnectHubConfig(env: Record<string, string | undefined> = process.env): ConnectHubConfig {
  return { rateLimitPerMinute: positiveIntegerEnv(env, 'CONNECT_HUB_RATE_LIMIT', DEFAULT_RATE_LIMIT) };
}
