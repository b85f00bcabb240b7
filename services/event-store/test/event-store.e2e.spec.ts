import { randomBytes, randomUUID } from 'node:crypto';
import { checkChain, verifyProjections } from '@hireloop/event-store';
import { canonicalJson, type DeadLetter, FactPublisher, makeFact } from '@hireloop/fact-stream';
import { handledBy, POISON, readTopics, sendPoison } from '@hireloop/fact-stream/testing';
import {
  createKafka,
  createLogger,
  createPool,
  databaseName,
  dropDatabase,
  ensureTopics,
  migrate,
  type Pool,
  withDatabase,
} from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { type AnyFact, dlqName, inputSchemaJson, Topics, topicList } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const log = createLogger('event-store-e2e', 'silent');

/** The facts of one whole creation, as the services publish them. */
function creation(orgId: string, n: number): AnyFact[] {
  const executionId = randomUUID();
  const conversationId = `conv-${n}`;
  const userId = `user-${n % 5}`;
  const ctx = { orgId, correlation: { conversationId, userId, executionId } };
  const shape = { kind: 'options' as const, options: [{ id: 'a', label: 'A' }], selectionRules: { mode: 'single' as const } };
  const prompt = (promptId: string) =>
    makeFact('HILPrompt', ctx, {
      executionId,
      promptId,
      messages: ['pick'],
      inputSchema: inputSchemaJson(shape),
      ...shape,
      progress: 40,
    });
  const payload = { jobDescription: 'a support agent' };
  return [
    makeFact(
      'UIMessage',
      { orgId, correlation: { conversationId, userId } },
      { conversationId, userId, role: 'user', content: 'hi' },
    ),
    makeFact('RunIntent', ctx, {
      executionId,
      employeeId: randomUUID(),
      action: 'start',
      trigger: { triggerId: `trg-${n}`, triggerType: 'create_graph', payload },
    }),
    makeFact('ExecutionEvent', ctx, { executionId, event: 'phase', phase: 'analysis', progress: 10 }),
    prompt(`${executionId}-p1`),
    makeFact('HILResponse', ctx, { executionId, promptId: `${executionId}-p1`, kind: 'options', payload: { selected: ['a'] } }),
    makeFact('ExecutionEvent', ctx, { executionId, event: 'phase', phase: 'assembly', progress: 100 }),
    makeFact('ExecutionResult', ctx, {
      executionId,
      status: 'failed',
      error: { code: 'STOPPED', message: 'stopped for the test' },
    }),
  ];
}

const count = async (pool: Pool, sql: string, params: unknown[] = []): Promise<number> =>
  Number((await pool.query<{ n: string }>(sql, params)).rows[0]?.n);

describe('event-store service (its own process, real Kafka and Postgres)', () => {
  const run = randomBytes(3).toString('hex');
  const prefix = `es-e2e-${run}.`;
  const databaseUrl = withDatabase(inject('databaseUrl'), `${databaseName(inject('databaseUrl'))}_es${run}`);
  const kafka = createKafka({ clientId: 'es-e2e', brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const env = { DATABASE_URL: databaseUrl, TOPIC_PREFIX: prefix, KAFKA_BROKERS: inject('kafkaBrokers').join(',') };
  const running: ServiceProcess[] = [];
  let pool: Pool;

  const start = async (extra: Record<string, string> = {}) => {
    const service = await startServiceProcess('event-store', { ...env, ...extra });
    running.push(service);
    await waitUntil(async () => ((await fetch(service.url('/readyz'))).status === 200 ? true : undefined), 'event-store /readyz');
    return service;
  };

  beforeAll(async () => {
    await migrate(databaseUrl);
    pool = createPool(databaseUrl, 4);
    await admin.connect();
    await ensureTopics(admin, prefix, 3);
    await publisher.connect();
  });
  afterAll(async () => {
    await Promise.all(running.map((s) => s.stop('SIGKILL')));
    await publisher.disconnect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
    await pool.end();
    await dropDatabase(databaseUrl);
  });

  it('SIGKILLed mid-stream and restarted, it stores every fact exactly once and projects them correctly', async () => {
    const facts = Array.from({ length: 500 }, (_, n) => creation(n % 2 ? 'acme' : 'globex', n)).flat();
    let service = await start();

    // publish a steady stream while the projector consumes, and kill it in the middle of it
    let sent = 0;
    const stream = (async () => {
      for (; sent < facts.length; sent += 35) {
        await publisher.publishAll(facts.slice(sent, sent + 35));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    await waitUntil(
      async () => ((await count(pool, 'SELECT count(*) AS n FROM facts')) >= 600 ? true : undefined),
      'some facts stored',
      60_000,
    );
    expect(await service.stop('SIGKILL')).toBe('SIGKILL');
    const storedBeforeRestart = await count(pool, 'SELECT count(*) AS n FROM facts');
    expect(storedBeforeRestart).toBeLessThan(facts.length);
    await stream;

    // The worst case of a crash: nothing it stored had its offset committed. Once the killed member
    // has left the group, every offset goes back to the start, so that everything is delivered again.
    const topics = topicList.map((t) => `${prefix}${t.name}`);
    await waitUntil(
      async () => ((await admin.describeGroups([`${prefix}event-store`])).groups[0]?.state === 'Empty' ? true : undefined),
      'the killed member to leave the group',
      90_000,
    );
    for (const topic of topics) {
      const partitions = (await admin.fetchTopicOffsets(topic)).map((p) => ({ partition: p.partition, offset: '0' }));
      await admin.setOffsets({ groupId: `${prefix}event-store`, topic, partitions });
    }

    service = await start({ LOG_LEVEL: 'debug' });
    await waitUntil(
      async () => ((await count(pool, 'SELECT count(*) AS n FROM facts')) >= facts.length ? true : undefined),
      `all ${facts.length} facts stored after the restart`,
      110_000,
    );
    // every redelivered fact handled (the group committed past all of them): none shows up twice
    await handledBy(admin, `${prefix}event-store`, topics, 110_000);
    expect(await count(pool, 'SELECT count(*) AS n FROM facts')).toBe(facts.length);
    expect(await count(pool, 'SELECT count(DISTINCT id) AS n FROM facts')).toBe(facts.length);
    // what the restarted projector was handed again, and skipped
    const projected = service
      .output()
      .split('\n')
      .filter((line) => line.includes('"msg":"projected"'))
      .map((line) => JSON.parse(line) as { duplicates: number });
    expect(projected.reduce((sum, p) => sum + p.duplicates, 0)).toBeGreaterThanOrEqual(storedBeforeRestart);

    expect(await count(pool, `SELECT count(*) AS n FROM executions WHERE status = 'failed' AND phase = 'assembly'`)).toBe(500);
    expect(await count(pool, 'SELECT count(*) AS n FROM conversation_executions')).toBe(500);
    expect((await checkChain(pool)).broken).toBeNull();
    expect((await verifyProjections(pool)).difference).toBeNull();
    await service.stop('SIGTERM');
  }, 240_000);

  it('dead-letters a poison message on every topic, with the reason, and keeps projecting', async () => {
    const service = await start();
    const poison = POISON;
    await sendPoison(kafka, prefix, topicList);
    // valid, but Postgres refuses it (a NUL character cannot be stored in jsonb): the handler fails for good
    // (sent as another producer would: hireloop's publisher makes such text storable before it sends)
    const refused = makeFact(
      'UIMessage',
      { orgId: 'acme', correlation: { conversationId: 'c-nul', userId: 'u' } },
      { conversationId: 'c-nul', userId: 'u', role: 'user', content: 'nul \u0000 here' },
    );
    const after = creation('acme', 9_999);
    await publisher.sendRaw(`${prefix}${Topics.uiMessages.name}`, [{ key: 'c-nul', value: canonicalJson(refused) }]);
    await publisher.publishAll(after);

    await waitUntil(
      async () =>
        (await count(pool, 'SELECT count(*) AS n FROM facts WHERE id = ANY($1::uuid[])', [after.map((f) => f.id)])) ===
        after.length
          ? true
          : undefined,
      'the facts published after the poison',
    );
    expect(await count(pool, 'SELECT count(*) AS n FROM facts WHERE id = $1', [refused.id])).toBe(0);

    const letters = await readDeadLetters(
      kafka,
      topicList.map((t) => dlqName(`${prefix}${t.name}`)),
      topicList.length * poison.length + 1,
    );
    for (const spec of topicList) {
      const topic = `${prefix}${spec.name}`;
      const mine = letters.filter((l) => l.topic === topic && l.groupId === `${prefix}event-store`);
      expect(mine.filter((l) => l.reason === 'invalid').map((l) => l.original.slice(0, 12))).toEqual(
        poison.map((p) => p.slice(0, 12)),
      );
    }
    const failed = letters.find((l) => l.reason === 'handler_failed');
    expect(failed).toMatchObject({ topic: `${prefix}ui-messages`, groupId: `${prefix}event-store` });
    expect(failed?.error).toContain('Postgres refused the facts');
    expect(JSON.parse(failed?.original ?? '{}').id).toBe(refused.id);
    expect(await service.stop('SIGTERM')).toBe(0);
  });
});

/** Every dead letter on these topics, from the beginning, once `count` of them arrived. */
async function readDeadLetters(kafka: ReturnType<typeof createKafka>, topics: string[], count: number): Promise<DeadLetter[]> {
  return (await readTopics(kafka, topics, count)).map((m) => JSON.parse(m.value?.toString() ?? '{}') as DeadLetter);
}
