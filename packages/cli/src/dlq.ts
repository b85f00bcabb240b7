import { readFile } from 'node:fs/promises';
import { type DlqEntry, FactPublisher, readDeadLetters, redrive } from '@hireloop/fact-stream';
import { createKafka, createLogger, loadPlatformConfig } from '@hireloop/platform';
import { type TopicSpec, topicList } from '@hireloop/schemas';
import type { Command } from 'commander';

function topicsNamed(name: string | undefined): readonly TopicSpec[] {
  if (name === undefined) return topicList;
  const topic = topicList.find((t) => t.name === name);
  if (!topic) throw new Error(`--topic: no topic ${name}; one of ${topicList.map((t) => t.name).join(', ')}`);
  return [topic];
}

/** One line a letter: where it is, why it is there, and the fact's id and type when it has them. */
export function describeEntry(entry: DlqEntry): string {
  const { letter } = entry;
  let fact = '';
  try {
    const parsed = JSON.parse(Buffer.from(letter.originalBase64, 'base64').toString('utf8')) as { id?: unknown; type?: unknown };
    fact = `${String(parsed.type ?? '?')} ${String(parsed.id ?? '?')}`;
  } catch {
    fact = '(not JSON)';
  }
  return [`${entry.dlqTopic} ${entry.partition}:${entry.offset}`, letter.reason, fact, letter.error.slice(0, 160)].join('  ');
}

async function withKafka<T>(run: (deps: ReturnType<typeof connect>) => Promise<T>): Promise<T> {
  const deps = connect();
  await deps.admin.connect();
  try {
    return await run(deps);
  } finally {
    await deps.admin.disconnect();
  }
}

function connect() {
  const config = loadPlatformConfig();
  const log = createLogger('cli', config.logLevel === 'info' ? 'warn' : config.logLevel);
  const kafka = createKafka({ clientId: 'hireloop-cli', brokers: config.kafkaBrokers, log });
  return { config, log, kafka, admin: kafka.admin() };
}

export function registerDlq(program: Command): void {
  const dlq = program.command('dlq').description('the dead-letter topics: what failed, and redriving what an operator fixed');
  dlq
    .command('list')
    .description('every letter in the DLQs (or one topic’s): position, reason, fact, error')
    .option('--topic <name>', 'only this topic’s DLQ (e.g. hil-response)')
    .option('--json', 'print the letters as JSON lines')
    .action(async (options: { topic?: string; json?: boolean }) => {
      const topics = topicsNamed(options.topic);
      const entries = await withKafka(({ kafka, admin, config }) => readDeadLetters(kafka, admin, config.topicPrefix, topics));
      for (const entry of entries) console.log(options.json ? JSON.stringify(entry) : describeEntry(entry));
      if (!options.json) console.log(`${entries.length} letter${entries.length === 1 ? '' : 's'}`);
    });
  dlq
    .command('redrive')
    .description('publish a letter’s fact again on its topic: the fixed fact from --fact, else the original as it was')
    .requiredOption('--topic <name>', 'the topic the fact came from (e.g. hil-response)')
    .requiredOption('--at <partition:offset>', 'the letter’s position in the DLQ, as `dlq list` prints it')
    .option('--fact <file>', 'a file holding the fixed fact as JSON')
    .action(async (options: { topic: string; at: string; fact?: string }) => {
      const [topic] = topicsNamed(options.topic);
      const match = /^(\d+):(\d+)$/.exec(options.at);
      if (!topic || !match) throw new Error('--at: expected <partition>:<offset>, e.g. 0:12');
      const fixed = options.fact ? await readFile(options.fact, 'utf8') : undefined;
      await withKafka(async ({ kafka, admin, config, log }) => {
        const entries = await readDeadLetters(kafka, admin, config.topicPrefix, [topic]);
        const entry = entries.find((e) => e.partition === Number(match[1]) && e.offset === match[2]);
        if (!entry) throw new Error(`no letter at ${options.at} in the DLQ of ${topic.name}`);
        const publisher = new FactPublisher({ kafka, topicPrefix: config.topicPrefix, log });
        await publisher.connect();
        try {
          const sent = await redrive(publisher, entry.letter, fixed);
          console.log(`redriven: ${sent.type} ${sent.id} onto ${topic.name}`);
        } finally {
          await publisher.disconnect();
        }
      });
    });
}
