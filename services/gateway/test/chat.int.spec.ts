import type { Principal } from '@hireloop/platform';
import { validateFact } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BroadcastHub } from '../src/chat/hub';
import { wsMaxPayload } from '../src/config';
import { promptFrame } from '../src/views';
import { bearerOf, givenExecution, questionsPrompt, token, uid } from './fixtures';
import { FrameLog, settle } from './frames-client';
import { type Harness, harness } from './harness';

const alice = { userId: 'alice', orgId: 'acme' };
const bob = { userId: 'bob', orgId: 'acme' };

describe('chat socket (injectWS, real Postgres and Kafka)', () => {
  let h: Harness;
  let app: FastifyInstance;
  const hub = new BroadcastHub();
  const sockets: FrameLog[] = [];

  beforeAll(async () => {
    h = await harness();
    app = await h.build({ frameLimit: 64 * 1024 }, hub);
  });
  afterAll(async () => {
    for (const s of sockets) s.socket.terminate();
    await h.close();
  });

  async function connect(query = '', headers: Record<string, string> = bearerOf(alice), on = app): Promise<FrameLog> {
    const socket = await on.injectWS(`/v1/chat${query}`, { headers });
    const log = new FrameLog(socket);
    sockets.push(log);
    return log;
  }

  describe('a chat line', () => {
    it('becomes UIMessage{role: user} on ui-messages, keyed by its conversation', async () => {
      const chat = await connect();
      const conversationId = uid('conv');
      chat.send({ conversationId, text: 'I need someone to triage our support inbox' });
      const fact = await h.collector.until(
        () => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0],
        'the UIMessage',
      );
      expect(validateFact(fact).ok).toBe(true);
      expect(fact).toMatchObject({
        orgId: 'acme',
        conversationId,
        userId: 'alice',
        role: 'user',
        content: 'I need someone to triage our support inbox',
        correlation: { conversationId, userId: 'alice' },
      });
      expect(chat.of('error')).toEqual([]);
    });

    it('answers a pending one-question prompt as HILResponse instead, and the router never sees it', async () => {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      const prompt = questionsPrompt(executionId, alice, conversationId, [{ id: 'team', text: 'Which team?', required: true }]);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt });
      const chat = await connect();
      chat.send({ type: 'message', conversationId, text: 'Customer success' });
      const fact = await h.collector.until(
        () => h.collector.of('HILResponse', (r) => r.executionId === executionId)[0],
        'the HILResponse',
      );
      expect(fact).toMatchObject({
        promptId: prompt.promptId,
        kind: 'questions',
        payload: { answers: { team: 'Customer success' } },
        correlation: { conversationId, userId: 'alice', executionId },
      });
      await settle();
      expect(h.collector.of('UIMessage', (m) => m.conversationId === conversationId)).toEqual([]);
    });

    it('stays a UIMessage when the pending prompt asks more than one question', async () => {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      const prompt = questionsPrompt(executionId, alice, conversationId, [
        { id: 'a', text: 'A?' },
        { id: 'b', text: 'B?' },
      ]);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt });
      const chat = await connect();
      chat.send({ conversationId, text: 'what do you mean?' });
      await h.collector.until(() => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0], 'the UIMessage');
      expect(h.collector.of('HILResponse', (r) => r.executionId === executionId)).toEqual([]);
    });
  });

  describe('hil_response and cancel frames', () => {
    async function waiting(owner: Principal = alice) {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      const prompt = questionsPrompt(executionId, owner, conversationId);
      await givenExecution(h.pool, { executionId, owner, conversationId, prompt });
      return { conversationId, executionId, prompt };
    }

    it('publishes a valid answer, with the same checks as the HTTP route', async () => {
      const { conversationId, executionId, prompt } = await waiting();
      const chat = await connect();
      chat.send({
        type: 'hil_response',
        conversationId,
        executionId,
        promptId: prompt.promptId,
        payload: { answers: { q1: 'Ops' } },
      });
      const fact = await h.collector.until(
        () => h.collector.of('HILResponse', (r) => r.executionId === executionId)[0],
        'HILResponse',
      );
      expect(fact).toMatchObject({ promptId: prompt.promptId, payload: { answers: { q1: 'Ops' } } });
    });

    it('answers conflict for a stale prompt and validation_failed naming the field, echoing ref', async () => {
      const { conversationId, executionId, prompt } = await waiting();
      const chat = await connect();
      chat.send({
        type: 'hil_response',
        conversationId,
        executionId,
        promptId: 'old',
        payload: { answers: { q1: 'x' } },
        ref: 'r1',
      });
      expect(await chat.nextError('conflict')).toMatchObject({
        code: 'conflict',
        ref: 'r1',
        message: expect.stringContaining('old'),
      });
      chat.send({
        type: 'hil_response',
        conversationId,
        executionId,
        promptId: prompt.promptId,
        payload: { answers: { q1: 7 } },
      });
      const invalid = await chat.nextError('validation_failed');
      expect(invalid).toMatchObject({ code: 'validation_failed', message: expect.stringContaining('/payload/answers/q1') });
      expect(chat.open).toBe(true);
    });

    it('answers not_found for another user’s conversation, and that conversation’s broadcasts never reach the socket', async () => {
      const { conversationId, executionId, prompt } = await waiting(bob);
      const chat = await connect();
      chat.send({ type: 'cancel', conversationId, executionId });
      expect(await chat.nextError('not_found')).toMatchObject({ code: 'not_found' });
      hub.deliver({ orgId: 'acme', conversationId, userId: 'bob' }, promptFrame(prompt, conversationId));
      await settle(100);
      expect(chat.of('hil_prompt')).toEqual([]);
    });

    it('cancels the caller’s execution', async () => {
      const { conversationId, executionId } = await waiting();
      const chat = await connect();
      chat.send({ type: 'cancel', conversationId, executionId });
      const fact = await h.collector.until(
        () =>
          h.collector.of(
            'TriggerCreated',
            (t) => t.triggerType === 'cancel_execution' && t.payload.executionId === executionId,
          )[0],
        'the cancel trigger',
      );
      expect(fact).toMatchObject({ source: 'chat', correlation: { conversationId, userId: 'alice', executionId } });
    });
  });

  describe('joining a conversation', () => {
    it('pushes the pending prompt on ?conversationId=, once, however often it is joined or broadcast', async () => {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      const prompt = questionsPrompt(executionId, alice, conversationId);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt });
      const chat = await connect(`?conversationId=${conversationId}`);
      const shown = await chat.waitFor((f) => f.type === 'hil_prompt', 'the pending prompt');
      expect(shown).toMatchObject({
        type: 'hil_prompt',
        conversationId,
        executionId,
        promptId: prompt.promptId,
        kind: 'questions',
        messages: prompt.messages,
        inputSchema: prompt.inputSchema,
        progress: 40,
      });
      hub.deliver({ orgId: 'acme', conversationId, userId: 'alice' }, promptFrame(prompt, conversationId));
      hub.deliver({ orgId: 'acme', conversationId, userId: 'alice' }, promptFrame(prompt, conversationId));
      await settle(100);
      expect(chat.of('hil_prompt')).toHaveLength(1);
    });

    it('pushes the prompt the broadcast saw before the event store projects it (a page reloaded at once), to its addressee only', async () => {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      // the projection knows nothing of this execution yet: only the broadcast consumer saw its prompt
      const prompt = questionsPrompt(executionId, alice, conversationId);
      hub.live.record(prompt);
      const chat = await connect(`?conversationId=${conversationId}`);
      const shown = await chat.waitFor((f) => f.type === 'hil_prompt', 'the prompt the broadcast saw');
      expect(shown).toMatchObject({ conversationId, executionId, promptId: prompt.promptId });
      const other = await connect(`?conversationId=${conversationId}`, bearerOf(bob));
      await settle(200);
      expect(other.of('hil_prompt')).toEqual([]);
    });

    it('answers, from a chat line, a one-question prompt only the broadcast has seen', async () => {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      const prompt = questionsPrompt(executionId, alice, conversationId, [{ id: 'team', text: 'Which team?', required: true }]);
      hub.live.record(prompt);
      const chat = await connect();
      chat.send({ type: 'message', conversationId, text: 'Customer success' });
      const fact = await h.collector.until(
        () => h.collector.of('HILResponse', (r) => r.executionId === executionId)[0],
        'the HILResponse',
      );
      expect(fact).toMatchObject({ promptId: prompt.promptId, payload: { answers: { team: 'Customer success' } } });
      await settle();
      expect(h.collector.of('UIMessage', (m) => m.conversationId === conversationId)).toEqual([]);
    });

    it('a socket without a token may open, but each frame then needs one', async () => {
      const chat = await connect('', {});
      const conversationId = uid('conv');
      chat.send({ conversationId, text: 'hello' });
      expect(await chat.nextError('unauthorized')).toMatchObject({ code: 'unauthorized' });
      chat.send({ conversationId, text: 'hello with a token', token: token(alice) });
      await h.collector.until(() => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0], 'the UIMessage');
      chat.send({ conversationId, text: 'a forged token', token: token(alice, '1h', 'wrong-secret') });
      expect(await chat.nextError('unauthorized')).toMatchObject({
        code: 'unauthorized',
        message: expect.stringContaining('invalid token'),
      });
      expect(chat.open).toBe(true);
    });

    it('a socket does not outlive the token it opened with: once it expires each frame is refused until one carries a fresh token', async () => {
      // (a JWT's exp counts whole seconds: a token of 4 s holds at least 3, time enough for a loaded host's first frame)
      const chat = await connect(`?token=${token(alice, '4s')}`, {});
      const conversationId = uid('conv');
      chat.send({ conversationId, text: 'before it expires' });
      await h.collector.until(() => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0], 'the UIMessage');
      // five seconds and it has passed
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      chat.send({ conversationId, text: 'after it expired' });
      expect(await chat.nextError('unauthorized')).toMatchObject({
        code: 'unauthorized',
        message: expect.stringContaining('the token this socket opened with no longer holds'),
      });
      chat.send({ conversationId, text: 'with a fresh token', token: token(alice) });
      await h.collector.until(
        () => h.collector.of('UIMessage', (m) => m.conversationId === conversationId && m.content === 'with a fresh token')[0],
        'the line with a fresh token',
      );
      expect(h.collector.of('UIMessage', (m) => m.content === 'after it expired')).toEqual([]);
      expect(chat.open).toBe(true);
    });

    it("a fresh token after the socket's lapsed shows at once the prompt it missed meanwhile, on a conversation it had joined", async () => {
      const conversationId = uid('conv');
      const executionId = uid('exec');
      const first = questionsPrompt(executionId, alice, conversationId);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt: first });
      const chat = await connect(`?token=${token(alice, '4s')}&conversationId=${conversationId}`, {});
      await chat.waitFor((f) => f.type === 'hil_prompt' && f.promptId === first.promptId, 'the first prompt');
      await new Promise((resolve) => setTimeout(resolve, 5_100));
      // the next prompt comes while the token has lapsed: it is not shown, the socket is told why
      const next = questionsPrompt(executionId, alice, conversationId);
      await givenExecution(h.pool, { executionId, owner: alice, conversationId, prompt: next });
      hub.deliver({ orgId: 'acme', conversationId, userId: 'alice' }, promptFrame(next, conversationId));
      await chat.nextError('unauthorized');
      expect(chat.of('hil_prompt').map((f) => f.promptId)).toEqual([first.promptId]);
      // a frame on another conversation brings a fresh token: the missed prompt is shown without another push
      chat.send({ conversationId: uid('conv'), text: 'back again', token: token(alice) });
      const shown = await chat.waitFor((f) => f.type === 'hil_prompt' && f.promptId === next.promptId, 'the missed prompt');
      expect(shown).toMatchObject({ conversationId, executionId });
    });

    it("refuses a frame carrying another user's token on a socket opened by one user, and does nothing with it", async () => {
      const chat = await connect(`?token=${token(alice)}`, {});
      const conversationId = uid('conv');
      chat.send({ conversationId, text: 'as somebody else', token: token(bob) });
      expect(await chat.nextError('forbidden')).toMatchObject({
        code: 'forbidden',
        message: expect.stringContaining('this socket was opened by another user'),
      });
      chat.send({ conversationId, text: 'as myself', token: token(alice) });
      await h.collector.until(() => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0], 'the UIMessage');
      expect(h.collector.of('UIMessage', (m) => m.content === 'as somebody else')).toEqual([]);
      expect(chat.open).toBe(true);
    });

    it('accepts the token as ?token= on the upgrade', async () => {
      const chat = await connect(`?token=${token(alice)}`, {});
      const conversationId = uid('conv');
      chat.send({ conversationId, text: 'hi' });
      await h.collector.until(() => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0], 'the UIMessage');
      expect(chat.of('error')).toEqual([]);
    });
  });

  describe('an answer to an execution nobody here has shown', () => {
    const unknownAnswer = (conversationId: string, ref: string) => ({
      type: 'hil_response',
      conversationId,
      executionId: uid('exec-unknown'),
      promptId: 'p-1',
      payload: { answers: {} },
      ref,
    });

    it("is refused after the projection had its chance, without holding back the socket's frames of other conversations", async () => {
      const chat = await connect();
      chat.send(unknownAnswer(uid('conv'), 'the-answer'));
      chat.send({ type: 'cancel', conversationId: uid('conv'), executionId: uid('exec-unknown'), ref: 'the-cancel' });
      await chat.waitFor((f) => f.type === 'error', 'both refusals', { count: 2 });
      expect(chat.of('error').map((f) => [f.ref, f.code])).toEqual([
        ['the-cancel', 'not_found'],
        ['the-answer', 'not_found'],
      ]);
    });

    it('holds back the frames of its own conversation sent after it, so that they are handled in the order sent', async () => {
      const chat = await connect();
      const conversationId = uid('conv');
      chat.send(unknownAnswer(conversationId, 'the-answer'));
      chat.send({ type: 'cancel', conversationId, executionId: uid('exec-unknown'), ref: 'the-cancel' });
      await chat.waitFor((f) => f.type === 'error', 'both refusals', { count: 2 });
      expect(chat.of('error').map((f) => f.ref)).toEqual(['the-answer', 'the-cancel']);
    });
  });

  describe('bad frames', () => {
    it('get an error frame naming the problem, and the socket stays open for the next frame', async () => {
      const chat = await connect();
      const conversationId = uid('conv');
      const cases: [unknown, string, RegExp][] = [
        ['{not json', 'bad_request', /not JSON/],
        ['[1,2]', 'bad_request', /JSON object/],
        [{ type: 'dance', conversationId }, 'bad_request', /unknown frame type "dance"/],
        [{ text: 'no conversation' }, 'validation_failed', /\/conversationId/],
        [{ type: 'hil_response', conversationId, executionId: 'e' }, 'validation_failed', /\/promptId/],
        [{ conversationId, text: 'x', extra: 1 }, 'validation_failed', /\/extra/],
        [{ conversationId, text: 'x'.repeat(70 * 1024) }, 'payload_too_large', /over the limit of 65536/],
        [Buffer.from([1, 2, 3]), 'bad_request', /binary/],
      ];
      for (const [frame, code, message] of cases) {
        chat.send(frame);
        const error = await chat.nextError(code);
        expect(error, JSON.stringify(frame).slice(0, 80)).toMatchObject({ code, message: expect.stringMatching(message) });
      }
      chat.send({ conversationId, text: 'still here' });
      await h.collector.until(
        () => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0],
        'a valid frame after bad ones',
      );
      expect(chat.open).toBe(true);
    });

    it('a frame over the socket’s hard cap closes that socket with 1009, and the next socket is served', async () => {
      const chat = await connect();
      const closed = new Promise<number>((resolve) => chat.socket.once('close', (code: number) => resolve(code)));
      chat.send('x'.repeat(wsMaxPayload(64 * 1024) + 1));
      expect(await closed).toBe(1009);
      const next = await connect();
      const conversationId = uid('conv');
      next.send({ conversationId, text: 'after a flood' });
      await h.collector.until(
        () => h.collector.of('UIMessage', (m) => m.conversationId === conversationId)[0],
        'a line on the next socket',
      );
    });

    it('an upgrade to a WebSocket anywhere but /v1/chat is refused in HTTP (404), before any handshake', async () => {
      await expect(app.injectWS('/v1/employees', { headers: bearerOf(alice) })).rejects.toThrow(
        'Unexpected server response: 404',
      );
    });

    it('past the per-user frame rate get rate_limited', async () => {
      const limited = await h.build({ rateLimitPerMinute: 2 }, new BroadcastHub());
      const chat = await connect('', bearerOf(alice), limited);
      const conversationId = uid('conv');
      for (let i = 0; i < 3; i++) chat.send({ conversationId, text: `line ${i}`, ref: `r-${i}` });
      const error = await chat.waitFor((f) => f.type === 'error', 'rate_limited');
      // refused before it is parsed, yet its ref says which frame it was
      expect(error).toMatchObject({ code: 'rate_limited', message: expect.stringContaining('2 frames per minute'), ref: 'r-2' });
      expect(chat.open).toBe(true);
    });
  });
});
