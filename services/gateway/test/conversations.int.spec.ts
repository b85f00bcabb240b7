import { randomUUID } from 'node:crypto';
import type { Pool, Principal } from '@hireloop/platform';
import { type UIMessage, validateFact } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerOf, givenExecution, uid } from './fixtures';
import { type Harness, harness } from './harness';

const alice = { userId: 'alice', orgId: 'acme' };
const bob = { userId: 'bob', orgId: 'acme' };
const mallory = { userId: 'mallory', orgId: 'evil-corp' };

/** A chat line as the event store keeps it (the projector's row, without the projector). */
async function givenLine(
  pool: Pool,
  conversationId: string,
  who: Principal,
  role: 'user' | 'assistant',
  content: string,
  ts: string,
) {
  const fact: UIMessage = {
    id: randomUUID(),
    type: 'UIMessage',
    orgId: who.orgId,
    ts,
    correlation: { conversationId, userId: who.userId },
    conversationId,
    userId: who.userId,
    role,
    content,
  };
  expect(validateFact(fact).ok).toBe(true);
  await pool.query(
    `INSERT INTO facts (id, topic, type, org_id, execution_id, conversation_id, payload, ts, hash)
     VALUES ($1, 'ui-messages', 'UIMessage', $2, NULL, $3, $4, $5, 'test')`,
    [fact.id, fact.orgId, conversationId, JSON.stringify(fact), ts],
  );
  return fact;
}

describe('GET /v1/conversations/:id/messages (app.inject, real Postgres)', () => {
  let h: Harness;
  let app: FastifyInstance;

  beforeAll(async () => {
    h = await harness();
    app = await h.build();
  });
  afterAll(async () => {
    await h.close();
  });

  const get = (url: string, who: Principal) => app.inject({ method: 'GET', url, headers: bearerOf(who) });

  it("gives the caller's lines and hireloop's replies to them, oldest first, as text", async () => {
    const conversationId = uid('conv');
    await givenExecution(h.pool, { executionId: uid('exec'), owner: alice, conversationId });
    const reply = await givenLine(h.pool, conversationId, alice, 'assistant', 'What should it do?', '2026-11-24T10:00:02.000Z');
    const line = await givenLine(
      h.pool,
      conversationId,
      alice,
      'user',
      '<b>Hire</b> a recruiting coordinator',
      '2026-11-24T10:00:01.000Z',
    );
    const res = await get(`/v1/conversations/${conversationId}/messages`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      conversationId,
      messages: [
        { id: line.id, role: 'user', text: '<b>Hire</b> a recruiting coordinator', ts: '2026-11-24T10:00:01.000Z' },
        { id: reply.id, role: 'assistant', text: 'What should it do?', ts: '2026-11-24T10:00:02.000Z' },
      ],
    });
  });

  it("shows nobody else's lines: another user of the conversation's org gets 404, another org nothing", async () => {
    const conversationId = uid('conv');
    await givenExecution(h.pool, { executionId: uid('exec'), owner: alice, conversationId });
    await givenLine(h.pool, conversationId, alice, 'user', 'Automate our onboarding', '2026-11-24T11:00:00.000Z');
    const other = await get(`/v1/conversations/${conversationId}/messages`, bob);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ code: 'not_found' });
    const stranger = await get(`/v1/conversations/${conversationId}/messages`, mallory);
    expect(stranger.statusCode).toBe(200);
    expect(stranger.json()).toEqual({ conversationId, messages: [] });
  });

  it('given a conversation id at its longest (128 characters, as the socket and ?conversationId= take), when its lines are read, then they are served; one character more is a 400 naming the id', async () => {
    const conversationId = `${uid('conv')}-${'x'.repeat(128)}`.slice(0, 128);
    await givenExecution(h.pool, { executionId: uid('exec'), owner: alice, conversationId });
    const line = await givenLine(h.pool, conversationId, alice, 'user', 'Automate our refunds', '2026-11-24T12:00:00.000Z');
    const res = await get(`/v1/conversations/${conversationId}/messages`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ conversationId, messages: [{ id: line.id }] });
    const over = await get(`/v1/conversations/${conversationId}x/messages`, alice);
    expect(over.statusCode).toBe(400);
    expect(over.json().message).toMatch(/params\/id|conversationId|id/);
  });

  it('a conversation with no lines yet is empty; a bad id is 400; no token is 401', async () => {
    expect((await get(`/v1/conversations/${uid('conv')}/messages`, alice)).json()).toMatchObject({ messages: [] });
    expect((await get('/v1/conversations/not%20an%20id/messages', alice)).statusCode).toBe(400);
    expect((await app.inject({ method: 'GET', url: `/v1/conversations/${uid('conv')}/messages` })).statusCode).toBe(401);
  });
});
