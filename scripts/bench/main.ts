/**
 * `make bench [ARGS=--short]`: the platform's own speed against the machine's floors, in one run
 * (issue 16). Brings Kafka and Postgres up if needed (scripts/infra.sh, as the tests do), makes this
 * run its own database and topic prefix, and then, in order:
 *   1. floors: a Kafka hop and a Postgres commit (p50, sequential);
 *   2. the bare library: the creation graph in one process (scripts/bench/bare.ts);
 *   3. the event store: scripts/bench-event-store.ts (its own database and topics);
 *   4. every service as its own process on its own ports; the load generator (scripts/bench/load.ts,
 *      its own process, real WebSockets through the gateway) steps the offered creations/s to the
 *      highest rate with answer → next p99 < 250 ms, then runs at half that rate for the latencies and
 *      RSS; CPU per creation from /proc/<pid>/stat (every service, the broker, this run's Postgres
 *      backends) over every creation of the load, less each process's idle burn;
 *   5. the employee runtime: a created employee, activated, fired by signed webhooks (→ completed);
 *   6. scale-out: a second worker, the same load, no execution run twice (stored facts);
 *   7. memory: executions left paused at their first prompt, the worker's RSS.
 * Prints a table and the targets as ratios, writes bench-results/<timestamp>.json, stops what it started.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { committedOffsets, type PartitionRange, partitionRanges } from '@hireloop/fact-stream';
import {
  createKafka,
  createLogger,
  createPool,
  dropDatabase,
  ensureTopics,
  loadPlatformConfig,
  migrate,
  signToken,
  withDatabase,
} from '@hireloop/platform';
import { freePort, type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { devOrgConnections, type EmployeeGraphSpec, type HilPromptFrame, type ServerFrame, Topics } from '@hireloop/schemas';
import { type Admin, AssignerProtocol } from 'kafkajs';
import WebSocket from 'ws';
import { scriptedAnswer } from '../../services/graph-creator/src/answerer';
import { api as httpApi } from '../../test/http';
import {
  backlogOf,
  duplicatesOf,
  type FactRow,
  fmtMs,
  fmtRate,
  type HostPhases,
  hostNotes,
  maxSustained,
  netCpuMsPerCreation,
  nextOfferedRate,
  renderTable,
  round,
  type SteppingPlan,
  stageMeansMs,
  stageTotalsOf,
  stealPctBetween,
  stepVerdict,
  summarize,
  targetVerdicts,
  ticksSince,
  warmedUp,
} from './decide';
import type { CreationsLoad, LoadResult, RunsLoad } from './load';
import { CLK_TCK, coreSpeedMs, hostStat, pidsMatching, rssOf, ticksOf } from './proc';

// ---- what to run

const args = process.argv.slice(2);
const short = args.includes('--short');
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const profile = short
  ? {
      eventStoreFacts: 10_000,
      bare: { latencyCreations: 6, concurrency: 4, seconds: 5 },
      floorSamples: 100,
      stepping: { start: 1, factor: 2, min: 0.25, max: 64, resolution: 1.5, maxSteps: 3 } satisfies SteppingPlan,
      stepSeconds: 6,
      halfSeconds: 8,
      runsSeconds: 5,
      scaleSeconds: 6,
      paused: 100,
      pausedBudgetMs: 8_000,
      settleMs: 1_000,
      idleMs: 3_000,
      warmUp: { rate: 3, roundSeconds: 5, maxRounds: 3, tolerance: 0.1 },
      timeoutMs: 30_000,
    }
  : {
      eventStoreFacts: 100_000,
      bare: { latencyCreations: 40, concurrency: 6, seconds: 30 },
      floorSamples: 500,
      stepping: { start: 1, factor: 2, min: 0.25, max: 64, resolution: 1.2, maxSteps: 10 } satisfies SteppingPlan,
      stepSeconds: 20,
      halfSeconds: 30,
      runsSeconds: 20,
      scaleSeconds: 20,
      paused: 10_000,
      pausedBudgetMs: 360_000,
      settleMs: 2_000,
      idleMs: 10_000,
      warmUp: { rate: 5, roundSeconds: 20, maxRounds: 8, tolerance: 0.05 },
      timeoutMs: 60_000,
    };
const pausedTarget = Number(flag('--paused') ?? profile.paused);
const pausedBudgetMs = Number(flag('--paused-budget') ?? profile.pausedBudgetMs / 1000) * 1000;

const root = fileURLToPath(new URL('../../', import.meta.url));
const infra = `${root}scripts/infra.sh`;
const owner = `bench-${process.pid}`;
const JWT_SECRET = `bench-${randomBytes(8).toString('hex')}`;
const ORGS = Array.from({ length: 50 }, (_, i) => `bench-o${i}`);
/** the development org's connections, given to every org of the run */
const PROVIDERS = [...devOrgConnections];
const JOB =
  'Customer Onboarding Specialist. When a deal in HubSpot moves to Closed Won, create an onboarding folder in Google Drive, ' +
  'send the customer a welcome email, and post a short note in the #onboarding Slack channel. Send the contract for signature through DocuSign.';
const golden = JSON.parse(readFileSync(`${root}../shared/golden/refunds-specialist.json`, 'utf8')) as {
  jobDescription: string;
  org: { connected: string[] };
};

const say = (line: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${line}`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- child processes: the load generator and the bare floor print one JSON line

function runChild<T>(script: string, env: Record<string, string>, nodeFlags: string[] = []): Promise<T> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
    });
    child.on('error', reject);
    child.on('exit', (code) => {
      const last = out.trim().split('\n').pop() ?? '';
      try {
        if (code !== 0) throw new Error(`exit ${code}`);
        resolve(JSON.parse(last) as T);
      } catch (error) {
        reject(new Error(`${script}: ${String(error)}; output: ${out.slice(-2000)}`));
      }
    });
  });
}

// ---- /proc (proc.ts)

/** A process's RSS once it has not fallen for `quietMs` (sampled every second), read at `maxMs` at the latest. */
async function settledRss(pid: number | undefined, quietMs: number, maxMs: number): Promise<number | null> {
  if (!pid) return null;
  const until = Date.now() + maxMs;
  let low = rssOf(pid);
  let since = Date.now();
  while (Date.now() < until && Date.now() - since < quietMs) {
    await sleep(1_000);
    const rss = rssOf(pid);
    if (rss === null) return low;
    if (low === null || rss < low) {
      low = rss;
      since = Date.now();
    }
  }
  return rssOf(pid) ?? low;
}

/** A service's `/metrics` text, '' when it cannot be read. */
const metricsOf = (base: string): Promise<string> =>
  fetch(`${base}/metrics`, { signal: AbortSignal.timeout(5_000) })
    .then((r) => r.text())
    .catch(() => '');

/** The V8 heap in use of a service, in MB, from its own `/metrics` (garbage not yet collected included). */
async function heapUsedMb(base: string): Promise<number | null> {
  const bytes = /^nodejs_heap_size_used_bytes(?:\{[^}]*\})? (\d+(?:\.\d+)?)$/m.exec(await metricsOf(base))?.[1];
  return bytes === undefined ? null : Math.round(Number(bytes) / 1e5) / 10;
}

/** The processes whose CPU is counted: name → pids (read again at every sample: pids come and go). */
type Groups = Record<string, number[]>;
type Reading = Record<string, Map<number, number>>;
function readTicks(groups: Groups): Reading {
  const out: Reading = {};
  for (const [name, pids] of Object.entries(groups)) {
    const m = new Map<number, number>();
    for (const pid of pids) {
      const t = ticksOf(pid);
      if (t !== null) m.set(pid, t);
    }
    out[name] = m;
  }
  return out;
}
/**
 * Samples every group's pids each second from now until `stop()`, which returns the ticks each group
 * spent meanwhile (`ticksSince`): Postgres backends that a pool opens or closes during the window count
 * for the part of their life inside it.
 */
function trackTicks(groups: () => Groups, everyMs = 1_000): { stop: () => Record<string, number | null> } {
  const first = readTicks(groups());
  const last: Reading = Object.fromEntries(Object.entries(first).map(([name, m]) => [name, new Map(m)]));
  const sample = () => {
    for (const [name, m] of Object.entries(readTicks(groups()))) {
      const seen = last[name] ?? new Map<number, number>();
      for (const [pid, ticks] of m) seen.set(pid, ticks);
      last[name] = seen;
    }
  };
  const timer = setInterval(sample, everyMs);
  timer.unref();
  return {
    stop: () => {
      clearInterval(timer);
      sample();
      return ticksSince(first, last);
    },
  };
}

// ---- HTTP

/** The tests' JSON call (test/http.ts), given up on after 30 s. */
function api<T>(base: string, method: string, path: string, body?: unknown, bearer?: string) {
  return httpApi<T>(base, method, path, body, bearer, 30_000);
}

// ---- floors: a Kafka hop, a Postgres commit

/** A busy broker may answer "does not host this topic-partition" while a new topic settles: retriable, a few times. */
async function retrying<T>(fn: () => Promise<T>, attempts = 20): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!(error as { retriable?: boolean }).retriable || attempt >= attempts) throw error;
      await sleep(Math.min(2_000, 200 * attempt));
    }
  }
}

async function kafkaHopMs(brokers: string[], prefix: string, samples: number): Promise<number[]> {
  // silent: a new topic's retriable "does not host this topic-partition" is expected while it settles
  const log = createLogger('bench', 'silent');
  const kafka = createKafka({ clientId: 'bench-hop', brokers, log });
  const topic = `${prefix}bench-hop`;
  const admin = kafka.admin();
  await admin.connect();
  await retrying(async () => {
    if (!(await admin.listTopics()).includes(topic))
      await admin.createTopics({ waitForLeaders: true, topics: [{ topic, numPartitions: 1, replicationFactor: 1 }] });
    const [meta] = (await admin.fetchTopicMetadata({ topics: [topic] })).topics;
    if (!meta?.partitions.every((p) => p.leader >= 0)) throw Object.assign(new Error('no leader yet'), { retriable: true });
  });
  await admin.disconnect();
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  const consumer = kafka.consumer({ groupId: `${prefix}bench-hop`, maxWaitTimeInMs: 100 });
  await producer.connect();
  await consumer.connect();
  await retrying(() => consumer.subscribe({ topics: [topic], fromBeginning: true }));
  const arrived = new Map<string, () => void>();
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({
    eachMessage: async ({ message }) => {
      arrived.get(message.value?.toString() ?? '')?.();
    },
  });
  await Promise.race([joined, sleep(30_000)]);
  const out: number[] = [];
  try {
    for (let i = 0; i < samples + 10; i++) {
      const id = randomUUID();
      const got = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('a Kafka hop took more than 10 s')), 10_000);
        arrived.set(id, () => {
          clearTimeout(timer);
          resolve();
        });
      });
      const at = performance.now();
      await producer.send({ topic, acks: -1, messages: [{ key: id, value: id }] });
      await got;
      arrived.delete(id);
      if (i >= 10) out.push(performance.now() - at);
    }
  } finally {
    await consumer.disconnect();
    await producer.disconnect();
  }
  return out;
}

async function pgCommitMs(databaseUrl: string, samples: number): Promise<number[]> {
  const pool = createPool(databaseUrl, 1);
  const out: number[] = [];
  try {
    await pool.query('CREATE TABLE IF NOT EXISTS bench_commit (id bigserial PRIMARY KEY, v text NOT NULL)');
    const client = await pool.connect();
    try {
      for (let i = 0; i < samples + 10; i++) {
        const at = performance.now();
        await client.query('BEGIN');
        await client.query('INSERT INTO bench_commit (v) VALUES ($1)', [randomUUID()]);
        await client.query('COMMIT');
        if (i >= 10) out.push(performance.now() - at);
      }
    } finally {
      client.release();
    }
    await pool.query('DROP TABLE bench_commit');
  } finally {
    await pool.end();
  }
  return out;
}

// ---- the stack

interface Stack {
  env: Record<string, string>;
  services: Record<string, ServiceProcess>;
  extraWorkers: ServiceProcess[];
}

async function startService(env: Record<string, string>, name: string): Promise<ServiceProcess> {
  const service = await startServiceProcess(name, env);
  await waitUntil(
    async () => ((await fetch(service.url('/readyz')).catch(() => undefined))?.status === 200 ? true : undefined),
    `${name} ready`,
    120_000,
  ).catch((error: unknown) => {
    throw new Error(`${String(error)}\n${service.output().slice(-3000)}`);
  });
  return service;
}

async function startStack(env: Record<string, string>): Promise<Stack> {
  const stack: Stack = { env: { ...env }, services: {}, extraWorkers: [] };
  // the Connect Hub's address is known before it starts, so that all six start at once
  const hubPort = await freePort();
  stack.env.CONNECT_HUB_PORT = String(hubPort);
  stack.env.CONNECT_HUB_URL = `http://127.0.0.1:${hubPort}`;
  await Promise.all(
    ['event-store', 'connect-hub', 'trigger-router', 'supervisor', 'graph-creator', 'gateway'].map(async (name) => {
      const service = await startService(stack.env, name);
      stack.services[name] = service;
      say(`${name} ready on 127.0.0.1:${service.port} (pid ${service.child.pid})`);
    }),
  );
  return stack;
}

/** One creation over the socket (not timed): the employee the runtime phase fires. */
async function createEmployee(gatewayPort: number, bearer: string): Promise<EmployeeGraphSpec> {
  const conversationId = randomUUID();
  const socket = new WebSocket(`ws://127.0.0.1:${gatewayPort}/v1/chat?conversationId=${conversationId}`, {
    headers: { authorization: `Bearer ${bearer}` },
  });
  try {
    return await new Promise<EmployeeGraphSpec>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('creating the employee took more than 120 s')), 120_000);
      let prompts = 0;
      const answered = new Set<string>();
      socket.once('error', reject);
      socket.once('open', () => socket.send(JSON.stringify({ conversationId, text: golden.jobDescription })));
      socket.on('message', (data) => {
        const frame = JSON.parse(data.toString()) as ServerFrame;
        if (frame.type === 'hil_prompt' && !answered.has(frame.promptId) && prompts++ < 30) {
          const prompt = frame as HilPromptFrame;
          answered.add(prompt.promptId);
          socket.send(
            JSON.stringify({
              type: 'hil_response',
              conversationId,
              executionId: prompt.executionId,
              promptId: prompt.promptId,
              kind: prompt.kind,
              payload: scriptedAnswer(prompt),
            }),
          );
        } else if (frame.type === 'execution_result') {
          clearTimeout(timer);
          if (frame.status === 'completed') resolve((frame.output as { employee: EmployeeGraphSpec }).employee);
          else reject(new Error(`the employee's creation ended ${frame.status}`));
        }
      });
    });
  } finally {
    socket.terminate();
  }
}

/** How long the stack may take to handle what a step left queued before the next step goes ahead anyway. */
const DRAIN_TIMEOUT_MS = 120_000;

/**
 * Waits until every consumer group has committed past every fact on the partitions of the run's topics its
 * live members are assigned (`backlogOf`): the stack has handled what the last step published, so the next
 * step starts on a quiet stack. Two quiet reads in a row, since what a service handled last may have
 * published more; a read that fails counts as not quiet. Returns the ms it took, or null when the stack
 * had not drained within `timeoutMs`.
 */
async function drained(
  admin: Admin,
  topics: readonly string[],
  starts: readonly PartitionRange[],
  timeoutMs = DRAIN_TIMEOUT_MS,
): Promise<number | null> {
  const ours = new Set(topics);
  const startedAt = performance.now();
  let quietReads = 0;
  while (performance.now() - startedAt < timeoutMs) {
    let backlog: number | null = null;
    try {
      const ends = await partitionRanges(admin, topics);
      const ids = (await admin.listGroups()).groups.filter((g) => g.protocolType === 'consumer').map((g) => g.groupId);
      const groups = ids.length ? (await admin.describeGroups(ids)).groups : [];
      const assigned = await Promise.all(
        groups.map(async (group) => {
          const partitions = group.members.flatMap((m) =>
            Object.entries(AssignerProtocol.MemberAssignment.decode(m.memberAssignment)?.assignment ?? {})
              .filter(([topic]) => ours.has(topic))
              .flatMap(([topic, numbers]) => numbers.map((partition) => ({ topic, partition }))),
          );
          if (partitions.length === 0) return [];
          const committed = await committedOffsets(admin, group.groupId, [...new Set(partitions.map((p) => p.topic))]);
          return partitions.map(({ topic, partition }) => ({
            topic,
            partition,
            offset: committed.find((c) => c.topic === topic && c.partition === partition)?.offset ?? '-1',
          }));
        }),
      );
      backlog = backlogOf(assigned.flat(), ends, starts);
    } catch {
      backlog = null;
    }
    quietReads = backlog === 0 ? quietReads + 1 : 0;
    if (quietReads >= 2) return Math.round(performance.now() - startedAt);
    await sleep(500);
  }
  return null;
}

// ---- the run

interface StepRecord {
  offered: number;
  /** how long the stack took to handle what the step left queued (null: not within DRAIN_TIMEOUT_MS) */
  drainMs: number | null;
  sustained: boolean;
  reason: string;
  completed: number;
  started: number;
  completedPerS: number | null;
  firstPrompt: ReturnType<typeof summarize>;
  answerToNext: ReturnType<typeof summarize>;
}

const stepOf = (r: LoadResult): StepRecord => {
  const answerToNext = summarize(r.answerToNextMs);
  const v = stepVerdict({ ...r, answerToNextP99Ms: answerToNext.p99 });
  return {
    offered: r.offered,
    sustained: v.sustained,
    reason: v.reason,
    started: r.started,
    completed: r.completed,
    completedPerS: r.windowMs > 0 ? round(r.completed / (r.windowMs / 1000), 2) : null,
    drainMs: null,
    firstPrompt: summarize(r.firstPromptMs),
    answerToNext,
  };
};

async function main() {
  const startedAt = Date.now();
  say(`${short ? 'short' : 'full'} run; Kafka and Postgres if needed`);
  execFileSync(infra, ['up', owner], { stdio: ['ignore', 'inherit', 'inherit'] });
  const base = loadPlatformConfig();
  const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const prefix = `bench-${run}.`;
  const databaseUrl = withDatabase(base.databaseUrl, `hireloop_bench_${run}`);
  const database = `hireloop_bench_${run}`;
  const log = createLogger('bench', 'error');
  const admin = createKafka({ clientId: 'bench', brokers: base.kafkaBrokers, log }).admin();
  await admin.connect();
  await migrate(databaseUrl);
  await ensureTopics(admin, prefix, base.topicPartitions);
  const runTopics = Object.values(Topics).map((t) => `${prefix}${t.name}`);
  const pool = createPool(databaseUrl, 2);
  let stack: Stack | undefined;
  const notes: string[] = [];

  try {
    // 1. floors
    say('floors: a Kafka hop and a Postgres commit');
    const hop = summarize(await kafkaHopMs(base.kafkaBrokers, prefix, profile.floorSamples));
    const commit = summarize(await pgCommitMs(databaseUrl, profile.floorSamples));

    // 2. the bare library
    say('bare library: the creation graph on PostgresSaver in one process');
    const coreSpeed: HostPhases['coreSpeedMs'] = {
      bare: coreSpeedMs(),
      eventStore: null,
      platform: null,
      end: null,
    };
    const bareStat = hostStat();
    const bare = await runChild<{
      promptsPerCreation: number;
      firstPromptMs: number[];
      resumeMs: number[];
      creationsPerS: number;
      cpuMsPerCreation: number | null;
      postgresCpuMsPerCreation: number | null;
      concurrency: number;
    }>(`${root}scripts/bench/bare.ts`, {
      BENCH_BARE: JSON.stringify({ databaseUrl, job: JOB, connected: PROVIDERS, ...profile.bare }),
    });

    const stealPct: HostPhases['stealPct'] = {
      bare: stealPctBetween(bareStat, hostStat()),
      eventStore: null,
      platform: null,
    };

    // 3. the event store
    coreSpeed.eventStore = coreSpeedMs();
    const eventStoreStat = hostStat();
    say(`event store: ${profile.eventStoreFacts.toLocaleString('en-US')} facts (scripts/bench-event-store.ts)`);
    const esFile = `${root}.run/bench-event-store-${run}.json`;
    mkdirSync(`${root}.run`, { recursive: true });
    const eventStore = await new Promise<Record<string, number | boolean> | null>((resolve) => {
      const child = spawn(
        process.execPath,
        ['--max-semi-space-size=32', '--expose-gc', '--import', 'tsx', `${root}scripts/bench-event-store.ts`],
        {
          cwd: root,
          env: { ...process.env, BENCH_FACTS: String(profile.eventStoreFacts), BENCH_JSON: esFile },
          stdio: 'inherit',
        },
      );
      child.on('exit', () => {
        try {
          resolve(JSON.parse(readFileSync(esFile, 'utf8')) as Record<string, number | boolean>);
          rmSync(esFile, { force: true });
        } catch {
          notes.push('the event-store bench wrote no figures (see its output above)');
          resolve(null);
        }
      });
    });
    stealPct.eventStore = stealPctBetween(eventStoreStat, hostStat());

    // 4. the stack, every service its own process, started by scripts/service.sh as `make up` starts them;
    // where the services run compiled, built once here rather than by four starts at once
    const buildServices = `${root}scripts/build-services.mjs`;
    if (existsSync(buildServices)) execFileSync(process.execPath, [buildServices, '--if-stale'], { stdio: 'inherit' });
    say('starting every service as its own process (own database, topics and ports)');
    stack = await startStack({
      DATABASE_URL: databaseUrl,
      TOPIC_PREFIX: prefix,
      KAFKA_BROKERS: base.kafkaBrokers.join(','),
      TOPIC_PARTITIONS: String(base.topicPartitions),
      JWT_SECRET,
      LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'info',
      // the runs phase measures the runtime's speed, not the rate rail: every run of its one org calls the
      // same tools, whose default limit (60 a minute) would refuse all but the first minute's 60 runs
      TOOL_RATE_DEFAULT: '100000/s',
    });
    const services = stack.services;
    const gateway = services.gateway as ServiceProcess;
    const hub = services['connect-hub'] as ServiceProcess;
    const worker = services['graph-creator'] as ServiceProcess;
    const gatewayBase = `http://127.0.0.1:${gateway.port}`;
    const hubBase = `http://127.0.0.1:${hub.port}`;
    for (const org of ORGS) {
      const bearer = signToken({ userId: 'bench-admin', orgId: org, role: 'admin' }, JWT_SECRET, '1h');
      const res = await api(hubBase, 'PUT', `/v1/orgs/${org}/connections`, { providers: PROVIDERS }, bearer);
      if (res.status !== 200) throw new Error(`connecting ${org}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    // where every partition of the run stands before the load: a group that never commits on one counts from here
    const readyAt = await partitionRanges(admin, runTopics);

    const brokerPids = pidsMatching('kafka.Kafka');
    if (brokerPids.length === 0) notes.push('no Kafka broker process found on this host: its CPU is not counted');
    if (brokerPids.length > 1) notes.push(`${brokerPids.length} Kafka broker processes found: their CPU is summed`);
    const groups = (): Groups => ({
      ...Object.fromEntries(Object.entries(services).map(([name, s]) => [name, s.child.pid ? [s.child.pid] : []])),
      ...(stack?.extraWorkers.length
        ? { 'graph-creator-2': stack.extraWorkers.flatMap((w) => (w.child.pid ? [w.child.pid] : [])) }
        : {}),
      'kafka-broker': brokerPids,
      'postgres (this run)': pidsMatching('postgres:', ` ${database} `),
    });

    let tag = 0;
    const creations = (rate: number, seconds: number) =>
      runChild<LoadResult>(`${root}scripts/bench/load.ts`, {
        BENCH_LOAD: JSON.stringify({
          mode: 'creations',
          gatewayPort: gateway.port,
          jwtSecret: JWT_SECRET,
          orgs: ORGS,
          job: JOB,
          rate,
          seconds,
          timeoutMs: profile.timeoutMs,
          tag: `${run}-${tag++}`,
        } satisfies CreationsLoad),
      });

    // every service compiles its hot paths during the first creations: a step measured on cold processes
    // (a short run's first step is 6 creations) reads the compiler, not the platform
    // and the broker's JIT compiles for longer still: the CPU a creation falls by a third over the first few hundred
    // creations of a fresh stack, so rounds go on until three in a row agree (`warmedUp`), as the bare floor is warm
    const warm = profile.warmUp;
    const warmRounds: (number | null)[] = [];
    while (warmRounds.length < warm.maxRounds && !warmedUp(warmRounds, warm.tolerance)) {
      const tracker = trackTicks(groups);
      const batch = await creations(warm.rate, warm.roundSeconds);
      const ticks = Object.values(tracker.stop()).reduce<number>((sum, t) => sum + (t ?? 0), 0);
      warmRounds.push(batch.completed ? round((ticks * 1000) / CLK_TCK / batch.completed) : null);
      say(
        `warm-up round ${warmRounds.length}: ${batch.completed} creations at ${warm.rate}/s, ${fmtMs(warmRounds.at(-1) ?? null)} of CPU each (every process, not counted)`,
      );
    }
    const warmSettled = warmedUp(warmRounds, warm.tolerance);
    if (!warmSettled)
      notes.push(
        `the stack's CPU a creation had not settled within ${warm.maxRounds} warm-up rounds (${warmRounds.map((v) => v ?? 'n/a').join(', ')} ms): the figures below include compiling`,
      );
    say(`then ${profile.idleMs / 1000} s idle (what each process burns with no load)`);
    // idle means idle: nothing of the warm-up still queued
    if ((await drained(admin, runTopics, readyAt)) === null)
      notes.push('the stack had not handled the warm-up before the idle reading');
    await sleep(profile.settleMs);
    const idleTracker = trackTicks(groups);
    const idleAt = performance.now();
    await sleep(profile.idleMs);
    const idleSeconds = (performance.now() - idleAt) / 1000;
    const idleTicksPerS = Object.fromEntries(
      Object.entries(idleTracker.stop()).map(([k, v]) => [k, v === null ? null : v / idleSeconds]),
    );
    // CPU is counted over every step and the run at half the maximum: every creation of the load
    coreSpeed.platform = coreSpeedMs();
    const loadStat = hostStat();
    const loadTracker = trackTicks(groups);
    const loadAt = performance.now();

    // stepping the offered load
    const steps: StepRecord[] = [];
    for (let guard = 0; guard < profile.stepping.maxSteps; guard++) {
      const rate = nextOfferedRate(steps, profile.stepping);
      if (rate === null) break;
      say(`step: offering ${rate} creations/s for ${profile.stepSeconds} s`);
      const step = stepOf(await creations(rate, profile.stepSeconds));
      step.drainMs = await drained(admin, runTopics, readyAt);
      if (step.drainMs === null)
        notes.push(`the stack had not handled step ${steps.length + 1}'s facts ${DRAIN_TIMEOUT_MS / 1000} s after it`);
      steps.push(step);
      say(
        `  ${step.completed}/${step.started} completed (${step.completedPerS ?? 'n/a'}/s); answer → next p50 ${fmtMs(step.answerToNext.p50)} p99 ${fmtMs(step.answerToNext.p99)}: ${step.sustained ? 'sustained' : `not sustained (${step.reason})`}; drained in ${fmtMs(step.drainMs)}`,
      );
      await sleep(profile.settleMs);
    }
    const maxRate = maxSustained(steps);
    const halfRate = round(maxRate > 0 ? maxRate / 2 : Math.min(...steps.map((s) => s.offered)) / 2, 2) ?? 0.5;
    if (maxRate === 0) notes.push('no offered rate was sustained: the latencies are at half the lowest rate offered');

    say(`half the maximum: ${halfRate} creations/s for ${profile.halfSeconds} s (latencies, CPU, RSS)`);
    // at least a handful of creations, however low the rate
    const halfSeconds = Math.min(profile.halfSeconds * 2, Math.max(profile.halfSeconds, 6 / halfRate));
    const workerMetrics = () => metricsOf(`http://127.0.0.1:${worker.port}`);
    const metricsBefore = await workerMetrics();
    const half = await creations(halfRate, halfSeconds);
    // where the worker's time per start and per answer went at half the maximum (mean ms per stage);
    // not read when the reading before failed (the means would cover everything since the worker started)
    const metricsAfter = metricsBefore ? await workerMetrics() : '';
    const workerStagesMs = metricsAfter ? stageMeansMs(stageTotalsOf(metricsBefore), stageTotalsOf(metricsAfter)) : {};
    if (!metricsAfter) notes.push("the worker's /metrics could not be read: no stage means");
    const loadSeconds = (performance.now() - loadAt) / 1000;
    const loadTicks = loadTracker.stop();
    stealPct.platform = stealPctBetween(loadStat, hostStat());
    coreSpeed.end = coreSpeedMs();
    notes.push(...hostNotes({ stealPct, coreSpeedMs: coreSpeed }));
    const halfStep = stepOf(half);
    const loadCreations = half.completed + steps.reduce((n, s) => n + s.completed, 0);
    const cpu = netCpuMsPerCreation(loadTicks, idleTicksPerS, loadSeconds, loadCreations, CLK_TCK);
    const rssMb = Object.fromEntries(
      Object.entries(services).map(([name, s]) => [name, s.child.pid ? rssOf(s.child.pid) : null]),
    );
    const totalMs = summarize(half.totalMs);
    const answerToResult = summarize(half.answerToResultMs);

    // 5. the employee runtime
    say('employee runtime: create the refunds specialist, activate it, fire its webhook');
    let runsFigures: Record<string, unknown> | null = null;
    try {
      const org = `bench-runs-${run}`;
      const adminToken = signToken({ userId: 'bench-admin', orgId: org, role: 'admin' }, JWT_SECRET, '1h');
      const ownerToken = signToken({ userId: 'bench-owner', orgId: org }, JWT_SECRET, '1h');
      const connected = await api(hubBase, 'PUT', `/v1/orgs/${org}/connections`, { providers: golden.org.connected }, adminToken);
      if (connected.status !== 200) throw new Error(`connecting ${org}: ${connected.status}`);
      const employee = await createEmployee(gateway.port, ownerToken);
      await waitUntil(
        async () =>
          (await api(gatewayBase, 'GET', `/v1/employees/${employee.employeeId}`, undefined, ownerToken)).status === 200
            ? true
            : undefined,
        'the employee registered',
        60_000,
      );
      const activated = await api<{ hooks: { workflowId: string; url: string; secret: string }[] }>(
        gatewayBase,
        'POST',
        `/v1/employees/${employee.employeeId}/activate`,
        undefined,
        ownerToken,
      );
      const workflow = employee.workflows.find((w) => w.trigger.triggerId === 'zendesk.new_ticket');
      const hook = activated.body.hooks?.find((h) => h.workflowId === workflow?.id);
      if (activated.status !== 200 || !hook) throw new Error(`activation: ${activated.status} ${JSON.stringify(activated.body)}`);
      await waitUntil(
        async () =>
          (await api<{ status?: string }>(gatewayBase, 'GET', `/v1/employees/${employee.employeeId}`, undefined, ownerToken)).body
            .status === 'active'
            ? true
            : undefined,
        'the employee shown active',
        60_000,
      );
      const runRate = Math.max(0.5, halfRate);
      say(`  ${runRate} runs/s for ${profile.runsSeconds} s ($40 refunds: no prompt)`);
      const r = await runChild<LoadResult>(`${root}scripts/bench/load.ts`, {
        BENCH_LOAD: JSON.stringify({
          mode: 'runs',
          hookUrl: hook.url,
          hookSecret: hook.secret,
          event: {
            ticketId: 'T-40',
            subject: 'Please refund my order',
            description: 'The mug arrived broken.',
            requesterEmail: 'kim@example.com',
            amount: 40,
            paymentId: 'pi_40',
          },
          brokers: base.kafkaBrokers,
          topicPrefix: prefix,
          rate: runRate,
          seconds: profile.runsSeconds,
          timeoutMs: profile.timeoutMs,
          tag: `${run}-runs`,
        } satisfies RunsLoad),
      });
      const webhookToCompleted = summarize(r.totalMs);
      runsFigures = {
        offeredPerS: runRate,
        started: r.started,
        completed: r.completed,
        failed: r.failed,
        timedOut: r.timedOut,
        webhookToCompletedP50Ms: webhookToCompleted.p50,
        webhookToCompletedP99Ms: webhookToCompleted.p99,
        errors: r.errors,
      };
    } catch (error) {
      notes.push(`employee runtime not measured: ${String(error).slice(0, 300)}`);
    }

    // 6. scale-out: a second worker, the load at the maximum rate
    const scaleRate = maxRate > 0 ? maxRate : halfRate;
    say(`scale-out: a second graph-creator, ${scaleRate} creations/s for ${profile.scaleSeconds} s`);
    const second = await startService(stack.env, 'graph-creator');
    stack.extraWorkers.push(second);
    await sleep(profile.settleMs * 3); // the group rebalances onto both
    const scaleTracker = trackTicks(groups);
    const scaled = await creations(scaleRate, profile.scaleSeconds);
    // each worker's share of the work: ticks, not per creation (which worker ran which is not known here)
    const scaleTicks = scaleTracker.stop();
    const rows = (
      await pool.query<{ execution_id: string; type: string; prompt_id: string | null }>(
        `SELECT execution_id, type, payload->>'promptId' AS prompt_id FROM facts
          WHERE type IN ('HILPrompt', 'ExecutionResult') AND execution_id = ANY($1::text[])`,
        [scaled.executionIds],
      )
    ).rows.map((r): FactRow => ({ executionId: r.execution_id, type: r.type, promptId: r.prompt_id }));
    const duplicates = duplicatesOf(rows);
    const scaleStep = stepOf(scaled);
    const scaleOut = {
      workers: 2,
      offeredPerS: scaleRate,
      started: scaled.started,
      completed: scaled.completed,
      failed: scaled.failed,
      timedOut: scaled.timedOut,
      answerToNextP50Ms: scaleStep.answerToNext.p50,
      answerToNextP99Ms: scaleStep.answerToNext.p99,
      duplicateResults: duplicates.results,
      duplicatePrompts: duplicates.prompts,
      duplicatePromptFrames: scaled.duplicatePrompts,
      /** what the load generator saw fail (the first 20) */
      errors: scaled.errors,
      workerCpuMs: {
        first: scaleTicks['graph-creator'] == null ? null : ((scaleTicks['graph-creator'] ?? 0) * 1000) / CLK_TCK,
        second: scaleTicks['graph-creator-2'] == null ? null : ((scaleTicks['graph-creator-2'] ?? 0) * 1000) / CLK_TCK,
      },
      ok:
        scaled.failed === 0 &&
        scaled.timedOut === 0 &&
        scaled.completed === scaled.started &&
        duplicates.results === 0 &&
        duplicates.prompts === 0,
    };
    say(
      `  ${scaled.completed}/${scaled.started} completed; duplicates: ${duplicates.results} results, ${duplicates.prompts} prompts; ${scaleOut.ok ? 'ok' : 'BROKEN'}`,
    );
    for (const error of scaled.errors) say(`  failed: ${error}`);
    await second.stop('SIGTERM');
    stack.extraWorkers = [];

    // 7. memory: executions paused at their first prompt
    say(
      `memory: up to ${pausedTarget.toLocaleString('en-US')} executions paused at a prompt (budget ${pausedBudgetMs / 1000} s)`,
    );
    await sleep(3_000);
    const pausedCount = async () =>
      Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM executions WHERE status = 'waiting'`)).rows[0]?.n ?? 0);
    const pausedBefore = await pausedCount();
    const rssBefore = worker.child.pid ? rssOf(worker.child.pid) : null;
    const heapBefore = await heapUsedMb(`http://127.0.0.1:${worker.port}`);
    const deadline = Date.now() + pausedBudgetMs;
    let sent = 0;
    let refused = 0;
    let paused = 0;
    let rssPeak = rssBefore;
    const samplePeak = () => {
      const rss = worker.child.pid ? rssOf(worker.child.pid) : null;
      if (rss !== null && (rssPeak === null || rss > rssPeak)) rssPeak = rss;
    };
    const batch = 25;
    while (sent < pausedTarget && Date.now() < deadline) {
      const n = Math.min(batch, pausedTarget - sent);
      const statuses = await Promise.all(
        Array.from({ length: n }, (_, k) => {
          const i = sent + k;
          const org = ORGS[i % ORGS.length] ?? 'acme';
          const bearer = signToken({ userId: `bench-paused-${run}-${i}`, orgId: org }, JWT_SECRET, '1h');
          return api(gatewayBase, 'POST', '/v1/triggers', { type: 'create_graph', payload: { jobDescription: JOB } }, bearer)
            .then((r) => r.status)
            .catch(() => 0);
        }),
      );
      sent += n;
      refused += statuses.filter((s) => s !== 202).length;
      // keep at most a few hundred ahead of the worker: the budget is for pausing, not for queueing
      for (let wait = 0; wait < 600 && Date.now() < deadline; wait++) {
        samplePeak();
        paused = (await pausedCount()) - pausedBefore;
        if (sent - refused - paused <= 200) break;
        await sleep(100);
      }
    }
    for (let wait = 0; wait < 300 && Date.now() < deadline + (short ? 5_000 : 60_000); wait++) {
      paused = (await pausedCount()) - pausedBefore;
      if (paused >= sent - refused) break;
      await sleep(100);
    }
    // The executions are paused: what the worker holds for them is its RSS once the burst that paused
    // them is over — V8 gives back the burst's garbage over a few seconds of quiet, so the RSS is read
    // once it has stopped falling (for 10 s, at most 60 s; 2 s and 15 s in the short run), and the
    // burst's peak is reported beside it (docs/decisions.md, 2026-11-24).
    const rssPaused = await settledRss(worker.child.pid, short ? 2_000 : 10_000, short ? 15_000 : 60_000);
    const heapPaused = await heapUsedMb(`http://127.0.0.1:${worker.port}`);
    const reached = paused >= 10_000;
    // Measured only: a slope from a few hundred paused executions is the burst's own heap growth and
    // garbage (it came out negative once), not what a paused execution holds.
    const workerRssMbWith10kPaused = reached ? rssPaused : null;
    if (!reached)
      notes.push(
        `memory.workerRssMbWith10kPaused not measured: ${paused} executions paused within the budget (worker RSS ${rssBefore} → ${rssPaused} MB); --paused 10000 --paused-budget <s> pauses 10,000 however long it takes`,
      );
    if (refused > 0) notes.push(`${refused} of ${sent} triggers of the memory phase were refused`);
    say(
      `  ${paused} paused; worker RSS ${rssBefore} → ${rssPaused} MB (peak ${rssPeak} MB while pausing), V8 heap in use ${heapBefore} → ${heapPaused} MB`,
    );

    // ---- the figures
    const resume = summarize(bare.resumeMs);
    const figures = {
      run: {
        at: new Date(startedAt).toISOString(),
        short,
        seconds: Math.round((Date.now() - startedAt) / 1000),
        host: {
          cores: Number(execFileSync('nproc').toString().trim()),
          loadAverage: readFileSync('/proc/loadavg', 'utf8').trim(),
          /** the host CPU the hypervisor gave to other guests during each phase, percent (stealPctBetween) */
          stealPct,
          /** CPU ms of one fixed piece of work before each phase and at the end (coreSpeedMs): lower is faster */
          coreSpeedMs: coreSpeed,
        },
        job: JOB,
        orgs: ORGS.length,
        database,
        topicPrefix: prefix,
      },
      floors: {
        kafkaHopP50Ms: hop.p50,
        kafkaHop: hop,
        pgCommitP50Ms: commit.p50,
        pgCommit: commit,
        bare: {
          creationsPerS: round(bare.creationsPerS, 2),
          resumeP50Ms: resume.p50,
          resume,
          firstPrompt: summarize(bare.firstPromptMs),
          cpuMsPerCreation: round(bare.cpuMsPerCreation),
          postgresCpuMsPerCreation: round(bare.postgresCpuMsPerCreation),
          promptsPerCreation: bare.promptsPerCreation,
          concurrency: bare.concurrency,
          durability: 'exit',
        },
      },
      platform: {
        creationsPerS: maxRate,
        halfRate,
        firstPromptP50Ms: halfStep.firstPrompt.p50,
        answerToNextP50Ms: halfStep.answerToNext.p50,
        answerToNextP99Ms: halfStep.answerToNext.p99,
        firstPrompt: halfStep.firstPrompt,
        answerToNext: halfStep.answerToNext,
        answerToResult,
        workerStagesMs,
        creation: totalMs,
        halfRun: { started: half.started, completed: half.completed, failed: half.failed, timedOut: half.timedOut },
        promptsPerCreation: summarize(half.promptsPerCreation).p50,
        warmUp: { ratePerS: warm.rate, roundSeconds: warm.roundSeconds, cpuMsPerCreation: warmRounds, settled: warmSettled },
        cpuMsPerCreation: cpu,
        // the same without taking the idle burn off: the two bracket the truth at low rates
        cpuMsPerCreationGross: netCpuMsPerCreation(loadTicks, {}, loadSeconds, loadCreations, CLK_TCK),
        cpuWindow: {
          creations: loadCreations,
          seconds: round(loadSeconds),
          idleTicksPerS,
          ticks: loadTicks,
          clockTicksPerS: CLK_TCK,
        },
        cpuMsPerCreationTotal: round(
          Object.values(cpu)
            .filter((v): v is number => v !== null)
            .reduce((a, b) => a + b, 0),
        ),
        loadGeneratorCpuMsPerCreation: half.completed ? round(half.loadCpuMs / half.completed) : null,
        steps,
      },
      runs: runsFigures,
      eventStore: {
        projectorFactsPerS: (eventStore?.projectorFactsPerS as number | undefined) ?? null,
        rawConsumePerS: (eventStore?.rawConsumePerS as number | undefined) ?? null,
        replayFactsPerS: (eventStore?.replayFactsPerS as number | undefined) ?? null,
        ...(eventStore ?? {}),
      },
      memory: {
        rssMb,
        workerRssMbWith10kPaused,
        paused: {
          count: paused,
          target: pausedTarget,
          workerRssMbBefore: rssBefore,
          workerRssMbAfter: rssPaused,
          workerRssMbPeak: rssPeak,
          workerHeapUsedMbBefore: heapBefore,
          workerHeapUsedMbAfter: heapPaused,
          extrapolated: !reached,
        },
      },
      scaleOut,
      notes,
    };
    const targets = targetVerdicts(figures);

    const T = (v: number | null | undefined, unit: string) => (v === null || v === undefined ? 'n/a' : `${v} ${unit}`);
    const table = renderTable(
      `hireloop bench (${short ? 'short' : 'full'}, ${figures.run.seconds} s, load ${figures.run.host.loadAverage.split(' ').slice(0, 3).join(' ')}, steal % bare/event store/platform ${[stealPct.bare, stealPct.eventStore, stealPct.platform].map((v) => v ?? 'n/a').join('/')}, core speed ms ${[coreSpeed.bare, coreSpeed.eventStore, coreSpeed.platform, coreSpeed.end].map((v) => v ?? 'n/a').join('/')})`,
      [
        ['floors.kafkaHopP50Ms', fmtMs(hop.p50)],
        ['floors.pgCommitP50Ms', fmtMs(commit.p50)],
        ['floors.bare.creationsPerS', `${fmtRate(figures.floors.bare.creationsPerS)} (concurrency ${bare.concurrency})`],
        [
          'floors.bare.resumeP50Ms',
          `${fmtMs(resume.p50)} (p99 ${fmtMs(resume.p99)}; first prompt p50 ${fmtMs(figures.floors.bare.firstPrompt.p50)})`,
        ],
        ['floors.bare.cpuMsPerCreation', fmtMs(figures.floors.bare.cpuMsPerCreation)],
        ['floors.bare.postgresCpuMsPerCreation', fmtMs(figures.floors.bare.postgresCpuMsPerCreation)],
        ...steps.map(
          (s, i) =>
            [
              `platform step ${i + 1}: ${s.offered}/s`,
              `${s.completed}/${s.started} done, ${fmtRate(s.completedPerS)}; first ${fmtMs(s.firstPrompt.p50)}; answer→next ${fmtMs(s.answerToNext.p50)} / ${fmtMs(s.answerToNext.p99)}; ${s.sustained ? 'sustained' : s.reason}; drained in ${fmtMs(s.drainMs)}`,
            ] as const,
        ),
        ['platform.creationsPerS', fmtRate(maxRate)],
        [`platform.firstPromptP50Ms (@${halfRate}/s)`, fmtMs(halfStep.firstPrompt.p50)],
        ['platform.answerToNextP50Ms / P99Ms', `${fmtMs(halfStep.answerToNext.p50)} / ${fmtMs(halfStep.answerToNext.p99)}`],
        ...Object.entries(figures.platform.workerStagesMs).map(
          ([stage, ms]) => [`platform.workerStagesMs ${stage} (mean)`, fmtMs(ms)] as [string, string],
        ),
        ['platform.answerToResultP50Ms', fmtMs(answerToResult.p50)],
        ...Object.entries(cpu).map(([name, v]) => [`platform.cpuMsPerCreation.${name}`, fmtMs(v)] as const),
        [
          'platform.cpuMsPerCreation (sum)',
          `${fmtMs(figures.platform.cpuMsPerCreationTotal)} net of idle (gross ${fmtMs(
            round(
              Object.values(figures.platform.cpuMsPerCreationGross)
                .filter((v): v is number => v !== null)
                .reduce((a, b) => a + b, 0),
            ),
          )})`,
        ],
        [
          'runs.webhookToCompleted p50 / p99',
          runsFigures
            ? `${T(runsFigures.webhookToCompletedP50Ms as number | null, 'ms')} / ${T(runsFigures.webhookToCompletedP99Ms as number | null, 'ms')} (${runsFigures.completed}/${runsFigures.started} completed)`
            : 'n/a',
        ],
        ['eventStore.projectorFactsPerS', fmtRate(figures.eventStore.projectorFactsPerS)],
        ['eventStore.rawConsumePerS', fmtRate(figures.eventStore.rawConsumePerS)],
        ['eventStore.replayFactsPerS', fmtRate(figures.eventStore.replayFactsPerS)],
        ...Object.entries(rssMb).map(([name, v]) => [`memory.rssMb.${name}`, T(v, 'MB')] as const),
        [
          'memory.workerRssMbWith10kPaused',
          reached ? T(workerRssMbWith10kPaused, 'MB') : `n/a (${paused} paused: worker RSS ${rssBefore} → ${rssPaused} MB)`,
        ],
        [
          'scaleOut (2 workers)',
          `${scaled.completed}/${scaled.started} completed at ${scaleRate}/s; p50/p99 ${fmtMs(scaleOut.answerToNextP50Ms)} / ${fmtMs(scaleOut.answerToNextP99Ms)}; duplicates ${duplicates.results + duplicates.prompts}; ${scaleOut.ok ? 'ok' : 'BROKEN'}`,
        ],
      ],
    );
    const verdicts = renderTable(
      'targets (issue 16), measured side by side',
      targets.map((t) => [
        t.target,
        `${t.pass === null ? 'n/a ' : t.pass ? 'pass' : 'MISS'}  ${t.measured}${t.ratio === null ? '' : ` (ratio ${t.ratio})`}`,
      ]),
    );
    console.log(`\n${table}\n\n${verdicts}\n`);
    for (const note of notes) console.log(`note: ${note}`);
    mkdirSync(`${root}bench-results`, { recursive: true });
    const file = `${root}bench-results/${new Date(startedAt)
      .toISOString()
      .replaceAll(':', '-')
      .replace(/\.\d+Z$/, 'Z')}.json`;
    writeFileSync(file, `${JSON.stringify({ ...figures, targets }, null, 2)}\n`);
    console.log(`figures written to ${file.slice(root.length)}`);
  } finally {
    // SIGKILL, as the end-to-end tests stop their stacks: this run's database and topics go next anyway
    if (stack) await Promise.all([...Object.values(stack.services), ...stack.extraWorkers].map((s) => s.stop('SIGKILL')));
    await pool.end();
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
    await dropDatabase(databaseUrl).catch((error: unknown) => say(`could not drop ${database}: ${String(error)}`));
    execFileSync(infra, ['down', owner], { stdio: 'inherit' });
  }
}

await main();
