/** A test's view of a chat socket: every frame the gateway sent, and waiting for one. */
import type { ServerFrame } from '@hireloop/schemas';
import type WebSocket from 'ws';

export class FrameLog {
  readonly frames: ServerFrame[] = [];
  closed: { code: number; reason: string } | undefined;

  constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      this.frames.push(JSON.parse(data.toString()) as ServerFrame);
    });
    socket.on('close', (code, reason) => {
      this.closed = { code, reason: reason.toString() };
    });
  }

  send(frame: unknown): void {
    this.socket.send(typeof frame === 'string' || Buffer.isBuffer(frame) ? frame : JSON.stringify(frame));
  }

  of<T extends ServerFrame['type']>(type: T): Extract<ServerFrame, { type: T }>[] {
    return this.frames.filter((f): f is Extract<ServerFrame, { type: T }> => f.type === type);
  }

  /** Waits for the n-th frame (1-based) matching `match`. */
  async waitFor<F extends ServerFrame = ServerFrame>(
    match: (frame: ServerFrame) => boolean,
    what: string,
    { count = 1, timeoutMs = 15_000 }: { count?: number; timeoutMs?: number } = {},
  ): Promise<F> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.frames.filter(match);
      if (found.length >= count) return found[count - 1] as F;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; got ${JSON.stringify(this.frames)}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  /** The next error frame after the ones already seen. */
  async nextError(what: string): Promise<Extract<ServerFrame, { type: 'error' }>> {
    const seen = this.of('error').length;
    return this.waitFor((f) => f.type === 'error', what, { count: seen + 1 });
  }

  get open(): boolean {
    return this.socket.readyState === 1;
  }
}

export const settle = (ms = 300): Promise<void> => new Promise((r) => setTimeout(r, ms));
