import { ConfigError, loadJwtSecret } from '@hireloop/platform';
import { DEFAULT_CONNECT_HUB_URL } from './hooks/connect-hub';
import { loadHookSecretKey } from './hooks/secret';

/** The gateway's own settings (README, "Configuration"); the platform's come from `loadServiceConfig`. */
export interface GatewayConfig {
  /** HS256 secret of the bearer tokens */
  jwtSecret: string;
  /** largest HTTP body in bytes; larger is 413 */
  bodyLimit: number;
  /** largest WebSocket frame in bytes; larger gets an `error` frame, the socket stays open */
  frameLimit: number;
  /** HTTP requests per user per minute, and separately WebSocket frames per user per minute */
  rateLimitPerMinute: number;
  /** `HOOK_SECRET_KEY`: webhook secrets derive from it */
  hookSecretKey: string;
  /** `CONNECT_HUB_URL` */
  connectHubUrl: string;
  /** `GATEWAY_PUBLIC_URL`: the base of webhook URLs (absent: the address each request came to) */
  publicUrl?: string;
}

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`invalid ${name}: expected a positive integer, got ${JSON.stringify(raw)}`);
  return value;
}

export const DEFAULT_BODY_LIMIT = 256 * 1024;
export const DEFAULT_RATE_LIMIT = 600;

/** Reads the gateway's variables; fails naming the variable (JWT_SECRET is required in production). */
export function loadGatewayConfig(env: Env = process.env): GatewayConfig {
  const bodyLimit = positiveInteger(env, 'GATEWAY_BODY_LIMIT', DEFAULT_BODY_LIMIT);
  return {
    jwtSecret: loadJwtSecret(env),
    bodyLimit,
    frameLimit: positiveInteger(env, 'GATEWAY_FRAME_LIMIT', bodyLimit),
    rateLimitPerMinute: positiveInteger(env, 'GATEWAY_RATE_LIMIT', DEFAULT_RATE_LIMIT),
    hookSecretKey: loadHookSecretKey(env),
    connectHubUrl: env.CONNECT_HUB_URL || DEFAULT_CONNECT_HUB_URL,
    ...(env.GATEWAY_PUBLIC_URL ? { publicUrl: env.GATEWAY_PUBLIC_URL } : {}),
  };
}

/**
 * The `ws` library's own ceiling: it closes a socket whose frame is larger (1009), so it sits well
 * above `frameLimit`, where the gateway answers an oversize frame with an `error` frame instead.
 */
export const wsMaxPayload = (frameLimit: number): number => Math.max(16 * 1024 * 1024, frameLimit * 4);
