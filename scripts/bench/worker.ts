/**
 * The worker's hot path in one process (issue 16): the project's ExecutionRunner driving the creation
 * graph on PostgresSaver, publishing through the real FactPublisher to a topic prefix of its own — no
 * consumers, no other service — so that the worker's own CPU, facts, sends and memory are measured, and
 * `node --cpu-prof` / a heap snapshot see only the worker.
 *   node --expose-gc --import tsx scripts/bench/worker.ts creations [count] [concurrency]
 *     full creations answered by the scripted answerer: CPU ms per creation, resume p50, facts and
 *     producer sends per creation.
 *   node --expose-gc --import tsx scripts/bench/worker.ts paused [count] [snapshot-file]
 *     `count` executions started and left at their first prompt: heap and RSS before and after (after a
 *     forced GC), per paused execution; a heap snapshot when a file is named.
 * BENCH_CPU_PROFILE=<file.cpuprofile> profiles the measured creations only (not the start-up, not the warm-up).
 * Makes its own database and topics and drops the database at the end. Prints one JSON line.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { writeHeapSnapshot } from 'node:v8';
import { offlineAnalyst } from '@hireloop/analyst';
import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import {
  CHECKPOINT_SCHEMA,
  createCheckpointer,
  createKafka,
  createLogger,
  createPool,
  dropDatabase,
  ensureTopics,
  loadPlatformConfig,
  migrate,
  withDatabase,
} from '@hireloop/platform';
import { type AnyFact, builtInCatalog, devOrgConnections, type HILPrompt, type RunIntent } from '@hireloop/schemas';
import { scriptedAnswer } from '../../services/graph-creator/src/answerer';
import { creationAdapter } from '../../services/graph-creator/src/creation/adapter';
import { freshCatalogSource } from '../../services/graph-creator/src/creation/sources';
import { ExecutionRunner } from '../../services/graph-creator/src/runner';

const [mode = 'creations', countArg, thirdArg] = process.argv.slice(2);
const count = Number(countArg ?? (mode === 'paused' ? 500 : 40));
const JOB =
  'Customer Onboarding Specialist. When a deal in HubSpot moves to Closed Won, create an onboarding folder in Google Drive, ' +
  'send the customer a welcome email, and post a short note in the #onboarding Slack channel. Send the contract for signature through DocuSign.';

const gc = (globalThis as { gc?: () => void }).gc;
const settle = async () => {
  for (let i = 0; i < 3; i++) {
    gc?.();
    await new Promise((r) => setTimeout(r, 50));
  }
};
const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 100) / 100;
const p50 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s[Math.floor((s.length - 1) / 2)];
  return mid === undefined ? null : Math.round(mid * 100) / 100;
};

const base = loadPlatformConfig();
const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const prefix = `benchw-${run}.`;
const databaseUrl = withDatabase(base.databaseUrl, `hireloop_benchw_${run}`);
const log = createLogger('bench-worker', 'error');
const kafka = createKafka({ clientId: 'bench-worker', brokers: base.kafkaBrokers, log });
const admin = kafka.admin();
await admin.connect();
await migrate(databaseUrl);
await ensureTopics(admin, prefix, base.topicPartitions);
const pool = createPool(databaseUrl, 8);

/** The real publisher, watched: what the runner hands it, and how many producer sends that makes. */
class CountingPublisher extends FactPublisher {
  sends = 0;
  facts = 0;
  readonly prompts = new Map<string, HILPrompt>();
  readonly waiting = new Map<string, (p: HILPrompt | null) => void>();
  override async publishAll(facts: readonly AnyFact[], options?: { traceparent?: string }): Promise<void> {
    await super.publishAll(facts, options);
    this.sends++;
    this.facts += facts.length;
    for (const fact of facts) {
      if (fact.type === 'HILPrompt') this.waiting.get(fact.executionId)?.(fact);
      if (fact.type === 'ExecutionResult') this.waiting.get(fact.executionId)?.(null);
    }
  }
}
const publisher = new CountingPublisher({ kafka, topicPrefix: prefix, log });
await publisher.connect();

const catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...devOrgConnections],
};
const checkpointer = createCheckpointer(pool);
const runner = new ExecutionRunner({
  adapter: creationAdapter(checkpointer, {
    analyst: offlineAnalyst(),
    catalog: freshCatalogSource({ forOrg: async () => structuredClone(catalog) }),
    maxRounds: 5,
    maxRoutes: 3,
  }),
  pool,
  publisher,
  log,
  checkpoints: checkpointer,
});

/** What the runner publishes next for an execution: its next prompt, or null once it has a result. */
const next = (executionId: string, act: () => Promise<void>) =>
  new Promise<HILPrompt | null>((resolve, reject) => {
    publisher.waiting.set(executionId, (p) => {
      publisher.waiting.delete(executionId);
      resolve(p);
    });
    act().catch(reject);
  });

const startIntent = (executionId: string, orgId: string): RunIntent =>
  makeFact(
    'RunIntent',
    { orgId, correlation: { executionId, conversationId: `c-${executionId}`, userId: 'u-1' } },
    {
      executionId,
      employeeId: 'graph-creator',
      action: 'start',
      trigger: { triggerId: `t-${executionId}`, triggerType: 'create_graph', payload: { jobDescription: JOB } },
    },
  );

const resumeMs: number[] = [];
async function creation(): Promise<number> {
  const executionId = randomUUID();
  let prompt = await next(executionId, () => runner.start(startIntent(executionId, 'bench-org')));
  let prompts = 0;
  while (prompt) {
    prompts++;
    if (prompts > 30) throw new Error('more than 30 prompts');
    const asked = prompt;
    const response = makeFact(
      'HILResponse',
      { orgId: asked.orgId, correlation: { ...asked.correlation, userId: 'u-1' } },
      { executionId, promptId: asked.promptId, kind: asked.kind, payload: scriptedAnswer(asked) },
    );
    const at = performance.now();
    prompt = await next(executionId, () => runner.respond(response));
    if (prompt) resumeMs.push(performance.now() - at);
  }
  return prompts;
}

let out: Record<string, unknown>;
try {
  if (mode === 'creations') {
    const concurrency = Number(thirdArg ?? 3);
    for (let i = 0; i < 3; i++) await creation(); // warm-up
    resumeMs.length = 0;
    const profiler = process.env.BENCH_CPU_PROFILE ? new Session() : undefined;
    if (profiler) {
      profiler.connect();
      await profiler.post('Profiler.enable');
      await profiler.post('Profiler.start');
    }
    const sends0 = publisher.sends;
    const facts0 = publisher.facts;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    let done = 0;
    let prompts = 0;
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (done < count) {
          done++;
          prompts = await creation();
        }
      }),
    );
    const cpu = process.cpuUsage(cpu0);
    const elapsed = performance.now() - t0;
    const stored = async (table: string) =>
      Number((await pool.query(`SELECT count(*) AS n FROM ${CHECKPOINT_SCHEMA}.${table}`)).rows[0].n);
    if (profiler && process.env.BENCH_CPU_PROFILE) {
      const { profile } = await profiler.post('Profiler.stop');
      writeFileSync(process.env.BENCH_CPU_PROFILE, JSON.stringify(profile));
      profiler.disconnect();
    }
    out = {
      mode,
      creations: done,
      concurrency,
      promptsPerCreation: prompts,
      creationsPerS: Math.round((done / (elapsed / 1000)) * 100) / 100,
      cpuMsPerCreation: Math.round(((cpu.user + cpu.system) / 1000 / done) * 10) / 10,
      resumeP50Ms: p50(resumeMs),
      factsPerCreation: Math.round(((publisher.facts - facts0) / done) * 10) / 10,
      sendsPerCreation: Math.round(((publisher.sends - sends0) / done) * 10) / 10,
      // warm-up creations included: every creation writes the same
      checkpointsPerCreation: Math.round(((await stored('checkpoints')) / (done + 3)) * 10) / 10,
      checkpointWritesPerCreation: Math.round(((await stored('checkpoint_writes')) / (done + 3)) * 10) / 10,
    };
  } else {
    // warm-up: the JIT, the pool, and every org's catalog (what is kept per org is not per paused execution)
    for (let i = 0; i < 50; i++) {
      const id = randomUUID();
      await next(id, () => runner.start(startIntent(id, `bench-org-${i}`)));
    }
    await settle();
    if (thirdArg) writeHeapSnapshot(`${thirdArg}.before`);
    const before = process.memoryUsage();
    const batch = 3; // the worker's slots (GRAPH_CREATOR_CONCURRENCY): each holds a lock connection and a working one
    for (let sent = 0; sent < count; sent += batch) {
      await Promise.all(
        Array.from({ length: Math.min(batch, count - sent) }, (_, i) => {
          const id = randomUUID();
          return next(id, () => runner.start(startIntent(id, `bench-org-${(sent + i) % 50}`)));
        }),
      );
    }
    await settle();
    const after = process.memoryUsage();
    if (thirdArg) writeHeapSnapshot(thirdArg);
    out = {
      mode,
      paused: count,
      heapUsedMb: [mb(before.heapUsed), mb(after.heapUsed)],
      rssMb: [mb(before.rss), mb(after.rss)],
      heapKbPerPaused: Math.round(((after.heapUsed - before.heapUsed) / 1024 / count) * 100) / 100,
      rssKbPerPaused: Math.round(((after.rss - before.rss) / 1024 / count) * 100) / 100,
      gcForced: gc !== undefined,
    };
  }
} finally {
  await publisher.disconnect();
  await pool.end();
  await admin.deleteTopics({ topics: (await admin.listTopics()).filter((t) => t.startsWith(prefix)) }).catch(() => {});
  await admin.disconnect();
  await dropDatabase(databaseUrl).catch(() => {});
}
console.log(JSON.stringify(out));
