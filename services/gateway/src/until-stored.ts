/**
 * Waiting until the event store has a fact: the gateway publishes (or a socket already showed) a fact
 * the event store records and projects a moment later, and a few answers must be given from the store's
 * side of it — a policy PUT answered once `org_policies` holds it, an answer to a prompt this instance's
 * broadcast never showed decided once the projection shows that prompt. One shape for both: look, and
 * while the look finds nothing look again after a short, growing delay, until a deadline; then the
 * caller decides what a store that never caught up means (answer from the fact, or refuse).
 */
import { setTimeout as sleepFor } from 'node:timers/promises';

/** What one look at the store saw: what was wanted, or why not yet (the last `missing` is the caller's at the deadline). */
export type Look<T, M = undefined> = { readonly found: true; readonly value: T } | { readonly found: false; readonly missing: M };

export const found = <T>(value: T): Look<T, never> => ({ found: true, value });
export const missing = <M>(why: M): Look<never, M> => ({ found: false, missing: why });

/** The delays between two looks: 10 ms doubling to 250 ms (the store usually has it within a few ms). */
export const storePolls = function* (): Generator<number> {
  for (let delay = 10; ; delay = Math.min(250, delay * 2)) yield delay;
};

/**
 * After a look that found nothing at `now`: how long to wait before the next look, or `undefined` when
 * the deadline has come (stop looking). The wait never passes the deadline, so the last look is made
 * at it. Pure.
 */
export function nextLook(now: number, deadline: number, delay: number): number | undefined {
  if (now >= deadline) return undefined;
  return Math.min(delay, deadline - now);
}

export interface UntilStoredOptions {
  /** how long to keep looking after the first look */
  timeoutMs: number;
  /** the delays between looks (default `storePolls`) */
  delays?: Iterable<number>;
  now?: () => number;
  sleep?: (ms: number) => Promise<unknown>;
}

/**
 * Looks until a look finds what it wants or `timeoutMs` have passed; returns the last look. A look
 * that throws ends the wait with its error (only "not there yet" is worth waiting for).
 */
export async function untilStored<T, M>(
  look: () => Promise<Look<T, M>>,
  { timeoutMs, delays = storePolls(), now = Date.now, sleep = sleepFor }: UntilStoredOptions,
): Promise<Look<T, M>> {
  const deadline = now() + timeoutMs;
  const schedule = delays[Symbol.iterator]();
  for (;;) {
    const seen = await look();
    if (seen.found) return seen;
    const next = schedule.next();
    const wait = next.done ? undefined : nextLook(now(), deadline, next.value);
    if (wait === undefined) return seen;
    await sleep(wait);
  }
}
