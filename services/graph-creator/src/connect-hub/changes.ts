/**
 * How fresh the worker's cached views of an org's catalog are (docs/decisions.md, 2026-11-27). A view is
 * kept until its org's connections change — a `ConnectionsChanged` fact, which the Connect Hub publishes
 * once a change is saved — and at most `ttlMs` in any case: the catalog itself changes with a deploy,
 * and a fact the worker missed must not keep a view for long. So a creation reads an org's catalog over
 * HTTP once per change (or per `ttlMs`), not once per creation. When the worker may have missed facts
 * (its consumer of them joined its group again: it reads from the latest offset), every view is stale
 * (`changeAll`).
 *
 * A read takes a `mark` as it starts and keeps it with what it read: a change that arrives while the
 * read is under way makes what it brings stale too.
 */
export interface ReadMark {
  /** the changes seen when the read started */
  seq: number;
  /** when it started (epoch ms) */
  at: number;
}

export class CatalogChanges {
  private seq = 0;
  /** every view read before this change is stale, whatever its org */
  private allBefore = 0;
  /** per org, the last change not yet older than `ttlMs`, oldest first */
  private readonly changed = new Map<string, { seq: number; at: number }>();

  constructor(
    readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Taken as a read of an org's view starts, and kept with it. */
  mark(): ReadMark {
    return { seq: this.seq, at: this.now() };
  }

  /** The org's connections changed: every view of it read (or being read) before now is stale. */
  change(orgId: string): void {
    this.seq += 1;
    const now = this.now();
    this.changed.delete(orgId);
    this.changed.set(orgId, { seq: this.seq, at: now });
    // a change older than the TTL makes nothing stale that the TTL has not: it is forgotten
    for (const [org, change] of this.changed) {
      if (now - change.at < this.ttlMs) break;
      this.changed.delete(org);
    }
  }

  /** Any org's connections may have changed unseen: every view read (or being read) before now is stale. */
  changeAll(): void {
    this.seq += 1;
    this.allBefore = this.seq;
    this.changed.clear();
  }

  /**
   * Whether a view of the org read from `read` on may still be served: no change since, and younger
   * than `maxAgeMs` (a view some rail wants fresher than the catalog; never more than `ttlMs`).
   */
  fresh(orgId: string, read: ReadMark, maxAgeMs = this.ttlMs): boolean {
    if (this.now() - read.at >= Math.min(maxAgeMs, this.ttlMs)) return false;
    if (read.seq < this.allBefore) return false;
    const change = this.changed.get(orgId);
    return change === undefined || change.seq <= read.seq;
  }

  /** How many orgs' changes are remembered (bounded by the changes of the last `ttlMs`). */
  get remembered(): number {
    return this.changed.size;
  }
}

/**
 * A per-org cache of what is read of the org's catalog, fresh as `changes` says (`maxAgeMs` for a rail
 * that wants it younger). Callers asking at the same time share one read; once read, the value is kept,
 * not the promise of the read (a promise carries the async context of the run that made it: LangChain's
 * run tree, the whole Pregel loop of that run); a failed read is not kept, so the next caller asks again.
 * Entries are kept in the order they were read: the stale ones at the front go when a new read comes (an
 * org's view is held for as long as it is fresh, not for as long as the worker runs), and never more than
 * `maxOrgs` (docs/decisions.md, 2026-11-24 and 2026-11-27).
 */
export function freshPerOrg<T>(
  changes: CatalogChanges,
  read: (orgId: string) => Promise<T>,
  options: { maxAgeMs?: number; maxOrgs?: number } = {},
): (orgId: string) => Promise<T> {
  const { maxAgeMs = changes.ttlMs, maxOrgs = 1_000 } = options;
  type Entry = { mark: ReadMark; reading: Promise<T>; value?: undefined } | { mark: ReadMark; value: T; reading?: undefined };
  const held = new Map<string, Entry>();
  return (orgId) => {
    const cached = held.get(orgId);
    if (cached && changes.fresh(orgId, cached.mark, maxAgeMs)) return cached.reading ?? Promise.resolve(cached.value as T);
    const mark = changes.mark();
    const reading = read(orgId);
    const entry: Entry = { mark, reading };
    held.delete(orgId);
    for (const [org, old] of held) {
      if (changes.fresh(org, old.mark, maxAgeMs) && held.size < maxOrgs) break;
      held.delete(org);
    }
    held.set(orgId, entry);
    reading.then(
      (value) => {
        if (held.get(orgId) === entry) held.set(orgId, { mark, value });
      },
      () => {
        if (held.get(orgId) === entry) held.delete(orgId);
      },
    );
    return reading;
  };
}
