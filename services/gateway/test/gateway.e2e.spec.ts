import { FactPublisher, makeFact } from '@hireloop/fact-stream';
import { FactCollector } from '@hireloop/fact-stream/testing';
import { createKafka, createLogger, createPool } from '@hireloop/platform';
import { type ServiceProcess, startServiceProcess, waitUntil } from '@hireloop/platform/testing';
import { Topics } from '@hireloop/schemas';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import WebSocket from 'ws';
import { givenExecution, questionsPrompt, SECRET, token, uid } from './fixtures';
import { FrameLog, settle } from './frames-client';

const alice = { userId: 'alice', orgId: 'acme' };
const log = createLogger('gateway-e2e', 'silent');

describe('gateway as its own process, through real sockets', () => {
  const env = {
    DATABASE_URL: inject('databaseUrl'),
    TOPIC_PREFIX: inject('topicPrefix'),
    KAFKA_BROKERS: inject('kafkaBrokers').join(','),
    JWT_SECRET: SECRET,
  };
  const kafka = createKafka({ clientId: 'gateway-e2e', brokers: inject('kafkaBrokers'), log });
  const publisher = new FactPublisher({ kafka, topicPrefix: inject('topicPrefix'), log });
  const collector = new FactCollector(kafka, inject('topicPrefix'), [Topics.uiMessages]);
  const pool = createPool(inject('databaseUrl'));
  const sockets: FrameLog[] = [];
  let gateway: ServiceProcess;

  beforeAll(async () => {
    await Promise.all([publisher.connect(), collector.start()]);
    gateway = await startServiceProcess('gateway', env);
    await waitUntil(async () => ((await fetch(gateway.url('/readyz'))).status === 200 ? true : undefined), 'gateway /readyz');
  });
  afterAll(async () => {
    for (const s of sockets) s.socket.terminate();
    await gateway?.stop('SIGKILL');
    await Promise.all([publisher.disconnect(), collector.stop()]);
    await pool.end();
  });

  async function connect(
    query = '',
    headers: Record<string, string> = { authorization: `Bearer ${token(alice)}` },
  ): Promise<FrameLog> {
    const socket = new WebSocket(`ws://127.0.0.1:${gateway.port}/v1/chat${query}`, { headers });
    const frames = new FrameLog(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve());
      socket.once('error', reject);
    });
    sockets.push(frames);
    return frames;
  }

  /** Publishes an assistant line to the conversation until every socket shows it: they have joined and the broadcast is live. */
  async function untilJoined(conversationId: string, ...chats: FrameLog[]): Promise<void> {
    const probe = uid('probe');
    await waitUntil(async () => {
      await publisher.publish(
        makeFact(
          'UIMessage',
          { orgId: 'acme', correlation: { conversationId, userId: 'alice' } },
          { conversationId, userId: 'alice', role: 'assistant', content: probe },
        ),
      );
      await settle(250);
      return chats.every((c) => c.of('message').some((m) => m.text === probe)) ? true : undefined;
    }, `sockets joined to ${conversationId}`);
  }

  it('answers malformed frames with error frames and keeps the socket open for a valid frame afterwards', async () => {
    const chat = await connect();
    const conversationId = uid('conv');
    const bad: [string | Buffer, string][] = [
      ['this is not json', 'bad_request'],
      [JSON.stringify({ type: 'teleport', conversationId }), 'bad_request'],
      [JSON.stringify({ type: 'message', text: 'where does this go?' }), 'validation_failed'],
      [JSON.stringify({ conversationId, text: 'x'.repeat(2 * 1024 * 1024) }), 'payload_too_large'],
      [JSON.stringify({ conversationId, text: 'hello', token: 'not.a.jwt' }), 'unauthorized'],
    ];
    for (const [frame, code] of bad) {
      chat.send(frame);
      expect((await chat.nextError(code)).code).toBe(code);
      expect(chat.open).toBe(true);
    }
    chat.send({ conversationId, text: 'a valid line after all that' });
    const line = await collector.until(
      () => collector.of('UIMessage', (m) => m.conversationId === conversationId)[0],
      'the valid line',
    );
    expect(line).toMatchObject({ role: 'user', userId: 'alice', content: 'a valid line after all that' });
    expect(chat.closed).toBeUndefined();
  });

  it('pushes a HILPrompt to every socket of its conversation exactly once, even when published twice', async () => {
    const conversationId = uid('conv');
    const first = await connect(`?conversationId=${conversationId}`);
    const second = await connect(`?conversationId=${conversationId}`);
    const otherConversation = uid('conv');
    const elsewhere = await connect(`?conversationId=${otherConversation}`);
    await untilJoined(conversationId, first, second);

    const prompt = questionsPrompt(uid('exec'), alice, conversationId);
    await publisher.publish(prompt);
    await publisher.publish(prompt);
    for (const chat of [first, second]) {
      const shown = await chat.waitFor((f) => f.type === 'hil_prompt', 'the prompt');
      expect(shown).toMatchObject({
        type: 'hil_prompt',
        conversationId,
        promptId: prompt.promptId,
        executionId: prompt.executionId,
      });
    }
    // A later prompt of the same execution (the same partition, so read after both copies) shows once the
    // gateway has handled both copies; then a prompt of the other conversation, published after that, shows
    // on its socket after anything the gateway (wrongly) sent it of this conversation's.
    const later = questionsPrompt(prompt.executionId, alice, conversationId);
    await publisher.publish(later);
    for (const chat of [first, second]) {
      await chat.waitFor((f) => f.type === 'hil_prompt' && f.promptId === later.promptId, 'the later prompt');
    }
    const theirs = questionsPrompt(uid('exec'), alice, otherConversation);
    await publisher.publish(theirs);
    await elsewhere.waitFor((f) => f.type === 'hil_prompt' && f.promptId === theirs.promptId, 'their own prompt');
    const shown = (chat: FrameLog) => chat.of('hil_prompt').map((f) => f.promptId);
    expect(shown(first)).toEqual([prompt.promptId, later.promptId]);
    expect(shown(second)).toEqual([prompt.promptId, later.promptId]);
    expect(shown(elsewhere)).toEqual([theirs.promptId]);
  });

  it('shows a reconnecting socket the conversation’s pending prompt again', async () => {
    const conversationId = uid('conv');
    const executionId = uid('exec');
    const prompt = questionsPrompt(executionId, alice, conversationId);
    await givenExecution(pool, { executionId, owner: alice, conversationId, prompt });

    const before = await connect(`?conversationId=${conversationId}`);
    await before.waitFor((f) => f.type === 'hil_prompt', 'the pending prompt on connect');
    before.socket.close();
    const after = await connect(`?token=${token(alice)}&conversationId=${conversationId}`, {});
    const again = await after.waitFor((f) => f.type === 'hil_prompt', 'the pending prompt on reconnect');
    expect(again).toMatchObject({ promptId: prompt.promptId, executionId, conversationId });
  });

  it('closes its sockets with 1001 and exits 0 on SIGTERM', async () => {
    const chat = await connect();
    expect(await gateway.stop('SIGTERM')).toBe(0);
    await waitUntil(async () => chat.closed, 'the socket closed');
    expect(chat.closed?.code).toBe(1001);
    const messages = gateway
      .output()
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toContain('stopped');
  });

  it('exits non-zero, saying why, when NODE_ENV=production has no JWT_SECRET', async () => {
    const unsafe = await startServiceProcess('gateway', { ...env, NODE_ENV: 'production', JWT_SECRET: '' });
    const code = await new Promise<number | null>((resolve) =>
      unsafe.child.exitCode !== null ? resolve(unsafe.child.exitCode) : unsafe.child.once('exit', (c) => resolve(c)),
    );
    expect(code).not.toBe(0);
    expect(unsafe.output()).toContain('JWT_SECRET is required when NODE_ENV=production');
  });
});
