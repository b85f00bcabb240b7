import { createKafka, createLogger, ensureTopics, loadPlatformConfig, migrate } from '@hireloop/platform';
import { Command } from 'commander';
import { registerDlq } from './dlq';
import { registerReplay } from './replay';
import { registerRuns } from './runs';
import { registerToken } from './token';

const program = new Command('hireloop').description('hireloop operations').showHelpAfterError();

program
  .command('migrate')
  .description('apply the Postgres migrations (idempotent, safe to run concurrently)')
  .action(async () => {
    const config = loadPlatformConfig();
    const ran = await migrate(config.databaseUrl);
    console.log(ran.length ? `migrated: ${ran.join(', ')}` : 'migrations: up to date');
  });

program
  .command('topics')
  .description('create every topic of the registry and its DLQ (idempotent)')
  .action(async () => {
    const config = loadPlatformConfig();
    const log = createLogger('cli', config.logLevel);
    const admin = createKafka({ clientId: 'hireloop-cli', brokers: config.kafkaBrokers, log }).admin();
    await admin.connect();
    try {
      const created = await ensureTopics(admin, config.topicPrefix, config.topicPartitions);
      console.log(created.length ? `topics created: ${created.join(', ')}` : 'topics: all present');
    } finally {
      await admin.disconnect();
    }
  });

registerToken(program);
registerReplay(program);
registerDlq(program);
registerRuns(program);

try {
  await program.parseAsync();
} catch (error) {
  console.error(`hireloop: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
