/**
 * `GET /v1/chat`: what happens when a frame arrives on a chat socket. Each frame is checked (size,
 * JSON, type, fields, token, rate), joins its conversation — pushing that conversation's pending
 * prompt again — and is dispatched to the same commands as the HTTP routes. A refused frame is
 * answered with an `error` frame and the socket stays open; nothing a client sends ends the process.
 */
import { randomUUID } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bearer, HireloopError, type Principal, tokenExpiry } from '@hireloop/platform';
import { type ApiError, ChatQuery } from '@hireloop/schemas';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Verify } from '../auth';
import { type ExecutionState, ownConversation } from '../commands/access';
import { cancel } from '../commands/cancel';
import { chatLine } from '../commands/chat-line';
import type { CommandDeps } from '../commands/deps';
import { respond } from '../commands/respond';
import { toErrorReply } from '../errors';
import { conversationOwnership, waitingAsSeen } from '../read-model';
import { promptFrame } from '../views';
import { type InboundFrame, parseFrame, type RawFrame } from './frames';
import type { BroadcastHub } from './hub';
import { ChatSession } from './session';

export interface ChatOptions {
  commands: CommandDeps;
  hub: BroadcastHub;
  verify: Verify;
  /** largest frame in bytes */
  frameLimit: number;
  /** frames per user per minute */
  framesPerMinute: number;
}

/** The gateway's one WebSocket route. */
export const CHAT_PATH = '/v1/chat';

/** Conversations of a socket whose missed prompts a fresh token shows again (the ones it joined last). */
const SHOWN_AGAIN = 50;

/** Frames a socket may have waiting to be handled; more are refused, as a flood. */
const MAX_IN_FLIGHT = 32;

export const chat: FastifyPluginAsyncTypebox<ChatOptions> = async (app, options) => {
  const { commands, hub, verify, frameLimit } = options;
  const limiter = new RateLimiterMemory({ points: options.framesPerMinute, duration: 60 });

  /**
   * Joins a conversation (the caller's, or one nobody has used yet) and pushes its pending prompt again;
   * returns what it read as waiting there (a frame that joined answers from it), nothing when already joined.
   */
  async function join(
    session: ChatSession,
    principal: Principal,
    conversationId: string,
  ): Promise<{ waiting: ExecutionState | null } | undefined> {
    if (hub.hasJoined(session, conversationId, principal)) return undefined;
    const owners = await conversationOwnership(commands.pool, principal.orgId, conversationId);
    ownConversation(owners, principal, conversationId);
    hub.join(session, conversationId, principal);
    // a conversation the projection holds nothing of (a new chat) has nothing waiting there to read
    const waiting = await waitingAsSeen(commands.pool, commands.live, principal, conversationId, owners.length > 0);
    if (waiting?.currentPrompt) session.sendPrompt(promptFrame(waiting.currentPrompt, conversationId));
    return { waiting };
  }

  async function consumeRate(key: string): Promise<void> {
    try {
      await limiter.consume(key);
    } catch (error) {
      if (error instanceof RateLimiterRes) {
        const seconds = Math.ceil(error.msBeforeNext / 1000);
        throw new HireloopError('RATE_LIMITED', `more than ${options.framesPerMinute} frames per minute: retry in ${seconds}s`);
      }
      throw error;
    }
  }

  /** the token each socket opened with: checked again on every frame, so that a socket does not outlive it */
  const openedWith = new WeakMap<ChatSession, string>();

  const principalFor = (session: ChatSession, frame: InboundFrame): Principal => {
    if (frame.token !== undefined) {
      const principal = verify(frame.token);
      if (session.principal) {
        // a socket opened with a token is that user's: another user's token would carry another user's (or org's)
        // frames and prompts on it, which its holder could not tell apart; that needs a socket of its own
        if (session.principal.userId !== principal.userId || session.principal.orgId !== principal.orgId)
          throw new HireloopError(
            'FORBIDDEN',
            "token: this socket was opened by another user; a frame's token may only renew the socket's own user — open another socket for another user",
          );
        // a fresh token of the socket's own user renews it: pushes go on until that one expires
        openedWith.set(session, frame.token);
        session.holdToken(tokenExpiry(frame.token));
      }
      return principal;
    }
    const token = openedWith.get(session);
    if (session.principal && token !== undefined) {
      try {
        verify(token);
      } catch (error) {
        throw new HireloopError(
          'UNAUTHORIZED',
          `${(error as Error).message}: the token this socket opened with no longer holds; send a fresh one as the frame's token field, or reconnect with one`,
        );
      }
    }
    if (session.principal) return session.principal;
    throw new HireloopError(
      'UNAUTHORIZED',
      'this socket has no valid token: send one as Authorization: Bearer on connect, as ?token=, or as a token field in the frame',
    );
  };

  /** `joined`: what joining the conversation for this frame read as waiting there (not read again) */
  async function dispatch(principal: Principal, frame: InboundFrame, joined?: { waiting: ExecutionState | null }): Promise<void> {
    switch (frame.type) {
      case 'message': {
        const waiting = joined
          ? joined.waiting
          : await waitingAsSeen(commands.pool, commands.live, principal, frame.conversationId);
        await chatLine(commands, principal, { conversationId: frame.conversationId, text: frame.text }, waiting);
        return;
      }
      case 'hil_response':
        await respond(commands, principal, {
          executionId: frame.executionId,
          promptId: frame.promptId,
          payload: frame.payload,
          conversationId: frame.conversationId,
          ...(frame.kind !== undefined ? { kind: frame.kind } : {}),
        });
        return;
      case 'cancel':
        await cancel(commands, principal, {
          executionId: frame.executionId,
          conversationId: frame.conversationId,
          source: 'chat',
        });
        return;
      default: {
        const unhandled: never = frame;
        throw new Error(`unhandled frame ${(unhandled as InboundFrame).type}`);
      }
    }
  }

  /**
   * Pushes again the pending prompt of the conversations the socket joined last (one it missed while its token had
   * lapsed). Best effort: a conversation that cannot be read now is shown at its next push, and the frame that brought
   * the fresh token is handled regardless.
   */
  async function showPending(session: ChatSession, principal: Principal): Promise<void> {
    for (const conversationId of hub.conversationsOf(session, principal).slice(-SHOWN_AGAIN)) {
      try {
        const waiting = await waitingAsSeen(commands.pool, commands.live, principal, conversationId);
        if (waiting?.currentPrompt) session.sendPrompt(promptFrame(waiting.currentPrompt, conversationId));
      } catch (error) {
        app.log.warn({ err: error, session: session.id, conversationId }, 'a missed prompt could not be shown again');
      }
    }
  }

  async function handle(session: ChatSession, data: RawFrame, isBinary: boolean): Promise<void> {
    let ref: string | undefined;
    const refuse = (error: unknown): void => {
      const { body, internal } = toErrorReply(error, session.id);
      if (internal) app.log.error({ err: error, session: session.id }, 'chat frame failed');
      // refused before it was parsed (the frame rate): its ref still says which frame it was
      ref ??= parseFrame(data, isBinary, frameLimit).ref;
      session.sendError(body, ref ?? body.ref);
    };
    try {
      await consumeRate(
        session.principal ? `user:${session.principal.orgId}/${session.principal.userId}` : `ip:${session.remote}`,
      );
      const parsed = parseFrame(data, isBinary, frameLimit);
      ref = parsed.ref;
      if (!parsed.ok) throw parsed.error;
      const lapsed = session.expired;
      const principal = principalFor(session, parsed.frame);
      // a fresh token after the socket's had lapsed: what it missed meanwhile is shown now, not at the next push
      if (lapsed && !session.expired) await showPending(session, principal);
      const joined = await join(session, principal, parsed.frame.conversationId);
      const { frame } = parsed;
      // an answer to an execution this instance's broadcast never showed may wait for the projection (its lag, up
      // to 2 s): the socket's frames of other conversations are not held behind it, and those of its own conversation
      // wait for it, so that what was sent after it is handled after it
      const detached = frame.type === 'hil_response' && !commands.live?.get(frame.executionId);
      const earlier = session.answering.get(frame.conversationId);
      if (!detached && earlier) await earlier;
      const done = dispatch(principal, frame, joined);
      if (detached) {
        // (counted until decided: a socket has at most MAX_IN_FLIGHT frames in hand, waiting or not)
        session.inFlight += 1;
        const decided: Promise<void> = Promise.all([earlier, done.catch(refuse)])
          .then(() => undefined)
          .finally(() => {
            session.inFlight -= 1;
            if (session.answering.get(frame.conversationId) === decided) session.answering.delete(frame.conversationId);
          });
        session.answering.set(frame.conversationId, decided);
        return;
      }
      await done;
    } catch (error) {
      refuse(error);
    }
  }

  app.route({
    method: 'GET',
    url: CHAT_PATH,
    config: { auth: 'optional' },
    schema: { querystring: ChatQuery },
    // a plain GET of the socket's path is told how to open it, in hireloop's body
    handler: async (_request, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .header('connection', 'Upgrade')
        .send({
          code: 'upgrade_required',
          message: `GET ${CHAT_PATH} is the chat WebSocket: open it with an Upgrade: websocket request`,
        } satisfies ApiError),
    wsHandler: (socket, request) => {
      const session = new ChatSession(randomUUID(), socket, request.principal, request.ip);
      const token = bearer(request.headers.authorization) ?? (request.query as { token?: string }).token;
      if (request.principal && token) {
        openedWith.set(session, token);
        session.holdToken(tokenExpiry(token));
      }
      hub.add(session);
      const log = request.log.child({ session: session.id });
      socket.on('close', () => hub.remove(session));
      socket.on('error', (error) => log.warn({ err: error }, 'chat socket error'));
      socket.on('message', (data: RawFrame, isBinary: boolean) => {
        if (session.inFlight >= MAX_IN_FLIGHT) {
          session.sendError({ code: 'rate_limited', message: `more than ${MAX_IN_FLIGHT} frames waiting: slow down` });
          return;
        }
        session.inFlight += 1;
        // One frame at a time per socket, so that a conversation's lines are published in the order sent.
        session.queue = session.queue
          .then(() => handle(session, data, isBinary))
          .catch((error: unknown) => log.error({ err: error }, 'chat frame handler failed'))
          .finally(() => {
            session.inFlight -= 1;
          });
      });

      if (request.authError) session.sendError(toErrorReply(request.authError, session.id).body);
      const conversationId = (request.query as { conversationId?: string }).conversationId;
      // a socket already told its token is invalid is not told again for the join it asked for
      if (conversationId !== undefined && !request.authError) {
        session.inFlight += 1;
        session.queue = session.queue
          .then(async () => {
            try {
              if (!session.principal)
                throw new HireloopError('UNAUTHORIZED', 'joining ?conversationId= needs a valid token on connect');
              await join(session, session.principal, conversationId);
            } catch (error) {
              const { body, internal } = toErrorReply(error, session.id);
              if (internal) log.error({ err: error }, 'chat join failed');
              session.sendError(body);
            }
          })
          .finally(() => {
            session.inFlight -= 1;
          });
      }
    },
  });
};
