import type { Principal } from '@hireloop/platform';
import type { ApiError, ErrorFrame, HilPromptFrame, ServerFrame } from '@hireloop/schemas';

/** The part of a `ws` socket a session uses. */
export interface SocketLike {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

const OPEN = 1;
/** Prompt ids remembered per socket to never show one twice; the oldest are forgotten past this. */
const SEEN_PROMPTS = 1_000;

/** One chat socket: who it is (if its upgrade carried a token), and which prompts it has been shown. */
export class ChatSession {
  private readonly seenPrompts = new Set<string>();
  /** frames received and not yet handled */
  inFlight = 0;
  /** handles this socket's frames one after another, in the order they came */
  queue: Promise<void> = Promise.resolve();
  /** per conversation, its answers still waiting for the projection: that conversation's later frames wait for them */
  readonly answering = new Map<string, Promise<void>>();
  /** when the token this socket holds expires (ms since the epoch): past it, nothing more is pushed to it */
  expiresAt: number | undefined;
  private toldExpired = false;

  constructor(
    readonly id: string,
    private readonly socket: SocketLike,
    /** the principal of the upgrade's token, or null: then each frame must carry a token */
    readonly principal: Principal | null,
    /** the rate limiter's key when no user is known */
    readonly remote: string,
    private readonly now: () => number = Date.now,
  ) {}

  get open(): boolean {
    return this.socket.readyState === OPEN;
  }

  /** Whether the token this socket holds has expired (nothing is pushed to it until a fresh one comes). */
  get expired(): boolean {
    return this.expiresAt !== undefined && this.now() >= this.expiresAt;
  }

  /** A token taken for this socket (on connect, or a fresh one sent in a frame): pushes go on until it expires. */
  holdToken(expiresAt: number | undefined): void {
    this.expiresAt = expiresAt;
    this.toldExpired = false;
  }

  send(frame: ServerFrame): boolean {
    if (!this.open) return false;
    // a socket does not outlive its token: past it, it is told once and shown nothing more until a fresh one comes
    if (frame.type !== 'error' && this.expired) {
      if (!this.toldExpired) {
        this.toldExpired = true;
        this.sendError({
          code: 'unauthorized',
          message: 'the token this socket holds has expired: send a fresh one as a frame’s token field, or reconnect with one',
        });
      }
      return false;
    }
    try {
      this.socket.send(JSON.stringify(frame));
      return true;
    } catch {
      return false; // closing under us: the close handler removes the session
    }
  }

  /** Shows a prompt unless this socket has already been shown it (a re-published prompt, or a join racing a broadcast). */
  sendPrompt(frame: HilPromptFrame): boolean {
    if (this.seenPrompts.has(frame.promptId)) return false;
    this.seenPrompts.add(frame.promptId);
    if (this.seenPrompts.size > SEEN_PROMPTS) {
      const oldest = this.seenPrompts.values().next().value;
      if (oldest !== undefined) this.seenPrompts.delete(oldest);
    }
    // (one not shown, because the socket's token had expired, is shown when a fresh token's frame joins again)
    const sent = this.send(frame);
    if (!sent) this.seenPrompts.delete(frame.promptId);
    return sent;
  }

  sendError(error: Pick<ApiError, 'code' | 'message'>, ref?: string): boolean {
    const frame: ErrorFrame = { type: 'error', code: error.code, message: error.message, ...(ref !== undefined ? { ref } : {}) };
    return this.send(frame);
  }

  close(code: number, reason: string): void {
    try {
      this.socket.close(code, reason);
    } catch {
      // already closed
    }
  }
}
