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
