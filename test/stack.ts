import { signToken } from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { inject } from 'vitest';

export { api } from './http';

export const JWT_SECRET = 'e2e-secret';
export const token = (userId: string, orgId = 'acme') => signToken({ userId, orgId }, JWT_SECRET, '1h');

export type ServiceName = 'event-store' | 'connect-hub' | 'trigger-router' | 'supervisor' | 'graph-creator' | 'gateway';

/** Every hireloop service as its own process on this run's database and topics, as `make up` runs them. */
export class Stack {
  readonly processes: ServiceProcess[] = [];
  readonly env: Record<string, string>;

  constructor(extra: Record<string, string> = {}) {
    this.env = {
      DATABASE_URL: inject('databaseUrl'),
      TOPIC_PREFIX: inject('topicPrefix'),
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      ...extra,
    };
  }

  async start(name: ServiceName, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = await startServiceProcess(name, { ...this.env, ...extra });
    this.processes.push(service);
    await waitUntil(
      async () => ((await fetch(service.url('/readyz'))).status === 200 ? true : undefined),
      `${name} ready`,
      60_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${service.output()}`);
    });
    return service;
  }

  /** Another instance of a service that stands by (its /readyz is 503 until it takes over): only started. */
  async startStandby(name: ServiceName = 'supervisor'): Promise<ServiceProcess> {
    const service = await startServiceProcess(name, this.env);
    this.processes.push(service);
    await waitUntil(
      async () => ((await fetch(service.url('/healthz')).catch(() => undefined))?.status === 200 ? true : undefined),
      `${name} standing by`,
      60_000,
    );
    return service;
  }

  /** Starts the services in dependency order; the gateway last. The connect-hub URL is handed to the worker. */
  async up(names: ServiceName[] = ['event-store', 'connect-hub', 'trigger-router', 'supervisor', 'graph-creator', 'gateway']) {
    const started: Partial<Record<ServiceName, ServiceProcess>> = {};
    for (const name of names) {
      const hub = started['connect-hub'];
      started[name] = await this.start(name, hub ? { CONNECT_HUB_URL: `http://127.0.0.1:${hub.port}` } : {});
      if (name === 'connect-hub') this.env.CONNECT_HUB_URL = `http://127.0.0.1:${started[name]?.port}`;
    }
    return started as Record<ServiceName, ServiceProcess>;
  }

  async down(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop('SIGKILL')));
  }
}
