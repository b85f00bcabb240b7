import { type FactBody, makeFact } from '@hireloop/fact-stream';
import type { ServerFrame } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { broadcastFact, outboundOf } from '../src/broadcast';
import { parseFrame } from '../src/chat/frames';
import { BroadcastHub } from '../src/chat/hub';
import { ChatSession, type SocketLike } from '../src/chat/session';
import { promptFrame } from '../src/views';
import { questionsPrompt } from './fixtures';

const alice = { userId: 'alice', orgId: 'acme' };

class FakeSocket implements SocketLike {
  readyState = 1;
  readonly sent: ServerFrame[] = [];
  send(data: string): void {
    this.sent.push(JSON.parse(data) as ServerFrame);
  }
  close(): void {
    this.readyState = 3;
  }
}

const session = (principal = alice) => {
  const socket = new FakeSocket();
  return { socket, session: new ChatSession(`s-${Math.random()}`, socket, principal, '127.0.0.1') };
};

describe('parseFrame', () => {
  const parse = (value: unknown, limit = 1_000) =>
    parseFrame(Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)), false, limit);

  it('reads a frame without a type as a chat line', () => {
    expect(parse({ conversationId: 'c1', text: 'hi' })).toEqual({
      ok: true,
      frame: { type: 'message', conversationId: 'c1', text: 'hi' },
    });
  });

  it('names the problem of each bad frame', () => {
    const problem = (value: unknown, limit?: number) => {
      const parsed = parse(value, limit);
      return parsed.ok ? undefined : `${parsed.error.code} ${parsed.error.message}`;
    };
    expect(problem('nope')).toMatch(/^BAD_REQUEST the frame is not JSON/);
    expect(problem({ type: 7, conversationId: 'c' })).toMatch(/^BAD_REQUEST \/type: unknown frame type 7/);
    expect(problem({ type: 'cancel', conversationId: 'c' })).toMatch(/^VALIDATION_FAILED \/executionId/);
    expect(problem({ conversationId: 'c', text: '' })).toMatch(/^VALIDATION_FAILED \/text/);
    expect(problem({ conversationId: 'c', text: 'x'.repeat(2_000) })).toMatch(
      /^PAYLOAD_TOO_LARGE the frame is \d+ bytes, over the limit of 1000/,
    );
  });

  it('refuses text no fact can carry (a NUL, a lone surrogate), naming the field and keeping the ref', () => {
    const problem = (text: string) => {
      const parsed = parse(text);
      return parsed.ok ? undefined : { ref: parsed.ref, problem: `${parsed.error.code} ${parsed.error.message}` };
    };
    expect(problem('{"conversationId":"c","text":"refund\\u0000 it","ref":"r-1"}')).toEqual({
      ref: 'r-1',
      problem: expect.stringMatching(/^VALIDATION_FAILED \/text: holds a NUL/),
    });
    expect(
      problem(
        '{"type":"hil_response","conversationId":"c","executionId":"e","promptId":"p","payload":{"answers":{"q1":"\\ud800"}}}',
      )?.problem,
    ).toMatch(/^VALIDATION_FAILED \/payload\/answers\/q1: holds half of a UTF-16 surrogate pair/);
  });

  it('refuses a frame nested thousands of levels deep with an error frame naming where, not silence', () => {
    const parsed = parse(
      `{"conversationId":"c","text":"x","ref":"r-2","extra":${'{"a":'.repeat(5_000)}1${'}'.repeat(5_000)}}`,
      262_144,
    );
    expect(parsed.ok ? undefined : { ref: parsed.ref, problem: `${parsed.error.code} ${parsed.error.message}` }).toEqual({
      ref: 'r-2',
      problem: expect.stringMatching(/^VALIDATION_FAILED \/extra(\/a)+: nests deeper than \d+ levels/),
    });
  });

  it('keeps the client’s ref for the error it causes', () => {
    const parsed = parse({ type: 'cancel', conversationId: 'c', ref: 'r-9' });
    expect(parsed).toMatchObject({ ok: false, ref: 'r-9' });
  });
});

describe('outboundOf: which frame a fact becomes', () => {
  const prompt = questionsPrompt('exec-1', alice, 'conv-1');

  it('a prompt becomes hil_prompt with every field of the HILPrompt and the conversation', () => {
    const out = outboundOf(prompt);
    expect(out?.audience).toEqual({ orgId: 'acme', conversationId: 'conv-1', userId: 'alice' });
    expect(out?.frame).toEqual(promptFrame(prompt, 'conv-1'));
    expect(out?.frame).toMatchObject({
      promptId: prompt.promptId,
      questions: prompt.kind === 'questions' ? prompt.questions : [],
      progress: 40,
    });
  });

  it('only assistant lines go back to sockets; node enter/exit events are not pushed', () => {
    const line = (role: 'user' | 'assistant') =>
      makeFact(
        'UIMessage',
        { orgId: 'acme', correlation: { conversationId: 'conv-1', userId: 'alice' } },
        { conversationId: 'conv-1', userId: 'alice', role, content: 'hello' },
      );
    expect(outboundOf(line('user'))).toBeUndefined();
    expect(outboundOf(line('assistant'))?.frame).toEqual({ type: 'message', conversationId: 'conv-1', text: 'hello' });
    const event = (body: { event: 'node_enter' | 'progress'; progress?: number }) =>
      makeFact(
        'ExecutionEvent',
        { orgId: 'acme', correlation: { conversationId: 'conv-1', executionId: 'exec-1' } },
        { executionId: 'exec-1', ...body },
      );
    expect(outboundOf(event({ event: 'node_enter' }))).toBeUndefined();
    // every execution_event carries phase and progress (§4a): progress alone keeps the last phase seen
    expect(outboundOf(event({ event: 'progress', progress: 50 }), { phase: 'plan', progress: 40 })?.frame).toEqual({
      type: 'execution_event',
      conversationId: 'conv-1',
      executionId: 'exec-1',
      phase: 'plan',
      progress: 50,
    });
    expect(outboundOf(event({ event: 'progress', progress: 50 }))?.frame).toMatchObject({ phase: 'working', progress: 50 });
  });

  it("the supervisor's queued, started and reminder events reach the requester with the queue position and the deadline", () => {
    const supervisorEvent = (body: Omit<FactBody<'ExecutionEvent'>, 'executionId'>) =>
      makeFact(
        'ExecutionEvent',
        { orgId: 'acme', correlation: { conversationId: 'conv-1', userId: 'alice', executionId: 'exec-1' } },
        { executionId: 'exec-1', ...body },
      );
    const queued = outboundOf(supervisorEvent({ event: 'queued', phase: 'queued', position: 3, ticket: 12 }));
    expect(queued?.audience).toEqual({ orgId: 'acme', conversationId: 'conv-1', userId: 'alice' });
    expect(queued?.frame).toEqual({
      type: 'execution_event',
      conversationId: 'conv-1',
      executionId: 'exec-1',
      phase: 'queued',
      progress: 0,
      event: 'queued',
      position: 3,
    });
    // the supervisor's word carries the phase it puts the execution in, and the progress last seen
    expect(outboundOf(supervisorEvent({ event: 'started' }))?.frame).toEqual({
      type: 'execution_event',
      conversationId: 'conv-1',
      executionId: 'exec-1',
      phase: 'starting',
      progress: 0,
      event: 'started',
    });
    expect(outboundOf(supervisorEvent({ event: 'refused' }))?.frame).toMatchObject({ phase: 'refused', progress: 0 });
    const deadline = '2026-11-24T18:00:00.000Z';
    expect(
      outboundOf(supervisorEvent({ event: 'prompt_reminder', promptId: 'p1', deadline }), { phase: 'refinement', progress: 55 })
        ?.frame,
    ).toMatchObject({ event: 'prompt_reminder', deadline, phase: 'waiting', progress: 55 });
  });

  it('a fact without a conversation reaches nobody', () => {
    const result = makeFact(
      'ExecutionResult',
      { orgId: 'acme', correlation: { executionId: 'exec-1' } },
      { executionId: 'exec-1', status: 'failed' },
    );
    expect(outboundOf(result)).toBeUndefined();
  });
});

describe('BroadcastHub', () => {
  it('delivers to every socket of the conversation of the fact’s user, a prompt at most once each', () => {
    const hub = new BroadcastHub();
    const a = session();
    const b = session();
    const bob = session({ userId: 'bob', orgId: 'acme' });
    const otherOrg = session({ userId: 'alice', orgId: 'other' });
    for (const s of [a, b, bob, otherOrg]) {
      hub.add(s.session);
      hub.join(s.session, 'conv-1', s.session.principal!);
    }
    const frame = promptFrame(questionsPrompt('exec-1', alice, 'conv-1'), 'conv-1');
    const audience = { orgId: 'acme', conversationId: 'conv-1', userId: 'alice' };
    expect(hub.deliver(audience, frame)).toBe(2);
    expect(hub.deliver(audience, frame)).toBe(0);
    expect(a.socket.sent).toHaveLength(1);
    expect(b.socket.sent).toHaveLength(1);
    expect(bob.socket.sent).toHaveLength(0);
    expect(otherOrg.socket.sent).toHaveLength(0);
  });

  it('given an execution’s result pushed, when its last phase event or its prompt arrives after it, then the result stays its last frame', () => {
    const hub = new BroadcastHub();
    const a = session();
    hub.add(a.session);
    hub.join(a.session, 'conv-1', alice);
    const correlation = { executionId: 'exec-1', conversationId: 'conv-1', userId: 'alice' };
    const event = (phase: string, progress: number) =>
      makeFact('ExecutionEvent', { orgId: 'acme', correlation }, { executionId: 'exec-1', event: 'phase', phase, progress });
    const result = makeFact('ExecutionResult', { orgId: 'acme', correlation }, { executionId: 'exec-1', status: 'completed' });
    broadcastFact(hub, event('review', 90));
    broadcastFact(hub, result);
    broadcastFact(hub, event('done', 100));
    broadcastFact(hub, questionsPrompt('exec-1', alice, 'conv-1'));
    broadcastFact(hub, result);
    expect(a.socket.sent.map((f) => f.type)).toEqual(['execution_event', 'execution_result']);
    // another execution of the conversation is not held back by this one's end
    broadcastFact(hub, questionsPrompt('exec-2', alice, 'conv-1'));
    expect(a.socket.sent.at(-1)).toMatchObject({ type: 'hil_prompt', executionId: 'exec-2' });
  });

  it('given a run with no conversation whose prompt a socket was shown, when it goes on and ends with facts naming no conversation, then that socket is told', () => {
    const hub = new BroadcastHub();
    const a = session();
    const bob = session({ userId: 'bob', orgId: 'acme' });
    for (const s of [a, bob]) {
      hub.add(s.session);
      hub.join(s.session, 'run-conv', s.session.principal!);
    }
    const bare = { executionId: 'run-1', userId: 'owner' };
    // the run's approval prompt reached alice's socket (she answered its first prompt there)
    broadcastFact(hub, questionsPrompt('run-1', alice, 'run-conv'));
    // approved over HTTP: the next prompt, its progress and its end name no conversation
    broadcastFact(hub, { ...questionsPrompt('run-1', alice, 'run-conv'), correlation: bare });
    broadcastFact(
      hub,
      makeFact(
        'ExecutionEvent',
        { orgId: 'acme', correlation: bare },
        { executionId: 'run-1', event: 'phase', phase: 'execute', progress: 70 },
      ),
    );
    broadcastFact(
      hub,
      makeFact('ExecutionResult', { orgId: 'acme', correlation: bare }, { executionId: 'run-1', status: 'completed' }),
    );
    expect(a.socket.sent.map((f) => f.type)).toEqual(['hil_prompt', 'hil_prompt', 'execution_event', 'execution_result']);
    expect(a.socket.sent.at(-1)).toMatchObject({ conversationId: 'run-conv', executionId: 'run-1', status: 'completed' });
    // nobody else in the conversation, and no run never shown anywhere
    expect(bob.socket.sent).toHaveLength(0);
    broadcastFact(
      hub,
      makeFact(
        'ExecutionResult',
        { orgId: 'acme', correlation: { executionId: 'run-2' } },
        { executionId: 'run-2', status: 'completed' },
      ),
    );
    expect(a.socket.sent).toHaveLength(4);
  });

  it('forgets a closed socket and closes every socket with the given code', () => {
    const hub = new BroadcastHub();
    const a = session();
    hub.add(a.session);
    hub.join(a.session, 'conv-1', alice);
    hub.remove(a.session);
    expect(
      hub.deliver({ orgId: 'acme', conversationId: 'conv-1' }, { type: 'message', conversationId: 'conv-1', text: 'x' }),
    ).toBe(0);
    const b = session();
    hub.add(b.session);
    hub.closeAll(1001, 'bye');
    expect(b.socket.readyState).toBe(3);
    expect(hub.sessions).toBe(0);
  });
});

describe('a socket does not outlive its token (ChatSession)', () => {
  const clocked = () => {
    const socket = new FakeSocket();
    const clock = { t: 1_000 };
    return { socket, clock, session: new ChatSession('s-exp', socket, alice, '127.0.0.1', () => clock.t) };
  };
  const frame = promptFrame(questionsPrompt('e-1', alice, 'c-1'), 'c-1');

  it('given a token that has not expired, when a prompt is pushed, then it is shown', () => {
    const { socket, session } = clocked();
    session.holdToken(2_000);
    expect(session.send(frame)).toBe(true);
    expect(socket.sent.map((f) => f.type)).toEqual(['hil_prompt']);
  });

  it('given the token expired, when pushes come, then it is told once and shown nothing more', () => {
    const { socket, clock, session } = clocked();
    session.holdToken(2_000);
    clock.t = 2_000;
    expect(session.send(frame)).toBe(false);
    expect(session.send({ ...frame, promptId: 'p-2' })).toBe(false);
    expect(socket.sent).toEqual([expect.objectContaining({ type: 'error', code: 'unauthorized' })]);
  });

  it('given a fresh token after it expired, when a push comes, then it is shown again', () => {
    const { socket, clock, session } = clocked();
    session.holdToken(2_000);
    clock.t = 3_000;
    session.send(frame);
    session.holdToken(10_000);
    expect(session.send({ ...frame, promptId: 'p-3' })).toBe(true);
    expect(socket.sent.map((f) => f.type)).toEqual(['error', 'hil_prompt']);
  });

  it('given a prompt not shown because the token had expired, when a fresh token comes and it is pushed again, then it is shown', () => {
    const { socket, clock, session } = clocked();
    session.holdToken(2_000);
    clock.t = 3_000;
    expect(session.sendPrompt(frame)).toBe(false);
    session.holdToken(10_000);
    expect(session.sendPrompt(frame)).toBe(true);
    expect(session.sendPrompt(frame)).toBe(false);
    expect(socket.sent.map((f) => f.type)).toEqual(['error', 'hil_prompt']);
  });
});
