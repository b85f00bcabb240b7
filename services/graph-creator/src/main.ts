import { randomBytes } from 'node:crypto';
import { configuredAnalyst, llmConfigFromEnv, OfflineAnalyst } from '@hireloop/analyst';
import { FactConsumer, FactPublisher } from '@hireloop/fact-stream';
import {
  bootService,
  circuitMetrics,
  createCheckpointer,
  ensureTopics,
  loadJwtSecret,
  positiveIntegerEnv,
  preparingPool,
  streamMetrics,
  systemClock,
  workerStageMetrics,
} from '@hireloop/platform';
import { Topics } from '@hireloop/schemas';
import { CatalogChanges } from './connect-hub/changes';
import { ConnectHubClient, connectHubUrl } from './connect-hub/client';
import { connectHubTools } from './connect-hub/tools';
import { conversationAdapter } from './conversation/adapter';
import { creationAdapter } from './creation/adapter';
import { policyBudgets } from './creation/budgets';
import { freshCatalogSource, toolCatalogSource } from './creation/sources';
import { faultsFromEnv } from './faults';
import { pruneCheckpoints } from './retention';
import { ExecutionRunner } from './runner';
import { runtimeAdapter } from './runtime/adapter';
import { postgresSpecs, postgresVersions } from './runtime/specs';
import { hubCatalog, withExtra } from './tools/catalog';
import { loadConnectors } from './tools/connectors';
import { postgresEffects } from './tools/effects';
import { hubScopes, postgresCircuits, postgresPolicies, postgresRateLimits } from './tools/guards';
import { toolMetrics } from './tools/metrics';
import { ToolRegistry } from './tools/registry';
import { WorkPool } from './work-pool';

let consumerReady: () => Promise<void> = async () => {
  throw new Error('not consuming yet');
};
const service = await bootService('graph-creator', { checks: { consumer: () => consumerReady() } });
const { config, log, pool, kafka, admin, lifecycle, metrics } = service;
// breaker state by tool, read from the circuits every worker shares
circuitMetrics(metrics, pool);
const env = process.env;
const retentionMs = Number(env.CHECKPOINT_RETENTION_MS ?? 7 * 24 * 3600 * 1000);
const retentionEveryMs = Number(env.CHECKPOINT_RETENTION_INTERVAL_MS ?? 3600 * 1000);

// off unless a chaos test asks for it (FAULT_KILL_AT); refused in production
const faults = faultsFromEnv(env);
const checkpointer = createCheckpointer(pool);
const publisher = new FactPublisher({ kafka, topicPrefix: config.topicPrefix, log });
await publisher.connect();
lifecycle.onStop('publisher', () => publisher.disconnect());

const hub = new ConnectHubClient({ baseUrl: connectHubUrl(), secret: loadJwtSecret(), log });
// every cached view of an org's catalog (the creation's, the tool registry's, the scopes) is kept until
// a ConnectionsChanged fact of the org (`changes` below), and at most CATALOG_TTL_MS (the scopes at most
// SCOPES_MAX_AGE_MS; docs/decisions.md, 2026-11-27)
const catalogChanges = new CatalogChanges(positiveIntegerEnv(env, 'CATALOG_TTL_MS', 60_000));
// `conversation` runs the small graph that exercises every runner mechanism (a prompt inside the fan-out)
const graph = env.GRAPH_CREATOR_GRAPH ?? 'creation';
if (graph !== 'creation' && graph !== 'conversation')
  throw new Error(`GRAPH_CREATOR_GRAPH must be creation or conversation, not ${graph}`);
// One worker hosts every graph: creations (RunIntent.employeeId `graph-creator`) and the runs of
// registered employees (any other employeeId), each on its own checkpoint thread (docs/decisions.md).
const connectors = await loadConnectors(env);
// §12's rails: state in Postgres shared by every worker (docs/decisions.md, the tool registry's rails)
// The worker's own statements on every start and answer (its execution rows, the org's policy), prepared
// once per connection rather than parsed each time, as the checkpointer's are
const prepared = preparingPool(pool);
const policies = postgresPolicies(prepared);
const tools = new ToolRegistry({
  catalog: withExtra(hubCatalog(hub, catalogChanges), connectors.extraCapabilities()),
  connectors,
  effects: postgresEffects(pool),
  rails: {
    scopes: hubScopes(hub, catalogChanges),
    policies,
    rates: postgresRateLimits(pool),
    defaultRate: env.TOOL_RATE_DEFAULT ?? '60/m',
    rateMaxWaitMs: Number(env.TOOL_RATE_MAX_WAIT_MS ?? 2_000),
    circuits: postgresCircuits(pool),
    circuitThreshold: Number(env.CIRCUIT_FAILURES ?? 5),
    circuitCoolDownMs: Number(env.CIRCUIT_COOL_DOWN_MS ?? 30_000),
    retries: Number(env.TOOL_RETRIES ?? 2),
  },
  observe: toolMetrics(metrics),
  faults,
});
// cancels asked for while a run is advanced: the runner notes them, the runtime graph calls no further step
const cancels = new Set<string>();
const runtime = runtimeAdapter(checkpointer, {
  specs: postgresSpecs(pool),
  tools,
  parallelism: Number(env.RUN_PARALLELISM ?? 4),
  cancelRequested: (executionId) => cancels.has(executionId),
});
const runner =
  graph === 'conversation'
    ? new ExecutionRunner({
        adapter: conversationAdapter(checkpointer),
        runtime,
        pool: prepared,
        publisher,
        log,
        faults,
        checkpoints: checkpointer,
        observe: workerStageMetrics(metrics),
        cancels,
      })
    : new ExecutionRunner({
        runtime,
        adapter: creationAdapter(checkpointer, {
          analyst: configuredAnalyst(new OfflineAnalyst(), llmConfigFromEnv(), log),
          catalog: freshCatalogSource(toolCatalogSource(connectHubTools(hub)), catalogChanges),
          versions: postgresVersions(pool),
          // the defaults of an org whose policy's budgets set no bound of its own
          maxRounds: Number(env.CREATION_MAX_ROUNDS ?? 5),
          maxRoutes: Number(env.CREATION_MAX_ROUTES ?? 3),
          ...(env.CREATION_MAX_TOKENS ? { maxTokens: Number(env.CREATION_MAX_TOKENS) } : {}),
          budgets: policyBudgets(policies),
        }),
        pool: prepared,
        publisher,
        log,
        faults,
        checkpoints: checkpointer,
        observe: workerStageMetrics(metrics),
        cancels,
      });

// Answers first (docs/decisions.md, 2026-11-24): starts and answers arrive on consumers of their own
// and share one pool of slots in which waiting answers (and cancels) go before waiting starts.
const concurrency = Number(env.GRAPH_CREATOR_CONCURRENCY ?? 4);
const slots = new WorkPool(concurrency, { closed: true });
const starts = new FactConsumer({
  kafka,
  topicPrefix: config.topicPrefix,
  // the topic prefix keeps deployments (and test runs) sharing a broker out of each other's groups
  groupId: `${config.topicPrefix}graph-creator`,
  topics: [Topics.runIntent],
  log,
  publisher,
  metrics: streamMetrics(metrics),
  partitionsConsumedConcurrently: concurrency,
}).on('RunIntent', (intent, delivery) =>
  intent.action === 'start'
    ? slots.run('start', () => runner.start(intent, delivery.traceparent, delivery.publishedAt))
    : slots.run('answer', () => runner.cancel(intent, delivery.traceparent)),
);
const answers = new FactConsumer({
  kafka,
  topicPrefix: config.topicPrefix,
  groupId: `${config.topicPrefix}graph-creator-answers`,
  topics: [Topics.hilResponse],
  log,
  publisher,
  metrics: streamMetrics(metrics),
  // every partition's next answer waits in the pool, ahead of the starts
  partitionsConsumedConcurrently: config.topicPartitions,
}).on('HILResponse', (response, delivery) =>
  slots.run('answer', () => runner.respond(response, delivery.traceparent, delivery.publishedAt)),
);
// Every worker reads every org's connection changes (a group of its own, from the latest offset on): its
// caches drop the org's views. At each join of that group (the first, and after a crash or rebalance) the
// facts published while it was not a member may be missed: every view is dropped then (`changeAll`).
const changes = new FactConsumer({
  kafka,
  topicPrefix: config.topicPrefix,
  groupId: `${config.topicPrefix}graph-creator-catalog-${randomBytes(6).toString('hex')}`,
  topics: [Topics.orgConnections],
  log,
  publisher,
  metrics: streamMetrics(metrics),
  fromBeginning: false,
  retries: 0,
})
  .on('ConnectionsChanged', async (fact) => catalogChanges.change(fact.orgId))
  .onJoin(() => catalogChanges.changeAll());
consumerReady = async () => {
  await starts.ready();
  await answers.ready();
  await changes.ready();
};
// the topic is new (a deployment upgraded worker first has it created here, not by another service)
await ensureTopics(admin, config.topicPrefix, config.topicPartitions);
await changes.start();
await Promise.all([starts.start(), answers.start()]);
slots.open();
lifecycle.onStop('consumer', () => Promise.all([starts.stop(), answers.stop(), changes.stop()]).then(() => undefined));

const retention = setInterval(() => {
  pruneCheckpoints(pool, checkpointer, retentionMs, systemClock.now(), log).catch((error: unknown) =>
    log.error({ err: error }, 'checkpoint retention failed'),
  );
}, retentionEveryMs);
retention.unref();
lifecycle.onStop('retention', () => clearInterval(retention));

// Runs whose deferred step's time has come (quiet hours that defer) go on: every worker looks, the
// execution's lock lets one of them resume each (docs/decisions.md, deferral).
let waking = false;
const waker = setInterval(
  () => {
    if (waking) return;
    waking = true;
    slots
      .run('answer', () => runner.wakeDue())
      .catch((error: unknown) => log.error({ err: error }, 'resuming deferred runs failed'))
      .finally(() => {
        waking = false;
      });
  },
  Number(env.DEFER_POLL_MS ?? 5_000),
);
waker.unref();
lifecycle.onStop('deferrals', () => clearInterval(waker));

await service.listen();
