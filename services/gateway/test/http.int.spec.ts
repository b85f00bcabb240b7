import { makeFact } from '@hireloop/fact-stream';
import { type HILResponse, type TriggerCreated, validateFact } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadcastHub } from '../src/chat/hub';
import { bearerOf, givenExecution, givenFact, optionsPrompt, questionsPrompt, token, uid } from './fixtures';
import { type Harness, harness } from './harness';

const alice = { userId: 'alice', orgId: 'acme' };
const bob = { userId: 'bob', orgId: 'acme' };
const mallory = { userId: 'mallory', orgId: 'evil-corp' };

describe('gateway HTTP (app.inject, real Postgres and Kafka)', () => {
  let h: Harness;
  let app: FastifyInstance;

  beforeAll(async () => {
    h = await harness();
    app = await h.build();
  });
  afterAll(async () => {
    await h.close();
  });

  const post = (url: string, payload: unknown, headers: Record<string, string> = bearerOf(alice)) =>
    app.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
  const get = (url: string, headers: Record<string, string> = bearerOf(alice)) => app.inject({ method: 'GET', url, headers });

  it('answers a plain GET of the chat socket’s path with 426 and how to open it, with or without a token', async () => {
    for (const headers of [{}, bearerOf(alice)]) {
      const res = await get('/v1/chat', headers);
      expect(res.statusCode).toBe(426);
      expect(res.headers.upgrade).toBe('websocket');
      expect(res.json()).toEqual({ code: 'upgrade_required', message: expect.stringContaining('Upgrade: websocket') });
    }
  });

  describe('authentication', () => {
    it('refuses a request without a token with 401', async () => {
      const res = await get('/v1/executions', {});
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'unauthorized', message: expect.stringContaining('Bearer') });
    });

    it('refuses a token signed with another secret with 401', async () => {
      const res = await get('/v1/executions', bearerOf(alice, 'not-the-secret'));
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/invalid token/);
    });

    it('refuses an expired token with 401', async () => {
      // signed with its expiry already past: no wait for a clock to run out
      const expired = token(alice, '-1s');
      const res = await get('/v1/executions', { authorization: `Bearer ${expired}` });
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toMatch(/expired/i);
    });

    it('refuses a token whose sub is not an id with 401', async () => {
      const res = await get('/v1/executions', bearerOf({ userId: 'alice smith', orgId: 'acme' }));
      expect(res.statusCode).toBe(401);
    });
  });

  describe('POST /v1/triggers', () => {
    it('publishes a valid TriggerCreated{create_graph, source: http} for the token’s org and user, and answers 202', async () => {
      const conversationId = uid('conv');
      const res = await post('/v1/triggers', {
        type: 'create_graph',
        payload: { jobDescription: 'Answer support tickets in Zendesk', name: 'Support agent' },
        conversationId,
      });
      expect(res.statusCode).toBe(202);
      const { triggerId } = res.json<{ triggerId: string; conversationId: string }>();
      expect(res.json()).toEqual({ triggerId, conversationId });

      const fact = await h.collector.until(
        () => h.collector.of('TriggerCreated', (f) => f.triggerId === triggerId)[0],
        'the TriggerCreated fact on triggers',
      );
      expect(validateFact(fact).ok).toBe(true);
      expect(fact).toMatchObject({
        type: 'TriggerCreated',
        orgId: 'acme',
        triggerType: 'create_graph',
        source: 'http',
        payload: { jobDescription: 'Answer support tickets in Zendesk', name: 'Support agent' },
        correlation: { conversationId, userId: 'alice', triggerId },
      } satisfies Partial<TriggerCreated>);
    });

    it('starts a new conversation when the body names none', async () => {
      const res = await post('/v1/triggers', { type: 'create_graph', payload: { jobDescription: 'Triage Jira issues' } });
      expect(res.statusCode).toBe(202);
      expect(res.json().conversationId).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('with the same Idempotency-Key twice answers the same trigger and conversation, and both facts are one fact', async () => {
      const key = uid('retry');
      const body = { type: 'create_graph', payload: { jobDescription: 'Triage Jira issues' } };
      const first = await post('/v1/triggers', body, { ...bearerOf(alice), 'idempotency-key': key });
      const again = await post('/v1/triggers', body, { ...bearerOf(alice), 'idempotency-key': key });
      expect(first.statusCode).toBe(202);
      expect(again.json()).toEqual(first.json());
      const { triggerId } = first.json<{ triggerId: string }>();
      await h.collector.until(
        () => (h.collector.of('TriggerCreated', (f) => f.triggerId === triggerId).length === 2 ? true : undefined),
        'both publishes on triggers',
      );
      const facts = h.collector.of('TriggerCreated', (f) => f.triggerId === triggerId);
      expect(new Set(facts.map((f) => f.id)).size).toBe(1);
      // another user's key of the same text is another request
      const bobs = await post('/v1/triggers', body, { ...bearerOf(bob), 'idempotency-key': key });
      expect(bobs.json().triggerId).not.toBe(triggerId);
      // without a key, every request is new
      const plain = await post('/v1/triggers', body);
      expect(plain.json().triggerId).not.toBe(triggerId);
    });

    it('with an Idempotency-Key used before for another request, answers 422 naming the key and starts nothing', async () => {
      const key = uid('reused');
      const first = await post(
        '/v1/triggers',
        { type: 'create_graph', payload: { jobDescription: 'Triage Jira issues' } },
        { ...bearerOf(alice), 'idempotency-key': key },
      );
      expect(first.statusCode).toBe(202);
      const other = await post(
        '/v1/triggers',
        { type: 'create_graph', payload: { jobDescription: 'Every Monday, email the team a summary of open deals' } },
        { ...bearerOf(alice), 'idempotency-key': key },
      );
      expect(other.statusCode).toBe(422);
      expect(other.json()).toMatchObject({ code: 'validation_failed', field: 'idempotency-key' });
      // the same key with the first request's body still answers its ids: the retry a key is for
      const again = await post(
        '/v1/triggers',
        { payload: { jobDescription: 'Triage Jira issues' }, type: 'create_graph' },
        { ...bearerOf(alice), 'idempotency-key': key },
      );
      expect(again.json()).toEqual(first.json());
    });

    it('with an Idempotency-Key on a request that is refused, leaves the key free for the corrected request', async () => {
      const key = uid('refused');
      const refused = await post(
        '/v1/triggers',
        { type: 'create_graph', payload: { jobDescription: '   ' } },
        { ...bearerOf(alice), 'idempotency-key': key },
      );
      expect(refused.statusCode).toBe(422);
      const corrected = await post(
        '/v1/triggers',
        { type: 'create_graph', payload: { jobDescription: 'Triage Jira issues' } },
        { ...bearerOf(alice), 'idempotency-key': key },
      );
      expect(corrected.statusCode).toBe(202);
    });

    it('answers 400 for a body whose bytes are not UTF-8, instead of acting on replacement characters', async () => {
      const bytes = Buffer.concat([
        Buffer.from('{"type":"create_graph","payload":{"jobDescription":"Triage '),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}'),
      ]);
      const res = await app.inject({
        method: 'POST',
        url: '/v1/triggers',
        payload: bytes,
        headers: { 'content-type': 'application/json', ...bearerOf(alice) },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toContain('UTF-8');
    });

    it('answers 400 naming the Idempotency-Key header when it is not printable text', async () => {
      const res = await post(
        '/v1/triggers',
        { type: 'create_graph', payload: { jobDescription: 'x' } },
        { ...bearerOf(alice), 'idempotency-key': 'two words' },
      );

      expect(res.json().message).toMatch(/idempotency-key/i);
    });

    it('answers 403 when the body names another org than the token', async () => {
      const res = await post('/v1/triggers', { type: 'create_graph', orgId: 'evil-corp', payload: { jobDescription: 'x' } });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ code: 'forbidden', field: '/orgId' });
    });

    it('answers 404 for a conversation that is another user’s', async () => {
      const conversationId = uid('conv');
      await givenExecution(h.pool, { executionId: uid('exec'), owner: bob, conversationId });
      const res = await post('/v1/triggers', { type: 'create_graph', payload: { jobDescription: 'x' }, conversationId });
      expect(res.statusCode).toBe(404);
    });

    it('answers 422 naming the missing field', async () => {
      const res = await post('/v1/triggers', { type: 'create_graph', payload: { name: 'no description' } });

      expect(res.json()).toMatchObject({ code: 'validation_failed', field: '/payload/jobDescription' });
      expect(res.json().message).toContain('/payload/jobDescription');
    });

    it('answers 422 naming the field for text no fact can carry (a NUL, a lone surrogate) or JSON nested too deep, and publishes nothing', async () => {
      const conversationId = uid('conv');
      const send = (payload: string) =>
        app.inject({
          method: 'POST',
          url: '/v1/triggers',
          payload,
          headers: { ...bearerOf(alice), 'content-type': 'application/json' },
        });
      const nul = await send(
        `{"type":"create_graph","conversationId":"${conversationId}","payload":{"jobDescription":"Sales\\u0000assistant"}}`,
      );
      expect(nul.statusCode).toBe(422);
      expect(nul.json()).toMatchObject({ code: 'validation_failed', field: '/payload/jobDescription' });
      const half = await send(
        `{"type":"create_graph","conversationId":"${conversationId}","payload":{"jobDescription":"Sales assistant","name":"\\ud800"}}`,
      );
      expect(half.json()).toMatchObject({ code: 'validation_failed', field: '/payload/name' });
      // JSON nested thousands of levels deep: 422 naming where, not a 500 from an exhausted stack
      const deep = await send(
        `{"type":"create_graph","conversationId":"${conversationId}","payload":${'{"a":'.repeat(3_000)}1${'}'.repeat(3_000)}}`,
      );
      expect(deep.statusCode).toBe(422);
      expect(deep.json()).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('nests deeper than') });
      await h.collector.caughtUp();
      expect(h.collector.of('TriggerCreated', (t) => t.correlation.conversationId === conversationId)).toEqual([]);
    });

    it('answers 400 for a body that is not JSON', async () => {
      const res = await app.inject({
        method: 'POST',
        url: '/v1/triggers',
        payload: '{"type": "create_graph",',
        headers: { ...bearerOf(alice), 'content-type': 'application/json' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request', message: expect.stringContaining('not valid JSON') });
    });

    it('answers 413 with a clear body when the body is over the limit', async () => {
      const res = await post('/v1/triggers', { type: 'create_graph', payload: { jobDescription: 'x'.repeat(300 * 1024) } });
      expect(res.statusCode).toBe(413);
      expect(res.json()).toEqual({ code: 'payload_too_large', message: expect.stringContaining(`${256 * 1024} bytes`) });
    });
  });

  describe('executions', () => {
    it('reads the caller’s execution: status, current prompt without its envelope, progress, phase', async () => {
      const executionId = uid('exec');
      const conversationId = uid('conv');
      const prompt = questionsPrompt(executionId, alice, conversationId);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt, progress: 40, phase: 'gaps' });
      const res = await get(`/v1/executions/${executionId}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body).toMatchObject({ executionId, conversationId, status: 'waiting', progress: 40, phase: 'gaps', result: null });
      expect(body.currentPrompt).toMatchObject({
        promptId: prompt.promptId,
        kind: 'questions',
        questions: prompt.kind === 'questions' ? prompt.questions : [],
      });
      expect(body.currentPrompt).not.toHaveProperty('orgId');
      expect(body.currentPrompt).not.toHaveProperty('correlation');
    });

    it('lists only the caller’s executions of a conversation', async () => {
      const conversationId = uid('conv');
      const mine = uid('exec');
      await givenExecution(h.pool, { executionId: mine, owner: alice, conversationId });
      await givenExecution(h.pool, { executionId: uid('exec'), owner: bob, conversationId });
      const res = await get(`/v1/executions?conversationId=${conversationId}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().executions.map((e: { executionId: string }) => e.executionId)).toEqual([mine]);
    });

    it('lists a page at a time: at most limit, and next names where the following page starts, until none follows', async () => {
      const conversationId = uid('conv');
      const made: string[] = [];
      for (let i = 0; i < 5; i++) {
        const executionId = uid('exec');
        made.push(executionId);
        await givenExecution(h.pool, { executionId, owner: alice, conversationId });
      }
      const seen: string[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const res = await get(`/v1/executions?conversationId=${conversationId}&limit=2${after ? `&after=${after}` : ''}`);
        expect(res.statusCode).toBe(200);
        const body = res.json() as { executions: { executionId: string }[]; next?: string };
        expect(body.executions.length).toBeLessThanOrEqual(2);
        seen.push(...body.executions.map((e) => e.executionId));
        after = body.next;
        pages += 1;
      } while (after && pages < 10);
      // every execution once, newest first, over three pages; the last page says no more follow
      expect(pages).toBe(3);
      expect(new Set(seen)).toEqual(new Set(made));
      expect(seen).toHaveLength(5);
      const all = (await get(`/v1/executions?conversationId=${conversationId}`)).json();
      expect(all.executions.map((e: { executionId: string }) => e.executionId)).toEqual(seen);
      expect(all.next).toBeUndefined();
      expect((await get('/v1/executions?limit=0')).statusCode).toBe(400);
      // a cursor that names no execution is said so, not read as "no more"
      const stale = await get(`/v1/executions?conversationId=${conversationId}&after=${uid('nothing')}`);
      expect(stale.statusCode).toBe(400);
      expect(stale.json()).toMatchObject({ code: 'bad_request', field: 'after' });
      // the last page's own last execution as a cursor is the end: an empty page
      const end = await get(`/v1/executions?conversationId=${conversationId}&after=${seen.at(-1)}`);
      expect(end.json()).toEqual({ executions: [] });
    });

    it('narrows the list to a status an execution reads, and refuses a status no execution has naming the field', async () => {
      const conversationId = uid('conv');
      const done = uid('exec');
      const asking = uid('exec');
      const failed = uid('exec');
      await givenExecution(h.pool, { executionId: done, owner: alice, conversationId, status: 'completed' });
      await givenExecution(h.pool, {
        executionId: asking,
        owner: alice,
        conversationId,
        prompt: questionsPrompt(asking, alice, conversationId),
      });
      await givenExecution(h.pool, { executionId: failed, owner: alice, conversationId, status: 'failed' });
      await givenExecution(h.pool, { executionId: uid('exec'), owner: bob, conversationId: uid('conv'), status: 'completed' });
      const ids = async (status: string) => {
        const res = await get(`/v1/executions?conversationId=${conversationId}&status=${status}`);
        expect(res.statusCode).toBe(200);
        return res.json().executions.map((e: { executionId: string; status: string }) => [e.executionId, e.status]);
      };
      expect(await ids('completed')).toEqual([[done, 'completed']]);
      expect(await ids('waiting')).toEqual([[asking, 'waiting']]);
      expect(await ids('awaiting_input')).toEqual([[asking, 'waiting']]);
      expect(await ids('failed')).toEqual([[failed, 'failed']]);
      expect(await ids('cancelled')).toEqual([]);
      // without a conversation: every completed execution the caller may see, none of another user's
      const all = (await get('/v1/executions?status=completed')).json().executions as { status: string }[];
      expect(all.length).toBeGreaterThan(0);
      expect(all.every((e) => e.status === 'completed')).toBe(true);
      const wrong = await get('/v1/executions?status=done');
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'bad_request', field: 'status' });
      // the message names what is allowed, in the words the API answers in
      expect(wrong.json().message).toBe(
        'querystring/status: Expected one of "awaiting_input", "queued", "running", "waiting", "completed", "cancelled", "failed"',
      );
    });

    it('answers 400 naming a query parameter an endpoint does not take, on every GET alike', async () => {
      for (const url of ['/v1/employees?limit=1', '/v1/executions/x?x=1', `/v1/orgs/${alice.orgId}/policy?verbose=1`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message, url).toMatch(/querystring/);
      }
    });

    it('answers 400 naming the query parameter when it is not an id', async () => {
      const res = await get('/v1/executions?conversationId=not%20an%20id');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'bad_request', field: 'conversationId' });
    });

    it('answers 404, the same as for a missing one, for another org’s or another user’s execution', async () => {
      const executionId = uid('exec');
      await givenExecution(h.pool, { executionId, owner: alice, conversationId: uid('conv') });
      const missing = await get(`/v1/executions/${uid('exec')}`);
      const otherUser = await get(`/v1/executions/${executionId}`, bearerOf(bob));
      const otherOrg = await get(`/v1/executions/${executionId}`, bearerOf(mallory));
      const otherUserEvents = await get(`/v1/executions/${executionId}/events`, bearerOf(bob));
      for (const res of [missing, otherUser, otherOrg, otherUserEvents]) {
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('not_found');
      }
      // nothing tells another user or org that the execution exists
      expect(otherOrg.json()).toEqual(otherUser.json());
      expect(otherUser.json()).toEqual({
        code: 'not_found',
        message: `execution ${executionId} not found`,
        field: '/executionId',
      });
    });

    it('returns the audit timeline of the caller’s execution', async () => {
      const executionId = uid('exec');
      const conversationId = uid('conv');
      const prompt = questionsPrompt(executionId, alice, conversationId);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt });
      await givenFact(h.pool, prompt, 'hil-prompt');
      const res = await get(`/v1/executions/${executionId}/events`);
      expect(res.statusCode).toBe(200);
      expect(res.json().events).toEqual([
        expect.objectContaining({ id: prompt.id, type: 'HILPrompt', topic: 'hil-prompt', who: 'graph-creator', fact: prompt }),
      ]);
    });
  });

  describe('POST /v1/executions/:id/respond', () => {
    async function waiting(kind: 'questions' | 'options' = 'questions') {
      const executionId = uid('exec');
      const conversationId = uid('conv');
      const p =
        kind === 'questions'
          ? questionsPrompt(executionId, alice, conversationId)
          : optionsPrompt(executionId, alice, conversationId);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt: p });
      return { executionId, conversationId, prompt: p };
    }

    it('publishes a valid HILResponse with the user, conversation and execution, and answers 202', async () => {
      const { executionId, conversationId, prompt } = await waiting();
      const res = await post(`/v1/executions/${executionId}/respond`, {
        promptId: prompt.promptId,
        kind: 'questions',
        payload: { answers: { q1: 'The support team' } },
      });
      expect(res.statusCode).toBe(202);
      const { responseId } = res.json<{ responseId: string }>();
      expect(res.json()).toEqual({ responseId, executionId, promptId: prompt.promptId });

      const fact = await h.collector.until(() => h.collector.of('HILResponse', (f) => f.id === responseId)[0], 'the HILResponse');
      expect(validateFact(fact).ok).toBe(true);
      expect(fact).toMatchObject({
        orgId: 'acme',
        executionId,
        promptId: prompt.promptId,
        kind: 'questions',
        payload: { answers: { q1: 'The support team' } },
        correlation: { userId: 'alice', conversationId, executionId },
      } satisfies Partial<HILResponse>);
    });

    it('answers from what the broadcast saw: a prompt the event store has not projected (or cannot) is answered at once, a stale one refused at once', async () => {
      const hub = new BroadcastHub();
      const live = await h.build({}, hub);
      const executionId = uid('exec');
      const conversationId = uid('conv');
      // the event store knows nothing of this execution: only the broadcast consumer saw its prompt
      const first = questionsPrompt(executionId, alice, conversationId);
      hub.live.record(first);
      const accepted = await live.inject({
        method: 'POST',
        url: `/v1/executions/${executionId}/respond`,
        payload: { promptId: first.promptId, kind: 'questions', payload: { answers: { q1: 'Support' } } },
        headers: bearerOf(alice),
      });
      expect(accepted.statusCode).toBe(202);
      await h.collector.until(
        () => h.collector.of('HILResponse', (f) => f.id === accepted.json().responseId)[0],
        'the HILResponse published',
      );
      // another user is still refused, as if the execution did not exist
      const foreign = await live.inject({
        method: 'POST',
        url: `/v1/executions/${executionId}/respond`,
        payload: { promptId: first.promptId, kind: 'questions', payload: { answers: { q1: 'x' } } },
        headers: bearerOf(bob),
      });
      expect(foreign.statusCode).toBe(404);
      // the next prompt arrives: the first one's answer is stale, refused without waiting for any projection
      const second = {
        ...questionsPrompt(executionId, alice, conversationId),
        ts: new Date(Date.parse(first.ts) + 1).toISOString(),
      };
      hub.live.record(second);
      const stale = await live.inject({
        method: 'POST',
        url: `/v1/executions/${executionId}/respond`,
        payload: { promptId: first.promptId, kind: 'questions', payload: { answers: { q1: 'Support' } } },
        headers: bearerOf(alice),
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().message).toContain(second.promptId);
      // it ended: every answer is stale
      hub.live.record(
        // as the worker publishes it: caused by the last answer, with its user and conversation
        makeFact(
          'ExecutionResult',
          { orgId: 'acme', correlation: { executionId, userId: 'alice', conversationId } },
          { executionId, status: 'completed' },
        ),
      );
      const late = await live.inject({
        method: 'POST',
        url: `/v1/executions/${executionId}/respond`,
        payload: { promptId: second.promptId, kind: 'questions', payload: { answers: { q1: 'Support' } } },
        headers: bearerOf(alice),
      });
      expect(late.statusCode).toBe(409);
    });

    it('cancels from what the broadcast saw: a prompt a socket showed before the event store projects it, then its end', async () => {
      const hub = new BroadcastHub();
      const live = await h.build({}, hub);
      const executionId = uid('exec');
      const conversationId = uid('conv');
      // the event store knows nothing of this execution: only the broadcast consumer saw its prompt
      const prompt = questionsPrompt(executionId, alice, conversationId);
      hub.live.record(prompt);
      const cancelOf = (who: typeof alice) =>
        live.inject({ method: 'POST', url: `/v1/executions/${executionId}/cancel`, headers: bearerOf(who) });
      expect((await cancelOf(bob)).statusCode).toBe(404);
      const cancelled = await cancelOf(alice);
      expect(cancelled.statusCode).toBe(202);
      await h.collector.until(
        () => h.collector.of('TriggerCreated', (f) => f.triggerId === cancelled.json().triggerId)[0],
        'the cancellation published',
      );
      // GET answers from the projection (the contract's read model), which has no row for it yet
      expect(
        (await live.inject({ method: 'GET', url: `/v1/executions/${executionId}`, headers: bearerOf(alice) })).statusCode,
      ).toBe(404);
      hub.live.record(
        makeFact(
          'ExecutionResult',
          { orgId: 'acme', correlation: { executionId, userId: 'alice', conversationId } },
          { executionId, status: 'cancelled' },
        ),
      );
      // ended: a second cancellation is refused at once
      expect((await cancelOf(alice)).statusCode).toBe(409);
    });

    it('accepts a navigation action the prompt allows', async () => {
      const { executionId, prompt } = await waiting('options');
      const res = await post(`/v1/executions/${executionId}/respond`, {
        promptId: prompt.promptId,
        kind: 'options',
        payload: { action: 'skip' },
      });
      expect(res.statusCode).toBe(202);
    });

    it('answers 401 without a valid token', async () => {
      const { executionId, prompt } = await waiting();
      const res = await post(
        `/v1/executions/${executionId}/respond`,
        { promptId: prompt.promptId, kind: 'questions', payload: {} },
        {},
      );
      expect(res.statusCode).toBe(401);
    });

    it('answers 404 to another user and to another org, and publishes nothing', async () => {
      const { executionId, prompt } = await waiting();
      const body = { promptId: prompt.promptId, kind: 'questions', payload: { answers: { q1: 'hijack' } } };
      expect((await post(`/v1/executions/${executionId}/respond`, body, bearerOf(bob))).statusCode).toBe(404);
      expect((await post(`/v1/executions/${executionId}/respond`, body, bearerOf(mallory))).statusCode).toBe(404);
      // a 404 is answered after whatever the gateway published for the request: read it all before looking
      await h.collector.caughtUp();
      expect(h.collector.of('HILResponse', (r) => r.executionId === executionId)).toEqual([]);
    });

    it('answers 409 when the promptId is not the pending prompt', async () => {
      const { executionId } = await waiting();
      const res = await post(`/v1/executions/${executionId}/respond`, {
        promptId: 'stale-prompt',
        kind: 'questions',
        payload: { answers: { q1: 'x' } },
      });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({
        code: 'conflict',
        field: '/promptId',
        message: expect.stringContaining('stale-prompt'),
      });
    });

    it('answers 409 when nothing is pending any more', async () => {
      const executionId = uid('exec');
      await givenExecution(h.pool, { executionId, owner: alice, conversationId: uid('conv'), status: 'running' });
      const res = await post(`/v1/executions/${executionId}/respond`, {
        promptId: 'p',
        kind: 'questions',
        payload: { answers: {} },
      });
      expect(res.statusCode).toBe(409);
    });

    it('answers 422 naming the field when the payload breaks the prompt’s input schema', async () => {
      const { executionId, prompt } = await waiting();
      const wrongType = await post(`/v1/executions/${executionId}/respond`, {
        promptId: prompt.promptId,
        kind: 'questions',
        payload: { answers: { q1: 42 } },
      });
      expect(wrongType.statusCode).toBe(422);
      expect(wrongType.json()).toMatchObject({ code: 'validation_failed', field: '/payload/answers/q1' });

      const unknownQuestion = await post(`/v1/executions/${executionId}/respond`, {
        promptId: prompt.promptId,
        kind: 'questions',
        payload: { answers: { q1: 'ok', q9: 'extra' } },
      });
      expect(unknownQuestion.statusCode).toBe(422);
      expect(unknownQuestion.json().field).toBe('/payload/answers/q9');
    });

    it('answers 422 naming /kind when the kind is not the prompt’s', async () => {
      const { executionId, prompt } = await waiting();
      const res = await post(`/v1/executions/${executionId}/respond`, {
        promptId: prompt.promptId,
        kind: 'options',
        payload: { selected: ['a'] },
      });

      expect(res.json().field).toBe('/kind');
    });

    it('answers 422 naming /selected for an option the prompt does not offer', async () => {
      const { executionId, prompt } = await waiting('options');
      const res = await post(`/v1/executions/${executionId}/respond`, {
        promptId: prompt.promptId,
        kind: 'options',
        payload: { selected: ['fax'] },
      });

      expect(res.json().field).toMatch(/^\/payload\/selected/);
    });
  });

  describe('POST /v1/executions/:id/cancel', () => {
    it('publishes TriggerCreated{cancel_execution} for the caller’s running execution', async () => {
      const executionId = uid('exec');
      const conversationId = uid('conv');
      await givenExecution(h.pool, { executionId, owner: alice, conversationId });
      const res = await app.inject({ method: 'POST', url: `/v1/executions/${executionId}/cancel`, headers: bearerOf(alice) });
      expect(res.statusCode).toBe(202);
      const { triggerId } = res.json<{ triggerId: string }>();
      const fact = await h.collector.until(
        () => h.collector.of('TriggerCreated', (f) => f.triggerId === triggerId)[0],
        'the cancel trigger',
      );
      expect(validateFact(fact).ok).toBe(true);
      expect(fact).toMatchObject({
        triggerType: 'cancel_execution',
        payload: { executionId, reason: 'requested' },
        source: 'http',
        correlation: { userId: 'alice', conversationId, executionId, triggerId },
      });
    });

    it('takes no body or an empty object; an unknown field or another body is a 422 naming it, and nothing is published', async () => {
      const executionId = uid('exec');
      await givenExecution(h.pool, { executionId, owner: alice, conversationId: uid('conv') });
      const url = `/v1/executions/${executionId}/cancel`;
      const json = { ...bearerOf(alice), 'content-type': 'application/json' };
      const extra = await app.inject({ method: 'POST', url, headers: json, payload: '{"reason":"x"}' });
      expect(extra.statusCode).toBe(422);
      expect(extra.json()).toMatchObject({ code: 'validation_failed', field: '/reason' });
      const list = await app.inject({ method: 'POST', url, headers: json, payload: '[1]' });
      expect(list.statusCode).toBe(422);
      expect(list.json()).toMatchObject({ field: '/' });
      const empty = await app.inject({ method: 'POST', url, headers: json, payload: '{}' });
      expect(empty.statusCode).toBe(202);
      const { triggerId } = empty.json<{ triggerId: string }>();
      await h.collector.until(() => h.collector.of('TriggerCreated', (f) => f.triggerId === triggerId)[0], 'the cancel trigger');
      expect(
        h.collector.of('TriggerCreated', (f) => f.triggerType === 'cancel_execution' && f.payload.executionId === executionId),
      ).toHaveLength(1);
    });

    it('answers 409 for an execution that has ended and 404 for another user’s', async () => {
      const ended = uid('exec');
      await givenExecution(h.pool, { executionId: ended, owner: alice, conversationId: uid('conv'), status: 'completed' });
      const res = await app.inject({ method: 'POST', url: `/v1/executions/${ended}/cancel`, headers: bearerOf(alice) });
      expect(res.statusCode).toBe(409);
      const theirs = await app.inject({ method: 'POST', url: `/v1/executions/${ended}/cancel`, headers: bearerOf(bob) });
      expect(theirs.statusCode).toBe(404);
    });
  });

  describe('employees', () => {
    it('lists the org’s employees without specs and reads one with its spec; another org sees 404', async () => {
      const employeeId = uid('emp');
      const spec = { employeeId, orgId: 'acme', name: 'Support agent', version: 1 };
      await h.pool.query(
        `INSERT INTO employees (employee_id, org_id, name, version, spec, execution_id, registered_at) VALUES ($1, 'acme', $2, 1, $3, $4, now())`,
        [employeeId, `Support agent ${employeeId}`, JSON.stringify(spec), uid('exec')],
      );
      const list = await get('/v1/employees');
      expect(list.statusCode).toBe(200);
      const listed = list.json().employees.find((e: { employeeId: string }) => e.employeeId === employeeId);
      expect(listed).toMatchObject({ employeeId, version: 1 });
      expect(listed).not.toHaveProperty('spec');

      const one = await get(`/v1/employees/${employeeId}`);
      expect(one.statusCode).toBe(200);
      expect(one.json().spec).toEqual(spec);
      expect((await get(`/v1/employees/${employeeId}`, bearerOf(mallory))).statusCode).toBe(404);
    });
  });

  describe('limits and documentation', () => {
    it('answers 429 past the per-user rate limit, counting each user apart', async () => {
      const limited = await h.build({ rateLimitPerMinute: 3 });
      const call = (who: typeof alice) => limited.inject({ method: 'GET', url: '/v1/employees', headers: bearerOf(who) });
      for (let i = 0; i < 3; i++) expect((await call(alice)).statusCode).toBe(200);
      const refused = await call(alice);
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('3 requests per minute') });
      expect((await call(bob)).statusCode).toBe(200);
    });

    it('serves the OpenAPI document at /docs/json listing every route with its schemas', async () => {
      const res = await app.inject({ method: 'GET', url: '/docs/json' });
      expect(res.statusCode).toBe(200);
      const doc = res.json<{
        paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>>;
      }>();
      const routes = Object.entries(doc.paths).flatMap(([path, methods]) =>
        Object.keys(methods).map((m) => `${m.toUpperCase()} ${path}`),
      );
      expect(routes).toEqual(
        expect.arrayContaining([
          'POST /v1/triggers',
          'GET /v1/executions',
          'GET /v1/executions/{id}',
          'GET /v1/executions/{id}/events',
          'POST /v1/executions/{id}/respond',
          'POST /v1/executions/{id}/cancel',
          'GET /v1/employees',
          'GET /v1/employees/{id}',
          'GET /v1/conversations/{id}/messages',
        ]),
      );
      expect(doc.paths['/v1/executions/{id}/respond']?.post?.requestBody).toBeDefined();
      expect(Object.keys(doc.paths['/v1/executions/{id}/respond']?.post?.responses ?? {})).toEqual(
        expect.arrayContaining(['202', '404', '409', '422']),
      );
      expect(res.body).toContain('ServerFrame');
      expect((await app.inject({ method: 'GET', url: '/docs' })).statusCode).toBeLessThan(400);
    });

    it('hides the internals of a 5xx behind a ref that is the request’s trace id', async () => {
      const failing = await h.build({}, undefined, {
        publish: async () => {
          throw new Error('socket hang up at 10.1.2.3:9092');
        },
      });
      const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
      const res = await failing.inject({
        method: 'POST',
        url: '/v1/triggers',
        payload: { type: 'create_graph', payload: { jobDescription: 'x' } },
        headers: { ...bearerOf(alice), traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
      });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ code: 'internal', message: expect.stringContaining('ref'), ref: traceId });
      expect(res.body).not.toContain('10.1.2.3');
    });

    it('answers 404 as JSON for an unknown route', async () => {
      const res = await get('/v1/nope');
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    });
  });
});
