import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { afterAll, describe, expect, inject, it } from 'vitest';

const services = ['gateway', 'trigger-router', 'supervisor', 'graph-creator', 'event-store', 'connect-hub'] as const;

const json = async (url: string) => {
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

describe('every service as its own process', () => {
  const env = {
    DATABASE_URL: inject('databaseUrl'),
    TOPIC_PREFIX: inject('topicPrefix'),
    KAFKA_BROKERS: inject('kafkaBrokers').join(','),
  };
  const running: ServiceProcess[] = [];
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
  });

  it.each(services)('%s starts, answers /healthz and /readyz, logs JSON, and exits 0 on SIGTERM', async (name) => {
    const service = await startServiceProcess(name, env);
    running.push(service);

    const ready = await waitUntil(async () => {
      const r = await json(service.url('/readyz'));
      return r.status === 200 ? r : undefined;
    }, `${name} /readyz`);
    expect(ready.body).toMatchObject({ status: 'ready', service: name, checks: { postgres: 'ok', kafka: 'ok' } });
    expect(await json(service.url('/healthz'))).toEqual({ status: 200, body: { status: 'ok', service: name } });
    const metrics = await fetch(service.url('/metrics'));
    expect(await metrics.text()).toContain(`service="${name}"`);

    expect(await service.stop('SIGTERM')).toBe(0);
    const lines = service.output().trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(lines.map((l) => JSON.parse(l).msg)).toContain('stopped');
  });

  it('reports not ready, naming the dependency, when Postgres does not answer', async () => {
    const url = new URL(env.DATABASE_URL);
    url.port = '1';
    const service = await startServiceProcess('supervisor', { ...env, DATABASE_URL: url.toString() });
    running.push(service);
    const notReady = await waitUntil(async () => {
      const r = await json(service.url('/readyz'));
      return r.status === 503 ? r : undefined;
    }, 'supervisor /readyz 503');
    expect(notReady.body).toMatchObject({ status: 'not_ready', checks: { kafka: 'ok' } });
    expect((notReady.body.checks as Record<string, string>).postgres).not.toBe('ok');
    expect(await service.stop('SIGTERM')).toBe(0);
  });
});
