/**
 * The chat socket of one conversation (`GET /v1/chat?token=&conversationId=`). It reconnects by itself
 * (after a reload, a lost link or a gateway restart) with a growing pause; on each join the gateway
 * pushes the conversation's pending prompt again.
 */
import type { ServerFrame } from '@hireloop/schemas';

export type LinkState = 'connecting' | 'open' | 'reconnecting';

export class ChatSocket {
  private socket: WebSocket | null = null;
  private closed = false;
  private retry = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** frames written while the socket was (re)connecting, sent once it opens */
  private readonly outbox: string[] = [];

  constructor(
    private readonly token: string,
    readonly conversationId: string,
    private readonly onFrame: (frame: ServerFrame) => void,
    private readonly onState: (state: LinkState) => void,
  ) {
    this.connect();
  }

  private connect(): void {
    const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
    const query = new URLSearchParams({ token: this.token, conversationId: this.conversationId });
    const socket = new WebSocket(`${scheme}//${location.host}/v1/chat?${query}`);
    this.socket = socket;
    this.onState(this.retry === 0 ? 'connecting' : 'reconnecting');
    socket.onopen = () => {
      this.retry = 0;
      this.onState('open');
      for (const frame of this.outbox.splice(0)) socket.send(frame);
    };
    socket.onmessage = (event) => {
      try {
        this.onFrame(JSON.parse(String(event.data)) as ServerFrame);
      } catch {
        // a frame that is not JSON is not from the gateway's protocol: ignore it
      }
    };
    socket.onclose = () => {
      if (this.closed || this.socket !== socket) return;
      this.onState('reconnecting');
      const delay = Math.min(250 * 2 ** this.retry, 4_000);
      this.retry++;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  get open(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Sends a frame, or keeps it until the socket opens; false when too many are waiting already. */
  send(frame: Record<string, unknown>): boolean {
    const text = JSON.stringify({ conversationId: this.conversationId, ...frame });
    if (this.open) {
      this.socket?.send(text);
      return true;
    }
    if (this.outbox.length >= 20) return false;
    this.outbox.push(text);
    return true;
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    this.socket?.close(1000, 'leaving the conversation');
  }
}
