import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { collectDefaultMetrics, Registry } from 'prom-client';
import type { Logger } from './logger';
import { observeHttp } from './metrics';

export type Check = () => Promise<void>;

export interface HealthOptions {
  service: string;
  log: Logger;
  /** each dependency the service needs; /readyz is 200 only when every one answers */
  checks: Record<string, Check>;
  checkTimeoutMs?: number;
}

function withTimeout(check: Check, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms}ms`)), ms);
    check().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** How often the event loop's delay is sampled for `/metrics` (`nodejs_eventloop_lag_*`). */
const EVENT_LOOP_SAMPLE_MS = 100;

/**
 * Adds `GET /healthz` (the process is alive), `GET /readyz` (its dependencies answer) and
 * `GET /metrics` (Prometheus text) to a fastify app.
 */
export function registerHealth(app: FastifyInstance, { service, checks, checkTimeoutMs = 2_000 }: HealthOptions): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  // The event loop's delay is sampled every 100 ms, not every 10 ms (the default): a timer a hundred times
  // a second woke every idle service for a histogram read every few seconds; ten samples a second still
  // catch any stall longer than 100 ms.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: EVENT_LOOP_SAMPLE_MS });
  observeHttp(app, registry);

  app.get('/healthz', async () => ({ status: 'ok', service }));
  app.get('/readyz', async (_request, reply) => {
    const results = await Promise.all(
      Object.entries(checks).map(async ([name, check]) => {
        try {
          await withTimeout(check, checkTimeoutMs);
          return [name, 'ok'] as const;
        } catch (error) {
          return [name, error instanceof Error ? error.message : String(error)] as const;
        }
      }),
    );
    const ready = results.every(([, status]) => status === 'ok');
    return reply
      .code(ready ? 200 : 503)
      .send({ status: ready ? 'ready' : 'not_ready', service, checks: Object.fromEntries(results) });
  });
  app.get('/metrics', async (_request, reply) => reply.type(registry.contentType).send(await registry.metrics()));
  return registry;
}

const probes = new Set(['/healthz', '/readyz', '/metrics']);

/** Request logs for everything but the probes that orchestrators call every few seconds. */
export const probeQuietLogs = (): LogController =>
  new LogController({ disableRequestLogging: (request) => probes.has(request.url.split('?')[0] ?? '') });

/** A bare fastify app with the service's logger, for services whose only HTTP is health. */
export function createHttpApp(log: Logger): FastifyInstance {
  return Fastify({ loggerInstance: log, logController: probeQuietLogs() }) as unknown as FastifyInstance;
}
