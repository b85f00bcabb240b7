import { execFile } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { FactConsumer, FactPublisher, makeFact } from '@hireloop/fact-stream';
import { createKafka, createLogger, ensureTopics } from '@hireloop/platform';
import { repoRoot, waitUntil } from '@hireloop/platform/testing';
import { Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

const run = promisify(execFile);
const log = createLogger('dlq-test', 'silent');

describe('hireloop dlq (real Kafka)', () => {
  const prefix = `dlq-${randomBytes(4).toString('hex')}.`;
  const kafka = createKafka({ clientId: 'dlq-test', brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const handled: string[] = [];
  const consumer = new FactConsumer({
    kafka,
    topicPrefix: prefix,
    groupId: `dlq-worker-${randomUUID()}`,
    topics: [Topics.hilResponse],
    log,
    publisher,
  }).on('HILResponse', async (fact) => void handled.push(fact.id));

  const cli = (...args: string[]) =>
    run('node', ['--import', 'tsx', 'packages/cli/src/main.ts', ...args], {
      cwd: repoRoot,
      env: { ...process.env, TOPIC_PREFIX: prefix, KAFKA_BROKERS: inject('kafkaBrokers').join(','), LOG_LEVEL: 'warn' },
    });

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, prefix, 2);
    await publisher.connect();
    await consumer.start();
  });
  afterAll(async () => {
    await consumer.stop();
    await publisher.disconnect();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
  });

  it('lists a dead-lettered answer, refuses a redrive that is still invalid, and redrives the fixed one to the worker', async () => {
    const good = makeFact(
      'HILResponse',
      { orgId: 'acme', correlation: { executionId: 'exec-dlq', userId: 'alice' } },
      { executionId: 'exec-dlq', promptId: 'p-1', kind: 'options', payload: { selected: ['a'] } },
    );
    // the same answer with its promptId lost on the way: invalid, so dead-lettered
    const { promptId: _lost, ...broken } = good;
    const producer = kafka.producer();
    await producer.connect();
    await producer.send({
      topic: `${prefix}${Topics.hilResponse.name}`,
      messages: [{ key: 'exec-dlq', value: JSON.stringify(broken) }],
    });
    await producer.disconnect();

    let listed = '';
    for (let i = 0; i < 60 && !listed.includes('1 letter'); i++) {
      listed = (await cli('dlq', 'list', '--topic', 'hil-response')).stdout;
      if (!listed.includes('1 letter')) await new Promise((r) => setTimeout(r, 500));
    }
    expect(listed).toContain('invalid');
    expect(listed).toContain(`HILResponse ${good.id}`);
    expect(listed).toContain('/promptId');
    const at = /hil-response\.dlq (\d+:\d+)/.exec(listed)?.[1];
    expect(at).toBeDefined();

    // without a fix, the original is still invalid: refused, naming the field, nothing sent
    const refused = await cli('dlq', 'redrive', '--topic', 'hil-response', '--at', at as string).catch(
      (e: { stderr: string; code: number }) => e,
    );
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as { stderr: string }).stderr).toMatch(/still invalid.*promptId/);

    const file = join(tmpdir(), `fixed-${randomUUID()}.json`);
    await writeFile(file, JSON.stringify(good));
    const { stdout } = await cli('dlq', 'redrive', '--topic', 'hil-response', '--at', at as string, '--fact', file);
    expect(stdout).toContain(`redriven: HILResponse ${good.id}`);
    await waitUntil(async () => (handled.includes(good.id) ? true : undefined), 'the redriven fact handled', 30_000);
    expect(handled).toEqual([good.id]);
  });
});
