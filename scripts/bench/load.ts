/**
 * The load generator of `make bench`, its own process, speaking only the public protocols to 127.0.0.1.
 *
 * mode `creations`: open loop, `rate` creations a second for `seconds`; each on its own WebSocket to
 * the gateway (`/v1/chat`), as its own user of one of `orgs` (so per-user and per-org limits are no
 * limit), sends the job description and answers every `hil_prompt` with the scripted answerer at once.
 * Timed: message sent → first prompt, answer sent → next prompt, last answer → `execution_result`.
 *
 * mode `runs`: open loop, `rate` signed webhook deliveries a second to an activated employee's hook;
 * timed: POST sent → its `ExecutionResult` seen on the `execution-result` topic (the gateway pushes a
 * run's end to no socket, and polling the projection would add load and the projection's lag).
 *
 * Input: env BENCH_LOAD (JSON). Output: one JSON line on stdout. Every loop is bounded by the number of
 * arrivals and a per-item timeout.
 */
import { createHmac, randomUUID } from 'node:crypto';
import { signToken } from '@hireloop/platform';
import { type HilPromptFrame, type ServerFrame, Topics } from '@hireloop/schemas';
import { Kafka, logLevel } from 'kafkajs';
import WebSocket from 'ws';
import { scriptedAnswer } from '../../services/graph-creator/src/answerer';

export interface CreationsLoad {
  mode: 'creations';
  gatewayPort: number;
  jwtSecret: string;
  orgs: string[];
  job: string;
  rate: number;
  seconds: number;
  timeoutMs: number;
  /** distinguishes the users of one step from another's */
  tag: string;
}

export interface RunsLoad {
  mode: 'runs';
  hookUrl: string;
  hookSecret: string;
  /** the trigger event, a fresh delivery id each */
  event: Record<string, unknown>;
  brokers: string[];
  topicPrefix: string;
  rate: number;
  seconds: number;
  timeoutMs: number;
  tag: string;
}

export interface LoadResult {
  offered: number;
  started: number;
  completed: number;
  failed: number;
  timedOut: number;
  firstPromptMs: number[];
  answerToNextMs: number[];
  answerToResultMs: number[];
  /** creation (or run) start → result */
  totalMs: number[];
  promptsPerCreation: number[];
  /** the same promptId shown twice to one socket */
  duplicatePrompts: number;
  executionIds: string[];
  /** first arrival → last end */
  windowMs: number;
  errors: string[];
  loadCpuMs: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const MAX_PROMPTS = 30;

/** Arrivals at fixed intervals from now: calls `start(i)` for i < rate × seconds, without waiting for them. */
async function openLoop(rate: number, seconds: number, start: (i: number) => Promise<void>): Promise<Promise<void>[]> {
  const n = Math.max(1, Math.round(rate * seconds));
  const t0 = performance.now();
  const inFlight: Promise<void>[] = [];
  for (let i = 0; i < n; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    inFlight.push(start(i));
  }
  return inFlight;
}

function emptyResult(offered: number): LoadResult {
  return {
    offered,
    started: 0,
    completed: 0,
    failed: 0,
    timedOut: 0,
    firstPromptMs: [],
    answerToNextMs: [],
    answerToResultMs: [],
    totalMs: [],
    promptsPerCreation: [],
    duplicatePrompts: 0,
    executionIds: [],
    windowMs: 0,
    errors: [],
    loadCpuMs: 0,
  };
}

async function creations(load: CreationsLoad): Promise<LoadResult> {
  const out = emptyResult(load.rate);
  const url = `ws://127.0.0.1:${load.gatewayPort}/v1/chat`;
  const note = (e: string) => {
    if (out.errors.length < 20) out.errors.push(e);
  };
  let firstAt = 0;
  let lastEnd = 0;
  const one = (i: number) =>
    new Promise<void>((resolve) => {
      const org = load.orgs[i % load.orgs.length] ?? 'acme';
      const conversationId = randomUUID();
      const bearer = signToken({ userId: `bench-${load.tag}-${i}`, orgId: org }, load.jwtSecret, '1h');
      const socket = new WebSocket(`${url}?conversationId=${conversationId}`, { headers: { authorization: `Bearer ${bearer}` } });
      out.started++;
      const shown = new Set<string>();
      let sentAt = 0;
      let startedAt = 0;
      let prompts = 0;
      let settled = false;
      const end = (how: 'completed' | 'failed' | 'timedOut', why?: string) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        out[how]++;
        if (why) note(why);
        lastEnd = performance.now();
        socket.terminate();
        resolve();
      };
      const timer = setTimeout(() => end('timedOut', `creation ${i} timed out after ${prompts} prompts`), load.timeoutMs);
      socket.on('open', () => {
        startedAt = performance.now();
        if (firstAt === 0) firstAt = startedAt;
        sentAt = startedAt;
        socket.send(JSON.stringify({ conversationId, text: load.job }));
      });
      socket.on('error', (e) => end('failed', `socket: ${String(e)}`));
      socket.on('close', () => end('failed', `socket closed by the gateway after ${prompts} prompts`));
      socket.on('message', (data) => {
        const now = performance.now();
        const frame = JSON.parse(data.toString()) as ServerFrame;
        if (frame.type === 'hil_prompt') {
          const prompt = frame as HilPromptFrame;
          if (shown.has(prompt.promptId)) {
            out.duplicatePrompts++;
            return;
          }
          shown.add(prompt.promptId);
          (prompts === 0 ? out.firstPromptMs : out.answerToNextMs).push(now - sentAt);
          if (prompts === 0) out.executionIds.push(prompt.executionId);
          prompts++;
          if (prompts > MAX_PROMPTS) return end('failed', `more than ${MAX_PROMPTS} prompts`);
          sentAt = performance.now();
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
          if (prompts > 0) out.answerToResultMs.push(now - sentAt);
          out.totalMs.push(now - startedAt);
          out.promptsPerCreation.push(prompts);
          if (frame.status === 'completed') end('completed');
          else end('failed', `execution_result ${frame.status}: ${JSON.stringify(frame.error ?? null)}`);
        } else if (frame.type === 'error') {
          end('failed', `error frame ${frame.code}: ${frame.message}`);
        }
      });
    });
  const inFlight = await openLoop(load.rate, load.seconds, one);
  await Promise.all(inFlight);
  out.windowMs = lastEnd - firstAt;
  return out;
}

async function runs(load: RunsLoad): Promise<LoadResult> {
  const out = emptyResult(load.rate);
  const kafka = new Kafka({ clientId: `bench-load-${load.tag}`, brokers: load.brokers, logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `bench-load-${load.tag}-${randomUUID()}`, maxWaitTimeInMs: 20 });
  const waiting = new Map<string, { sentAt: number; done: (status: string) => void }>();
  const early = new Map<string, string>();
  await consumer.connect();
  await consumer.subscribe({ topics: [`${load.topicPrefix}${Topics.executionResult.name}`], fromBeginning: false });
  const joined = new Promise<void>((resolve) => consumer.on(consumer.events.GROUP_JOIN, () => resolve()));
  await consumer.run({
    eachMessage: async ({ message }) => {
      const fact = JSON.parse(message.value?.toString() ?? '{}') as {
        executionId?: string;
        status?: string;
        error?: { code?: string; message?: string };
      };
      if (!fact.executionId) return;
      // a run that did not complete is reported with its error: what stopped it (a rail, a provider)
      const outcome =
        fact.status === 'completed'
          ? 'completed'
          : `${fact.status ?? ''}: ${fact.error?.code ?? ''} ${fact.error?.message ?? ''}`;
      const w = waiting.get(fact.executionId);
      if (w) w.done(outcome);
      else early.set(fact.executionId, outcome);
    },
  });
  await Promise.race([joined, sleep(30_000)]);
  await sleep(500);
  let firstAt = 0;
  let lastEnd = 0;
  const one = async (i: number) => {
    const body = JSON.stringify(load.event);
    const signature = `sha256=${createHmac('sha256', load.hookSecret).update(body).digest('hex')}`;
    const sentAt = performance.now();
    if (firstAt === 0) firstAt = sentAt;
    out.started++;
    let executionId: string;
    try {
      const res = await fetch(load.hookUrl, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'x-hireloop-signature': signature,
          'x-hireloop-delivery': `bench-${load.tag}-${i}`,
        },
        body,
        signal: AbortSignal.timeout(load.timeoutMs),
      });
      const text = await res.text();
      if (res.status !== 202) {
        out.failed++;
        if (out.errors.length < 20) out.errors.push(`webhook ${res.status}: ${text.slice(0, 200)}`);
        return;
      }
      executionId = (JSON.parse(text) as { executionId: string }).executionId;
    } catch (error) {
      out.failed++;
      if (out.errors.length < 20) out.errors.push(`webhook: ${String(error)}`);
      return;
    }
    out.executionIds.push(executionId);
    const status = await new Promise<string>((resolve) => {
      const timer = setTimeout(() => {
        waiting.delete(executionId);
        resolve('timedOut');
      }, load.timeoutMs);
      const done = (s: string) => {
        clearTimeout(timer);
        waiting.delete(executionId);
        resolve(s);
      };
      const seen = early.get(executionId);
      if (seen !== undefined) done(seen);
      else waiting.set(executionId, { sentAt, done });
    });
    lastEnd = performance.now();
    if (status === 'timedOut') out.timedOut++;
    else if (status === 'completed') {
      out.completed++;
      out.totalMs.push(lastEnd - sentAt);
    } else {
      out.failed++;
      if (out.errors.length < 20) out.errors.push(`run ${executionId} ended ${status}`);
    }
  };
  const inFlight = await openLoop(load.rate, load.seconds, one);
  await Promise.all(inFlight);
  out.windowMs = lastEnd - firstAt;
  await consumer.disconnect();
  return out;
}

const load = JSON.parse(process.env.BENCH_LOAD ?? '{}') as CreationsLoad | RunsLoad;
const cpuBefore = process.cpuUsage();
const result = load.mode === 'runs' ? await runs(load) : await creations(load);
const cpu = process.cpuUsage(cpuBefore);
result.loadCpuMs = (cpu.user + cpu.system) / 1000;
process.stdout.write(`${JSON.stringify(result)}\n`);
process.exit(0);
