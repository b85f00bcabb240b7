import { randomBytes, randomUUID } from 'node:crypto';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { handledBy } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger, derivedId, ensureTopics, traceparent } from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { type AnyFact, parseFact, Topics, type UIMessage } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';

/**
 * trigger-router as its own process against the real broker, on topics of its own (a sub-prefix of
 * the run's): chat lines in, triggers and replies out.
 */
describe('trigger-router process', () => {
  const run = randomBytes(3).toString('hex');
  const prefix = `${inject('topicPrefix')}rtr${run}.`;
  const log = createLogger('router-int', 'fatal');
  const kafka = createKafka({ clientId: `router-int-${run}`, brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const reader = kafka.consumer({ groupId: `router-int-${run}` });
  const seen: { fact: AnyFact; traceparent?: string }[] = [];
  let router: ServiceProcess;

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, prefix, inject('topicPartitions'));
    await publisher.connect();
    await reader.connect();
    await reader.subscribe({
      topics: [Topics.triggers, Topics.uiMessages].map((t) => `${prefix}${t.name}`),
      fromBeginning: true,
    });
    await reader.run({
      eachMessage: async ({ message }) => {
        const parsed = parseFact(message.value);
        const header = message.headers?.traceparent;
        if (parsed.ok) seen.push({ fact: parsed.value, ...(header ? { traceparent: header.toString() } : {}) });
      },
    });
    router = await startServiceProcess('trigger-router', {
      DATABASE_URL: inject('databaseUrl'),
      TOPIC_PREFIX: prefix,
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
    });
    await waitUntil(
      async () => ((await fetch(router.url('/readyz'))).status === 200 ? true : undefined),
      'trigger-router /readyz',
    );
  });

  afterAll(async () => {
    expect(await router?.stop('SIGTERM')).toBe(0);
    await reader.disconnect();
    await publisher.disconnect();
    await admin.disconnect();
  });

  const say = (content: string, role: UIMessage['role'] = 'user'): UIMessage => {
    const conversationId = randomUUID();
    return makeFact(
      'UIMessage',
      { orgId: 'acme', correlation: { conversationId, userId: 'alice' } },
      { conversationId, userId: 'alice', role, content },
    );
  };
  const causedBy = (message: UIMessage) => seen.filter((s) => s.fact.causationId === message.id);
  /**
   * Waits until the router has handled every chat line published so far, then until the reader has read
   * what it published meanwhile: what the router would have answered is in `seen` after this.
   */
  const routerDone = async () => {
    await handledBy(admin, `${prefix}trigger-router`, [`${prefix}${Topics.uiMessages.name}`]);
    await handledBy(
      admin,
      `router-int-${run}`,
      [Topics.triggers, Topics.uiMessages].map((t) => `${prefix}${t.name}`),
    );
  };
  const until = <T>(probe: () => T | undefined, what: string) => waitUntil(async () => probe(), what, 30_000);

  it('turns a job description into a TriggerCreated on triggers, keeping the trace', async () => {
    const message = say(
      'Customer Onboarding Specialist: when a deal closes in HubSpot, send a welcome email and book a kickoff call.',
    );
    const parent = traceparent();
    await publisher.publish(message, { traceparent: parent });
    const out = await until(() => causedBy(message)[0], 'the trigger');
    const triggerId = derivedId(message.id, 'trigger');
    expect(out.fact).toEqual({
      type: 'TriggerCreated',
      id: triggerId,
      orgId: 'acme',
      ts: expect.any(String),
      correlation: { conversationId: message.conversationId, userId: 'alice', triggerId },
      causationId: message.id,
      triggerId,
      triggerType: 'create_graph',
      payload: { jobDescription: message.content, name: 'Customer Onboarding Specialist' },
      source: 'chat',
    });
    // the same trace, one hop further: the trace id is kept, the span is new
    expect(out.traceparent?.split('-')[1]).toBe(parent.split('-')[1]);
  });

  it('answers "hello" with an assistant reply on ui-messages, and does not answer its own reply', async () => {
    const message = say('hello');
    await publisher.publish(message);
    const out = await until(() => causedBy(message)[0], 'the reply');
    expect(out.fact).toMatchObject({
      type: 'UIMessage',
      id: derivedId(message.id, 'reply'),
      role: 'assistant',
      conversationId: message.conversationId,
      userId: 'alice',
      correlation: { conversationId: message.conversationId, userId: 'alice' },
    });
    expect(out.fact.type === 'UIMessage' && out.fact.content).toMatch(/hireloop/);
    await routerDone();
    expect(causedBy(out.fact as UIMessage)).toEqual([]);
    expect(causedBy(message)).toHaveLength(1);
  });

  it('ignores assistant lines', async () => {
    const message = say('I need someone to handle refunds', 'assistant');
    await publisher.publish(message);
    await routerDone();
    expect(causedBy(message)).toEqual([]);
  });

  it('answers a redelivered message with the very same fact id, so downstream drops the repeat', async () => {
    const message = say('need a bot that posts standup reminders in slack every morning');
    await publisher.publish(message);
    await publisher.publish(message);
    await until(() => (causedBy(message).length >= 2 ? true : undefined), 'both answers');
    expect(new Set(causedBy(message).map((s) => s.fact.id))).toEqual(new Set([derivedId(message.id, 'trigger')]));
  });
});
