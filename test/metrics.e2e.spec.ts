/**
 * Every service's `/metrics` answers the application metrics it has (platform's metrics.ts), every
 * service its own process: scraped before and after a creation, a poison message and a few requests,
 * the families exist and their values move the way the facts imply.
 */
import { FactPublisher } from '@hireloop/fact-stream';
import { sendPoison } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger } from '@hireloop/platform';
import type { ServiceProcess } from '@hireloop/platform/testing';
import { waitUntil } from '@hireloop/platform/testing';
import { Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { api, parseMetrics, type ServiceName, Stack, sumOf, token } from './stack';

const everyService: ServiceName[] = ['event-store', 'connect-hub', 'trigger-router', 'supervisor', 'graph-creator', 'gateway'];
const consumers: ServiceName[] = everyService.filter((s) => s !== 'connect-hub');

describe('application metrics on every service’s /metrics (every service its own process)', () => {
  const stack = new Stack({ MAX_RUNNING_PER_ORG: '100', SUPERVISOR_TICK_MS: '500' });
  const log = createLogger('metrics-e2e', 'silent');
  const kafka = createKafka({ clientId: 'metrics-e2e', brokers: inject('kafkaBrokers'), log });
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log });
  let services: Record<ServiceName, ServiceProcess>;
  const scrape = async (name: ServiceName) => parseMetrics(await (await fetch(services[name].url('/metrics'))).text());

  beforeAll(async () => {
    services = await stack.up(everyService);
    await publisher.connect();
  }, 240_000);
  afterAll(async () => {
    await publisher.disconnect();
    await stack.down();
  });

  it('declares, per service, the families it has', async () => {
    for (const name of everyService) {
      const { families } = await scrape(name);
      expect([...families], name).toContain('hireloop_http_request_duration_seconds');
      if (consumers.includes(name)) {
        expect([...families], name).toEqual(
          expect.arrayContaining(['hireloop_consumer_lag', 'hireloop_dlq_letters_total', 'hireloop_consumed_messages_total']),
        );
      }
    }
    expect([...(await scrape('event-store')).families]).toEqual(
      expect.arrayContaining(['hireloop_executions', 'hireloop_prompts_pending']),
    );
    expect([...(await scrape('graph-creator')).families]).toEqual(
      expect.arrayContaining(['hireloop_tool_calls_total', 'hireloop_tool_call_seconds', 'hireloop_tool_circuits']),
    );
    expect([...(await scrape('supervisor')).families]).toContain('hireloop_supervisor_ticks_total');
  });

  it('the active supervisor counts the ticks it completes', async () => {
    const ticks = async () => sumOf((await scrape('supervisor')).samples, 'hireloop_supervisor_ticks_total');
    const before = await ticks();
    await waitUntil(async () => ((await ticks()) >= before + 2 ? true : undefined), 'two more ticks', 30_000);
  });

  it('HTTP latency counts every request by route template, on every service', async () => {
    for (const name of everyService) {
      const before = sumOf((await scrape(name)).samples, 'hireloop_http_request_duration_seconds_count', { route: '/healthz' });
      await fetch(services[name].url('/healthz'));
      await fetch(services[name].url('/healthz'));
      const after = sumOf((await scrape(name)).samples, 'hireloop_http_request_duration_seconds_count', { route: '/healthz' });
      expect(after - before, name).toBe(2);
    }
    // a URL no route matches is one series, not one per URL
    await fetch(services.gateway.url('/no/such/page-1'));
    await fetch(services.gateway.url('/no/such/page-2'));
    const gateway = (await scrape('gateway')).samples;
    expect(
      sumOf(gateway, 'hireloop_http_request_duration_seconds_count', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThanOrEqual(2);
    expect([...gateway.keys()].some((k) => k.includes('page-1'))).toBe(false);
  });

  it('a creation waiting for its first answer is counted in executions and prompts pending, and moves what the consumers read', async () => {
    const before = (await scrape('event-store')).samples;
    const alice = token('alice');
    const gateway = `http://127.0.0.1:${services.gateway.port}`;
    const created = await api(
      gateway,
      'POST',
      '/v1/triggers',
      { type: 'create_graph', payload: { jobDescription: 'When a deal closes in HubSpot, send a welcome email.' } },
      alice,
    );
    expect(created.status).toBe(202);

    // first this creation's own execution must be waiting at its prompt (the listing reads the same projection)
    const { conversationId } = created.body as { conversationId: string };
    await waitUntil(
      async () => {
        const listed = await api<{ executions: { status: string; currentPrompt?: unknown }[] }>(
          gateway,
          'GET',
          `/v1/executions?conversationId=${conversationId}`,
          undefined,
          alice,
        );
        const [execution, ...more] = listed.body.executions;
        return more.length === 0 && execution?.status === 'waiting' && execution.currentPrompt ? true : undefined;
      },
      'the creation’s execution waiting at its prompt',
      90_000,
    );
    // the gauges count the run's whole database, which other suites' executions share and move meanwhile
    // (a neighbour's execution finishing lowers `waiting` while this one raises it): what is certain is that
    // the executions counted over every status grew by this one, and that at least this one waits at a prompt
    const after = (await scrape('event-store')).samples;
    const total = (samples: typeof before) => sumOf(samples, 'hireloop_executions');
    expect(total(after)).toBeGreaterThan(total(before));
    expect(sumOf(after, 'hireloop_executions', { status: 'waiting' })).toBeGreaterThanOrEqual(1);
    expect(sumOf(after, 'hireloop_prompts_pending')).toBeGreaterThanOrEqual(1);
    const prefix = inject('topicPrefix');
    expect(sumOf(after, 'hireloop_consumed_messages_total', { topic: `${prefix}triggers` })).toBeGreaterThan(
      sumOf(before, 'hireloop_consumed_messages_total', { topic: `${prefix}triggers` }),
    );
    // the projector has read every partition it was handed a batch of: what is behind is a number, never absent
    const lags = [...after.keys()].filter(
      (k) => k.startsWith('hireloop_consumer_lag{') && k.includes(`topic="${prefix}hil-prompt"`),
    );
    expect(lags.length).toBeGreaterThan(0);
    const supervisor = (await scrape('supervisor')).samples;
    expect(sumOf(supervisor, 'hireloop_consumed_messages_total', { topic: `${prefix}triggers` })).toBeGreaterThan(0);
  });

  it('a poison message on a topic counts as a dead letter, with its reason, on each consumer of it', async () => {
    const prefix = inject('topicPrefix');
    const topic = `${prefix}${Topics.triggers.name}`;
    const before = {
      store: sumOf((await scrape('event-store')).samples, 'hireloop_dlq_letters_total', { topic }),
      supervisor: sumOf((await scrape('supervisor')).samples, 'hireloop_dlq_letters_total', { topic }),
    };
    await sendPoison(kafka, prefix, [Topics.triggers]);
    await waitUntil(async () => {
      const { samples } = await scrape('event-store');
      return sumOf(samples, 'hireloop_dlq_letters_total', { topic, reason: 'invalid' }) > before.store ? true : undefined;
    }, 'the event store counted the dead letters');
    await waitUntil(async () => {
      const { samples } = await scrape('supervisor');
      return sumOf(samples, 'hireloop_dlq_letters_total', { topic }) > before.supervisor ? true : undefined;
    }, 'the supervisor counted the dead letters');
  });
});
