import { createHmac, randomUUID } from 'node:crypto';
import { type FactPublisher, makeFact } from '@hireloop/fact-stream';
import { handledBy } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger, signToken } from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import type {
  ActivationView,
  ClientFrame,
  EmployeeGraphSpec,
  HilPromptFrame,
  HilResponseFrame,
  ServerFrame,
  TopicSpec,
} from '@hireloop/schemas';
import type { Admin } from 'kafkajs';
import { inject } from 'vitest';
import WebSocket from 'ws';
import { scriptedAnswer } from '../services/graph-creator/src/answerer';
import { api } from './http';

export { api };

/** Prometheus text → `name{labels}` → value (labels as printed, sorted by prom-client already). */
export function parseMetrics(text: string): { families: Set<string>; samples: Map<string, number> } {
  const families = new Set<string>();
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const help = /^# TYPE (\S+) /.exec(line);
    if (help?.[1]) families.add(help[1]);
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return { families, samples };
}

/** The sum of the samples of a name whose labels include every given `key="value"`. */
export function sumOf(samples: Map<string, number>, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const [series, value] of samples) {
    const brace = series.indexOf('{');
    if ((brace < 0 ? series : series.slice(0, brace)) !== name) continue;
    if (Object.entries(labels).every(([k, v]) => series.includes(`${k}="${v}"`))) total += value;
  }
  return total;
}

export const JWT_SECRET = 'e2e-secret';
/** A bearer token under the stack's secret, good for an hour; `role: 'admin'` for an org's administrator. */
export const token = (userId: string, orgId = 'acme', role?: string) =>
  signToken({ userId, orgId, ...(role ? { role } : {}) }, JWT_SECRET, '1h');

/** The `x-hireloop-signature` a webhook's sender puts on a body: `sha256=<hex HMAC-SHA256 of the raw body>`. */
export const signHook = (secret: string, body: string) => `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;

/** A webhook delivery as its sender makes it: the JSON body signed with the hook's secret, under a delivery id. */
export const fireHook = (url: string, secret: string, body: string, delivery: string) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-hireloop-signature': signHook(secret, body),
      'x-hireloop-delivery': delivery,
    },
    body,
  });

/** POST /v1/employees/:id/activate as `bearer`: the employee's hooks (each secret shown once) and workflows. */
export const activate = (gateway: string, employeeId: string, bearer: string) =>
  api<ActivationView>(gateway, 'POST', `/v1/employees/${employeeId}/activate`, undefined, bearer);

/**
 * An employee registered by its owner's creation, as graph-creator publishes one (the creation's start and
 * its completed result), once the gateway shows it to the owner.
 */
export async function registerEmployee(
  publisher: FactPublisher,
  gateway: string,
  spec: EmployeeGraphSpec,
  owner = 'alice',
): Promise<void> {
  const executionId = randomUUID();
  const correlation = { conversationId: `conv-${executionId.slice(0, 8)}`, userId: owner, executionId };
  const trigger = {
    triggerId: `trg-${executionId.slice(0, 8)}`,
    triggerType: 'create_graph' as const,
    payload: { jobDescription: 'x' },
  };
  const ctx = { orgId: spec.orgId, correlation };
  await publisher.publish(makeFact('RunIntent', ctx, { executionId, employeeId: 'graph-creator', action: 'start', trigger }));
  await publisher.publish(makeFact('ExecutionResult', ctx, { executionId, status: 'completed', output: { employee: spec } }));
  const bearer = token(owner, spec.orgId);
  await waitUntil(
    async () =>
      (await api(gateway, 'GET', `/v1/employees/${spec.employeeId}`, undefined, bearer)).status === 200 ? true : undefined,
    'the employee registered',
  );
}

export type ServiceName = 'event-store' | 'connect-hub' | 'trigger-router' | 'supervisor' | 'graph-creator' | 'gateway';

/** Every hireloop service as its own process on this run's database and topics, as `make up` runs them. */
export class Stack {
  readonly processes: ServiceProcess[] = [];
  readonly env: Record<string, string>;
  /** the Kafka admin `handled` reads offsets with, connected on first use */
  private admin: Promise<Admin> | undefined;

  constructor(extra: Record<string, string> = {}) {
    this.env = {
      DATABASE_URL: inject('databaseUrl'),
      TOPIC_PREFIX: inject('topicPrefix'),
      KAFKA_BROKERS: inject('kafkaBrokers').join(','),
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      ...extra,
    };
  }

  async start(name: ServiceName, extra: Record<string, string> = {}): Promise<ServiceProcess> {
    const service = await startServiceProcess(name, { ...this.env, ...extra });
    this.processes.push(service);
    await waitUntil(
      async () => ((await fetch(service.url('/readyz'))).status === 200 ? true : undefined),
      `${name} ready`,
      60_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${service.output()}`);
    });
    return service;
  }

  /** Another instance of a service that stands by (its /readyz is 503 until it takes over): only started. */
  async startStandby(name: ServiceName = 'supervisor'): Promise<ServiceProcess> {
    const service = await startServiceProcess(name, this.env);
    this.processes.push(service);
    await waitUntil(
      async () => ((await fetch(service.url('/healthz')).catch(() => undefined))?.status === 200 ? true : undefined),
      `${name} standing by`,
      60_000,
    );
    return service;
  }

  /** Starts the services in dependency order; the gateway last. The connect-hub URL is handed to the worker. */
  async up(names: ServiceName[] = ['event-store', 'connect-hub', 'trigger-router', 'supervisor', 'graph-creator', 'gateway']) {
    const started: Partial<Record<ServiceName, ServiceProcess>> = {};
    for (const name of names) {
      const hub = started['connect-hub'];
      started[name] = await this.start(name, hub ? { CONNECT_HUB_URL: `http://127.0.0.1:${hub.port}` } : {});
      if (name === 'connect-hub') this.env.CONNECT_HUB_URL = `http://127.0.0.1:${started[name]?.port}`;
    }
    return started as Record<ServiceName, ServiceProcess>;
  }

  /**
   * Waits until the services' consumer group `group` (its name after this run's topic prefix, e.g.
   * `supervisor`, `event-store`) has handled every fact its `topics` held when called (`handledBy`).
   * Called one group after another down a chain, what a fact caused has been handled too.
   */
  async handled(group: string, topics: readonly TopicSpec[], timeoutMs = 30_000): Promise<void> {
    const prefix = this.env.TOPIC_PREFIX ?? '';
    this.admin ??= (async () => {
      const log = createLogger('stack', 'silent');
      const admin = createKafka({ clientId: 'stack-admin', brokers: inject('kafkaBrokers'), log }).admin();
      await admin.connect();
      return admin;
    })();
    const names = topics.map((t) => `${prefix}${t.name}`);
    await handledBy(await this.admin, `${prefix}${group}`, names, timeoutMs);
  }

  async down(): Promise<void> {
    await Promise.all(this.processes.map((p) => p.stop('SIGKILL')));
    // an admin that never connected has said why where it was used
    await (await this.admin?.catch(() => undefined))?.disconnect();
  }
}

/**
 * A chat socket on the gateway (`url`: its `/v1/chat`) that records every frame it is sent; `answer`
 * replies to a prompt with the scripted answer, or with `payload`.
 */
export async function chat(url: string, bearer: string, conversationId: string) {
  const socket = new WebSocket(`${url}?conversationId=${conversationId}`, { headers: { authorization: `Bearer ${bearer}` } });
  const frames: ServerFrame[] = [];
  socket.on('message', (data) => frames.push(JSON.parse(data.toString()) as ServerFrame));
  await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
  const waitFor = <F extends ServerFrame>(match: (f: ServerFrame) => boolean, what: string, timeoutMs = 60_000) =>
    waitUntil(async () => frames.find(match) as F | undefined, what, timeoutMs).catch((error: unknown) => {
      throw new Error(`${String(error)}; frames: ${JSON.stringify(frames).slice(0, 3000)}`);
    });
  const send = (frame: ClientFrame) => socket.send(JSON.stringify(frame));
  const answer = (prompt: HilPromptFrame, payload: HilResponseFrame['payload'] = scriptedAnswer(prompt)) =>
    send({
      type: 'hil_response',
      conversationId,
      executionId: prompt.executionId,
      promptId: prompt.promptId,
      kind: prompt.kind,
      payload,
    });
  /** Answers every new prompt with the scripted answer until the execution's result (after `prompts` prompts at most). */
  const answerUntilResult = async (prompts: number, timeoutMs = 60_000) => {
    const answered = new Set<string>();
    const resultOf = () => frames.find((f) => f.type === 'execution_result');
    for (let n = 0; n < prompts; n++) {
      const next = await waitFor(
        (f) => f.type === 'execution_result' || (f.type === 'hil_prompt' && !answered.has(f.promptId)),
        `prompt ${n + 1} or the result`,
        timeoutMs,
      );
      const result = resultOf();
      if (result) return result;
      const prompt = next as HilPromptFrame;
      answered.add(prompt.promptId);
      answer(prompt);
    }
    return resultOf();
  };
  return { socket, frames, waitFor, send, answer, answerUntilResult };
}
