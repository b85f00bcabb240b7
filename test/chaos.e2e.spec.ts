/**
 * `make chaos`: breaks things on purpose against every service as its own process, the real broker
 * and the real database, and counts what survives. `make test` runs it short (CHAOS unset); `make
 * chaos` sets CHAOS=full for the full trial counts. Every loop is bounded in count and time, and every
 * request goes to 127.0.0.1.
 *
 * The broker and Postgres restarts run a stack of their own against a broker or a cluster of their own,
 * started and restarted through the project's scripts (test/private-infra.ts): the shared ones are
 * never touched. The worker kills are tied to named moments by the worker's fault points
 * (services/graph-creator/src/faults.ts), with random kills from outside besides.
 *
 * One row per scenario: trials, survived, facts produced (distinct ids the scenario saw published),
 * facts stored (of those, rows in `facts`), duplicates (a second effect: two results of one execution,
 * one prompt shown under two fact ids, a dead letter written twice), lost (produced, not stored) and
 * 5xx answers. The run fails on any loss, duplicate or 5xx.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type DlqEntry, FactPublisher, partitionRanges, readDeadLetters } from '@hireloop/fact-stream';
import { FactCollector, POISON, sendPoison } from '@hireloop/fact-stream/testing';
import {
  createKafka,
  createLogger,
  createPool,
  databaseName,
  dropDatabase,
  ensureTopics,
  migrate,
  type Pool,
  signToken,
  withDatabase,
} from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { type AnyFact, type EmployeeGraphSpec, type HILPrompt, topicList } from '@hireloop/schemas';
import fc from 'fast-check';
import type { Kafka } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { employeeSpec, step, workflow } from '../packages/event-store/test/builders';
import { scriptedAnswer } from '../services/graph-creator/src/answerer';
import type { FaultPoint } from '../services/graph-creator/src/faults';
import { type PrivateServer, privateKafka, privatePostgres } from './private-infra';
import { activate, api, fireHook, JWT_SECRET, registerEmployee, type ServiceName, Stack, signHook, token } from './stack';

const FULL = process.env.CHAOS === 'full';
const TRIALS = {
  /** creations and employee runs under worker kills: 100 executions in all when full */
  workerKill: FULL ? 85 : 8,
  workerRuns: FULL ? 15 : 3,
  /** worker lives that each die at a named moment: this many rounds of every fault point */
  randomKills: FULL ? 8 : 2,
  serviceKill: FULL ? 25 : 5,
  /** creations per wave (before, during, after) of a broker or Postgres restart */
  restartWave: FULL ? 8 : 2,
  fuzzRuns: FULL ? 3_000 : 300,
};
/** the fault points in the order a round visits them: a run's first, while its webhooks are fresh */
const ROUND: readonly FaultPoint[] = ['execute', 'resume', 'publish', 'node'];
/** full: every point five times; short: every point once, and two more kills at prompts */
const PLAN: readonly FaultPoint[] = FULL ? Array.from({ length: 5 }, () => ROUND).flat() : [...ROUND, 'resume', 'publish'];
const EXTRA = { MAX_RUNNING_PER_ORG: '200', GATEWAY_RATE_LIMIT: '100000' };
const JOB = 'Support triage: when a new Zendesk ticket arrives, post it in #support on Slack and create a Jira issue for bugs.';

interface Row {
  scenario: string;
  trials: number;
  survived: number;
  produced: number;
  stored: number;
  duplicates: number;
  lost: number;
  status5xx: number;
}
const rows: Row[] = [];
const record = (row: Row) => rows.push(row);

function table(): string {
  const head: (keyof Row)[] = ['scenario', 'trials', 'survived', 'produced', 'stored', 'duplicates', 'lost', 'status5xx'];
  const names = ['scenario', 'trials', 'survived', 'facts produced', 'facts stored', 'duplicates', 'lost', '5xx'];
  const cells = [names, ...rows.map((r) => head.map((k) => String(r[k])))];
  const widths = names.map((_, i) => Math.max(...cells.map((c) => (c[i] ?? '').length)));
  return cells
    .map((c) => c.map((v, i) => (i === 0 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join('  '))
    .join('\n');
}

/** One stack's view for the scenarios: its gateway, the facts on its topics, its database. */
interface Harness {
  gateway: () => string;
  collector: FactCollector;
  pool: Pool;
  /** answers of 500 or more this stack gave the scenarios' clients */
  fivexx: number;
}

/** progress on stderr with CHAOS_TRACE=1, for a scenario that seems to stall */
const trace = (...what: unknown[]) => {
  if (process.env.CHAOS_TRACE) console.error('[chaos]', new Date().toISOString(), ...what);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** How many of these fact ids the event store holds. */
async function storedOf(h: Harness, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const { rows: found } = await h.pool.query<{ n: string }>('SELECT count(*) AS n FROM facts WHERE id = ANY($1::uuid[])', [ids]);
  return Number(found[0]?.n ?? 0);
}
/** Waits until the event store holds every one of these facts (or the time is up), and answers how many it holds. */
async function settleStored(h: Harness, ids: readonly string[]): Promise<number> {
  await waitUntil(async () => ((await storedOf(h, ids)) === ids.length ? true : undefined), 'the facts stored', 90_000).catch(
    () => undefined,
  );
  return storedOf(h, ids);
}
const factsOf = (h: Harness, executionIds: ReadonlySet<string>): AnyFact[] =>
  h.collector.facts.filter((f) => f.correlation.executionId !== undefined && executionIds.has(f.correlation.executionId));
function distinctPrompts(h: Harness, executionId: string): HILPrompt[] {
  const prompts = h.collector.of('HILPrompt', (p) => p.executionId === executionId);
  return [...new Map(prompts.map((p) => [p.promptId, p])).values()];
}

/**
 * Starts a creation over HTTP, as a client that retries (with the same Idempotency-Key, so a retry
 * starts nothing new) until `patienceMs` is up; its execution id comes from the supervisor's RunIntent.
 */
async function start(h: Harness, userId: string, patienceMs = 60_000) {
  const bearer = token(userId);
  const key = randomUUID();
  const triggerId = await waitUntil(
    async () => {
      const res = await fetch(`${h.gateway()}/v1/triggers`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}`, 'idempotency-key': key },
        body: JSON.stringify({ type: 'create_graph', payload: { jobDescription: JOB } }),
        signal: AbortSignal.timeout(60_000),
      }).catch(() => undefined); // the gateway itself is being restarted
      if (!res) return undefined;
      const body = (await res.json().catch(() => ({}))) as { triggerId?: string };
      if (res.status >= 500) h.fivexx++;
      if (res.status === 202) return body.triggerId;
      if (res.status < 500 && res.status !== 429) throw new Error(`POST /v1/triggers answered ${res.status}`);
      return undefined;
    },
    'the creation accepted',
    patienceMs,
  );
  const intent = await h.collector.until(
    () => h.collector.of('RunIntent', (r) => r.trigger.triggerId === triggerId)[0],
    'the run intent',
    patienceMs,
  );
  return { bearer, executionId: intent.executionId };
}

/** Answers prompts over HTTP until the execution ends; gives up after 15 prompts or 300 s. */
async function drive(h: Harness, bearer: string, executionId: string): Promise<AnyFact | undefined> {
  const deadline = Date.now() + 300_000;
  for (let n = 0; n < 15 && Date.now() < deadline; n++) {
    const next = await h.collector.until(
      () => h.collector.of('ExecutionResult', (r) => r.executionId === executionId)[0] ?? distinctPrompts(h, executionId)[n],
      `prompt ${n + 1} or the result of ${executionId}`,
      // each prompt may take what is left of the execution's time: kills hold partitions until the group moves on
      Math.max(1_000, deadline - Date.now()),
    );
    if (next.type === 'ExecutionResult') return next;
    await waitUntil(
      async () => {
        // the answer took effect though its reply was lost (the gateway killed between publishing it and
        // answering): the execution moved on, and asking again would only be told the prompt is gone
        if (h.collector.of('ExecutionResult', (r) => r.executionId === executionId)[0] ?? distinctPrompts(h, executionId)[n + 1])
          return true;
        try {
          const res = await api(
            h.gateway(),
            'POST',
            `/v1/executions/${next.executionId}/respond`,
            { promptId: next.promptId, kind: next.kind, payload: scriptedAnswer(next) },
            bearer,
          );
          if (res.status >= 500) h.fivexx++;
          return res.status === 202 ? true : undefined;
        } catch {
          return undefined; // the gateway itself is being restarted
        }
      },
      `answer ${n + 1} accepted`,
      120_000,
    );
  }
  return undefined;
}

/**
 * Counts of a set of executions: every one completed once, each prompt shown under one fact id (never
 * twice), as many prompts as an undisturbed run; every fact seen on the topics stored.
 */
async function judge(h: Harness, executionIds: string[], results: (AnyFact | undefined)[], promptsPerExecution: number) {
  const survived = results.filter((r) => r?.type === 'ExecutionResult' && r.status === 'completed').length;
  results.forEach((r, i) => {
    if (r?.type === 'ExecutionResult' && r.status === 'completed') return;
    const how = r?.type === 'ExecutionResult' ? `${r.status} ${JSON.stringify(r.error ?? {})}` : 'no result in time';
    console.log(`not completed: ${executionIds[i]}: ${how}`);
  });
  let duplicates = 0;
  for (const executionId of executionIds) {
    const ends = new Set(h.collector.of('ExecutionResult', (r) => r.executionId === executionId).map((r) => r.id));
    if (ends.size > 1) duplicates += ends.size - 1;
    const prompts = h.collector.of('HILPrompt', (p) => p.executionId === executionId);
    const shown = new Set(prompts.map((p) => p.id)).size;
    const distinct = distinctPrompts(h, executionId).length;
    if (shown > distinct) duplicates += shown - distinct;
    // a thread advanced twice skips or repeats a question: the count differs from an undisturbed run
    if (distinct !== promptsPerExecution) duplicates += 1;
    if (ends.size > 1 || shown > distinct || distinct !== promptsPerExecution)
      console.log(
        `duplicate in ${executionId}: ${ends.size} results, ${shown} prompt facts, ${distinct} prompts (${promptsPerExecution} expected)`,
      );
  }
  const ids = [...new Set(factsOf(h, new Set(executionIds)).map((f) => f.id))];
  const stored = await settleStored(h, ids);
  return { survived, duplicates, produced: ids.length, stored, lost: ids.length - stored };
}

/** LangGraph threads advanced twice from one checkpoint: two children of the same parent. */
async function forks(pool: Pool, executionIds: readonly string[]): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT count(*) AS n FROM (
       SELECT 1 FROM langgraph.checkpoints
        WHERE thread_id = ANY($1) AND parent_checkpoint_id IS NOT NULL
        GROUP BY thread_id, checkpoint_ns, parent_checkpoint_id HAVING count(*) > 1) f`,
    [executionIds],
  );
  return Number(rows[0]?.n ?? 0);
}

/** A provider on 127.0.0.1 that counts the calls it receives by their idempotency key, and when each came. */
async function countingProvider() {
  const calls = new Map<string, number>();
  const at = new Map<string, number[]>();
  const server = createServer((req, res) => {
    const key = String(req.headers['idempotency-key'] ?? 'none');
    calls.set(key, (calls.get(key) ?? 0) + 1);
    at.set(key, [...(at.get(key) ?? []), Date.now()]);
    req.resume();
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, calls, at, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** An employee whose webhook-started workflow calls the provider twice, the second call after the first. */
function runSpec(employeeId: string, provider: string): EmployeeGraphSpec {
  const call = (id: string, dependsOn: string[]) =>
    step(id, 'http.request', {
      purpose: `tell the provider (${id})`,
      inputs: { method: { value: 'POST' }, url: { value: `${provider}/${id}` }, body: { value: '{}' } },
      dependsOn,
    });
  const ping = workflow('ping', 'webhook.incoming_webhook', {
    description: 'tell the provider twice',
    steps: [call('s1', []), call('s2', ['s1'])],
    behaviourPrompt: 'be brief',
  });
  return employeeSpec('acme', 'Chaos pinger', employeeId, [ping], 'On every incoming webhook, tell the provider twice');
}

/** Every service of a stack answers /readyz with 200 (or the time is up). */
const allReady = (services: readonly ServiceProcess[], timeoutMs = 120_000) =>
  waitUntil(
    async () => {
      const answers = await Promise.all(
        services.map((s) =>
          fetch(s.url('/readyz')).then(
            (r) => r.status,
            () => 0,
          ),
        ),
      );
      return answers.every((a) => a === 200) ? true : undefined;
    },
    'every service ready again',
    timeoutMs,
  );

describe(`chaos (${FULL ? 'full' : 'short'}): faults, bad input and other tenants`, () => {
  const stack = new Stack(EXTRA);
  const log = createLogger('chaos', 'silent');
  const prefix = inject('topicPrefix');
  const kafka = createKafka({ clientId: 'chaos', brokers: inject('kafkaBrokers'), log });
  const admin = kafka.admin();
  const collector = new FactCollector(kafka, prefix, topicList);
  const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
  let pool: Pool;
  let gateway: string;
  let gatewayProcess: ServiceProcess;
  let h: Harness;
  let provider: Awaited<ReturnType<typeof countingProvider>>;

  beforeAll(async () => {
    const services = await stack.up();
    gateway = `http://127.0.0.1:${services.gateway.port}`;
    gatewayProcess = services.gateway;
    pool = createPool(inject('databaseUrl'));
    await admin.connect();
    await collector.start();
    await publisher.connect();
    h = { gateway: () => gateway, collector, pool, fivexx: 0 };
    provider = await countingProvider();
  }, 240_000);
  afterAll(async () => {
    console.log(`\nchaos (${FULL ? 'full' : 'short'})\n${table()}\n`);
    await publisher.disconnect();
    await collector.stop();
    await admin.disconnect();
    await pool?.end();
    await stack.down();
    await provider?.close();
  });

  const workers = () =>
    stack.processes.filter((p) => p.name === 'graph-creator' && p.child.exitCode === null && p.child.signalCode === null);
  const alive = (name: string) =>
    stack.processes.filter((p) => p.name === name && p.child.exitCode === null && p.child.signalCode === null);

  let promptsPerCreation = 0;
  let baselineExecution = '';
  it('baseline: an undisturbed creation, for the counts the others are held to', async () => {
    const { bearer, executionId } = await start(h, 'baseline');
    const result = await drive(h, bearer, executionId);
    expect(result).toMatchObject({ status: 'completed' });
    promptsPerCreation = distinctPrompts(h, executionId).length;
    baselineExecution = executionId;
    expect(promptsPerCreation).toBeGreaterThan(0);
  });

  /** The employee the worker-kill runs and the webhook attackers use: registered as the worker would, then activated. */
  const runEmployee = { employeeId: '', secret: '', owner: 'pinger-owner', url: '' };
  const fire = async (delivery: string) => {
    const body = JSON.stringify({ delivery });
    const res = await fireHook(runEmployee.url, runEmployee.secret, body, delivery);
    if (res.status >= 500) h.fivexx++;
    if (res.status !== 202) throw new Error(`the webhook answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as { triggerId: string; executionId: string };
  };

  it('worker kill: SIGKILLed mid-node, between checkpoint and publish, mid-resume and mid-execute, and at random', async () => {
    const before = h.fivexx;
    const { url } = provider;
    runEmployee.employeeId = randomUUID();
    await registerEmployee(publisher, gateway, runSpec(runEmployee.employeeId, url), runEmployee.owner);
    const owner = token(runEmployee.owner);
    const activated = await activate(gateway, runEmployee.employeeId, owner);
    expect(activated.status, JSON.stringify(activated.body)).toBe(200);
    runEmployee.secret = activated.body.hooks[0]?.secret ?? '';
    runEmployee.url = `${gateway}/v1/hooks/${runEmployee.employeeId}/ping`;
    trace('worker kill: employee active');

    // the worker from the stack goes (gracefully): every life from here dies at the plan's next point
    for (const w of workers()) await w.stop('SIGTERM');
    const killsAt: Record<FaultPoint | 'random', number> = { node: 0, publish: 0, resume: 0, execute: 0, random: 0 };
    // when each worker life ended: a call it made but never recorded is made again by the next life, under the same key
    const deaths: number[] = [];
    let planned = 0;
    let crashed = '';
    // not waited on for readiness: a life may die at its point before it says it is ready
    const startWorker = async () => {
      const point = PLAN[planned];
      // at the first answer or prompt (creations have few), at one of the first passes of the others
      const after = point === 'resume' || point === 'publish' ? 1 : 1 + Math.floor(Math.random() * 3);
      const life = await startServiceProcess('graph-creator', {
        ...stack.env,
        ...(point ? { FAULT_KILL_AT: point, FAULT_KILL_AFTER: String(after) } : {}),
      });
      stack.processes.push(life);
      return life;
    };
    // a batch of runs for every life that dies mid-execute, fired when that life starts
    const runs: { triggerId: string; executionId: string }[] = [];
    const batches = PLAN.filter((p) => p === 'execute').length;
    const fireBatch = async (size: number) => {
      for (let i = 0; i < size && runs.length < TRIALS.workerRuns; i++) runs.push(await fire(`wk-run-${randomUUID()}`));
    };
    let worker = await startWorker();
    trace('worker kill: first worker', PLAN[planned]);
    if (PLAN[planned] === 'execute') await fireBatch(Math.ceil(TRIALS.workerRuns / batches));
    const creations = await Promise.all(Array.from({ length: TRIALS.workerKill }, (_, i) => start(h, `wk-${i}`)));
    trace('worker kill: creations started', creations.length, 'runs', runs.length);

    let stop = false;
    const killer = (async () => {
      const until = Date.now() + (FULL ? 1_200_000 : 400_000);
      let randomLeft = TRIALS.randomKills;
      let nextRandom = Date.now() + 2_000 + Math.floor(Math.random() * 8_000);
      while (!stop && Date.now() < until) {
        await sleep(100);
        if (worker.child.exitCode !== null || worker.child.signalCode !== null) {
          // the exit may be seen before the last of its output: give the pipe a moment to drain
          const dead = worker;
          const said = await waitUntil(
            async () => /fault: SIGKILL at (\w+)/.exec(dead.output())?.[1] as FaultPoint | undefined,
            'the fault said',
            3_000,
          ).catch(() => undefined);
          if (!said) crashed += dead.output().slice(-2_000);
          else {
            killsAt[said]++;
            deaths.push(Date.now());
            planned++;
          }
          trace('worker kill: died at', said, 'next', PLAN[planned]);
          worker = await startWorker();
          if (PLAN[planned] === 'execute') await fireBatch(Math.ceil(TRIALS.workerRuns / batches));
        } else if (randomLeft > 0 && Date.now() >= nextRandom) {
          await worker.stop('SIGKILL');
          deaths.push(Date.now());
          killsAt.random++;
          trace('worker kill: random kill');
          randomLeft--;
          nextRandom = Date.now() + 2_000 + Math.floor(Math.random() * 8_000);
          worker = await startWorker(); // the same point: it has not been reached
        }
      }
    })();
    const driven = (batch: typeof creations) =>
      Promise.all(batch.map((r) => drive(h, r.bearer, r.executionId).catch(() => undefined)));
    let creationResults = await driven(creations);
    // a fast host may finish every creation before the plan's last lives reach their point (a node, an answer, a
    // publish): more creations, a few at a time, until each planned death has come (the run batches bring `execute`)
    for (let round = 0; PLAN[planned] !== undefined && PLAN[planned] !== 'execute' && round < 4; round++) {
      trace('worker kill: more creations for the point', PLAN[planned]);
      const more = await Promise.all(Array.from({ length: 3 }, (_, i) => start(h, `wk-more-${round}-${i}`)));
      creations.push(...more);
      creationResults = [...creationResults, ...(await driven(more))];
    }
    await fireBatch(TRIALS.workerRuns); // any runs no execute life took
    const runResults = await Promise.all(runs.map((r) => drive(h, owner, r.executionId).catch(() => undefined)));
    stop = true;
    await killer;
    // the scenarios after this one get a worker without a fault still to come
    if (PLAN[planned] !== undefined || workers().length === 0) {
      for (const w of workers()) await w.stop('SIGTERM');
      await stack.start('graph-creator');
    }

    const creationIds = creations.map((r) => r.executionId);
    const runIds = runs.map((r) => r.executionId);
    const judgedCreations = await judge(h, creationIds, creationResults, promptsPerCreation);
    const judgedRuns = await judge(h, runIds, runResults, 0);
    // No effect done twice. A worker killed between a provider's answer and the effect's record cannot know
    // the call was made: the next life calls again under the same idempotency key, which a provider honours
    // (ARCHITECTURE §11) — so a key may come again only across a worker's death; any other repeat, or a
    // step called under two keys, is a second effect. Every step of every run acted.
    const { calls, at } = provider;
    const acrossDeath = (times: number[]) =>
      times.slice(1).every((t, i) => deaths.some((d) => d >= (times[i] as number) && d <= t));
    const repeated = [...at].filter(([, times]) => times.length > 1);
    const unexplained = repeated.filter(([, times]) => !acrossDeath(times)).reduce((sum, [, t]) => sum + t.length - 1, 0);
    const keysPerStep = new Map<string, number>();
    for (const key of calls.keys()) {
      const step = key.split('/').slice(0, 2).join('/');
      keysPerStep.set(step, (keysPerStep.get(step) ?? 0) + 1);
    }
    const twice = unexplained + [...keysPerStep.values()].reduce((sum, n) => sum + n - 1, 0);
    trace('worker kill: keys called again', repeated.length, 'of them not across a death', unexplained);
    const { rows: acted } = await pool.query<{ n: string }>(
      `SELECT count(*) AS n FROM tool_effects WHERE execution_id = ANY($1) AND status = 'succeeded'`,
      [runIds],
    );
    const forked = await forks(pool, [...creationIds, ...runIds]);
    if (twice > 0 || forked > 0)
      console.log(
        `worker kill: ${twice} second effects ${JSON.stringify(repeated)} (deaths ${JSON.stringify(deaths)}), ${forked} forked checkpoints`,
      );
    const kills = Object.values(killsAt).reduce((a, b) => a + b, 0);
    const judged = {
      survived: judgedCreations.survived + judgedRuns.survived,
      produced: judgedCreations.produced + judgedRuns.produced,
      stored: judgedCreations.stored + judgedRuns.stored,
      duplicates: judgedCreations.duplicates + judgedRuns.duplicates + twice + forked,
      lost: judgedCreations.lost + judgedRuns.lost,
    };
    const by = Object.entries(killsAt)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ');
    record({
      scenario: `worker kill (${kills} kills: ${by})`,
      trials: creations.length + runs.length,
      ...judged,
      status5xx: h.fivexx - before,
    });
    expect(crashed).toBe('');
    expect(killsAt.resume + killsAt.publish).toBeGreaterThanOrEqual(PLAN.filter((p) => p === 'resume' || p === 'publish').length);
    expect(killsAt.execute).toBeGreaterThan(0);
    expect(judged).toMatchObject({ survived: creations.length + runs.length, duplicates: 0, lost: 0 });
    expect({ twice, forked, acted: Number(acted[0]?.n) }).toEqual({ twice: 0, forked: 0, acted: runs.length * 2 });
    expect(h.fivexx - before).toBe(0);
  }, 1_800_000);

  it('webhook signatures: forged, missing, replayed on another body or after rotation → 401; a replayed delivery runs once', async () => {
    const body = JSON.stringify({ ticket: randomUUID() });
    const other = JSON.stringify({ ticket: randomUUID() });
    const attempts: { what: string; status: number; expect: number }[] = [];
    const post = async (what: string, payload: string, headers: Record<string, string>, expectStatus: number) => {
      const res = await fetch(runEmployee.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: payload,
      });
      attempts.push({ what, status: res.status, expect: expectStatus });
      return res.json().catch(() => ({})) as Promise<{ triggerId?: string; executionId?: string }>;
    };
    await post('no signature', body, {}, 401);
    await post('forged: signed with a guessed secret', body, { 'x-hireloop-signature': signHook('guessed', body) }, 401);
    await post(
      'forged: another scheme',
      body,
      { 'x-hireloop-signature': signHook(runEmployee.secret, body).replace('sha256', 'sha1') },
      401,
    );
    await post(
      'forged: the hex cut short',
      body,
      { 'x-hireloop-signature': signHook(runEmployee.secret, body).slice(0, 40) },
      401,
    );
    await post('replayed on another body', other, { 'x-hireloop-signature': signHook(runEmployee.secret, body) }, 401);
    const delivery = `replayed-${randomUUID()}`;
    const signed = { 'x-hireloop-signature': signHook(runEmployee.secret, body), 'x-hireloop-delivery': delivery };
    const first = await post('signed', body, signed, 202);
    const again = await post('the same delivery replayed', body, signed, 202);
    // the replay starts nothing: one trigger, one run, which ends once
    const replayedRuns = again.executionId === first.executionId && again.triggerId === first.triggerId ? 0 : 1;
    await collector.until(
      () => collector.of('ExecutionResult', (r) => r.executionId === first.executionId)[0],
      'the signed run ended',
      120_000,
    );
    // what the delivery started, as the topics carry it (one trigger, one start), and all of it stored: the
    // projector may trail the topics, so the store is waited for rather than read at once. The collector
    // reads the topics in one consumer, in no order across them: the result may be in hand before the
    // trigger or the start of the same run, so both are waited for
    const startedFacts = () => [
      ...collector.of('TriggerCreated', (t) => t.triggerId === first.triggerId),
      ...collector.of('RunIntent', (r) => r.executionId === first.executionId && r.action === 'start'),
    ];
    await collector.until(
      () => new Set(startedFacts().map((f) => f.type)).size === 2,
      'the signed delivery’s trigger and start on their topics',
      60_000,
    );
    const started = startedFacts();
    const startedIds = [...new Set(started.map((f) => f.id))];
    const stored = await settleStored(h, startedIds);
    // activating again rotates every secret: a signature under the old one is refused
    const rotated = await activate(gateway, runEmployee.employeeId, token(runEmployee.owner));
    expect(rotated.status).toBe(200);
    const newSecret = rotated.body.hooks[0]?.secret ?? '';
    // the gateway learns the new activation from the event store: once the new secret's signature is
    // taken (a body that is no object then gets its 422), the old one must be refused
    await waitUntil(
      async () => {
        const res = await fetch(runEmployee.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-hireloop-signature': signHook(newSecret, '[]') },
          body: '[]',
        });
        return res.status === 422 ? true : undefined;
      },
      'the rotated secret in force',
      60_000,
    );
    const fresh = JSON.stringify({ ticket: randomUUID() });
    await post(
      'signed with the secret before rotation',
      fresh,
      { 'x-hireloop-signature': signHook(runEmployee.secret, fresh) },
      401,
    );
    runEmployee.secret = newSecret;
    const failed = attempts.filter((a) => a.status !== a.expect);
    const duplicates = replayedRuns + startedIds.length - 2;
    record({
      scenario: 'webhook signatures',
      trials: attempts.length,
      survived: attempts.length - failed.length,
      produced: startedIds.length,
      stored,
      duplicates,
      lost: startedIds.length - stored,
      status5xx: attempts.filter((a) => a.status >= 500).length,
    });
    expect(failed).toEqual([]);
    expect({ duplicates, lost: startedIds.length - stored }).toEqual({ duplicates: 0, lost: 0 });
  }, 180_000);

  it('every other service killed and restarted while conversations go on; projections equal a fresh replay', async () => {
    const names = ['gateway', 'trigger-router', 'supervisor', 'event-store', 'connect-hub'] as const;
    const before = h.fivexx;
    const runs = await Promise.all(Array.from({ length: TRIALS.serviceKill }, (_, i) => start(h, `sk-${i}`)));
    const driving = Promise.all(runs.map((r) => drive(h, r.bearer, r.executionId).catch(() => undefined)));
    for (const name of names) {
      await sleep(500);
      const [running] = alive(name);
      if (!running) throw new Error(`${name} is not running`);
      await running.stop('SIGKILL');
      // restarted on its port: the others (and the clients) keep their URL
      const restarted = await stack.start(name, { [`${name.toUpperCase().replaceAll('-', '_')}_PORT`]: String(running.port) });
      if (name === 'gateway') gatewayProcess = restarted;
    }
    const results = await driving;
    const judged = await judge(
      h,
      runs.map((r) => r.executionId),
      results,
      promptsPerCreation,
    );
    const { verifyProjections } = await import('@hireloop/event-store');
    // the projector has caught up once every fact seen is stored; replay must then equal the live tables
    const report = await verifyProjections(pool);
    if (report.difference) console.log('replay differs:', JSON.stringify(report.difference));
    record({ scenario: 'services killed', trials: runs.length, ...judged, status5xx: h.fivexx - before });
    expect(judged).toMatchObject({ survived: runs.length, duplicates: 0, lost: 0 });
    expect(report.difference).toBeNull();
    expect(h.fivexx - before).toBe(0);
  }, 600_000);

  /**
   * A stack of its own on `env` (another broker or database), creations started before, during and
   * after `outage` (which takes the infrastructure away and brings it back), every one driven to its end.
   */
  async function restartUnderLoad(
    name: string,
    env: Record<string, string>,
    kafkaOf: Kafka,
    topicPrefix: string,
    databaseUrl: string,
    outage: (services: readonly ServiceProcess[]) => Promise<{ notReady: ServiceName[] }>,
  ) {
    const own = new Stack({ ...EXTRA, ...env });
    const ownPool = createPool(databaseUrl);
    const ownCollector = new FactCollector(kafkaOf, topicPrefix, topicList);
    try {
      const services = Object.values(await own.up());
      const ownGateway = services.find((s) => s.name === 'gateway') as ServiceProcess;
      await ownCollector.start();
      trace(name, 'stack up');
      const oh: Harness = {
        gateway: () => `http://127.0.0.1:${ownGateway.port}`,
        collector: ownCollector,
        pool: ownPool,
        fivexx: 0,
      };
      const wave = (tag: string) =>
        Array.from({ length: TRIALS.restartWave }, (_, i) => start(oh, `${name}-${tag}${i}`, 240_000));
      const drives: Promise<AnyFact | undefined>[] = [];
      const ids: string[] = [];
      const go = async (starting: Promise<{ bearer: string; executionId: string }>[]) => {
        for (const r of await Promise.all(starting)) {
          ids.push(r.executionId);
          drives.push(drive(oh, r.bearer, r.executionId).catch(() => undefined));
        }
      };
      await go(wave('before'));
      // mid-load: once half the first wave has been shown a prompt
      await ownCollector.until(
        () => ids.filter((id) => distinctPrompts(oh, id).length > 0).length >= Math.ceil(ids.length / 2) || undefined,
        'the first wave under way',
        180_000,
      );
      trace(name, 'first wave under way');
      const during = wave('during'); // clients keep trying while it is away
      const { notReady } = await outage(services);
      trace(name, 'back; not ready meanwhile:', notReady.join(' '));
      await go(during);
      const recovered = await allReady(services).then(
        () => true,
        () => false,
      );
      trace(name, 'recovered', recovered);
      await go(wave('after'));
      const results = await Promise.all(drives);
      trace(name, 'every creation driven');
      const judged = await judge(oh, ids, results, promptsPerCreation);
      // facts on the topics but not in the store: what the event store said is the first place to look
      if (judged.lost > 0) {
        const store = services.find((s) => s.name === 'event-store');
        console.log(`${name}: ${judged.lost} facts not stored; the event store's last output:\n${store?.output().slice(-6_000)}`);
      }
      const gone = services.filter((s) => s.child.exitCode !== null || s.child.signalCode !== null);
      for (const s of gone) console.log(`${name}: ${s.name} exited\n${s.output().slice(-3_000)}`);
      const exited = gone.map((s) => s.name);
      return { oh, ids, judged, notReady, recovered, exited, services };
    } finally {
      await own.down();
      await ownCollector.stop().catch(() => undefined);
      await ownPool.end();
    }
  }

  it('broker restart under load: services reconnect by themselves; every fact stored exactly once', async () => {
    const broker: PrivateServer & { brokers: string[] } = await privateKafka();
    const databaseUrl = withDatabase(inject('databaseUrl'), `${databaseName(inject('databaseUrl'))}_broker`);
    const ownKafka = createKafka({ clientId: 'chaos-broker', brokers: broker.brokers, log });
    const ownAdmin = ownKafka.admin();
    try {
      await broker.start();
      await ownAdmin.connect();
      await ensureTopics(ownAdmin, prefix, inject('topicPartitions'));
      await migrate(databaseUrl);
      const outcome = await restartUnderLoad(
        'br',
        { KAFKA_BROKERS: broker.brokers.join(','), DATABASE_URL: databaseUrl },
        ownKafka,
        prefix,
        databaseUrl,
        async () => {
          await broker.stop();
          await sleep(5_000); // the outage lasts a while: producers retry, consumers lose their coordinator
          await broker.start();
          return { notReady: [] };
        },
      );
      const { judged, ids, oh, recovered, exited } = outcome;
      record({ scenario: 'broker restart', trials: ids.length, ...judged, status5xx: oh.fivexx });
      expect({ recovered, exited }).toEqual({ recovered: true, exited: [] });
      expect(judged).toMatchObject({ survived: ids.length, duplicates: 0, lost: 0 });
      expect(oh.fivexx).toBe(0);
    } finally {
      await ownAdmin.disconnect().catch(() => undefined);
      await broker.destroy();
      await dropDatabase(databaseUrl).catch(() => undefined);
    }
  }, 900_000);

  it('Postgres restart under load: services report not-ready, then recover; nothing committed unstored, nothing valid dead-lettered', async () => {
    const postgres = await privatePostgres();
    const pgPrefix = `${prefix}pg.`;
    let committed: { topic: string; partition: number; offset: string }[] = [];
    try {
      await postgres.start();
      await migrate(postgres.databaseUrl);
      await ensureTopics(admin, pgPrefix, inject('topicPartitions'));
      const outcome = await restartUnderLoad(
        'pg',
        { DATABASE_URL: postgres.databaseUrl, TOPIC_PREFIX: pgPrefix },
        kafka,
        pgPrefix,
        postgres.databaseUrl,
        async (services) => {
          await postgres.stop();
          // while it is away every service says so on /readyz
          const said = new Set<ServiceName>();
          await waitUntil(
            async () => {
              for (const s of services) {
                const status = await fetch(s.url('/readyz')).then(
                  (r) => r.status,
                  () => 0,
                );
                if (status === 503) said.add(s.name as ServiceName);
              }
              return said.size === services.length ? true : undefined;
            },
            'every service not ready',
            30_000,
          ).catch(() => undefined);
          await sleep(5_000); // the outage lasts a while: clients retry, consumers fail transiently
          // what the projector has committed meanwhile must be stored already: checked once it is back
          const groupId = `${pgPrefix}event-store`;
          const fetched = await admin.fetchOffsets({ groupId, topics: topicList.map((t) => `${pgPrefix}${t.name}`) });
          committed = fetched.flatMap((t) =>
            t.partitions.map((p) => ({ topic: t.topic, partition: p.partition, offset: p.offset })),
          );
          await postgres.start();
          return { notReady: [...said] };
        },
      );
      const { judged, ids, oh, recovered, exited, notReady, services } = outcome;
      // every fact read below a committed offset is in the facts table
      const under = oh.collector.positions.filter((p) => {
        const c = committed.find((x) => x.topic === p.topic && x.partition === p.partition);
        return c !== undefined && Number(c.offset) >= 0 && Number(p.offset) < Number(c.offset);
      });
      const ownPool = createPool(postgres.databaseUrl);
      let unstored = 0;
      try {
        const { rows } = await ownPool.query<{ n: string }>('SELECT count(*) AS n FROM facts WHERE id = ANY($1::uuid[])', [
          [...new Set(under.map((p) => p.id))],
        ]);
        unstored = new Set(under.map((p) => p.id)).size - Number(rows[0]?.n ?? 0);
      } finally {
        await ownPool.end();
      }
      const letters = await readDeadLetters(kafka, admin, pgPrefix);
      record({ scenario: 'Postgres restart', trials: ids.length, ...judged, lost: judged.lost + unstored, status5xx: oh.fivexx });
      expect({ recovered, exited, unstored, deadLetters: letters.length }).toEqual({
        recovered: true,
        exited: [],
        unstored: 0,
        deadLetters: 0,
      });
      expect(notReady.sort()).toEqual(services.map((s) => s.name).sort());
      expect(judged).toMatchObject({ survived: ids.length, duplicates: 0, lost: 0 });
      expect(oh.fivexx).toBe(0);
    } finally {
      await postgres.destroy();
    }
  }, 900_000);

  it('duplicates and reordering: every fact type delivered twice, a stale answer after a newer one: no second effect', async () => {
    // every fact of an earlier creation published again with the same ids, in reverse order
    // the undisturbed creation's: its owner is the one who answers again below
    const executionId = baselineExecution;
    expect(collector.of('ExecutionResult', (r) => r.executionId === executionId && r.status === 'completed')).not.toEqual([]);
    const triggerId = collector.of('RunIntent', (r) => r.executionId === executionId)[0]?.trigger.triggerId;
    const trigger = collector.of('TriggerCreated', (t) => t.triggerId === triggerId);
    const again = [...trigger, ...factsOf(h, new Set([executionId as string]))].reverse();
    const types = new Set(again.map((f) => f.type));
    await publisher.publishAll(again);
    // a stale answer: the first prompt's answer once more, long after the execution moved on
    const firstPrompt = distinctPrompts(h, executionId as string)[0] as HILPrompt;
    const stale = await api(
      gateway,
      'POST',
      `/v1/executions/${executionId}/respond`,
      { promptId: firstPrompt.promptId, kind: firstPrompt.kind, payload: scriptedAnswer(firstPrompt) },
      token('baseline'),
    );
    await new Promise((r) => setTimeout(r, 3_000));
    const ids = [...new Set(again.map((f) => f.id))];
    const { rows: counted } = await pool.query<{ n: string }>('SELECT count(*) AS n FROM facts WHERE id = ANY($1::uuid[])', [
      ids,
    ]);
    const results = new Set(collector.of('ExecutionResult', (r) => r.executionId === executionId).map((r) => r.id));
    const duplicates = Number(counted[0]?.n) - ids.length + (results.size - 1);
    record({
      scenario: `duplicates (${types.size} fact types)`,
      trials: again.length,
      survived: again.length - Math.max(0, duplicates),
      produced: ids.length,
      stored: Number(counted[0]?.n),
      duplicates,
      lost: ids.length - Number(counted[0]?.n),
      status5xx: stale.status >= 500 ? 1 : 0,
    });
    expect(stale.status, JSON.stringify(stale.body)).toBe(409);
    expect(duplicates).toBe(0);
    expect(types.size).toBeGreaterThanOrEqual(6);
  });

  it('poison on every topic: each in its DLQ once, with the reason, listed for an operator', async () => {
    // the prefix's topics may hold other files' poison already (a rerun orders files differently):
    // only letters of messages at or past each partition's end before this send are this test's
    const marks = new Map<string, bigint>();
    const sources = topicList.map((spec) => `${prefix}${spec.name}`);
    for (const p of await partitionRanges(admin, sources)) marks.set(`${p.topic}:${p.partition}`, BigInt(p.high));
    const ours = (l: DlqEntry): boolean => {
      const mark = marks.get(`${l.letter.topic}:${l.letter.partition}`);
      return mark !== undefined && BigInt(l.letter.offset) >= mark;
    };
    await sendPoison(kafka, prefix, topicList);
    const expected = topicList.length * POISON.length;
    let letters: Awaited<ReturnType<typeof readDeadLetters>> = [];
    // every consumer group of a topic dead-letters what it cannot read: count per (topic, group, offset)
    await waitUntil(
      async () => {
        letters = (await readDeadLetters(kafka, admin, prefix)).filter((l) => l.letter.reason !== 'handler_failed' && ours(l));
        const poisoned = new Set(letters.map((l) => `${l.letter.topic}:${l.letter.partition}:${l.letter.offset}`));
        return poisoned.size >= expected ? true : undefined;
      },
      'every poison message dead-lettered',
      60_000,
    );
    const byPosition = new Map<string, number>();
    for (const l of letters) {
      const key = `${l.letter.topic}:${l.letter.partition}:${l.letter.offset}:${l.letter.groupId}`;
      byPosition.set(key, (byPosition.get(key) ?? 0) + 1);
    }
    const duplicates = [...byPosition.values()].reduce((sum, n) => sum + n - 1, 0);
    const poisoned = new Set(letters.map((l) => `${l.letter.topic}:${l.letter.partition}:${l.letter.offset}`)).size;
    record({
      scenario: 'poison',
      trials: expected,
      survived: poisoned,
      produced: 0,
      stored: 0,
      duplicates,
      lost: 0,
      status5xx: 0,
    });
    expect(poisoned).toBe(expected);
    expect(duplicates).toBe(0);
    expect(letters.every((l) => ['invalid', 'wrong_topic'].includes(l.letter.reason) && l.letter.error.length > 0)).toBe(true);
  });

  it('bad input: random and mutated-valid HTTP bodies and chat frames never get a 5xx, a crash or a hang', async () => {
    const bearer = token('fuzzer');
    let statuses5xx = 0;
    let cases = 0;
    let unclear = 0;
    const json = fc.jsonValue({ maxDepth: 3 });
    const validTrigger = { type: 'create_graph', payload: { jobDescription: 'Post new Zendesk tickets in Slack' } };
    const mutated = fc
      .tuple(fc.constantFrom('type', 'payload', 'orgId', 'conversationId', 'jobDescription', 'name', 'extra'), json)
      .map(([field, value]) =>
        field === 'jobDescription' || field === 'name'
          ? { ...validTrigger, payload: { ...validTrigger.payload, [field]: value } }
          : { ...validTrigger, [field]: value },
      );
    const routes = [
      (body: unknown) => ({ method: 'POST', path: '/v1/triggers', body }),
      (body: unknown) => ({ method: 'POST', path: `/v1/executions/${randomUUID()}/respond`, body }),
      (body: unknown) => ({ method: 'POST', path: `/v1/executions/${randomUUID()}/cancel`, body }),
    ];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: routes.length - 1 }), fc.oneof(json, mutated), async (route, body) => {
        const { method, path } = (routes[route] as (b: unknown) => { method: string; path: string })(body);
        const res = await fetch(`${gateway}${path}`, {
          method,
          headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
          body: JSON.stringify(body) ?? 'null',
          signal: AbortSignal.timeout(10_000),
        });
        cases++;
        const text = await res.text();
        if (res.status >= 500) statuses5xx++;
        if (res.status >= 400 && !/"message"/.test(text)) unclear++;
        return res.status < 500;
      }),
      { numRuns: TRIALS.fuzzRuns },
    );
    // query strings and ids that are not ids
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 300 }), async (junk) => {
        const res = await fetch(`${gateway}/v1/executions?conversationId=${encodeURIComponent(junk)}`, {
          headers: { authorization: `Bearer ${bearer}` },
          signal: AbortSignal.timeout(10_000),
        });
        await res.text();
        cases++;
        if (res.status >= 500) statuses5xx++;
        return res.status < 500;
      }),
      { numRuns: Math.ceil(TRIALS.fuzzRuns / 3) },
    );
    // chat frames: anything a client can send gets an error frame or is taken; the socket stays open
    const socket = new WebSocket(`${gateway.replace('http', 'ws')}/v1/chat`, { headers: { authorization: `Bearer ${bearer}` } });
    const frames: { type: string }[] = [];
    socket.on('message', (d) => frames.push(JSON.parse(d.toString())));
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const frameCases = await fc.sample(
      fc.oneof(
        json.map((v) => JSON.stringify(v) ?? 'null'),
        fc.string({ maxLength: 200 }),
        fc
          .record({ type: fc.constantFrom('message', 'hil_response', 'cancel', 'nope'), conversationId: fc.string() })
          .map((v) => JSON.stringify(v)),
      ),
      { numRuns: TRIALS.fuzzRuns, seed: 42 },
    );
    for (const frame of frameCases) socket.send(frame);
    await waitUntil(
      async () => (frames.length >= frameCases.length * 0.9 ? true : undefined),
      'answers to the frames',
      60_000,
    ).catch(() => undefined);
    const open = socket.readyState === WebSocket.OPEN;
    socket.close();
    const health = await fetch(`${gateway}/healthz`);
    record({
      scenario: 'bad input (HTTP + frames)',
      trials: cases + frameCases.length,
      survived: cases - statuses5xx + (open ? frameCases.length : 0),
      produced: 0,
      stored: 0,
      duplicates: 0,
      lost: 0,
      status5xx: statuses5xx,
    });
    expect(statuses5xx).toBe(0);
    expect(unclear).toBe(0);
    expect(open).toBe(true);
    expect(health.status).toBe(200);
    expect(gatewayProcess.child.exitCode).toBeNull();
    expect(frames.filter((f) => f.type === 'error').length).toBeGreaterThan(0);
  });

  it('attackers: no token, forged, expired, alg none, another org, oversized bodies, a flood', async () => {
    const { executionId } = await start(h, 'victim');
    const attempts: { what: string; status: number; expect: number[] }[] = [];
    const get = async (what: string, authorization: string | undefined, expectStatus: number[]) => {
      const res = await fetch(`${gateway}/v1/executions/${executionId}`, {
        headers: authorization ? { authorization } : {},
      });
      attempts.push({ what, status: res.status, expect: expectStatus });
      return res.text();
    };
    const b64 = (v: object) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const claims = { sub: 'victim', org: 'acme', exp: Math.floor(Date.now() / 1000) + 600 };
    // signed with its expiry already past: no wait for a clock to run out
    const expired = signToken({ userId: 'victim', orgId: 'acme' }, JWT_SECRET, '-1s');
    await get('no token', undefined, [401]);
    await get('forged', `Bearer ${signToken({ userId: 'victim', orgId: 'acme' }, 'not-the-secret', '1h')}`, [401]);
    await get('expired', `Bearer ${expired}`, [401]);
    await get('alg none', `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`, [401]);
    const hs = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
    const wrongSig = createHmac('sha256', 'guess').update(hs).digest('base64url');
    await get('guessed secret', `Bearer ${hs}.${wrongSig}`, [401]);
    const otherOrg = await get('another org', `Bearer ${token('victim', 'globex')}`, [404]);
    const unknownId = randomUUID();
    const unknown = await fetch(`${gateway}/v1/executions/${unknownId}`, {
      headers: { authorization: `Bearer ${token('victim', 'globex')}` },
    });
    // another tenant cannot tell an existing execution from a missing one: the same answer but for the id it asked about
    const missing = await unknown.text();
    expect(otherOrg.replaceAll(executionId, '<id>')).toBe(missing.replaceAll(unknownId, '<id>'));

    // A declared oversized body is answered at once, 413 with `connection: close`; the gateway's lingering
    // close reads and drops the rest, so a client still writing reads that answer rather than a reset.
    const big = await fetch(`${gateway}/v1/triggers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token('victim')}` },
      body: JSON.stringify({ type: 'create_graph', payload: { jobDescription: 'x'.repeat(2_000_000) } }),
    });
    attempts.push({ what: 'oversized body', status: big.status, expect: [413] });

    // a flood from one user: 429 for them, while another user goes on
    const limited = new Stack({ GATEWAY_RATE_LIMIT: '30' });
    Object.assign(limited.env, stack.env, { GATEWAY_RATE_LIMIT: '30' });
    const small = await limited.start('gateway');
    try {
      const flood = await Promise.all(
        Array.from({ length: 60 }, () =>
          fetch(`http://127.0.0.1:${small.port}/v1/executions`, { headers: { authorization: `Bearer ${token('flooder')}` } }),
        ),
      );
      const calm = await fetch(`http://127.0.0.1:${small.port}/v1/executions`, {
        headers: { authorization: `Bearer ${token('calm')}` },
      });
      attempts.push({ what: 'flood', status: flood.some((r) => r.status === 429) ? 429 : 200, expect: [429] });
      attempts.push({ what: 'another user during the flood', status: calm.status, expect: [200] });
    } finally {
      await limited.down();
    }
    const failed = attempts.filter((a) => !a.expect.includes(a.status));
    record({
      scenario: 'attackers',
      trials: attempts.length,
      survived: attempts.length - failed.length,
      produced: 0,
      stored: 0,
      duplicates: 0,
      lost: 0,
      status5xx: attempts.filter((a) => a.status >= 500).length,
    });
    expect(failed).toEqual([]);
  });
});
