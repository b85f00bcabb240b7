import { ExecutionProjectionStatuses } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { Pool } from './postgres';

/**
 * The application metrics of hireloop, declared once: every service's `/metrics` answers from its own
 * registry (`Service.metrics`), and each registers the families it has — HTTP latency (all), consumer
 * lag and dead letters (every consumer), executions by status and prompts pending (the projector's
 * tables), tool calls by outcome and breaker state (the worker). Names are `hireloop_*`; no label
 * holds an org or an id, whose series would grow without bound.
 */

/** Created at most once per registry: two registrations of one name would throw. */
function once<T>(make: (registry: Registry) => T): (registry: Registry) => T {
  const made = new WeakMap<Registry, T>();
  return (registry) => {
    let value = made.get(registry);
    if (value === undefined) {
      value = make(registry);
      made.set(registry, value);
    }
    return value;
  };
}

/** Request latency by method, route template (never the raw URL) and status code. */
export const httpMetrics = once((registry) => {
  return new Histogram({
    name: 'hireloop_http_request_duration_seconds',
    help: 'HTTP request latency by method, route template and status code',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
});

/** The route label of a request: its route's template, or `unmatched` (a 404 must not mint a series per URL). */
export function routeLabel(template: string | undefined): string {
  return template && template.length > 0 ? template : 'unmatched';
}

/** Times every request of the app (and of the plugins registered after this call). */
export function observeHttp(app: FastifyInstance, registry: Registry): void {
  const histogram = httpMetrics(registry);
  app.addHook('onResponse', async (request, reply) => {
    histogram.observe(
      { method: request.method, route: routeLabel(request.routeOptions.url), status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
}

/** What a fact consumer reports: how far behind each partition is, and what it dead-letters. */
export interface StreamMetrics {
  /** the partition's high watermark minus the next offset to read, as of the batch in hand */
  lag(group: string, topic: string, partition: number, lag: number): void;
  deadLettered(group: string, topic: string, reason: string): void;
  consumed(group: string, topic: string, count: number): void;
}

export const streamMetrics = once((registry): StreamMetrics => {
  const lag = new Gauge({
    name: 'hireloop_consumer_lag',
    help: 'messages of a partition not yet read by the consumer group, as of its latest batch',
    labelNames: ['group', 'topic', 'partition'] as const,
    registers: [registry],
  });
  const letters = new Counter({
    name: 'hireloop_dlq_letters_total',
    help: 'facts sent to a dead-letter topic, by the topic they came from and the reason',
    labelNames: ['group', 'topic', 'reason'] as const,
    registers: [registry],
  });
  const consumed = new Counter({
    name: 'hireloop_consumed_messages_total',
    help: 'messages read by the consumer group, by topic',
    labelNames: ['group', 'topic'] as const,
    registers: [registry],
  });
  return {
    lag: (group, topic, partition, value) => lag.set({ group, topic, partition: String(partition) }, Math.max(0, value)),
    deadLettered: (group, topic, reason) => letters.inc({ group, topic, reason }),
    consumed: (group, topic, count) => consumed.inc({ group, topic }, count),
  };
});

/**
 * Executions by status and prompts waiting for an answer, read from the `executions` projection at
 * scrape time (so they agree with GET /v1/executions, and need no state of their own).
 */
export function executionMetrics(registry: Registry, pool: Pool): void {
  new Gauge({
    name: 'hireloop_executions',
    help: 'executions by status, from the executions projection',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const { rows } = await pool.query<{ status: string; n: string }>(
        'SELECT status, count(*) AS n FROM executions GROUP BY status',
      );
      const counts = new Map(rows.map((r) => [r.status, Number(r.n)]));
      // every status of the projection, a queued execution's too
      for (const status of ExecutionProjectionStatuses) this.set({ status }, counts.get(status) ?? 0);
    },
  });
  new Gauge({
    name: 'hireloop_prompts_pending',
    help: 'prompts delivered and not yet answered (executions waiting with a current prompt)',
    registers: [registry],
    async collect() {
      const { rows } = await pool.query<{ n: string }>(
        "SELECT count(*) AS n FROM executions WHERE status = 'waiting' AND current_prompt IS NOT NULL",
      );
      this.set(Number(rows[0]?.n ?? 0));
    },
  });
}

/** Circuits of the tool registry by tool and state (closed, open, half_open), counted over orgs. */
export function circuitMetrics(registry: Registry, pool: Pool): void {
  new Gauge({
    name: 'hireloop_tool_circuits',
    help: 'tool circuits by tool and state (closed, open, half_open), counted over orgs',
    labelNames: ['capability', 'state'] as const,
    registers: [registry],
    async collect() {
      const { rows } = await pool.query<{ tool_id: string; state: string; n: string }>(
        'SELECT tool_id, state, count(*) AS n FROM tool_circuits GROUP BY tool_id, state',
      );
      this.reset();
      for (const r of rows) this.set({ capability: r.tool_id, state: r.state }, Number(r.n));
    },
  });
}

/** The stages a worker's delivery goes through, in order (`hireloop_worker_stage_seconds`). */
export const WORKER_STAGES = ['delivered', 'locked', 'read', 'ran', 'published'] as const;
export type WorkerStage = (typeof WORKER_STAGES)[number];
/** What a worker's delivery was: a start (RunIntent) or an answer (HILResponse). */
export type WorkerHandled = 'start' | 'answer';

/**
 * Where a worker's time per delivery goes, by what it handled (`start`, `answer`) and stage:
 * `delivered` from the fact's publish to its handler (the Kafka hop and the wait for a slot), `locked`
 * to the execution's lock and its row, read with it (migration 0015), `read` to what the run starts from
 * (a start: its row recorded; an answer: its checkpoint read and the answer checked), `ran` to the graph's stop (its checkpoint written), `published` to the
 * broker's acknowledgement of what follows. Only deliveries that ran the graph and published are counted.
 */
export const workerStageMetrics = once((registry) => {
  const histogram = new Histogram({
    name: 'hireloop_worker_stage_seconds',
    help: 'time per delivery in each stage of a start or an answer that ran the graph in the worker: delivered, locked, read, ran, published',
    labelNames: ['handled', 'stage'] as const,
    buckets: [0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 5],
    registers: [registry],
  });
  return (handled: WorkerHandled, stage: WorkerStage, seconds: number) => histogram.observe({ handled, stage }, seconds);
});

/**
 * The active supervisor's ticks that ran to the end: deadlines checked, reminders, timeouts and
 * deferred slots decided. A count that stops rising on the active instance means nothing times out.
 */
export const supervisorTickMetrics = once(
  (registry) =>
    new Counter({
      name: 'hireloop_supervisor_ticks_total',
      help: 'deadline checks (ticks) the active supervisor has completed',
      registers: [registry],
    }),
);

/** Tool calls of employee runs by capability and outcome, and how long the calls that acted took. */
export const toolCallMetrics = once((registry) => ({
  calls: new Counter({
    name: 'hireloop_tool_calls_total',
    help: 'tool calls of employee runs, by capability and outcome (succeeded, or the error or refusal code)',
    labelNames: ['capability', 'outcome'] as const,
    registers: [registry],
  }),
  seconds: new Histogram({
    name: 'hireloop_tool_call_seconds',
    help: 'how long the tool calls that reached a provider took, retries included',
    labelNames: ['capability'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  }),
}));
