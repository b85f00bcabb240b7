import { FactConsumer, FactPublisher } from '@hireloop/fact-stream';
import { bootService, ensureTopics, streamMetrics, systemClock } from '@hireloop/platform';
import { Topics } from '@hireloop/schemas';
import { reactTo } from './reaction';

/**
 * trigger-router: reads the user's chat lines from `ui-messages` and answers each with a
 * `TriggerCreated` (a request to create an employee) or an assistant reply. Stateless: every
 * outgoing id is derived from the incoming message's id, so redelivery is harmless.
 */
let consuming = false;
const service = await bootService('trigger-router', {
  checks: {
    consumer: async () => {
      if (!consuming) throw new Error('not consuming ui-messages yet');
    },
  },
});
const { config, log, kafka, admin, lifecycle } = service;

const publisher = new FactPublisher({ kafka, topicPrefix: config.topicPrefix, log });
lifecycle.onStop('publisher', () => publisher.disconnect());

const consumer = new FactConsumer({
  kafka,
  topicPrefix: config.topicPrefix,
  // Namespaced like the topics: two deployments (or test runs) on one broker never share a group.
  groupId: `${config.topicPrefix}trigger-router`,
  topics: [Topics.uiMessages],
  log,
  publisher,
  metrics: streamMetrics(service.metrics),
}).on('UIMessage', async (message, delivery) => {
  const fact = reactTo(message, systemClock.now());
  if (!fact) return;
  await publisher.publish(fact, delivery.traceparent ? { traceparent: delivery.traceparent } : {});
  // debug: the facts record every line routed, and at info a line per chat line cost the router 5% of its CPU
  delivery.log.debug(
    fact.type === 'TriggerCreated'
      ? { routed: fact.triggerType, triggerId: fact.triggerId }
      : { routed: 'reply', replyId: fact.id },
    'chat line routed',
  );
});
let stopping = false;
// registered after the publisher, so it stops first: the message in hand finishes and is committed
lifecycle.onStop('consumer', async () => {
  stopping = true;
  await consumer.stop();
});

await service.listen();

// Kafka may be away at start-up: keep trying (readiness stays red meanwhile) instead of exiting.
for (let attempt = 1; !stopping && !consuming; attempt++) {
  try {
    await ensureTopics(admin, config.topicPrefix, config.topicPartitions);
    await publisher.connect();
    await consumer.start();
    consuming = true;
    log.info({ topic: `${config.topicPrefix}${Topics.uiMessages.name}` }, 'routing chat lines');
  } catch (error) {
    const delayMs = Math.min(30_000, 500 * 2 ** attempt);
    log.warn({ err: error, attempt, delayMs }, 'could not start consuming; retrying');
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}
