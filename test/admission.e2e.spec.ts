import { randomUUID } from 'node:crypto';
import { createPool, derivedId } from '@hireloop/platform';
import { type ServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { type AnyFact, type ExecutionView, type ServerFrame, Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { scriptedAnswer } from '../services/graph-creator/src/answerer';
import { executionIdOf } from '../services/supervisor/src/decider';
import { api, chat, Stack, token } from './stack';

/**
 * Admission that never starves an organisation (issue 15), every service its own process: a slot
 * counts an execution a worker advances, not one waiting for a person; a queued request is told its
 * position; answers are served before new starts; one user's open conversations are limited.
 */
const JOB =
  'Support triager. When a new Zendesk ticket arrives, reply to the customer with an acknowledgement and post a note ' +
  'in the #support Slack channel.';
const MAX_RUNNING_PER_ORG = 2;
const MAX_OPEN_PER_USER = 5;

type Execution = ExecutionView & { status: string; position?: number };

describe('admission counts work, not waiting (every service its own process)', () => {
  const stack = new Stack({
    MAX_RUNNING_PER_ORG: String(MAX_RUNNING_PER_ORG),
    MAX_OPEN_PER_USER: String(MAX_OPEN_PER_USER),
    // one delivery at a time: the worker is saturated as soon as two things wait for it
    GRAPH_CREATOR_CONCURRENCY: '1',
    SUPERVISOR_TICK_MS: '500',
  });
  const prefix = inject('topicPrefix');
  const pool = createPool(inject('databaseUrl'), 2);
  let services: Record<string, ServiceProcess>;
  let gateway: string;
  let chatUrl: string;

  beforeAll(async () => {
    services = await stack.up();
    gateway = `http://127.0.0.1:${services.gateway?.port}`;
    chatUrl = `ws://127.0.0.1:${services.gateway?.port}/v1/chat`;
  }, 180_000);
  afterAll(async () => {
    await stack.down();
    await pool.end();
  });

  // ---- helpers ----

  const execution = (id: string, bearer: string) => api<Execution>(gateway, 'GET', `/v1/executions/${id}`, undefined, bearer);

  /** POST /v1/triggers: the execution the supervisor derives from the trigger. */
  async function request(bearer: string, conversationId: string = randomUUID()) {
    const accepted = await api<{ triggerId: string; conversationId: string }>(
      gateway,
      'POST',
      '/v1/triggers',
      { type: 'create_graph', payload: { jobDescription: JOB }, conversationId },
      bearer,
    );
    expect(accepted.status).toBe(202);
    return { conversationId, executionId: executionIdOf(accepted.body.triggerId) };
  }

  const waitingOn = (executionId: string, bearer: string) =>
    waitUntil(
      async () => {
        const { body } = await execution(executionId, bearer);
        return body.status === 'waiting' && body.currentPrompt ? body : undefined;
      },
      `${executionId} to wait for an answer`,
      90_000,
    );

  /** Stored facts of some topics, in the order they were recorded. */
  async function stored(topics: { name: string }[], where = 'true', params: unknown[] = []): Promise<AnyFact[]> {
    const { rows } = await pool.query<{ payload: AnyFact }>(
      `SELECT payload FROM facts WHERE topic = ANY($1) AND ${where} ORDER BY seq`,
      [topics.map((t) => `${prefix}${t.name}`), ...params],
    );
    return rows.map((r) => r.payload);
  }
  const startsOf = async (executionIds: string[]) =>
    (await stored([Topics.runIntent], `payload->>'action' = 'start' AND execution_id = ANY($2)`, [executionIds])).filter(
      (f): f is Extract<AnyFact, { type: 'RunIntent' }> => f.type === 'RunIntent',
    );
  const eventsOf = async (executionId: string) =>
    (await stored([Topics.executionEvents], 'execution_id = $2', [executionId])).filter(
      (f): f is Extract<AnyFact, { type: 'ExecutionEvent' }> => f.type === 'ExecutionEvent',
    );

  // ---- the rules ----

  const walker = token('walker', 'abandon-org');
  const abandoned: { conversationId: string; executionId: string }[] = [];

  it("five conversations abandoned by one user do not delay a sixth user's creation in the same org", async () => {
    for (let i = 0; i < 5; i++) abandoned.push(await request(walker));
    for (const { executionId } of abandoned) await waitingOn(executionId, walker);

    const sixth = token('sixth', 'abandon-org');
    const { executionId } = await request(sixth);
    const view = await waitingOn(executionId, sixth);
    expect(view.currentPrompt).toBeTruthy();
    // started at once: never queued behind people who are thinking. GET shows the prompt the gateway's
    // broadcast saw, which the store may not hold yet: the events are waited for
    const events = await waitUntil(async () => {
      const stored = await eventsOf(executionId);
      return stored.some((e) => e.event === 'started') ? stored : undefined;
    }, `the events of ${executionId} stored`);
    expect(events.map((e) => e.event)).toContain('started');
    expect(events.map((e) => e.event)).not.toContain('queued');
  });

  it("refuses a user's request past the open limit, naming the oldest open ones and how to cancel them; a cancel makes room", async () => {
    expect(abandoned).toHaveLength(MAX_OPEN_PER_USER);
    const conversationId = randomUUID();
    const client = await chat(chatUrl, walker, conversationId);
    const { executionId } = await request(walker, conversationId);

    const reply = await client.waitFor<Extract<ServerFrame, { type: 'message' }>>((f) => f.type === 'message', 'the refusal');
    expect(reply.text).toContain(`${MAX_OPEN_PER_USER} open conversations`);
    for (const { executionId: open } of abandoned.slice(0, 3)) expect(reply.text).toContain(open);
    expect(reply.text.indexOf(abandoned[0]?.executionId ?? '?')).toBeLessThan(
      reply.text.indexOf(abandoned[1]?.executionId ?? '?'),
    );
    expect(reply.text).toContain('waiting for your answer');
    expect(reply.text).toContain('POST /v1/executions/<executionId>/cancel');
    expect(reply.text).toContain('"type":"cancel"');
    const result = await client.waitFor<Extract<ServerFrame, { type: 'execution_result' }>>(
      (f) => f.type === 'execution_result' && f.executionId === executionId,
      'the refused execution to end',
    );
    expect(result).toMatchObject({ status: 'cancelled', error: { code: 'open_limit' } });
    expect((await startsOf([executionId])).length).toBe(0);
    const refused = await waitUntil(async () => {
      const { body } = await execution(executionId, walker);
      return body.status === 'cancelled' ? body : undefined;
    }, 'the refused execution in the projection');
    expect(refused.result?.error?.code).toBe('open_limit');

    // the user cancels the oldest, as the reply says, and asks again: it starts
    const oldest = abandoned[0]?.executionId ?? '';
    expect((await api(gateway, 'POST', `/v1/executions/${oldest}/cancel`, {}, walker)).status).toBe(202);
    await waitUntil(
      async () => ((await execution(oldest, walker)).body.status === 'cancelled' ? true : undefined),
      'the oldest to be cancelled',
    );
    const again = await request(walker, conversationId);
    await waitingOn(again.executionId, walker);
    client.socket.close();
  });

  it('with the org limit reached by executions being advanced, a request is queued, told its position, and starts when a slot frees; a supervisor restart keeps the order', async () => {
    const org = 'queue-org';
    const bearer = (user: string) => token(user, org);
    // with the worker away, started executions stay in the hands of a worker: they hold their slots
    expect(await services['graph-creator']?.stop('SIGTERM')).toBe(0);
    const busy = [await request(bearer('b1')), await request(bearer('b2'))];
    await waitUntil(
      async () => ((await startsOf(busy.map((b) => b.executionId))).length === 2 ? true : undefined),
      'the first two to start',
    );

    const users = ['q1', 'q2', 'q3'];
    const conversations = users.map(() => randomUUID());
    const clients = await Promise.all(users.map((u, i) => chat(chatUrl, bearer(u), conversations[i] as string)));
    const queued: string[] = [];
    for (const [i, user] of users.entries()) {
      const { executionId } = await request(bearer(user), conversations[i]);
      queued.push(executionId);
      // told at once, with its place in the queue
      const frame = await clients[i]?.waitFor<Extract<ServerFrame, { type: 'execution_event' }>>(
        (f) => f.type === 'execution_event' && f.executionId === executionId && f.event === 'queued',
        `${user}'s queued event`,
      );
      expect(frame?.position).toBe(i + 1);
    }
    for (const [i, id] of queued.entries()) {
      const view = await waitUntil(
        async () => {
          const { body } = await execution(id, bearer(users[i] as string));
          return body.status === 'queued' && body.position === i + 1 ? body : undefined;
        },
        `GET to show ${users[i]} queued at ${i + 1}`,
      );
      expect(view).toMatchObject({ status: 'queued', position: i + 1, conversationId: conversations[i] });
    }
    expect(await startsOf(queued)).toEqual([]);

    // a restart of the supervisor rebuilds the queue from the facts
    expect(await services.supervisor?.stop('SIGTERM')).toBe(0);
    services.supervisor = await stack.start('supervisor');
    expect(await startsOf(queued)).toEqual([]);

    // the worker back: each execution it advances to a prompt frees one slot, and the queue moves in order
    services['graph-creator'] = await stack.start('graph-creator');
    for (const [i, id] of queued.entries()) await waitingOn(id, bearer(users[i] as string));
    const starts = await waitUntil(async () => {
      const stored = await startsOf(queued);
      return stored.length === queued.length ? stored : undefined;
    }, 'the starts stored');
    const order = [...starts].sort((a, b) => a.ts.localeCompare(b.ts)).map((s) => s.executionId);
    expect(order).toEqual(queued);
    expect(new Set(starts.map((s) => s.ts)).size).toBe(3);
    for (const [i, client] of clients.entries()) {
      await client.waitFor(
        (f) => f.type === 'execution_event' && f.executionId === queued[i] && f.event === 'started',
        `${users[i]}'s started event`,
      );
      client.socket.close();
    }
  });

  it('under a burst, answers to pending prompts are served before new starts', async () => {
    // people already talking: six conversations waiting for an answer
    const talkers = ['t1', 't2', 't3', 't4', 't5', 't6'].map((u) => ({ user: u, bearer: token(u, `talk-${u}`) }));
    const talking = await Promise.all(talkers.map((t) => request(t.bearer)));
    const prompts = await Promise.all(talking.map((t, i) => waitingOn(t.executionId, talkers[i]?.bearer ?? '')));

    // the worker away, a burst: ten newcomers (each in an org of its own: no org limit in the way) and the six answers
    expect(await services['graph-creator']?.stop('SIGTERM')).toBe(0);
    const newcomers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => request(token(`new-${i}`, `burst-${i}`)).then((r) => r.executionId)),
    );
    await waitUntil(
      async () => ((await startsOf(newcomers)).length === newcomers.length ? true : undefined),
      'every newcomer to be started',
    );
    const answers: string[] = [];
    for (const [i, view] of prompts.entries()) {
      const prompt = view.currentPrompt;
      if (!prompt) throw new Error('expected a prompt');
      const res = await api<{ responseId: string }>(
        gateway,
        'POST',
        `/v1/executions/${talking[i]?.executionId}/respond`,
        { promptId: prompt.promptId, kind: prompt.kind, payload: scriptedAnswer(prompt) },
        talkers[i]?.bearer,
      );
      expect(res.status).toBe(202);
      answers.push(res.body.responseId);
    }

    // the worker back, saturated: count the order in which it served them
    services['graph-creator'] = await stack.start('graph-creator');
    const startIds = new Map(newcomers.map((id) => [derivedId(id, 'start'), id]));
    const served = await waitUntil(
      async () => {
        const facts = await stored([Topics.hilPrompt, Topics.executionResult], `payload->>'causationId' = ANY($2)`, [
          [...startIds.keys(), ...answers],
        ]);
        // the first fact each delivery caused, by the worker's clock
        const first = new Map<string, string>();
        for (const f of facts) {
          const cause = f.causationId ?? '';
          const at = first.get(cause);
          if (at === undefined || f.ts < at) first.set(cause, f.ts);
        }
        return first.size === startIds.size + answers.length ? first : undefined;
      },
      'every answer and every start to be served',
      120_000,
    );
    const order = [...served]
      .sort(([, a], [, b]) => a.localeCompare(b))
      .map(([cause]) => (answers.includes(cause) ? 'answer' : 'start'));
    const lastAnswer = order.lastIndexOf('answer');
    // at most the one start that reached an idle worker before any answer had been fetched goes first
    expect(order.slice(0, lastAnswer).filter((k) => k === 'start').length, order.join(' ')).toBeLessThanOrEqual(1);
    expect(order.filter((k) => k === 'answer')).toHaveLength(answers.length);
  });
});
