import { isPermanent, type Logger, type StreamMetrics } from '@hireloop/platform';
import {
  type AnyFact,
  carries,
  describeErrors,
  dlqName,
  type FactOf,
  type FactType,
  type FieldError,
  parseFact,
  type TopicSpec,
} from '@hireloop/schemas';
import type { Consumer, EachBatchPayload, Kafka, KafkaMessage } from 'kafkajs';
import { logContext } from './fact';
import type { FactPublisher } from './publisher';
import { retrying } from './retry';

export interface Delivery<F extends AnyFact = AnyFact> {
  fact: F;
  topic: string;
  partition: number;
  offset: string;
  headers: Record<string, string>;
  /** when the fact was published: the Kafka message's timestamp (epoch ms) */
  publishedAt: number;
  /** the traceparent the fact arrived with; pass it on to the facts this one causes */
  traceparent?: string;
  /** a logger carrying the fact's executionId / conversationId */
  log: Logger;
}

export type FactHandler<T extends FactType> = (fact: FactOf<T>, delivery: Delivery<FactOf<T>>) => Promise<void>;
export type BatchHandler = (deliveries: Delivery[]) => Promise<void>;

export interface BatchOptions {
  /**
   * Pipelined: the consumer fetches and validates the next batches while earlier ones are still in
   * the handler, up to this many facts in the handler at once; a batch's offsets are committed once
   * it and every earlier batch of its partition have been handled. The handler must accept calls
   * that overlap, for the same partition too (the event store's projector groups them). Without it,
   * a partition's next batch waits for its previous one.
   */
  maxFactsInFlight?: number;
}

export interface ConsumerOptions {
  kafka: Kafka;
  topicPrefix: string;
  groupId: string;
  topics: readonly TopicSpec[];
  log: Logger;
  /** publishes dead letters */
  publisher: FactPublisher;
  /** attempts after the first before a failing fact goes to the DLQ */
  retries?: number;
  /** backoff of the first retry in ms (doubles each time) */
  retryDelayMs?: number;
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  /** lag, messages read and dead letters on the service's `/metrics` (platform's `streamMetrics`) */
  metrics?: StreamMetrics;
  /**
   * After a fetch that brought facts, wait this long before the next fetch, so that under a steady
   * trickle one fetch (and, in batch mode, one handler call) carries what several would have. A quiet
   * stream is not polled any more often for it, and the facts in hand are handled at once: only facts
   * arriving during the wait are read up to this much later. For consumers whose facts no one waits
   * on (a projector, bookkeeping); 0 (the default) fetches again at once. Unless it names its own
   * `partitionsConsumedConcurrently`, a lingering consumer handles up to 64 batches at once, so that the
   * one batch waiting the window out holds no other back.
   */
  fetchLingerMs?: number;
  /** how often, at most, it commits what it handled; COMMIT_INTERVAL_MS (1 s) unless named */
  commitIntervalMs?: number;
}

/**
 * A lingering consumer's batches handled at once when it names no `partitionsConsumedConcurrently`: the
 * batch that waits out the window holds one slot, and the other batches of its fetch (a partition's
 * batches still one after the other) go through the rest rather than after the window.
 */
const LINGERING_CONCURRENCY = 64;

/** The offset after `offset`: what a partition handled up to and including `offset` commits. */
const nextOffset = (offset: string): string => (BigInt(offset) + 1n).toString();

/** Pipelined, the consumer lets the event loop run between this many messages of a batch. */
const YIELD_EVERY = 200;

/**
 * How often, at most, a consumer commits the offsets it has handled: kafkajs' auto-commit, and the
 * pipelined consumer's own commits. Committed any later, a fact is read again after a crash, never lost.
 */
export const COMMIT_INTERVAL_MS = 1_000;

/** A pipelined batch between its hand-over and its partition's handled mark passing it (`handledUpTo`). */
interface Pending {
  topic: string;
  partition: number;
  /** its first offset: where its partition is read again from should it fail */
  first: string;
  /** the offset to commit once it is handled */
  next: string;
  state: 'waiting' | 'handling' | 'handled' | 'failed' | 'dropped';
  /** resolves once it has settled (never rejects): the partition's next batch is handed over then */
  settled: Promise<void>;
}

/** What a DLQ entry holds: the reason, where the fact came from, and its original bytes. */
export interface DeadLetter {
  reason: 'invalid' | 'wrong_topic' | 'handler_failed';
  error: string;
  errors?: FieldError[];
  topic: string;
  partition: number;
  offset: string;
  groupId: string;
  failedAt: string;
  key: string | null;
  originalBase64: string;
  original: string;
}

/** A handler failure that retrying may cure (Postgres or the broker away): the fact is read again, never dead-lettered. */
export class TransientFailure extends Error {
  constructor(
    readonly topic: string,
    readonly partition: number,
    /** the first offset not handled: reading starts again there */
    readonly offset: string,
    options: { cause: unknown },
  ) {
    super(
      `handling ${topic}[${partition}]@${offset} failed for now: ${String((options.cause as Error)?.message ?? options.cause)}`,
      options,
    );
    this.name = 'TransientFailure';
  }
}

/** How many dead-lettered positions a consumer remembers, so that a batch read again is not dead-lettered twice. */
const REMEMBERED_LETTERS = 10_000;

/**
 * After a crash kafkajs does not restart from (it restarts only from errors it deems retriable; a
 * broker coming back can still fail a start with "Failed to find group coordinator", which it does
 * not), how long the consumer waits before it starts again itself: 500 ms, doubling with each crash in
 * a row (`crashesInARow`) to 30 s. Never gives up: a service that cannot consume stays not ready and
 * keeps trying, rather than staying up and reading nothing.
 */
export function restartDelayMs(crashesInARow: number): number {
  return Math.min(30_000, 500 * 2 ** Math.max(0, crashesInARow - 1));
}

/** A join that lasted this long counts as recovered: the next crash starts the backoff over. */
export const STEADY_MS = 60_000;

/** How many crashes in a row a crash makes: one after a join that held for `STEADY_MS`, one more otherwise. */
export function crashesInARow(before: number, msSinceJoin: number | null): number {
  return msSinceJoin !== null && msSinceJoin >= STEADY_MS ? 1 : before + 1;
}

/**
 * The pipelined batches still worth committing after a rebalance: those of partitions this member
 * still owns. A batch of a partition now owned by another member must never be committed from here
 * (its offset may lie behind what the new owner has committed).
 */
export function keepAssigned<T>(pending: ReadonlyMap<string, T>, assignment: Record<string, readonly number[]>): Map<string, T> {
  const owned = new Set(Object.entries(assignment).flatMap(([topic, partitions]) => partitions.map((p) => `${topic}:${p}`)));
  return new Map([...pending].filter(([key]) => owned.has(key)));
}

/** A partition's offset to commit: past the batches handled in a row. */
export interface CommitMark {
  topic: string;
  partition: number;
  offset: string;
}

/**
 * Of the marks of handled batches, per `topic:partition`, those ahead of what this member committed
 * last: a commit never takes a partition back. Pure.
 */
export function aheadOfCommitted(
  marks: ReadonlyMap<string, CommitMark>,
  committed: ReadonlyMap<string, bigint>,
): (CommitMark & { key: string })[] {
  return [...marks].flatMap(([key, mark]) => (BigInt(mark.offset) > (committed.get(key) ?? -1n) ? [{ key, ...mark }] : []));
}

function headerStrings(message: KafkaMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const name in message.headers) {
    const value = message.headers[name];
    if (value !== undefined) headers[name] = String(Array.isArray(value) ? value[0] : value);
  }
  return headers;
}

/**
 * Consumes facts: each is validated on receipt; an invalid one, one on the wrong topic, or one whose
 * handler keeps failing after bounded retries goes to `<topic>.dlq` with the error and the original
 * bytes, and the consumer moves on. Offsets are resolved only after the handler returned (its effect
 * is durable), and committed at most once every COMMIT_INTERVAL_MS, and on stop. Stopping finishes the
 * message in hand.
 */
export class FactConsumer {
  private readonly consumer: Consumer;
  private readonly handlers = new Map<FactType, FactHandler<FactType>>();
  private batchHandler: BatchHandler | undefined;
  private maxFactsInFlight = 0;
  private inFlight = 0;
  private readonly settled = new Set<() => void>();
  /** pipelined batches not yet handled in a row from the oldest, per `topic:partition` (a seek starts a new queue) */
  private readonly pending = new Map<string, Pending[]>();
  /** per `topic:partition`, the offset past the facts handled in a row (pipelined: the batches), not committed yet */
  private handledUpTo = new Map<string, CommitMark>();
  /** per `topic:partition`, the offset this member last committed: a commit never goes back behind it */
  private committedUpTo = new Map<string, bigint>();
  /** bumped by every join and crash: marks taken before one may name partitions this member no longer owns */
  private assignments = 0;
  /** bumped when a partition seeks back: a batch fetched before the seek is not handed over after it */
  private readonly epochs = new Map<string, number>();
  private committing: Promise<void> = Promise.resolve();
  /** a commit of the handled pipelined batches due (`commitSoon`) */
  private commitTimer: NodeJS.Timeout | undefined;
  /** batches inside `eachBatch`: pipelined, up to their hand-over; otherwise until handled */
  private arriving = 0;
  /** the wait before the next fetch under way (`fetchLingerMs`), and how to end it early (stopping) */
  private linger: { until: Promise<void>; end: () => void } | undefined;
  private stopping = false;
  private readonly topicByName: Map<string, TopicSpec>;
  /** `topic:partition:offset` of facts dead-lettered lately, oldest first */
  private readonly lettered = new Set<string>();

  private joined = false;
  /** `onJoin` listeners */
  private readonly joinListeners: (() => void)[] = [];
  /** crashes kafkajs left to us in a row (`crashesInARow`) */
  private crashes = 0;
  /** when the consumer last joined its group (epoch ms), null before the first join */
  private joinedAt: number | null = null;
  private restartTimer: NodeJS.Timeout | undefined;
  /** a start after a crash under way: `stop()` waits for it, then stops what it started */
  private restarting: Promise<void> = Promise.resolve();
  /** a `start()` under way: `stop()` waits for it, then stops what it started */
  private starting: Promise<void> = Promise.resolve();

  constructor(private readonly options: ConsumerOptions) {
    // A member that dies without leaving (SIGKILL, a lost host) holds its partitions until the broker
    // gives up on it: 10 s, not the 30 s default, so a restarted worker takes over within seconds.
    this.consumer = options.kafka.consumer({
      groupId: options.groupId,
      sessionTimeout: 10_000,
      rebalanceTimeout: 20_000,
      heartbeatInterval: 1_000,
    });
    this.topicByName = new Map(options.topics.map((t) => [`${options.topicPrefix}${t.name}`, t]));
    this.consumer.on(this.consumer.events.GROUP_JOIN, ({ payload }) => {
      this.joined = true;
      this.joinedAt = Date.now();
      this.onAssigned(payload.memberAssignment);
      for (const listener of this.joinListeners) listener();
    });
    // a rebalance under way may take partitions away: what is handled of them is committed now, as
    // kafkajs' auto-commit would, rather than read again by their next owner (best effort: a commit
    // that loses the race with the new generation is refused, and those facts are read again)
    this.consumer.on(this.consumer.events.REBALANCING, () => {
      void this.commitNow();
    });
    this.consumer.on(this.consumer.events.CRASH, ({ payload }) => {
      // a crashed consumer reads nothing until it has joined again: not ready meanwhile
      this.joined = false;
      // it left its group: its partitions may go to another member, so nothing pipelined before the
      // crash is committed from here (read again, handled again: handlers are idempotent)
      this.onAssigned({});
      if (!payload.restart) this.startAgainLater(payload.error);
    });
    const metrics = options.metrics;
    if (metrics) {
      // as a batch starts, its messages are still behind; once it is handled, only those after it
      this.consumer.on(this.consumer.events.START_BATCH_PROCESS, ({ payload }) => {
        metrics.lag(options.groupId, payload.topic, payload.partition, Number(payload.offsetLagLow));
      });
      this.consumer.on(this.consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        metrics.lag(options.groupId, payload.topic, payload.partition, Number(payload.offsetLag));
        metrics.consumed(options.groupId, payload.topic, payload.batchSize);
      });
    }
  }

  /** A readiness check: passes once the consumer has joined its group (and so has partitions to read). */
  readonly ready = async (): Promise<void> => {
    if (!this.joined) throw new Error(`consumer group ${this.options.groupId} not joined yet`);
  };

  /**
   * Called at every join of the group: the first, and after every rebalance or restart (a consumer that
   * starts from the latest offset may have missed what was published while it was not a member).
   */
  onJoin(listener: () => void): this {
    this.joinListeners.push(listener);
    return this;
  }

  /** Handles one fact type, fact by fact. */
  on<T extends FactType>(type: T, handler: FactHandler<T>): this {
    this.handlers.set(type, handler as unknown as FactHandler<FactType>);
    return this;
  }

  /** Batch mode: every valid fact of a fetched batch at once (one transaction for a projector). */
  onBatch(handler: BatchHandler, options: BatchOptions = {}): this {
    this.batchHandler = handler;
    this.maxFactsInFlight = options.maxFactsInFlight ?? 0;
    return this;
  }

  private get pipelined(): boolean {
    return this.batchHandler !== undefined && this.maxFactsInFlight > 0;
  }

  async start(): Promise<void> {
    // a consumer stopped before it started (its owner stepped down meanwhile) must not join its group
    if (this.stopping) throw new Error(`consumer group ${this.options.groupId} was stopped: not starting it`);
    const starting = this.run();
    // a stop that comes meanwhile lets the start finish first, then leaves the group it joined
    this.starting = starting.catch(() => {});
    await starting;
  }

  private async run(): Promise<void> {
    await this.consumer.connect();
    await this.consumer.subscribe({ topics: [...this.topicByName.keys()], fromBeginning: this.options.fromBeginning ?? true });
    await this.consumer.run({
      // the consumer commits itself, what is handled, at most once every COMMIT_INTERVAL_MS
      // (`commitSoon`): kafkajs' auto-commit sends an OffsetCommit after every batch, whatever its
      // interval, which under a trickle is one request, and one append to the broker's offsets log,
      // per fact per consumer group. The offsets kafkajs resolves only move its fetch position on.
      autoCommit: false,
      eachBatchAutoResolve: false,
      partitionsConsumedConcurrently:
        this.options.partitionsConsumedConcurrently ?? ((this.options.fetchLingerMs ?? 0) > 0 ? LINGERING_CONCURRENCY : 1),
      eachBatch: (payload) =>
        this.pipelined
          ? this.eachBatchPipelined(payload)
          : this.batchHandler
            ? this.eachBatchAtOnce(payload)
            : this.eachBatchOneByOne(payload),
    });
  }

  /** After a crash kafkajs does not restart from: starts again after `restartDelayMs`, until it joins or is stopped. */
  private startAgainLater(error: Error): void {
    if (this.stopping) return;
    this.crashes = crashesInARow(this.crashes, this.joinedAt === null ? null : Date.now() - this.joinedAt);
    const delayMs = restartDelayMs(this.crashes);
    this.options.log.error(
      { err: error, groupId: this.options.groupId, crashes: this.crashes, delayMs },
      'the consumer crashed and kafkajs does not restart it: starting it again',
    );
    clearTimeout(this.restartTimer);
    this.restartTimer = setTimeout(() => {
      if (this.stopping) return;
      // a start that fails at once throws here; one that fails in joining crashes again (the CRASH event)
      this.restarting = (async () => {
        try {
          await this.consumer.disconnect();
          if (!this.stopping) await this.start();
        } catch (startError) {
          this.startAgainLater(startError as Error);
        }
      })();
    }, delayMs);
  }

  /** Stops fetching, lets the message (or, pipelined, the batches) in hand finish, commits, and leaves the group. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.linger?.end();
    clearTimeout(this.restartTimer);
    // a start (or a start after a crash) that was under way finishes first; what it started is stopped below
    await this.starting;
    await this.restarting;
    try {
      this.consumer.pause(this.options.topics.map((t) => ({ topic: `${this.options.topicPrefix}${t.name}` })));
    } catch {
      // not running (never started, or between a crash and its restart): nothing is fetched anyway
    }
    await this.drained();
    clearTimeout(this.commitTimer);
    this.commitTimer = undefined;
    await this.commitNow();
    await this.consumer.disconnect();
  }

  /**
   * After a rebalance, the batches of partitions taken away are forgotten: they are never committed
   * from here, and batches of theirs still waiting are dropped (the new owner reads them again).
   */
  private onAssigned(assignment: Record<string, readonly number[]>): void {
    this.assignments += 1;
    this.handledUpTo = keepAssigned(this.handledUpTo, assignment);
    this.committedUpTo = keepAssigned(this.committedUpTo, assignment);
    const kept = keepAssigned(this.pending, assignment);
    for (const key of this.pending.keys()) {
      if (kept.has(key)) continue;
      this.pending.delete(key);
      this.epochs.set(key, (this.epochs.get(key) ?? 0) + 1);
    }
  }

  /** Events of the underlying kafkajs consumer (GROUP_JOIN, CRASH …), for tests and metrics. */
  get events(): Consumer['events'] {
    return this.consumer.events;
  }

  private async eachBatchOneByOne({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.arriving += 1;
    try {
      for (const message of batch.messages) {
        if (this.stopping || !isRunning() || isStale()) return;
        const delivery = await this.receive(batch.topic, batch.partition, message);
        if (delivery) {
          const handler = this.handlers.get(delivery.fact.type);
          if (handler) await this.withRetries(() => handler(delivery.fact, delivery), delivery, message);
        }
        resolveOffset(message.offset);
        this.handled(batch.topic, batch.partition, nextOffset(message.offset));
        await heartbeat();
      }
      // kafkajs fetches again once every batch of this fetch has returned: one of them waiting is enough
      await this.lingerWindow();
    } catch (error) {
      this.readAgain(error);
    } finally {
      this.left();
    }
  }

  /** A batch leaves `eachBatch`: `stop()` may be waiting for the last one. */
  private left(): void {
    this.arriving -= 1;
    if (this.arriving === 0) this.wake();
  }

  /** Marks a partition handled up to `next` (the offset to read next), to be committed within COMMIT_INTERVAL_MS. */
  private handled(topic: string, partition: number, next: string): void {
    this.handledUpTo.set(`${topic}:${partition}`, { topic, partition, offset: next });
    this.commitSoon();
  }

  /** A transient failure: the partition is read again from the first fact not handled. Anything else propagates. */
  private readAgain(error: unknown): void {
    if (!(error instanceof TransientFailure)) throw error;
    this.options.log.warn(
      { err: error.cause, topic: error.topic, partition: error.partition, offset: error.offset },
      'reading again',
    );
    try {
      this.consumer.seek({ topic: error.topic, partition: error.partition, offset: error.offset });
    } catch (seekError) {
      // stopped meanwhile: the next reader starts from the last commit, before the fact not handled
      this.options.log.warn({ err: seekError, topic: error.topic, partition: error.partition }, 'could not seek back');
    }
  }

  private async eachBatchAtOnce({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.arriving += 1;
    try {
      if (this.stopping || !isRunning() || isStale()) return;
      const handler = this.batchHandler;
      if (!handler) return;
      const valid: { delivery: Delivery; message: KafkaMessage }[] = [];
      for (const message of batch.messages) {
        const delivery = await this.receive(batch.topic, batch.partition, message);
        if (delivery) valid.push({ delivery, message });
      }
      try {
        await this.handleBatch(handler, valid);
      } catch (error) {
        // nothing of this batch is resolved: it is read again whole (handlers are idempotent)
        const first = batch.messages[0];
        if (error instanceof TransientFailure && first) {
          this.readAgain(new TransientFailure(batch.topic, batch.partition, first.offset, { cause: error.cause }));
          return;
        }
        throw error;
      }
      const last = batch.messages.at(-1);
      if (last) {
        resolveOffset(last.offset);
        this.handled(batch.topic, batch.partition, nextOffset(last.offset));
      }
      await this.lingerWindow();
      await heartbeat();
    } finally {
      this.left();
    }
  }

  /**
   * Pipelined: validates the batch, moves the fetch position past it, and returns; the batch goes to
   * the handler once the partition's previous batch has settled (a partition's batches are handled one
   * after the other, retries included, so its facts keep their order), with at most `maxFactsInFlight`
   * facts handed over and not settled. Its offsets are committed by `commitHandled` once it and the
   * batches before it are handled.
   */
  private async eachBatchPipelined({ batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload): Promise<void> {
    this.arriving += 1;
    try {
      if (this.stopping || !isRunning() || isStale()) return;
      const handler = this.batchHandler;
      const last = batch.messages.at(-1);
      if (!handler || !last) return;
      const key = `${batch.topic}:${batch.partition}`;
      const epoch = this.epochs.get(key) ?? 0;
      const valid: { delivery: Delivery; message: KafkaMessage }[] = [];
      for (const [i, message] of batch.messages.entries()) {
        const delivery = await this.receive(batch.topic, batch.partition, message);
        if (delivery) valid.push({ delivery, message });
        // the handler's I/O (a projector's transaction) is not kept waiting behind a whole batch
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
      }
      while (this.inFlight > 0 && this.inFlight + valid.length > this.maxFactsInFlight) {
        await new Promise<void>((resolve) => this.settled.add(resolve));
        await heartbeat();
      }
      // stopping, or the partition sought back meanwhile: this batch is read again (by the next reader)
      if (this.stopping || !isRunning() || isStale() || (this.epochs.get(key) ?? 0) !== epoch) return;
      const queue = this.pending.get(key) ?? [];
      this.pending.set(key, queue);
      const previous = queue.at(-1)?.settled ?? Promise.resolve();
      let settle: () => void = () => {};
      const entry: Pending = {
        topic: batch.topic,
        partition: batch.partition,
        first: (batch.messages[0] as KafkaMessage).offset,
        next: nextOffset(last.offset),
        state: 'waiting',
        settled: new Promise<void>((resolve) => {
          settle = resolve;
        }),
      };
      queue.push(entry);
      this.inFlight += valid.length;
      resolveOffset(last.offset);
      const lingering = this.lingerWindow();
      void previous.then(async () => {
        if ((this.epochs.get(key) ?? 0) !== epoch) {
          // the batch before it failed: the partition is read again from there
          this.settle(entry, valid.length, 'dropped');
        } else {
          entry.state = 'handling';
          try {
            await this.handleBatch(handler, valid);
            this.settle(entry, valid.length, 'handled');
          } catch (error) {
            this.options.log.error(
              { err: error, topic: entry.topic, partition: entry.partition, offset: entry.first },
              'batch neither handled nor dead-lettered: reading it again',
            );
            this.settle(entry, valid.length, 'failed');
          }
        }
        settle();
      });
      // kafkajs fetches again once every batch of this fetch has returned: one of them waiting is enough
      await lingering;
      await heartbeat();
    } finally {
      this.left();
    }
  }

  /**
   * The wait before the next fetch (`fetchLingerMs`). The first batch handled (pipelined: handed over)
   * while no window is open opens one and waits it out, which holds the next fetch back; every other
   * batch returns at once. The waiting batch holds one of the `partitionsConsumedConcurrently` slots:
   * the other batches of its fetch go through the rest.
   */
  private lingerWindow(): Promise<void> {
    const ms = this.options.fetchLingerMs ?? 0;
    if (ms <= 0 || this.stopping || this.linger) return Promise.resolve();
    let end: () => void = () => {};
    const until = new Promise<void>((resolve) => {
      const timer = setTimeout(() => end(), ms);
      timer.unref();
      end = () => {
        clearTimeout(timer);
        this.linger = undefined;
        resolve();
      };
    });
    this.linger = { until, end };
    return until;
  }

  /**
   * The handler on a whole batch with retries; then, should it still fail for good, fact by fact,
   * dead-lettering the facts that fail for good. A failure that may pass (Postgres or the broker away)
   * throws a TransientFailure: the batch is read again, and nothing valid reaches a DLQ.
   */
  private async handleBatch(handler: BatchHandler, valid: { delivery: Delivery; message: KafkaMessage }[]): Promise<void> {
    const head = valid[0];
    if (!head) return;
    try {
      await this.retry(() => handler(valid.map((v) => v.delivery)), head.delivery.log);
    } catch (error) {
      if (!isPermanent(error)) {
        throw new TransientFailure(head.delivery.topic, head.delivery.partition, head.delivery.offset, { cause: error });
      }
      // One poison fact must not hold the batch: take them one at a time, dead-lettering the failures.
      for (const { delivery, message } of valid) await this.withRetries(() => handler([delivery]), delivery, message);
    }
  }

  /**
   * Records how a batch ended. A batch that failed (neither handled nor dead-lettered: the DLQ is away
   * too) is read again: its partition seeks back to it at once, and the batches after it, handled or
   * not, are left to that second reading (their offsets are never committed from this reading).
   */
  private settle(entry: Pending, facts: number, state: 'handled' | 'failed' | 'dropped'): void {
    entry.state = state;
    this.inFlight -= facts;
    if (state === 'failed') {
      const key = `${entry.topic}:${entry.partition}`;
      this.epochs.set(key, (this.epochs.get(key) ?? 0) + 1);
      this.pending.delete(key);
      try {
        this.consumer.seek({ topic: entry.topic, partition: entry.partition, offset: entry.first });
      } catch (error) {
        // stopped meanwhile: the next reader starts from the last commit, before the failed batch
        this.options.log.warn({ err: error, topic: entry.topic, partition: entry.partition }, 'could not seek back');
      }
    }
    this.wake();
    if (state === 'handled') this.advance(`${entry.topic}:${entry.partition}`);
  }

  /** Moves a partition's handled mark past its batches handled in a row from the oldest. */
  private advance(key: string): void {
    const queue = this.pending.get(key);
    if (!queue) return;
    let done: Pending | undefined;
    while (queue[0]?.state === 'handled') done = queue.shift();
    if (done) this.handled(done.topic, done.partition, done.next);
    if (queue.length === 0) this.pending.delete(key);
  }

  /**
   * Commits what is handled within COMMIT_INTERVAL_MS: one OffsetCommit for the facts of that while,
   * not one per batch (each is a request and an append to the broker's offsets log). A member that dies
   * meanwhile has its last second read again; the handlers are idempotent. `stop()` commits at once.
   */
  private commitSoon(): void {
    // stopping: `stop()` commits what is handled itself, once the batches in hand are
    if (this.commitTimer !== undefined || this.stopping) return;
    this.commitTimer = setTimeout(() => {
      this.commitTimer = undefined;
      void this.commitNow();
    }, this.options.commitIntervalMs ?? COMMIT_INTERVAL_MS);
    // a commit due never keeps a process alive
    this.commitTimer.unref();
  }

  private commitNow(): Promise<void> {
    this.committing = this.committing.then(() => this.commitHandled());
    return this.committing;
  }

  private wake(): void {
    for (const wake of this.settled) wake();
    this.settled.clear();
  }

  /**
   * Commits, per partition, past the batches handled in a row from the oldest, never behind what this
   * member committed before (after a rejoin kafkajs reads again from the broker's committed offset, which
   * a commit of ours may pass meanwhile: the batches read again must not take the commit back).
   */
  private async commitHandled(): Promise<void> {
    const offsets = aheadOfCommitted(this.handledUpTo, this.committedUpTo);
    this.handledUpTo.clear();
    if (offsets.length === 0) return;
    const assignments = this.assignments;
    try {
      await this.consumer.commitOffsets(offsets.map(({ key: _key, ...mark }) => mark));
      for (const { key, offset } of offsets) this.committedUpTo.set(key, BigInt(offset));
    } catch (error) {
      this.options.log.warn({ err: error, offsets }, 'offsets not committed');
      // still this member's partitions (no join or crash since): committed with the next commit, or on
      // stop, rather than left for the next owner to read again. After a rebalance they may not be: their
      // next reader starts from the last commit, and the facts handled since are delivered again
      // (handlers are idempotent)
      if (assignments !== this.assignments) return;
      for (const { key, ...mark } of offsets) if (!this.handledUpTo.has(key)) this.handledUpTo.set(key, mark);
      this.commitSoon();
    }
  }

  /** Resolves once no batch is in the handler, waiting for it, or on its way to it (or, not pipelined, being handled). */
  private async drained(): Promise<void> {
    while (this.inFlight > 0 || this.arriving > 0) await new Promise<void>((resolve) => this.settled.add(resolve));
  }

  /** Parses and validates one message; dead-letters it and returns undefined when it is not a fact of its topic. */
  private async receive(topic: string, partition: number, message: KafkaMessage): Promise<Delivery | undefined> {
    const parsed = parseFact(message.value);
    if (!parsed.ok) {
      await this.deadLetter(topic, partition, message, 'invalid', describeErrors(parsed.errors), parsed.errors);
      return undefined;
    }
    const spec = this.topicByName.get(topic);
    if (spec && !carries(spec, parsed.value.type)) {
      await this.deadLetter(
        topic,
        partition,
        message,
        'wrong_topic',
        `${parsed.value.type} does not belong on ${spec.name} (carries ${[spec.fact, ...(spec.also ?? [])].join(', ')})`,
      );
      return undefined;
    }
    const headers = headerStrings(message);
    const parent = this.options.log;
    const fact = parsed.value;
    let log: Logger | undefined;
    return {
      fact,
      topic,
      partition,
      offset: message.offset,
      headers,
      publishedAt: Number(message.timestamp),
      ...(headers.traceparent ? { traceparent: headers.traceparent } : {}),
      // made on first use: most deliveries are never logged about, and a child logger per fact costs
      get log() {
        log ??= parent.child(logContext(fact));
        return log;
      },
    };
  }

  private retry(run: () => Promise<void>, log: Logger): Promise<void> {
    return retrying(run, {
      retries: this.options.retries ?? 3,
      minTimeout: this.options.retryDelayMs ?? 200,
      factor: 2,
      shouldRetry: ({ error }) => !isPermanent(error),
      onFailedAttempt: ({ error, attemptNumber, retriesLeft }) => {
        log.warn({ err: error, attemptNumber, retriesLeft }, 'handler failed');
      },
    });
  }

  /** The handler on one fact with retries; a permanent failure dead-letters it, a transient one throws a TransientFailure. */
  private async withRetries(run: () => Promise<void>, delivery: Delivery, message: KafkaMessage): Promise<void> {
    try {
      await this.retry(run, delivery.log);
    } catch (error) {
      if (!isPermanent(error)) throw new TransientFailure(delivery.topic, delivery.partition, delivery.offset, { cause: error });
      delivery.log.error({ err: error }, 'handler failed for good: dead-lettering the fact');
      await this.deadLetter(
        delivery.topic,
        delivery.partition,
        message,
        'handler_failed',
        (error as Error).message ?? String(error),
      );
    }
  }

  private async deadLetter(
    topic: string,
    partition: number,
    message: KafkaMessage,
    reason: DeadLetter['reason'],
    error: string,
    errors?: FieldError[],
  ): Promise<void> {
    // a batch read again (after a seek or a rebalance) holds the facts it dead-lettered the first time
    const position = `${topic}:${partition}:${message.offset}`;
    if (this.lettered.has(position)) return;
    const bytes = message.value ?? Buffer.alloc(0);
    const letter: DeadLetter = {
      reason,
      error,
      ...(errors ? { errors } : {}),
      topic,
      partition,
      offset: message.offset,
      groupId: this.options.groupId,
      failedAt: new Date().toISOString(),
      key: message.key?.toString() ?? null,
      originalBase64: bytes.toString('base64'),
      original: bytes.toString('utf8').slice(0, 10_000),
    };
    this.options.log.warn({ topic, partition, offset: message.offset, reason, error }, 'fact dead-lettered');
    // If the DLQ cannot be written the error propagates: the offset stays unresolved and the fact is redelivered.
    await this.options.publisher.sendRaw(dlqName(topic), [
      { key: message.key ?? null, value: JSON.stringify(letter), headers: { ...headerStrings(message), 'x-dlq-reason': reason } },
    ]);
    this.lettered.add(position);
    this.options.metrics?.deadLettered(this.options.groupId, topic, reason);
    if (this.lettered.size > REMEMBERED_LETTERS) this.lettered.delete(this.lettered.values().next().value as string);
  }
}
