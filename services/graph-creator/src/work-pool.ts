/**
 * The worker's slots, shared by its two consumers (docs/decisions.md, 2026-11-24, "Answers first"):
 * at most `size` deliveries are worked on at once, and when a slot frees, work of a more urgent class
 * goes first — answers and cancels before starts — so that people already talking are not starved by
 * newcomers when the worker is saturated. Within a class, first come, first served.
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
}

export class WorkPool {
  private busy = 0;
  private isOpen: boolean;
  private readonly defer: (run: () => void) => void;
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
  }

  /** Starts serving (a pool made closed): the most urgent waiting deliveries first. */
  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    while (this.busy < this.size) {
      const next = this.next();
      if (!next) return;
      this.busy++;
      next();
    }
  }

  /** Runs `work` in a slot, waiting for one behind more urgent work. */
  async run<T>(kind: WorkClass, work: () => Promise<T>): Promise<T> {
    if (this.isOpen && this.busy < this.size && this.queued() === 0) this.busy++;
    else await new Promise<void>((resolve) => this.waiting[kind].push(resolve));
    this.served.push(kind);
    if (this.served.length > 1_000) this.served.splice(0, this.served.length - 1_000);
    try {
      return await work();
    } finally {
      this.release();
    }
  }

  /** Deliveries waiting for a slot. */
  queued(): number {
    return ORDER.reduce((sum, kind) => sum + this.waiting[kind].length, 0);
  }

  private release(): void {
    // the slot stays taken until the next waiter is picked, so nobody overtakes the queue meanwhile
    this.defer(() => {
      const next = this.next();
      if (next) next();
      else this.busy--;
    });
  }

  private next(): (() => void) | undefined {
    for (const kind of ORDER) {
      const next = this.waiting[kind].shift();
      if (next) return next;
    }
    return undefined;
  }
}
