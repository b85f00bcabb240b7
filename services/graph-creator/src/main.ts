import { FactConsumer, FactPublisher } from '@hireloop/fact-stream';
import { bootService, createCheckpointer, loadJwtSecret, systemClock } from '@hireloop/platform';
import { Topics } from '@hireloop/schemas';
import { OfflineAnalyst } from './analyst/offline';
import { ConnectHubClient, connectHubUrl } from './connect-hub/client';
import { connectHubTools } from './connect-hub/tools';
import { conversationAdapter } from './conversation/adapter';
import { creationAdapter } from './creation/adapter';
import { creationAnalyst, toolCatalogSource } from './creation/sources';
import { llmConfigFromEnv } from './llm/analyst';
import { pruneCheckpoints } from './retention';
import { ExecutionRunner } from './runner';
import { runtimeAdapter } from './runtime/adapter';
import { postgresSpecs } from './runtime/specs';
import { hubCatalog, withExtra } from './tools/catalog';
import { loadConnectors } from './tools/connectors';
import { postgresEffects } from './tools/effects';
import { ToolRegistry } from './tools/registry';

let consumerReady: () => Promise<void> = async () => {
  throw new Error('not consuming yet');
};
const service = await bootService('graph-creator', { checks: { consumer: () => consumerReady() } });
const { config, log, pool, kafka, lifecycle } = service;
const env = process.env;
const retentionMs = Number(env.CHECKPOINT_RETENTION_MS ?? 7 * 24 * 3600 * 1000);
const retentionEveryMs = Number(env.CHECKPOINT_RETENTION_INTERVAL_MS ?? 3600 * 1000);

const checkpointer = createCheckpointer(pool);
const publisher = new FactPublisher({ kafka, topicPrefix: config.topicPrefix, log });
await publisher.connect();
lifecycle.onStop('publisher', () => publisher.disconnect());

const hub = new ConnectHubClient({ baseUrl: connectHubUrl(), secret: loadJwtSecret() });
// `conversation` runs the small graph that exercises every runner mechanism (a prompt inside the fan-out)
const graph = env.GRAPH_CREATOR_GRAPH ?? 'creation';
if (graph !== 'creation' && graph !== 'conversation')
  throw new Error(`GRAPH_CREATOR_GRAPH must be creation or conversation, not ${graph}`);
// One worker hosts every graph: creations (RunIntent.employeeId `graph-creator`) and the runs of
// registered employees (any other employeeId), each on its own checkpoint thread (docs/decisions.md).
const connectors = await loadConnectors(env);
const tools = new ToolRegistry({
  catalog: withExtra(hubCatalog(hub), connectors.extraCapabilities()),
  connectors,
  effects: postgresEffects(pool),
});
const runtime = runtimeAdapter(checkpointer, {
  specs: postgresSpecs(pool),
  tools,
  parallelism: Number(env.RUN_PARALLELISM ?? 4),
});
const runner =
  graph === 'conversation'
    ? new ExecutionRunner({ adapter: conversationAdapter(checkpointer), runtime, pool, publisher, log })
    : new ExecutionRunner({
        runtime,
        adapter: creationAdapter(checkpointer, {
          analyst: creationAnalyst(new OfflineAnalyst(), llmConfigFromEnv(), log),
          catalog: toolCatalogSource(connectHubTools(hub)),
          maxRounds: Number(env.CREATION_MAX_ROUNDS ?? 5),
        }),
        pool,
        publisher,
        log,
      });

const consumer = new FactConsumer({
  kafka,
  topicPrefix: config.topicPrefix,
  // the topic prefix keeps deployments (and test runs) sharing a broker out of each other's groups
  groupId: `${config.topicPrefix}graph-creator`,
  topics: [Topics.runIntent, Topics.hilResponse],
  log,
  publisher,
  partitionsConsumedConcurrently: Number(env.GRAPH_CREATOR_CONCURRENCY ?? 3),
})
  .on('RunIntent', (intent, delivery) =>
    intent.action === 'start' ? runner.start(intent, delivery.traceparent) : runner.cancel(intent, delivery.traceparent),
  )
  .on('HILResponse', (response, delivery) => runner.respond(response, delivery.traceparent));
consumerReady = consumer.ready;
await consumer.start();
lifecycle.onStop('consumer', () => consumer.stop());

const retention = setInterval(() => {
  pruneCheckpoints(pool, checkpointer, retentionMs, systemClock.now(), log).catch((error: unknown) =>
    log.error({ err: error }, 'checkpoint retention failed'),
  );
}, retentionEveryMs);
retention.unref();
lifecycle.onStop('retention', () => clearInterval(retention));

await service.listen();
