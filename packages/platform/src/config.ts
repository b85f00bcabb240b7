import { type Static, Type } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

/** Every hireloop service and its default port on 127.0.0.1 (ARCHITECTURE §1). */
export const ServicePorts = {
  gateway: 8080,
  'trigger-router': 8081,
  supervisor: 8082,
  'graph-creator': 8083,
  'event-store': 8084,
  'connect-hub': 8085,
} as const;
export type ServiceName = keyof typeof ServicePorts;

const PlatformConfig = Type.Object({
  nodeEnv: Type.String(),
  host: Type.String({ minLength: 1 }),
  databaseUrl: Type.String({ pattern: '^postgres(ql)?://' }),
  kafkaBrokers: Type.Array(Type.String({ pattern: '^[^:]+:\\d+$' }), { minItems: 1 }),
  topicPrefix: Type.String({ pattern: '^[A-Za-z0-9._-]*$' }),
  topicPartitions: Type.Integer({ minimum: 1, maximum: 1000 }),
  logLevel: Type.Union(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((l) => Type.Literal(l))),
});
export type PlatformConfig = Static<typeof PlatformConfig>;

export interface ServiceConfig extends PlatformConfig {
  service: ServiceName;
  port: number;
}

export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';
}

type Env = Record<string, string | undefined>;

/**
 * A service's own positive-integer setting from the environment: `fallback` when unset or blank,
 * otherwise a ConfigError naming the variable unless it is a positive safe integer.
 */
export function positiveIntegerEnv(env: Env, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(`invalid ${name}: expected a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

const portEnv = (service: ServiceName): string => `${service.toUpperCase().replaceAll('-', '_')}_PORT`;

/** Reads the platform's environment variables (README, "Configuration"), validated; fails naming the variable. */
export function loadPlatformConfig(env: Env = process.env): PlatformConfig {
  const candidate = {
    nodeEnv: env.NODE_ENV ?? 'development',
    host: env.HOST ?? '127.0.0.1',
    databaseUrl: env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/hireloop',
    kafkaBrokers: (env.KAFKA_BROKERS ?? '127.0.0.1:9092')
      .split(',')
      .map((b) => b.trim())
      .filter(Boolean),
    topicPrefix: env.TOPIC_PREFIX ?? '',
    topicPartitions: Number(env.TOPIC_PARTITIONS ?? 6),
    logLevel: env.LOG_LEVEL ?? 'info',
  };
  const names: Record<string, string> = {
    nodeEnv: 'NODE_ENV',
    host: 'HOST',
    databaseUrl: 'DATABASE_URL',
    kafkaBrokers: 'KAFKA_BROKERS',
    topicPrefix: 'TOPIC_PREFIX',
    topicPartitions: 'TOPIC_PARTITIONS',
    logLevel: 'LOG_LEVEL',
  };
  const first = Value.Errors(PlatformConfig, candidate).First();
  if (first) {
    const field = first.path.split('/')[1] ?? '';
    throw new ConfigError(`invalid ${names[field] ?? field}: ${first.message} (got ${JSON.stringify(first.value)})`);
  }
  return candidate as PlatformConfig;
}

export function loadServiceConfig(service: ServiceName, env: Env = process.env): ServiceConfig {
  const platform = loadPlatformConfig(env);
  const raw = env[portEnv(service)];
  const port = raw === undefined ? ServicePorts[service] : Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`invalid ${portEnv(service)}: expected a port number, got ${JSON.stringify(raw)}`);
  }
  return { ...platform, service, port };
}
