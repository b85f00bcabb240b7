import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import {
  createKafka,
  createLogger,
  dropDatabase,
  ensureTopics,
  loadPlatformConfig,
  migrate,
  withDatabase,
} from '@hireloop/platform';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    topicPrefix: string;
    kafkaBrokers: string[];
    topicPartitions: number;
  }
}

const infra = fileURLToPath(new URL('../scripts/infra.sh', import.meta.url));
const buildServices = fileURLToPath(new URL('../scripts/build-services.mjs', import.meta.url));

/**
 * Integration and end-to-end runs: bring up Kafka and Postgres through the same script as `make up`,
 * then give this run its own database and topic prefix so that runs cannot collide.
 */
export default async function setup(project: TestProject) {
  const owner = `vitest-${process.pid}-${project.name}`;
  execFileSync(infra, ['up', owner], { stdio: 'inherit' });
  // the services run compiled, as `make up` runs them: built once here rather than by the first starts at once
  execFileSync(process.execPath, [buildServices, '--if-stale'], { stdio: 'inherit' });

  const base = loadPlatformConfig();
  const run = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const databaseUrl = withDatabase(base.databaseUrl, `hireloop_test_${project.name}_${run}`);
  const topicPrefix = `test-${project.name}-${run}.`;
  await migrate(databaseUrl);

  const log = createLogger('test', 'warn');
  const admin = createKafka({ clientId: 'hireloop-test', brokers: base.kafkaBrokers, log }).admin();
  await admin.connect();
  await ensureTopics(admin, topicPrefix, base.topicPartitions);

  project.provide('databaseUrl', databaseUrl);
  project.provide('topicPrefix', topicPrefix);
  project.provide('kafkaBrokers', base.kafkaBrokers);
  project.provide('topicPartitions', base.topicPartitions);

  return async () => {
    // Projects tear down one after another, and the one whose owner started the broker stops it: a project
    // torn down after that one finds no broker. Its topics then stay in the stopped broker's data (named
    // for this run, so nothing reads them again); its database and its own marks are still cleaned up.
    try {
      const topics = (await admin.listTopics()).filter((t) => t.startsWith(topicPrefix));
      if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => {});
    } catch (error) {
      log.warn({ err: error, topicPrefix }, "this run's topics were not deleted: the broker had stopped");
    } finally {
      await admin.disconnect().catch(() => {});
    }
    await dropDatabase(databaseUrl);
    execFileSync(infra, ['down', owner], { stdio: 'inherit' });
  };
}
