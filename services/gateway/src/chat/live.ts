/**
 * What this gateway instance has seen of each execution straight from Kafka, on its broadcast
 * consumer: its latest prompt, or its end. It is ahead of the event store's projection (which a
 * socket's user often beats when answering), and it is here whether the projector is up or not, so
 * an answer to a prompt the socket showed is decided at once, and a stale one is refused at once.
 */
import type { AnyFact, ExecutionResult, HILPrompt } from '@hireloop/schemas';
import { type ExecutionState, TERMINAL_STATUSES } from '../commands/access';

export type Live = { kind: 'prompt'; prompt: HILPrompt } | { kind: 'ended'; result: ExecutionResult };
export type Seen = { phase?: string | undefined; progress?: number | undefined };
/** Where an execution's prompts were last shown: a conversation, and the user it was shown to. */
export type Shown = { conversationId: string; userId: string };

/** Executions remembered; the least recently changed are forgotten first (the projection still knows them). */
const REMEMBERED = 50_000;

export class LivePrompts {
  private readonly entries = new Map<string, Live>();
  /** each conversation's execution that was last seen asking something, by `orgId/conversationId` */
  private readonly asking = new Map<string, string>();
  /** each execution's last phase and progress seen, for an event that carries none (a supervisor's word, a reminder) */
  private readonly seen = new Map<string, Seen>();
  /** where each execution's prompts were last shown, for its later facts that name no conversation (a run's) */
  private readonly shown = new Map<string, Shown>();

  /** Folds a fact the broadcast consumer received. */
  record(fact: AnyFact): void {
    if (fact.type === 'ExecutionEvent' || fact.type === 'HILPrompt') {
      const phase = fact.type === 'ExecutionEvent' ? fact.phase : undefined;
      if (phase !== undefined || fact.progress !== undefined) {
        const before = this.seen.get(fact.executionId);
        remember(this.seen, fact.executionId, { phase: phase ?? before?.phase, progress: fact.progress ?? before?.progress });
      }
    }
    if (fact.type === 'HILPrompt') {
      this.put(fact.executionId, { kind: 'prompt', prompt: fact });
      const { conversationId, userId } = fact.correlation;
      if (conversationId !== undefined) {
        remember(this.asking, `${fact.orgId}/${conversationId}`, fact.executionId);
        // (to a known user only: a conversation id alone may be joined by anyone of the org)
        if (userId !== undefined) remember(this.shown, fact.executionId, { conversationId, userId });
      }
    } else if (fact.type === 'ExecutionResult') this.put(fact.executionId, { kind: 'ended', result: fact });
  }

  /** prompts this instance has accepted an answer to, and executions it has accepted a cancel of, by `executionId/promptId` */
  private readonly settled = new Map<string, true>();

  /**
   * Claims a prompt's answer for this instance, or says it is taken (answered or cancelled here already): the
   * answer's HILResponse is published once, and a second answer gets its 409 at once instead of a 202 the
   * worker would ignore. Synchronous, so two answers racing on one instance cannot both claim it.
   */
  claimAnswer(executionId: string, promptId: string): boolean {
    if (this.settled.has(`${executionId}/${promptId}`) || this.settled.has(`${executionId}/`)) return false;
    remember(this.settled, `${executionId}/${promptId}`, true);
    return true;
  }

  /** Gives a claim back (its answer could not be published). */
  releaseAnswer(executionId: string, promptId: string): void {
    this.settled.delete(`${executionId}/${promptId}`);
  }

  /**
   * Where what an execution does next goes, when it names no conversation: a socket that cancels a run (which has
   * none of its own) is told its end, as one that answered it is.
   */
  showTo(executionId: string, shown: Shown): void {
    remember(this.shown, executionId, shown);
  }

  /** Marks an execution whose cancel this instance accepted: no answer to it is accepted after. */
  cancelled(executionId: string): void {
    remember(this.settled, `${executionId}/`, true);
  }

  /**
   * Where an execution's prompts were last shown, if anywhere: an employee's run has no conversation of its
   * own, and once a socket has answered one of its prompts, what it does next (its events, its end, its next
   * prompt answered elsewhere) goes to that socket's conversation.
   */
  shownIn(executionId: string): Shown | undefined {
    return this.shown.get(executionId);
  }

  /** The last phase and progress seen of an execution, if any. */
  seenOf(executionId: string): Seen | undefined {
    return this.seen.get(executionId);
  }

  get(executionId: string): Live | undefined {
    return this.entries.get(executionId);
  }

  /** The latest prompt seen in a conversation, while its execution has neither moved on nor ended. */
  askingIn(orgId: string, conversationId: string): HILPrompt | undefined {
    const executionId = this.asking.get(`${orgId}/${conversationId}`);
    const live = executionId === undefined ? undefined : this.entries.get(executionId);
    return live?.kind === 'prompt' && live.prompt.correlation.conversationId === conversationId ? live.prompt : undefined;
  }

  private put(executionId: string, live: Live): void {
    const known = this.entries.get(executionId);
    // an execution that ended stays ended: a prompt published again late does not reopen it
    if (known?.kind === 'ended') return;
    // an older prompt delivered again (a redelivery, facts published again) does not replace a newer one
    if (known?.kind === 'prompt' && live.kind === 'prompt' && Date.parse(live.prompt.ts) < Date.parse(known.prompt.ts)) return;
    remember(this.entries, executionId, live);
  }
}

/**
 * Whether a fact of an execution reaches this instance after the execution's result did: its frame is not
 * sent, so that a socket's `execution_result` is the last frame of its execution. The last phase event
 * (`done`) and the result travel on two topics with no order between them, and a prompt or the result
 * itself may be delivered again; the timeline keeps them all. Pure.
 */
export const comesAfterEnd = (live: Live | undefined): boolean => live?.kind === 'ended';

/** Sets a key as the most recent one, forgetting the least recent past `REMEMBERED`. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > REMEMBERED) map.delete(map.keys().next().value as string);
}

/**
 * The execution as the projection shows it, brought up to what the broadcast saw: its latest prompt
 * pending, or ended. Without a projected row the seen fact's correlation says whose it is; so does a
 * seen prompt's for a row the projector started from a fact of another topic before the `RunIntent`
 * that names the owner (a prompt, a progress event). Once the RunIntent is in, the row alone says. Pure.
 */
export function withLive(execution: ExecutionState | null, live: Live): ExecutionState | null {
  const fact = live.kind === 'ended' ? live.result : live.prompt;
  if (execution && execution.orgId !== fact.orgId) return execution;
  // an execution the projection shows ended stays ended: a prompt published again late, seen by a gateway
  // that (restarted) never saw the end, does not reopen it
  if (execution && TERMINAL_STATUSES.has(execution.status)) return execution;
  const unstarted = execution !== null && live.kind === 'prompt' && (execution.employeeId ?? null) === null;
  const base: ExecutionState = !execution
    ? {
        executionId: fact.executionId,
        orgId: fact.orgId,
        ownerUserId: fact.correlation.userId ?? null,
        conversationId: fact.correlation.conversationId ?? null,
        status: 'running',
        currentPrompt: null,
      }
    : unstarted
      ? {
          ...execution,
          ownerUserId: execution.ownerUserId ?? fact.correlation.userId ?? null,
          conversationId: execution.conversationId ?? fact.correlation.conversationId ?? null,
        }
      : execution;
  return live.kind === 'ended'
    ? { ...base, status: live.result.status, currentPrompt: null }
    : { ...base, status: 'waiting', currentPrompt: live.prompt };
}

/** Whether the projection shows a prompt newer than the broadcast's latest (an ended execution stays ended). Pure. */
export function projectionIsAhead(execution: ExecutionState, live: Live): boolean {
  if (live.kind === 'ended' || !execution.currentPrompt) return false;
  return Date.parse(execution.currentPrompt.ts) > Date.parse(live.prompt.ts);
}

/**
 * The execution as the projection shows it, brought up to what the broadcast saw (`withLive`) unless
 * the broadcast saw nothing of it or the projection is ahead of it (a prompt this instance missed). Pure.
 */
export function asSeen(execution: ExecutionState | null, live: Live | undefined): ExecutionState | null {
  if (!live || (execution && projectionIsAhead(execution, live))) return execution;
  return withLive(execution, live);
}

/**
 * The caller's pending prompt in a conversation, as a socket that joins it (or a chat line that answers
 * it) should see it: what the projection says waits on them, unless the broadcast saw a newer prompt
 * there that the projection has not folded yet — one the projection neither waits on nor shows answered
 * (`row`, the projection's view of the seen prompt's execution, moved on after it) — and that is theirs.
 * Pure.
 */
export function pendingAsSeen(
  projected: ExecutionState | null,
  seen: HILPrompt | undefined,
  row: (ExecutionState & { updatedAt: string }) | null,
  caller: { orgId: string; userId: string },
): ExecutionState | null {
  if (!seen || seen.orgId !== caller.orgId) return projected;
  if (projected?.currentPrompt && Date.parse(projected.currentPrompt.ts) >= Date.parse(seen.ts)) return projected;
  // a run's prompt, shown in the conversation of the user who answered its last one (a run has none of its own): the
  // projection folds it into the run's row, not the conversation's, so the row, still waiting on it, says it is pending
  if (
    row?.status === 'waiting' &&
    row.currentPrompt?.promptId === seen.promptId &&
    row.conversationId !== (seen.correlation.conversationId ?? null) &&
    seen.correlation.userId === caller.userId
  )
    return { ...row, currentPrompt: seen };
  if (row && (row.currentPrompt?.promptId === seen.promptId || Date.parse(row.updatedAt) > Date.parse(seen.ts))) return projected;
  const state = asSeen(row, { kind: 'prompt', prompt: seen });
  return state?.status === 'waiting' && state.ownerUserId === caller.userId ? state : projected;
}
