import { type Delivery, FactConsumer, FactPublisher, type PublishOptions } from '@hireloop/fact-stream';
import { bootService, ensureTopics, type Logger, streamMetrics, supervisorTickMetrics, systemClock } from '@hireloop/platform';
import { Topics } from '@hireloop/schemas';
import { adoptFormerGroup, rewindToStore } from './catch-up';
import { loadSupervisorSettings } from './config';
import { decide, executionIdOf, initialState, positionOf, type SupervisorFact, type SupervisorInput, statusOf } from './decider';
import { acquireLeadership, type Leadership } from './leadership';
import { INPUT_TOPICS, LIVE_EVENTS, rebuildSchedules, rebuildState } from './rebuild';
import { dueSlots, type EmployeeFact, evolveSchedules, type Schedules, slotTrigger } from './schedule';

/**
 * supervisor: admits create_graph triggers per org (slots count executions being advanced, not
 * waiting ones) and per user (open executions), reminds and cancels prompts left unanswered, cancels
 * on request. On start it takes the deployment's supervisor lock (one active instance, others stand
 * by), rebuilds its state from the event store with the decider's `evolve`, reconciles, and then
 * consumes `triggers`, `hil-prompt`, `hil-response` and `execution-result` (results, and runs deferred
 * and resumed), with a timer for the
 * deadlines. It publishes RunIntents, its own ExecutionEvents and assistant UIMessages.
 */
type Phase = 'starting' | 'standby' | 'rebuilding' | 'active';
let phase: Phase = 'starting';
const service = await bootService('supervisor', {
  checks: {
    supervisor: async () => {
      if (phase !== 'active') throw new Error(phase === 'standby' ? 'standby: another supervisor instance is active' : phase);
    },
  },
});
const { config, log, pool, kafka, admin, lifecycle } = service;

let settings: ReturnType<typeof loadSupervisorSettings>;
try {
  settings = loadSupervisorSettings();
} catch (error) {
  log.fatal({ err: error }, 'invalid configuration');
  await lifecycle.shutdown();
  process.exit(1);
}
log.info(settings, 'supervisor settings');

// Two consumer groups (docs/decisions.md, 2026-11-27). Triggers are read at once: a person waits for the
// first prompt behind them. What follows an execution (its prompts, answers, results, and the employees
// topic that feeds the schedules of cron workflows) only moves slots and deadlines: it is read in
// windows of SUPERVISOR_FOLLOW_LINGER_MS, a fetch per window instead of one per fact. A worker's
// deferred and resumed runs (they free and take back a slot) arrive on execution-result, among them:
// the busy execution-events topic is not read live.
// The follow-ups were read by the first group before: a follow group that never committed a partition
// starts where that one stood (`adoptFormerGroup`), not from the beginning.
const triggersGroup = `${config.topicPrefix}supervisor`;
const groups = [
  { groupId: triggersGroup, topics: [Topics.triggers], lingerMs: 0, formerGroupId: undefined },
  {
    groupId: `${config.topicPrefix}supervisor-follow`,
    topics: [...INPUT_TOPICS.filter((t) => t !== Topics.triggers), Topics.employees],
    lingerMs: settings.followLingerMs,
    formerGroupId: triggersGroup,
  },
] as const;
const brokerNames = (topics: readonly { name: string }[]) => topics.map((t) => `${config.topicPrefix}${t.name}`);
const clock = systemClock;

const publisher = new FactPublisher({ kafka, topicPrefix: config.topicPrefix, log });
lifecycle.onStop('publisher', () => publisher.disconnect());
let leadership: Leadership | undefined;
lifecycle.onStop('leadership', () => leadership?.release());
let consumers: FactConsumer[] = [];
let timer: NodeJS.Timeout | undefined;
let cronTimer: NodeJS.Timeout | undefined;
let stopping = false;
// registered after the publisher and the lock, so it runs before them: no new decision, the fact
// in hand finishes and its offset is committed, then the lock goes
lifecycle.onStop('consumer', async () => {
  stopping = true;
  clearInterval(timer);
  clearInterval(cronTimer);
  await Promise.allSettled(consumers.map((c) => c.stop()));
});

// ---- decisions: one at a time (consumer and timer share the state) ----------------------------

let state = initialState();
let chain: Promise<unknown> = Promise.resolve();
function exclusive<T>(run: () => Promise<T>): Promise<T> {
  const next = chain.then(run);
  chain = next.catch(() => {});
  return next;
}

/** Decides, publishes the facts, and only then moves the state on: a failed publish is retried as if unseen. */
function handle(input: SupervisorInput, options: PublishOptions, log: Logger): Promise<void> {
  return exclusive(async () => {
    const decision = decide(state, input, settings, clock.now());
    const facts = [...decision.intents, ...decision.events, ...decision.messages];
    if (facts.length > 0) await publisher.publishAll(facts, options);
    state = decision.state;
    for (const intent of decision.intents) {
      // nested: the delivery's logger already names the executionId of the fact in hand
      log.debug(
        { intent: { id: intent.id, executionId: intent.executionId, action: intent.action, reason: intent.reason } },
        'run intent published',
      );
    }
    // What every execution goes through (admitted, ended) is debug: the facts record it, and at info a
    // line per fact cost the supervisor a tenth of its CPU under load (docs/decisions.md, 2026-11-27).
    // What an org or a user runs into (queued, refused, deferred) stays info.
    if ('type' in input && input.type === 'ExecutionResult') {
      log.debug({ execution: { id: input.executionId, status: input.status } }, 'execution ended: its slot is free');
    }
    if ('type' in input && input.type === 'ExecutionEvent' && LIVE_EVENTS.has(input.event)) {
      const status = statusOf(decision.state, input.executionId);
      log.info(
        { execution: { id: input.executionId, status } },
        input.event === 'step_deferred' ? 'run deferred: its slot is free' : 'deferred run resumed: it holds a slot again',
      );
    }
    if ('type' in input && input.type === 'TriggerCreated' && input.triggerType === 'create_graph') {
      const executionId = executionIdOf(input.triggerId);
      const status = statusOf(decision.state, executionId);
      const position = positionOf(decision.state, executionId);
      const refused = decision.events.some((e) => e.executionId === executionId && e.event === 'refused');
      const outcome =
        status === 'queued' ? 'queued: the org is at its limit' : refused ? 'refused: the user is at the open limit' : 'handled';
      log[outcome === 'handled' ? 'debug' : 'info'](
        { execution: { id: executionId, status, ...(position !== undefined ? { position } : {}) } },
        `create_graph trigger ${outcome}`,
      );
    }
  });
}

const onFact = (fact: SupervisorFact, delivery: Delivery) =>
  handle(fact, delivery.traceparent ? { traceparent: delivery.traceparent } : {}, delivery.log);

let ticking = false;
const ticks = supervisorTickMetrics(service.metrics);
function tick(): void {
  // a tick still waiting (a slow publish) makes the next one redundant
  if (phase !== 'active' || ticking) return;
  ticking = true;
  handle({ kind: 'tick' }, {}, log)
    .then(() => ticks.inc())
    .catch((error: unknown) => log.error({ err: error }, 'tick failed; the next one retries'))
    .finally(() => {
      ticking = false;
    });
}

// ---- cron: the leader fires due slots of active cron workflows --------------------------------

let schedules: Schedules = new Map();
let cronFrom = clock.now();
let firing = false;
const onEmployeeFact = async (fact: EmployeeFact): Promise<void> => {
  schedules = evolveSchedules(schedules, fact);
};

function fireSlots(): void {
  if (phase !== 'active' || firing) return;
  firing = true;
  const to = clock.now();
  const slots = dueSlots(schedules, cronFrom, to);
  const facts = slots.map(slotTrigger);
  (facts.length > 0 ? publisher.publishAll(facts) : Promise.resolve())
    .then(() => {
      cronFrom = to;
      for (const fact of facts) {
        log.info({ trigger: { id: fact.triggerId, ...('employeeId' in fact.payload ? fact.payload : {}) } }, 'cron slot fired');
      }
    })
    .catch((error: unknown) => log.error({ err: error }, 'cron slots not published; the next tick retries'))
    .finally(() => {
      firing = false;
    });
}

// ---- start-up ---------------------------------------------------------------------------------

await service.listen();

/** Stops deciding: no consumer, no timers, the lock's session dropped. */
async function stepDown(): Promise<void> {
  phase = 'standby';
  clearInterval(timer);
  clearInterval(cronTimer);
  await Promise.allSettled(consumers.map((c) => c.stop()));
  consumers = [];
  await leadership?.release();
  leadership = undefined;
}

/** Takes the lock (waiting while another instance holds it), rebuilds the state, and supervises. */
let leading = false;
async function lead(): Promise<void> {
  // one loop at a time: a lock lost while the loop still runs is taken again by that loop
  if (leading) return;
  leading = true;
  try {
    await leadLoop();
  } finally {
    leading = false;
  }
}

async function leadLoop(): Promise<void> {
  for (let attempt = 1; !stopping && phase !== 'active'; attempt++) {
    try {
      if (!leadership) phase = 'standby';
      leadership ??= await acquireLeadership({
        pool,
        deployment: config.topicPrefix || 'default',
        log,
        stopping: () => stopping,
        onLost: (error) => {
          // Postgres away (or the session cut): stand by, as a second instance would, until the lock is
          // ours again; the state is rebuilt from the event store then
          log.error({ err: error }, 'lost the supervisor lock: standing by until it can be taken again');
          void stepDown().then(lead);
        },
      });
      if (!leadership) break;

      phase = 'rebuilding';
      await ensureTopics(admin, config.topicPrefix, config.topicPartitions);
      await publisher.connect();
      const rebuilt = await rebuildState(pool, config.topicPrefix, log);
      state = rebuilt.state;
      log.info(
        { folded: rebuilt.folded, skipped: rebuilt.skipped, executions: state.executions.size },
        'state rebuilt from the event store',
      );
      // start what has a free slot, send cancels decided but never sent, time out overdue prompts
      await handle({ kind: 'tick' }, {}, log);
      schedules = await rebuildSchedules(pool, config.topicPrefix);
      // slots a previous leader may have missed are fired again: their ids make repeats the same fact
      cronFrom = new Date(clock.now().getTime() - settings.cronCatchUpMs);
      for (const { groupId, topics, formerGroupId } of groups) {
        if (formerGroupId) await adoptFormerGroup({ kafka, admin, groupId, formerGroupId, topics: brokerNames(topics), log });
        await rewindToStore({ kafka, admin, pool, groupId, topics: brokerNames(topics), log });
      }

      const created = groups.map(({ groupId, topics, lingerMs }) =>
        new FactConsumer({
          kafka,
          topicPrefix: config.topicPrefix,
          groupId,
          topics,
          log,
          publisher,
          metrics: streamMetrics(service.metrics),
          // a lingering consumer handles a fetch's batches at once (the one waiting the window out holds no
          // other back); decisions are taken one at a time anyway (`exclusive`)
          fetchLingerMs: lingerMs,
        })
          .on('TriggerCreated', onFact)
          .on('HILPrompt', onFact)
          .on('HILResponse', onFact)
          .on('ExecutionResult', onFact)
          .on('ExecutionEvent', (fact, delivery) => (LIVE_EVENTS.has(fact.event) ? onFact(fact, delivery) : Promise.resolve()))
          .on('EmployeeActivated', onEmployeeFact)
          .on('EmployeeDeactivated', onEmployeeFact),
      );
      consumers = created;
      for (const consumer of created) {
        // the lock lost meanwhile: `stepDown` stopped these (a stopped consumer refuses to start)
        if (!leadership || stopping) throw new Error('the supervisor lock was lost while starting');
        await consumer.start();
      }
      timer = setInterval(tick, settings.tickMs);
      cronTimer = setInterval(fireSlots, settings.cronTickMs);
      if (!leadership) throw new Error('the supervisor lock was lost while starting');
      phase = 'active';
      log.info({ groups: groups.map(({ groupId, topics }) => ({ groupId, topics: brokerNames(topics) })) }, 'supervising');
    } catch (error) {
      // short: Postgres or the broker back after an outage should find the supervisor deciding again soon
      const delayMs = Math.min(5_000, 500 * 2 ** attempt);
      log.warn({ err: error, attempt, delayMs }, 'could not start supervising; retrying');
      clearInterval(timer);
      clearInterval(cronTimer);
      await Promise.allSettled(consumers.map((c) => c.stop()));
      consumers = [];
      await new Promise((resolve) => setTimeout(resolve, delayMs));
    }
  }
}

await lead();
