/**
 * `make bench` (event store): in one run, produce N valid facts to a fresh prefixed topic set, then
 *   1. consume them with a bare kafkajs consumer (the floor: facts/s),
 *   2. project them with the event-store's consumer and projector into a fresh database (facts/s,
 *      end to end: validated, hashed, appended and folded, transaction committed),
 *   3. rebuild the projections from `facts` alone (replay, facts/s),
 * and print the three figures against their targets. N = BENCH_FACTS (default 100,000), as whole
 * creations shaped like ARCHITECTURE §10's (the mix is printed). With BENCH_JSON=<file> the figures are also
 * written there as JSON (scripts/bench/main.ts runs this script as one phase of `make bench`).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import {
  createProjector,
  PROJECTOR_FACTS_IN_FLIGHT,
  PROJECTOR_FETCH_LINGER_MS,
  PROJECTOR_PARTITIONS_CONCURRENTLY,
  rebuildProjections,
  verifyProjections,
} from '@hireloop/event-store';
import { canonicalJson, type Delivery, FactConsumer, FactPublisher, keyOf, makeFact } from '@hireloop/fact-stream';
import {
  createKafka,
  createLogger,
  createPool,
  dropDatabase,
  ensureTopics,
  loadPlatformConfig,
  migrate,
  withDatabase,
} from '@hireloop/platform';
import { type AnyFact, type EmployeeGraphSpec, inputSchemaJson, topicList, topicOf } from '@hireloop/schemas';
import { CompressionTypes, Partitioners } from 'kafkajs';
import { from as copyFrom, to as copyTo } from 'pg-copy-streams';

const N = Number(process.env.BENCH_FACTS ?? 100_000);
const infra = fileURLToPath(new URL('./infra.sh', import.meta.url));
const owner = `bench-${process.pid}`;

// ---- the facts: whole creations (chat line, trigger, start, events, two prompts and answers, result)

function spec(orgId: string, name: string): EmployeeGraphSpec {
  return {
    employeeId: randomUUID(),
    orgId,
    name,
    version: 1,
    jobDescription: 'Answer support tickets, escalate the hard ones to a human, and keep the CRM up to date.',
    workflows: [
      {
        id: 'wf-triage',
        name: 'triage',
        description: 'Triage each new ticket and reply to the easy ones',
        trigger: { triggerId: 'zendesk.new_ticket', params: {} },
        steps: [
          {
            id: 's1',
            capabilityId: 'zendesk.reply_ticket',
            purpose: 'reply',
            inputs: { body: { value: 'friendly' } },
            risk: 'low',
            dependsOn: [],
          },
          { id: 's2', capabilityId: 'slack.post_message', purpose: 'escalate', inputs: {}, risk: 'high', dependsOn: ['s1'] },
        ],
        behaviourPrompt: 'Be kind and brief; escalate anything about billing.',
      },
    ],
    gaps: [],
    compiled: {
      nodes: [
        { id: 'start', kind: 'start', reads: [], writes: ['ticket'] },
        { id: 's1', kind: 'tool', capabilityId: 'zendesk.reply_ticket', reads: ['ticket'], writes: ['reply'] },
      ],
      edges: [{ from: 'start', to: 's1' }],
      stateSchema: {},
      tools: ['zendesk.reply_ticket', 'slack.post_message'],
      budgets: { maxSteps: 20, maxToolCalls: 10, timeoutSeconds: 300 },
      interruptPoints: [],
    },
    validation: { passed: true, checks: [{ id: 'handoffs', passed: true, detail: 'every hand-off defined' }] },
    diagram: 'graph TD; start-->s1',
    history: { iterations: 2, promptsAsked: 2, routingTrace: [] },
  };
}

function creation(i: number): AnyFact[] {
  const orgId = `org-${i % 10}`;
  const userId = `user-${i % 97}`;
  const conversationId = `conv-${i}`;
  const executionId = randomUUID();
  const triggerId = `trg-${i}`;
  const ctx = { orgId, correlation: { conversationId, userId, executionId, triggerId } };
  const shape = {
    kind: 'options' as const,
    options: [
      { id: 'gmail', label: 'Gmail', recommended: true },
      { id: 'slack', label: 'Slack' },
      { id: 'zendesk', label: 'Zendesk' },
    ],
    selectionRules: { mode: 'multi' as const, min: 1 },
  };
  const prompt = (promptId: string, progress: number) =>
    makeFact('HILPrompt', ctx, {
      executionId,
      promptId,
      messages: ['Which tools should the employee use?'],
      inputSchema: inputSchemaJson(shape),
      ...shape,
      progress,
    });
  const answer = (promptId: string) =>
    makeFact('HILResponse', ctx, { executionId, promptId, kind: 'options', payload: { selected: ['gmail', 'zendesk'] } });
  const phase = (name: string, progress: number) =>
    makeFact('ExecutionEvent', ctx, { executionId, event: 'phase', phase: name, progress });
  const node = (name: string) => [
    makeFact('ExecutionEvent', ctx, { executionId, event: 'node_enter', node: name }),
    makeFact('ExecutionEvent', ctx, { executionId, event: 'node_exit', node: name }),
  ];
  const ask = (promptId: string, progress: number) => [
    makeFact('ExecutionEvent', ctx, { executionId, event: 'node_enter', node: 'ask' }),
    prompt(promptId, progress),
    answer(promptId),
    makeFact('ExecutionEvent', ctx, { executionId, event: 'node_exit', node: 'ask' }),
  ];
  const jobDescription = 'A support agent that answers tickets';
  return [
    makeFact(
      'UIMessage',
      { orgId, correlation: { conversationId, userId } },
      { conversationId, userId, role: 'user', content: jobDescription },
    ),
    makeFact(
      'TriggerCreated',
      { orgId, correlation: { conversationId, userId, triggerId } },
      { triggerId, triggerType: 'create_graph', payload: { jobDescription }, source: 'chat' },
    ),
    makeFact('RunIntent', ctx, {
      executionId,
      employeeId: randomUUID(),
      action: 'start',
      trigger: { triggerId, triggerType: 'create_graph', payload: { jobDescription } },
    }),
    phase('analysis', 5),
    ...node('analyse'),
    phase('matching', 20),
    ...node('match'),
    ...node('match'),
    ...node('match'),
    ...node('gaps'),
    phase('asking', 40),
    ...ask(`${executionId}:p1`, 45),
    ...ask(`${executionId}:p2`, 60),
    phase('validation', 80),
    ...node('validate'),
    ...ask(`${executionId}:review`, 90),
    phase('assembly', 95),
    ...node('assemble'),
    makeFact('ExecutionResult', ctx, {
      executionId,
      status: 'completed',
      output: { employee: spec(orgId, i % 3 === 0 ? 'Support agent' : `Agent ${i % 50}`), summary: 'registered' },
    }),
  ];
}

/** What one creation publishes, by fact type. */
const MIX = (() => {
  const counts = new Map<string, number>();
  for (const fact of creation(0)) counts.set(fact.type, (counts.get(fact.type) ?? 0) + 1);
  return [...counts].map(([type, n]) => `${n} ${type}`).join(', ');
})();

/** Each measured phase starts from a collected heap, not from the garbage of the one before (`make bench` exposes gc). */
const settle = () => (globalThis as { gc?: () => void }).gc?.();

const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));
const fmt = (n: number) => n.toLocaleString('en-US');

async function main() {
  execFileSync(infra, ['up', owner], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = loadPlatformConfig();
  const run = `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const prefix = `bench-${run}.`;
  const databaseUrl = withDatabase(base.databaseUrl, `hireloop_bench_${run}`);
  const log = createLogger('bench', 'error');
  const kafka = createKafka({ clientId: 'bench', brokers: base.kafkaBrokers, log });
  const admin = kafka.admin();
  await admin.connect();
  await migrate(databaseUrl);
  const pool = createPool(databaseUrl, 10);

  try {
    await ensureTopics(admin, prefix, base.topicPartitions);

    // ---- produce
    // produced in chunks and not kept: the consumers below run in this process and should not pay
    // for a heap holding every fact
    const producer = kafka.producer({
      idempotent: true,
      maxInFlightRequests: 1,
      createPartitioner: Partitioners.DefaultPartitioner,
    });
    await producer.connect();
    const producedAt = performance.now();
    let bytes = 0;
    for (let produced = 0, i = 0; produced < N; ) {
      const chunk: AnyFact[] = [];
      while (chunk.length < 5_000 && produced + chunk.length < N) chunk.push(...creation(i++));
      chunk.length = Math.min(chunk.length, N - produced);
      produced += chunk.length;
      const byTopic = new Map<string, { key: string; value: string }[]>();
      for (const fact of chunk) {
        const topic = `${prefix}${topicOf(fact.type).name}`;
        const value = canonicalJson(fact); // as FactPublisher writes it
        bytes += Buffer.byteLength(value);
        byTopic.set(topic, [...(byTopic.get(topic) ?? []), { key: keyOf(fact), value }]);
      }
      await producer.sendBatch({
        acks: -1,
        compression: CompressionTypes.None,
        topicMessages: [...byTopic].map(([topic, messages]) => ({ topic, messages })),
      });
    }
    await producer.disconnect();
    console.log(`one creation (ARCHITECTURE §10: analyse, 3-way matching, gaps, 3 prompts, validate, assemble) = ${MIX}`);
    console.log(
      `produced ${fmt(N)} facts (${(bytes / N).toFixed(0)} B each on average) to ${topicList.length} topics × ${base.topicPartitions} partitions in ${Math.round(performance.now() - producedAt)} ms`,
    );

    // ---- 1. raw kafkajs consume: every message of every topic, nothing done with it
    const raw = kafka.consumer({ groupId: `bench-raw-${run}` });
    await raw.connect();
    await raw.subscribe({ topics: topicList.map((t) => `${prefix}${t.name}`), fromBeginning: true });
    let rawCount = 0;
    let rawFirst = 0;
    const rawMs = await new Promise<number>((resolve, reject) => {
      raw
        .run({
          eachBatch: async ({ batch }) => {
            if (rawFirst === 0) rawFirst = performance.now();
            rawCount += batch.messages.length;
            if (rawCount >= N) resolve(performance.now() - rawFirst);
          },
        })
        .catch(reject);
    });
    await raw.disconnect();
    const rawRate = rate(N, rawMs);

    // ---- 2. the event-store's consumer (validating every fact) handing each batch to `handle`, pipelined as the
    // service runs it: ms from the first batch to the last of N facts
    const publisher = new FactPublisher({ kafka, topicPrefix: prefix, log });
    await publisher.connect();
    const consume = async (group: string, handle: (deliveries: Delivery[]) => Promise<void>): Promise<number> => {
      let done = 0;
      let first = 0;
      let finish: (ms: number) => void = () => {};
      const finished = new Promise<number>((resolve) => {
        finish = resolve;
      });
      const consumer = new FactConsumer({
        kafka,
        topicPrefix: prefix,
        groupId: `bench-${group}-${run}`,
        topics: topicList,
        log,
        publisher,
        partitionsConsumedConcurrently: PROJECTOR_PARTITIONS_CONCURRENTLY,
        fetchLingerMs: PROJECTOR_FETCH_LINGER_MS,
      }).onBatch(
        async (deliveries) => {
          if (first === 0) first = performance.now();
          await handle(deliveries);
          done += deliveries.length;
          if (done >= N) finish(performance.now() - first);
        },
        { maxFactsInFlight: PROJECTOR_FACTS_IN_FLIGHT },
      );
      await consumer.start();
      const ms = await finished;
      await consumer.stop();
      return ms;
    };
    // the projector, as the event-store service runs it
    settle();
    const projectorMs = await consume('projector', createProjector(pool, log));
    // the consumer alone: fetched, parsed, validated, handed over, nothing stored
    settle();
    const validatedMs = await consume('validated', async () => {});
    const validatedRate = rate(N, validatedMs);
    await publisher.disconnect();
    const projectorRate = rate(N, projectorMs);
    const count = Number((await pool.query('SELECT count(*) AS n FROM facts')).rows[0].n);

    // ---- 2b. Postgres alone: the stored rows copied into a table shaped like `facts` (same columns and
    // indexes, logged), from memory — no validation, hashing or projections: what any projector into
    // `facts` is bounded by on this machine
    const copyClient = await pool.connect();
    let copyMs = 0;
    try {
      const columns =
        'seq, id, topic, type, org_id, execution_id, conversation_id, payload, headers, kafka_partition, kafka_offset, ts, prev_hash, hash';
      const out: Buffer[] = [];
      await pipeline(
        copyClient.query(copyTo(`COPY (SELECT ${columns} FROM facts ORDER BY seq) TO STDOUT`)),
        async (rows: AsyncIterable<Buffer>) => {
          for await (const chunk of rows) out.push(chunk);
        },
      );
      await copyClient.query('CREATE TABLE bench_facts_copy (LIKE facts INCLUDING ALL)');
      const copiedAt = performance.now();
      await pipeline(Readable.from(out), copyClient.query(copyFrom(`COPY bench_facts_copy (${columns}) FROM STDIN`)));
      copyMs = performance.now() - copiedAt;
      await copyClient.query('DROP TABLE bench_facts_copy');
    } finally {
      copyClient.release();
    }
    const copyRate = rate(count, copyMs);

    // ---- 3. replay: rebuild every projection from facts alone. The facts were written seconds ago: the
    // first read of a freshly written row also marks it committed on its page (hint bits), a one-off cost
    // of the storage that autovacuum pays for a table like `facts` soon after — paid here by VACUUM first.
    // Three rebuilds, the median reported: on 100,000 facts the first also pays for warming the code up,
    // which a rebuild of a store of millions would not notice.
    await pool.query('VACUUM (ANALYZE) facts');
    const rebuilds = [];
    for (let i = 0; i < 3; i++) {
      settle();
      rebuilds.push(await rebuildProjections(pool));
    }
    const first = rebuilds[0] as (typeof rebuilds)[number];
    const rebuild = [...rebuilds].sort((a, b) => a.factsPerSecond - b.factsPerSecond)[1] as (typeof rebuilds)[number];
    const verify = await verifyProjections(pool);

    const ok = (pass: boolean) => (pass ? 'ok' : 'MISSED');
    console.log(`raw kafkajs consume:  ${fmt(rawRate)} facts/s (${fmt(N)} facts in ${Math.round(rawMs)} ms)`);
    console.log(
      `validating consumer:  ${fmt(validatedRate)} facts/s (${fmt(N)} facts in ${Math.round(validatedMs)} ms; ${Math.round((100 * validatedRate) / rawRate)}% of raw: parsed, validated, handed to an empty handler)`,
    );
    console.log(
      `postgres COPY alone:  ${fmt(copyRate)} facts/s (the stored rows, from memory, into a table shaped like facts, in ${Math.round(copyMs)} ms; ${Math.round((100 * copyRate) / rawRate)}% of raw)`,
    );
    console.log(
      `projector ingest:     ${fmt(projectorRate)} facts/s (${fmt(count)} facts stored in ${Math.round(projectorMs)} ms; ` +
        `${Math.round((100 * projectorRate) / rawRate)}% of raw) — target >= 50% of raw and >= 20,000: ` +
        ok(projectorRate >= rawRate / 2 && projectorRate >= 20_000),
    );
    console.log(
      `replay rebuild:       ${fmt(rebuild.factsPerSecond)} facts/s (median of 3 rebuilds of ${fmt(rebuild.facts)} facts, ${rebuild.ms} ms; ` +
        `the first ${fmt(first.factsPerSecond)} facts/s; facts vacuumed; ` +
        `verify: ${verify.difference ? `DIFFERENCE in ${verify.difference.table}` : 'identical'}) — target >= 100,000: ${ok(rebuild.factsPerSecond >= 100_000)}`,
    );
    if (process.env.BENCH_JSON)
      writeFileSync(
        process.env.BENCH_JSON,
        JSON.stringify({
          facts: N,
          stored: count,
          rawConsumePerS: rawRate,
          validatingConsumePerS: validatedRate,
          copyPerS: copyRate,
          projectorFactsPerS: projectorRate,
          replayFactsPerS: rebuild.factsPerSecond,
          replayIdentical: !verify.difference,
        }),
      );
    if (count !== N || verify.difference) process.exitCode = 1;
  } finally {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(prefix));
    if (topics.length > 0) await admin.deleteTopics({ topics }).catch(() => {});
    await admin.disconnect();
    await pool.end();
    await dropDatabase(databaseUrl);
    execFileSync(infra, ['down', owner], { stdio: 'inherit' });
  }
}

await main();
