import type { FastifyInstance } from 'fastify';
import type { Admin, Kafka } from 'kafkajs';
import type { Registry } from 'prom-client';
import { loadServiceConfig, type ServiceConfig, type ServiceName } from './config';
import { type Check, createHttpApp, registerHealth } from './http';
import { createKafka, pingKafka } from './kafka';
import { Lifecycle } from './lifecycle';
import { createLogger, type Logger } from './logger';
import { createPool, type Pool, pingPostgres } from './postgres';

export interface Service {
  config: ServiceConfig;
  log: Logger;
  pool: Pool;
  kafka: Kafka;
  admin: Admin;
  http: FastifyInstance;
  lifecycle: Lifecycle;
  /** the Prometheus registry `GET /metrics` answers from: a service adds its own metrics to it */
  metrics: Registry;
  /** starts listening; call after the service has registered its routes and consumers */
  listen(): Promise<string>;
}

export interface BootOptions {
  /** dependencies beyond Postgres and Kafka that /readyz must see answering */
  checks?: Record<string, Check>;
}

/**
 * The common wiring of every hireloop service: config, JSON logs, a Postgres pool, a Kafka client
 * with a connected admin, health/readiness/metrics over HTTP, and graceful shutdown on SIGTERM.
 */
export async function bootService(name: ServiceName, options: BootOptions = {}): Promise<Service> {
  const config = loadServiceConfig(name);
  const log = createLogger(name, config.logLevel);
  const lifecycle = new Lifecycle(log);
  lifecycle.handleSignals();

  // its connections carry the same name as its Kafka client: `hireloop-<service>`
  const pool = createPool(config.databaseUrl, 10, { applicationName: `hireloop-${name}` });
  lifecycle.onStop('postgres', () => pool.end());
  const kafka = createKafka({ clientId: `hireloop-${name}`, brokers: config.kafkaBrokers, log });
  const admin = kafka.admin();
  lifecycle.onStop('kafka-admin', () => admin.disconnect());
  // Not awaited to completion before listening would leave /readyz red; a broker that is away at
  // start-up is retried by kafkajs and reported by /readyz meanwhile.
  await admin.connect().catch((error: unknown) => log.warn({ err: error }, 'kafka not reachable yet'));

  const http = createHttpApp(log);
  const metrics = registerHealth(http, {
    service: name,
    log,
    checks: { postgres: () => pingPostgres(pool), kafka: () => pingKafka(admin), ...options.checks },
  });

  return {
    config,
    log,
    pool,
    kafka,
    admin,
    http,
    lifecycle,
    metrics,
    async listen() {
      const address = await http.listen({ port: config.port, host: config.host });
      // Registered last so it runs first: stop taking requests before anything else closes.
      lifecycle.onStop('http', () => http.close());
      log.info({ address }, `${name} listening`);
      return address;
    },
  };
}
