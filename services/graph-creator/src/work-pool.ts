/**
 * The worker's slots, shared by its two consumers (docs/decisions.md, 2026-11-24, "Answers first"):
 * at most `size` deliveries are worked on at once, and when a slot frees, work of a more urgent class
 * goes first — answers and cancels before starts — so that people already talking are not starved by
 * newcomers when the worker is saturated. Within a class, first come, first served. One slot of a pool
 * of two or more is kept for answers: starts take at most `size - 1`, so that an answer arriving while
 * starts fill the worker is taken at once instead of waiting for a start's whole first run (the tail of
 * answer → next prompt under load). An answer's slot is held a few milliseconds for the next answer before a waiting
 * start takes it: the answers' consumer hands over a partition's next answer only once the one before it is done.
 */
export type WorkClass = 'answer' | 'start';

const ORDER: readonly WorkClass[] = ['answer', 'start'];

export interface WorkPoolOptions {
  /**
   * Closed, the pool holds every delivery until `open()`: a worker that (re)starts lets both of its
   * consumers hand over what waits for it before it serves anything, so that the first fetch of
   * starts does not go before answers fetched a moment later.
   */
  closed?: boolean;
  /** how the next waiter is picked once a slot frees: after the consumers had a turn to hand over their next */
  defer?: (run: () => void) => void;
  /**
   * how long an answer's slot is held for the next answer before a waiting start takes it: the answers' consumer hands
   * over the next answer of a partition only once the one before it is done, a few milliseconds later (default 5 ms)
   */
  answerGraceMs?: number;
}

export class WorkPool {
  private readonly busy: Record<WorkClass, number> = { answer: 0, start: 0 };
  /** how many slots starts may take at once: all but the one kept for answers */
  private readonly startSlots: number;
  private isOpen: boolean;
  private readonly defer: (run: () => void) => void;
  private readonly answerGraceMs: number;
  private readonly waiting: Record<WorkClass, (() => void)[]> = { answer: [], start: [] };
  /** how many of each class were served, in order (for metrics and tests) */
  readonly served: WorkClass[] = [];

  constructor(
    private readonly size: number,
    options: WorkPoolOptions = {},
  ) {
    if (!Number.isSafeInteger(size) || size < 1) throw new Error(`a work pool needs at least one slot, not ${size}`);
    this.isOpen = !options.closed;
    this.defer = options.defer ?? ((run) => setImmediate(run));
    this.answerGraceMs = options.answerGraceMs ?? 5;
    this.startSlots = size > 1 ? size - 1 : 1;
  }

  /** Starts serving (a pool made closed): the most urgent waiting deliveries first. */
  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    this.fill();
  }

  /** Runs `work` in a slot, waiting for one behind more urgent work. */
  async run<T>(kind: WorkClass, work: () => Promise<T>): Promise<T> {
    // taken at once when a slot of its class is free and nobody it must let go first waits
    const ahead = kind === 'answer' ? this.waiting.answer.length : this.queued();
    if (this.isOpen && this.fits(kind) && ahead === 0) this.busy[kind]++;
    else await new Promise<void>((resolve) => this.waiting[kind].push(resolve));
    this.served.push(kind);
    if (this.served.length > 1_000) this.served.splice(0, this.served.length - 1_000);
    try {
      return await work();
    } finally {
      this.release(kind);
    }
  }

  /** Deliveries waiting for a slot. */
  queued(): number {
    return ORDER.reduce((sum, kind) => sum + this.waiting[kind].length, 0);
  }

  private fits(kind: WorkClass): boolean {
    return this.busy.answer + this.busy.start < this.size && (kind === 'answer' || this.busy.start < this.startSlots);
  }

  private release(kind: WorkClass): void {
    // the slot stays taken until the next waiter is picked, so nobody overtakes the queue meanwhile
    const next = (): void => {
      this.busy[kind]--;
      this.fill();
    };
    // (an answer done, no answer waiting yet but starts are: its partition's next answer, if it has one, is on its way)
    if (kind === 'answer' && this.answerGraceMs > 0 && this.waiting.answer.length === 0 && this.waiting.start.length > 0)
      setTimeout(() => this.defer(next), this.answerGraceMs);
    else this.defer(next);
  }

  /** Hands free slots to the waiters, the most urgent class first. */
  private fill(): void {
    while (this.isOpen) {
      const kind = ORDER.find((k) => this.waiting[k].length > 0 && this.fits(k));
      if (!kind) return;
      this.busy[kind]++;
      (this.waiting[kind].shift() as () => void)();
    }
  }
}
