import { randomBytes, randomUUID } from 'node:crypto';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector, handledBy } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger, createPool, derivedId, ensureTopics } from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import {
  type AnyFact,
  type ExecutionEvent,
  type ExecutionResult,
  type HILPrompt,
  type RunIntent,
  Topics,
  type TriggerCreated,
} from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { executionIdOf } from '../src/decider';

/**
 * The supervisor as its own process against the real broker and Postgres, on topics of its own
 * (a sub-prefix of the run's), so that other tests' triggers never reach it.
 */
describe('supervisor process: admission, deadlines, cancels and rebuild', () => {
  const run = randomBytes(3).toString('hex');
  const prefix = `${inject('topicPrefix')}sup${run}.`;
  const env = {
    DATABASE_URL: inject('databaseUrl'),
    TOPIC_PREFIX: prefix,
    KAFKA_BROKERS: inject('kafkaBrokers').join(','),
    MAX_RUNNING_PER_ORG: '2',
    PROMPT_TIMEOUT_MS: '1500',
    SUPERVISOR_TICK_MS: '200',
    // the tests wait on the supervisor's own lines for what it handled: those of every execution
    // (a trigger handled, an execution ended) are debug
    LOG_LEVEL: 'debug',
  };
  const log = createLogger('supervisor-int', 'fatal');
  const kafka = createKafka({ clientId: `supervisor-int-${run}`, brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  const intents = new FactCollector(kafka, prefix, [Topics.runIntent, Topics.executionEvents, Topics.uiMessages]);
  const pool = createPool(inject('databaseUrl'), 2);
  let supervisor: ServiceProcess;

  const started = async (env: Record<string, string>) => {
    const process = await startServiceProcess('supervisor', env);
    await waitUntil(async () => ((await fetch(process.url('/readyz'))).status === 200 ? true : undefined), 'supervisor /readyz');
    return process;
  };

  beforeAll(async () => {
    await admin.connect();
    await ensureTopics(admin, prefix, inject('topicPartitions'));
    await publisher.connect();
    await intents.start();
    supervisor = await started(env);
  });

  afterAll(async () => {
    await supervisor?.stop('SIGKILL');
    await intents.stop();
    await publisher.disconnect();
    await admin.disconnect();
    await pool.end();
  });

  // ---- facts the outside world would publish ----

  function createGraph(orgId: string): TriggerCreated {
    const triggerId = randomUUID();
    return makeFact(
      'TriggerCreated',
      { orgId, correlation: { conversationId: `conv-${triggerId}`, userId: 'user-1', triggerId } },
      { triggerId, triggerType: 'create_graph', payload: { jobDescription: 'triage support tickets' }, source: 'http' },
      { ids: { newId: () => triggerId } },
    );
  }
  const cancelOf = (orgId: string, executionId: string): TriggerCreated =>
    makeFact(
      'TriggerCreated',
      { orgId, correlation: { executionId } },
      { triggerId: randomUUID(), triggerType: 'cancel_execution', payload: { executionId }, source: 'http' },
    );
  const resultOf = (orgId: string, executionId: string): ExecutionResult =>
    makeFact('ExecutionResult', { orgId, correlation: { executionId } }, { executionId, status: 'completed' });
  const promptOf = (orgId: string, executionId: string): HILPrompt =>
    makeFact(
      'HILPrompt',
      { orgId, correlation: { executionId } },
      {
        executionId,
        promptId: randomUUID(),
        kind: 'questions',
        messages: ['Which Zendesk view should I triage?'],
        inputSchema: { type: 'object' },
        questions: [{ id: 'view', text: 'Which view?' }],
      },
    );

  const of = (orgId: string, action: RunIntent['action']) =>
    intents.of('RunIntent', (i) => i.orgId === orgId && i.action === action);
  const startedIds = (orgId: string) => of(orgId, 'start').map((i) => i.executionId);

  /** The ticks the supervisor has completed (`hireloop_supervisor_ticks_total` on its /metrics). */
  const ticksOf = async (process: ServiceProcess): Promise<number | undefined> => {
    const text = await (await fetch(process.url('/metrics'))).text();
    const count = /^hireloop_supervisor_ticks_total(?:\{[^}]*\})? (\d+)$/m.exec(text)?.[1];
    return count === undefined ? undefined : Number(count);
  };
  /**
   * Waits until the supervisor has completed `n` more ticks, then until the collector has read what they
   * published: a tick's decisions are published before it completes, so whatever those ticks would
   * have decided is in `intents` after this.
   */
  const afterTicks = async (process: ServiceProcess, n: number) => {
    const from = await waitUntil(() => ticksOf(process), 'the supervisor’s tick count');
    await waitUntil(async () => ((await ticksOf(process)) ?? 0) >= from + n || undefined, `${n} more ticks`, 30_000);
    await intents.caughtUp();
  };
  /** Waits until the supervisor has handled every result published so far, and the collector has read what it decided. */
  const resultsHandled = async () => {
    await handledBy(admin, `${prefix}supervisor-follow`, [`${prefix}${Topics.executionResult.name}`]);
    await intents.caughtUp();
  };

  /** The supervisor logged a line naming this id (it handled the fact; what comes next arrives after it). */
  const logged = (process: ServiceProcess, id: string, text: string) =>
    waitUntil(
      async () =>
        process
          .output()
          .split('\n')
          .some((line) => line.includes(id) && line.includes(text))
          ? true
          : undefined,
      `the supervisor to log "${text}" for ${id}`,
      30_000,
    );

  /** The supervisor logged that it handled this trigger (so the next one arrives after it). */
  const triggerLogged = (process: ServiceProcess, triggerId: string) =>
    waitUntil(
      async () =>
        process
          .output()
          .split('\n')
          .some((line) => line.includes(triggerId) && line.includes('create_graph trigger'))
          ? true
          : undefined,
      `the supervisor to handle ${triggerId}`,
      30_000,
    );

  it('starts 2 of 5 create_graph triggers of one org, then the oldest queued as each ends, dropping none', async () => {
    const org = `org-limit-${run}`;
    const triggers = Array.from({ length: 5 }, () => createGraph(org));
    for (const trigger of triggers) {
      await publisher.publish(trigger);
      await triggerLogged(supervisor, trigger.triggerId);
    }
    const ids = triggers.map((t) => executionIdOf(t.triggerId));
    await intents.until(() => startedIds(org).length >= 2, 'the first two starts');
    // every trigger was handled (logged after its decision was published): all it started is read now
    await intents.caughtUp();
    expect(startedIds(org)).toEqual(ids.slice(0, 2));

    for (const [i, done] of ids.entries()) {
      await publisher.publish(resultOf(org, done));
      const expected = ids.slice(0, Math.min(ids.length, i + 3));
      await intents.until(() => startedIds(org).length >= expected.length, `${expected.length} starts`);
      expect(startedIds(org)).toEqual(expected);
    }
    await resultsHandled();
    expect(startedIds(org)).toEqual(ids);
    const first = of(org, 'start')[0];
    expect(first).toMatchObject({
      id: derivedId(ids[0] ?? '', 'start'),
      employeeId: 'graph-creator',
      correlation: {
        conversationId: `conv-${triggers[0]?.triggerId}`,
        userId: 'user-1',
        executionId: ids[0],
        triggerId: triggers[0]?.triggerId,
      },
      causationId: triggers[0]?.id,
      trigger: {
        triggerId: triggers[0]?.triggerId,
        triggerType: 'create_graph',
        payload: { jobDescription: 'triage support tickets' },
      },
    });
  });

  it('a run deferred by quiet hours frees its slot for a queued one; resumed, it takes a slot back and a newcomer waits', async () => {
    const org = `org-deferred-${run}`;
    const step = (executionId: string, event: 'step_deferred' | 'step_resumed'): ExecutionEvent =>
      makeFact('ExecutionEvent', { orgId: org, correlation: { executionId } }, { executionId, event, stepId: 'refund' });
    const triggers = Array.from({ length: 4 }, () => createGraph(org));
    const ids = triggers.map((t) => executionIdOf(t.triggerId));
    for (const trigger of triggers.slice(0, 3)) {
      await publisher.publish(trigger);
      await triggerLogged(supervisor, trigger.triggerId);
    }
    await intents.until(() => startedIds(org).length >= 2, 'the first two starts');
    expect(startedIds(org)).toEqual(ids.slice(0, 2));

    await publisher.publish(step(ids[0] as string, 'step_deferred'));
    await intents.until(() => startedIds(org).length >= 3, 'the queued one started in the deferred run’s slot');
    expect(startedIds(org)).toEqual(ids.slice(0, 3));

    // a newcomer queues behind the two running; the deferred run resumes and takes a third slot
    const newcomer = triggers[3] as TriggerCreated;
    await publisher.publish(newcomer);
    await triggerLogged(supervisor, newcomer.triggerId);
    await publisher.publish(step(ids[0] as string, 'step_resumed'));
    await logged(supervisor, `${ids[0]}`, 'deferred run resumed');
    // one run ends: the resumed one holds its slot again, so the org is still at its limit; the
    // newcomer starts when the next one ends
    const first = resultOf(org, ids[1] as string);
    await publisher.publish(first);
    await logged(supervisor, ids[1] as string, 'execution ended');
    const second = resultOf(org, ids[2] as string);
    await publisher.publish(second);
    await intents.until(() => startedIds(org).length >= 4, 'the newcomer started once two runs ended');
    expect(startedIds(org)).toEqual(ids);
    expect(of(org, 'start').find((i) => i.executionId === ids[3])?.causationId).toBe(second.id);
  });

  it('reminds once, PROMPT_REMINDER_MS before the deadline, then cancels, once, an execution whose prompt is left unanswered past PROMPT_TIMEOUT_MS', async () => {
    const org = `org-timeout-${run}`;
    const trigger = createGraph(org);
    const executionId = executionIdOf(trigger.triggerId);
    await publisher.publish(trigger);
    await intents.until(() => startedIds(org).includes(executionId), 'the start');
    const prompt = promptOf(org, executionId);
    await publisher.publish(prompt);

    const cancel = await intents.until(() => of(org, 'cancel')[0], 'the timeout cancel', 30_000);
    expect(cancel).toMatchObject({
      id: derivedId(executionId, 'timeout'),
      executionId,
      reason: 'timeout',
      causationId: prompt.id,
    });
    expect(Date.parse(cancel.ts) - Date.parse(prompt.ts)).toBeGreaterThanOrEqual(1500);
    await afterTicks(supervisor, 5);
    expect(of(org, 'cancel')).toHaveLength(1);

    // the reminder came first (half the timeout before it: no PROMPT_REMINDER_MS is set), once, with a line to the user
    const reminders = intents.of('ExecutionEvent', (e) => e.executionId === executionId && e.event === 'prompt_reminder');
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({
      promptId: prompt.promptId,
      deadline: new Date(Date.parse(prompt.ts) + 1500).toISOString(),
    });
    expect(Date.parse(reminders[0]?.ts ?? '')).toBeGreaterThanOrEqual(Date.parse(prompt.ts) + 750);
    expect(Date.parse(reminders[0]?.ts ?? '')).toBeLessThan(Date.parse(cancel.ts));
    const lines = intents.of('UIMessage', (m) => m.conversationId === `conv-${trigger.triggerId}`);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ role: 'assistant', userId: 'user-1' });
    expect(lines[0]?.content).toContain('cancelled');
  });

  it('turns a cancel_execution trigger into RunIntent cancel for a running execution', async () => {
    const org = `org-cancel-${run}`;
    const trigger = createGraph(org);
    const executionId = executionIdOf(trigger.triggerId);
    await publisher.publish(trigger);
    await intents.until(() => startedIds(org).includes(executionId), 'the start');
    const cancel = cancelOf(org, executionId);
    await publisher.publish(cancel);
    const intent = await intents.until(() => of(org, 'cancel')[0], 'the cancel');
    expect(intent).toMatchObject({
      executionId,
      reason: 'requested',
      causationId: cancel.id,
      trigger: { triggerType: 'cancel_execution', payload: { executionId } },
    });
  });

  it('rebuilds from the facts table on restart: no second start of a started execution, a queued one starts when a slot frees', async () => {
    expect(await supervisor.stop('SIGTERM')).toBe(0);

    // What the event store would hold for org R: three triggers, the first two started.
    const org = `org-restart-${run}`;
    const triggers = [createGraph(org), createGraph(org), createGraph(org)];
    const ids = triggers.map((t) => executionIdOf(t.triggerId));
    const startOf = (trigger: TriggerCreated, executionId: string): RunIntent =>
      makeFact(
        'RunIntent',
        { orgId: org, correlation: { ...trigger.correlation, executionId }, causationId: trigger.id },
        {
          executionId,
          employeeId: 'graph-creator',
          action: 'start',
          trigger: {
            triggerId: trigger.triggerId,
            triggerType: 'create_graph',
            payload: { jobDescription: 'triage support tickets' },
          },
        },
        { ids: { newId: () => derivedId(executionId, 'start') } },
      );
    const stored: [string, AnyFact][] = [
      ...triggers.map((t): [string, AnyFact] => [Topics.triggers.name, t]),
      [Topics.runIntent.name, startOf(triggers[0] as TriggerCreated, ids[0] as string)],
      [Topics.runIntent.name, startOf(triggers[1] as TriggerCreated, ids[1] as string)],
    ];
    for (const [topic, fact] of stored) {
      const executionId = fact.type === 'RunIntent' ? fact.executionId : null;
      await pool.query(
        `INSERT INTO facts (id, topic, type, org_id, execution_id, conversation_id, payload, ts, hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [
          fact.id,
          `${prefix}${topic}`,
          fact.type,
          fact.orgId,
          executionId,
          fact.correlation.conversationId ?? null,
          JSON.stringify(fact),
          fact.ts,
          randomBytes(32).toString('hex'),
        ],
      );
    }

    supervisor = await started(env);
    await afterTicks(supervisor, 5); // a reconcile would have started something by now
    expect(startedIds(org)).toEqual([]);
    expect(supervisor.output()).toMatch(/"msg":"state rebuilt from the event store"/);

    await publisher.publish(resultOf(org, ids[0] as string));
    await intents.until(() => startedIds(org).length > 0, 'the queued execution to start');
    await resultsHandled();
    expect(startedIds(org)).toEqual([ids[2]]);
  });

  it('lets one instance decide: a second stands by, then takes over when the first stops', async () => {
    const second = await startServiceProcess('supervisor', env);
    try {
      const standby = await waitUntil(async () => {
        const res = await fetch(second.url('/readyz'));
        const body = (await res.json()) as { checks?: Record<string, string> };
        return res.status === 503 && body.checks?.supervisor?.startsWith('standby') ? body : undefined;
      }, 'the second instance to stand by');
      expect(standby.checks).toMatchObject({ postgres: 'ok', kafka: 'ok' });

      expect(await supervisor.stop('SIGTERM')).toBe(0);
      await waitUntil(async () => ((await fetch(second.url('/readyz'))).status === 200 ? true : undefined), 'the takeover');
      const org = `org-takeover-${run}`;
      const trigger = createGraph(org);
      await publisher.publish(trigger);
      await intents.until(
        () => startedIds(org).includes(executionIdOf(trigger.triggerId)),
        'a start from the new active instance',
      );
    } finally {
      supervisor = second;
    }
  });
});
