import {
  createProjector,
  PROJECTOR_FACTS_IN_FLIGHT,
  PROJECTOR_FETCH_LINGER_MS,
  PROJECTOR_PARTITIONS_CONCURRENTLY,
} from '@hireloop/event-store';
import { FactConsumer, FactPublisher } from '@hireloop/fact-stream';
import { bootService, ensureTopics, executionMetrics, streamMetrics } from '@hireloop/platform';
import { topicList } from '@hireloop/schemas';

/**
 * The projector: every fact of every topic, appended to `facts` and folded into the projections
 * (packages/event-store). Offsets are committed after the transaction holding a batch's facts has
 * committed, so a crash redelivers, and `facts.id` makes a redelivered fact a no-op.
 */
let projectorReady: () => Promise<void> = async () => {
  throw new Error('the projector has not started');
};
const service = await bootService('event-store', { checks: { projector: () => projectorReady() } });
const { config, kafka, admin, log, pool, lifecycle } = service;

// executions by status and prompts pending, read from the projections this service writes
executionMetrics(service.metrics, pool);

const publisher = new FactPublisher({ kafka, topicPrefix: config.topicPrefix, log });
lifecycle.onStop('dlq-publisher', () => publisher.disconnect());

const consumer = new FactConsumer({
  kafka,
  topicPrefix: config.topicPrefix,
  // the topic prefix keeps deployments (and test runs) sharing a broker out of each other's groups
  groupId: `${config.topicPrefix}event-store`,
  topics: topicList,
  log,
  publisher,
  metrics: streamMetrics(service.metrics),
  partitionsConsumedConcurrently: PROJECTOR_PARTITIONS_CONCURRENTLY,
  fetchLingerMs: PROJECTOR_FETCH_LINGER_MS,
}).onBatch(createProjector(pool, log), { maxFactsInFlight: PROJECTOR_FACTS_IN_FLIGHT });
projectorReady = consumer.ready;

let stopping = false;
// registered last, so stopped first: no new batch; the one in hand is committed, then its offsets
lifecycle.onStop('consumer', async () => {
  stopping = true;
  await consumer.stop();
});

await service.listen();

// Kafka may be away at start-up: keep trying (readiness stays red meanwhile) instead of exiting.
for (let attempt = 1, consuming = false; !stopping && !consuming; attempt++) {
  try {
    await ensureTopics(admin, config.topicPrefix, config.topicPartitions);
    await publisher.connect();
    await consumer.start();
    consuming = true;
    log.info({ groupId: `${config.topicPrefix}event-store`, topics: topicList.length }, 'projecting every topic');
  } catch (error) {
    const delayMs = Math.min(30_000, 500 * 2 ** attempt);
    log.warn({ err: error, attempt, delayMs }, 'could not start consuming; retrying');
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
