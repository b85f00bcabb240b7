import type { Principal } from '@hireloop/platform';
import type { ServerFrame } from '@hireloop/schemas';
import { LivePrompts } from './live';
import type { ChatSession } from './session';

/** Who a broadcast is for: the conversation, within its org, and the user it belongs to when known. */
export interface Audience {
  orgId: string;
  conversationId: string;
  userId?: string;
}

const room = (orgId: string, conversationId: string): string => `${orgId}/${conversationId}`;

/**
 * The chat sockets of this gateway instance, by conversation. A socket joins a conversation as the
 * user it proved to be; a broadcast reaches the sockets of its conversation whose user it is for, so a
 * socket that named somebody else's conversation id still sees nothing of it.
 */
export class BroadcastHub {
  /** the latest prompt or end of each execution the broadcast consumer saw */
  readonly live = new LivePrompts();
  private readonly rooms = new Map<string, Map<ChatSession, Principal>>();
  private readonly memberships = new Map<ChatSession, Set<string>>();

  add(session: ChatSession): void {
    if (!this.memberships.has(session)) this.memberships.set(session, new Set());
  }

  /** Joins a session to a conversation; false when it had already joined it as that user. */
  join(session: ChatSession, conversationId: string, principal: Principal): boolean {
    const key = room(principal.orgId, conversationId);
    const members = this.rooms.get(key) ?? new Map<ChatSession, Principal>();
    const before = members.get(session);
    if (before && before.userId === principal.userId) return false;
    members.set(session, principal);
    this.rooms.set(key, members);
    const joined = this.memberships.get(session) ?? new Set<string>();
    joined.add(key);
    this.memberships.set(session, joined);
    return true;
  }

  hasJoined(session: ChatSession, conversationId: string, principal: Principal): boolean {
    return this.rooms.get(room(principal.orgId, conversationId))?.get(session)?.userId === principal.userId;
  }

  /** The conversations a session joined as this user, in its org. */
  conversationsOf(session: ChatSession, principal: Principal): string[] {
    const prefix = `${principal.orgId}/`;
    return [...(this.memberships.get(session) ?? [])]
      .filter((key) => key.startsWith(prefix) && this.rooms.get(key)?.get(session)?.userId === principal.userId)
      .map((key) => key.slice(prefix.length));
  }

  remove(session: ChatSession): void {
    for (const key of this.memberships.get(session) ?? []) {
      const members = this.rooms.get(key);
      members?.delete(session);
      if (members?.size === 0) this.rooms.delete(key);
    }
    this.memberships.delete(session);
  }

  /** Sends a frame to every socket of the audience's conversation (a prompt at most once per socket); returns how many got it. */
  deliver(audience: Audience, frame: ServerFrame): number {
    let delivered = 0;
    for (const [session, principal] of this.rooms.get(room(audience.orgId, audience.conversationId)) ?? []) {
      if (audience.userId !== undefined && principal.userId !== audience.userId) continue;
      const sent = frame.type === 'hil_prompt' ? session.sendPrompt(frame) : session.send(frame);
      if (sent) delivered += 1;
    }
    return delivered;
  }

  get sessions(): number {
    return this.memberships.size;
  }

  /** Closes every socket (1001 "going away" on shutdown: clients reconnect to another instance). */
  closeAll(code: number, reason: string): void {
    for (const session of [...this.memberships.keys()]) {
      session.close(code, reason);
      this.remove(session);
    }
  }
}
