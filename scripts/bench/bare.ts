/**
 * The bare-library floor of `make bench` (ARCHITECTURE §10), its own process: the project's own creation
 * graph (services/graph-creator) compiled once on PostgresSaver, in this one process, no Kafka, no
 * services — prompts answered by the scripted answerer the way the worker resumes them (`getState`, the
 * pending check, `Command({resume: {[promptId]: answer}})`, durability `exit` as the worker runs it).
 *   1. latency at concurrency 1: start → first prompt, and answer → next prompt (the resume);
 *   2. throughput at a fixed concurrency for a fixed time: creations/s, this process's CPU per creation,
 *      and the CPU of the Postgres backends serving it (the platform's sum counts its run's backends too).
 * Input: env BENCH_BARE (JSON: databaseUrl, job, connected, latencyCreations, concurrency, seconds).
 * Output: one JSON line on stdout.
 */
import { randomUUID } from 'node:crypto';
import { offlineAnalyst } from '@hireloop/analyst';
import { createLibraryCheckpointer, createPool } from '@hireloop/platform';
import { builtInCatalog } from '@hireloop/schemas';
import { Command } from '@langchain/langgraph';
import { scriptedAnswer } from '../../services/graph-creator/src/answerer';
import { buildCreationGraph } from '../../services/graph-creator/src/creation/graph';
import { isPromptSpec } from '../../services/graph-creator/src/prompt';
import { CLK_TCK, ticksOf } from './proc';

interface BareInput {
  databaseUrl: string;
  job: string;
  connected: string[];
  latencyCreations: number;
  concurrency: number;
  seconds: number;
}

const input = JSON.parse(process.env.BENCH_BARE ?? '{}') as BareInput;
// pg reads every value its own way, as the library's users get it (not hireloop's bytea[] reader)
const pool = createPool(input.databaseUrl, Math.max(4, input.concurrency + 2), { readers: 'pg' });
// the library's own saver, as it ships: the floor is the bare library's, not hireloop's checkpointer
const checkpointer = createLibraryCheckpointer(pool);
const catalog = { capabilities: builtInCatalog.capabilities, triggers: builtInCatalog.triggers, connected: input.connected };
const graph = buildCreationGraph({
  analyst: offlineAnalyst(),
  catalog: { forOrg: async () => catalog },
}).compile({ checkpointer });

const MAX_PROMPTS = 30;

/** One creation start to end; `onTimed` gets start → first prompt (first) and each answer → next prompt. */
async function creation(onTimed: (kind: 'first' | 'resume' | 'last', ms: number) => void): Promise<number> {
  const executionId = randomUUID();
  const config = { configurable: { thread_id: executionId }, durability: 'exit' as const };
  const run = async (value: unknown) => {
    for await (const _ of await graph.stream(value as never, { ...config, streamMode: 'updates' })) {
      // drained: the worker reads each update the same way
    }
  };
  let at = performance.now();
  await run({ executionId, orgId: 'bench-bare', jobDescription: input.job, name: '' });
  for (let prompts = 0; prompts <= MAX_PROMPTS; prompts++) {
    const snapshot = await graph.getState(config);
    const pending = snapshot.tasks
      .filter((t) => t.result === undefined)
      .flatMap((t) => t.interrupts)
      .find((i) => i.id && isPromptSpec(i.value));
    const now = performance.now();
    if (!pending?.id || !isPromptSpec(pending.value)) {
      onTimed('last', now - at);
      return prompts;
    }
    onTimed(prompts === 0 ? 'first' : 'resume', now - at);
    at = performance.now();
    await run(new Command({ resume: { [pending.id]: scriptedAnswer(pending.value) } }));
  }
  throw new Error(`more than ${MAX_PROMPTS} prompts`);
}

const firstPromptMs: number[] = [];
const resumeMs: number[] = [];
const lastMs: number[] = [];
let prompts = 0;

// warm-up: the JIT and the pool, not measured
for (let i = 0; i < 3; i++) await creation(() => {});

for (let i = 0; i < input.latencyCreations; i++) {
  prompts = await creation((kind, ms) => (kind === 'first' ? firstPromptMs : kind === 'resume' ? resumeMs : lastMs).push(ms));
}

/** The pool's backends: every connection it may open is opened now and asked its server pid. */
async function backendPids(): Promise<number[]> {
  const clients = await Promise.all(Array.from({ length: pool.options.max ?? 1 }, () => pool.connect()));
  try {
    return await Promise.all(
      clients.map(async (c) => Number((await c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]?.pid)),
    );
  } finally {
    for (const c of clients) c.release();
  }
}
/** CPU ticks of those backends so far (a backend that is not on this host, or gone, counts nothing). */
const backendTicks = (pids: readonly number[]): number => pids.reduce((sum, pid) => sum + (ticksOf(pid) ?? 0), 0);

// throughput: `concurrency` creations in flight until the time is up (then the ones in flight finish)
const backends = await backendPids();
const ticksBefore = backendTicks(backends);
const cpuBefore = process.cpuUsage();
const startedAt = performance.now();
const deadline = startedAt + input.seconds * 1000;
let completed = 0;
await Promise.all(
  Array.from({ length: input.concurrency }, async () => {
    while (performance.now() < deadline) {
      await creation(() => {});
      completed++;
    }
  }),
);
const elapsedMs = performance.now() - startedAt;
const cpu = process.cpuUsage(cpuBefore);
const postgresMs = ((backendTicks(backends) - ticksBefore) * 1000) / CLK_TCK;
await pool.end();

console.log(
  JSON.stringify({
    promptsPerCreation: prompts,
    firstPromptMs,
    resumeMs,
    lastMs,
    completed,
    elapsedMs,
    creationsPerS: completed / (elapsedMs / 1000),
    cpuMsPerCreation: completed ? (cpu.user + cpu.system) / 1000 / completed : null,
    postgresCpuMsPerCreation: completed && backends.length ? postgresMs / completed : null,
    concurrency: input.concurrency,
  }),
);
