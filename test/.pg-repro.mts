import { createKafka, createLogger, ensureTopics, migrate } from '@hireloop/platform';
import { startServiceProcess } from '@hireloop/platform/testing';
import { privatePostgres } from './private-infra';
const pg = await privatePostgres();
await pg.start();
await migrate(pg.databaseUrl);
const prefix = `repro-${Date.now().toString(36)}.`;
const admin = createKafka({ clientId: 'x', brokers: ['127.0.0.1:9092'], log: createLogger('x', 'silent') }).admin();
await admin.connect();
await ensureTopics(admin, prefix, 6);
const env = {
  DATABASE_URL: pg.databaseUrl,
  TOPIC_PREFIX: prefix,
  KAFKA_BROKERS: '127.0.0.1:9092',
  JWT_SECRET: 'x',
  LOG_LEVEL: 'warn',
};
const names = ['event-store', 'connect-hub', 'graph-creator', 'gateway', 'trigger-router'];
const procs = [];
for (const n of names) procs.push(await startServiceProcess(n, env));
await new Promise((r) => setTimeout(r, 15_000));
console.log('stopping pg');
await pg.stop();
await new Promise((r) => setTimeout(r, 15_000));
for (const p of procs) console.log('==', p.name, p.child.exitCode, p.child.signalCode, '\n', p.output().slice(-1500));
await pg.start();
await new Promise((r) => setTimeout(r, 10_000));
for (const p of procs)
  console.log(
    '== after',
    p.name,
    p.child.exitCode,
    await fetch(p.url('/readyz')).then(
      (r) => r.status,
      () => 0,
    ),
  );
await Promise.all(procs.map((p) => p.stop('SIGKILL')));
await pg.destroy();
const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
await admin.deleteTopics({ topics });
await admin.disconnect();
