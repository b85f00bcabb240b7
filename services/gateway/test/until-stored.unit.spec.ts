import { describe, expect, it } from 'vitest';
import { found, type Look, missing, nextLook, storePolls, untilStored } from '../src/until-stored';

/** A clock that only moves when the loop sleeps: what the loop waited is what the test reads. */
function fakeTime() {
  let t = 1_000;
  const slept: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      slept.push(ms);
      t += ms;
    },
    slept,
    elapsed: () => t - 1_000,
  };
}

/** A look that finds nothing `misses` times (saying which look it was), then finds `value`. */
function looks<T>(misses: number, value: T) {
  let n = 0;
  const look = async (): Promise<Look<T, number>> => {
    n++;
    return n > misses ? found(value) : missing(n);
  };
  return { look, count: () => n };
}

describe('until the event store has it (pure schedule)', () => {
  it('given the default schedule, then looks come 10 ms apart, doubling to 250 ms and staying there', () => {
    const polls = storePolls();
    expect(Array.from({ length: 8 }, () => polls.next().value)).toEqual([10, 20, 40, 80, 160, 250, 250, 250]);
  });

  it('given time before the deadline, when a look found nothing, then it waits the delay, cut short at the deadline', () => {
    expect(nextLook(0, 10_000, 250)).toBe(250);
    expect(nextLook(9_900, 10_000, 250)).toBe(100);
  });

  it('given the deadline reached or passed, when a look found nothing, then it stops looking', () => {
    expect(nextLook(10_000, 10_000, 10)).toBeUndefined();
    expect(nextLook(10_300, 10_000, 250)).toBeUndefined();
  });
});

describe('until the event store has it (the loop)', () => {
  it('given the store has it at once, then one look and no wait', async () => {
    const time = fakeTime();
    const { look, count } = looks(0, 'policy');
    expect(await untilStored(look, { timeoutMs: 10_000, ...time })).toEqual({ found: true, value: 'policy' });
    expect(count()).toBe(1);
    expect(time.slept).toEqual([]);
  });

  it('given the store catches up on the fourth look, then it answers from that look after 10 + 20 + 40 ms', async () => {
    const time = fakeTime();
    const { look, count } = looks(3, 'projected');
    expect(await untilStored(look, { timeoutMs: 10_000, ...time })).toEqual({ found: true, value: 'projected' });
    expect(count()).toBe(4);
    expect(time.slept).toEqual([10, 20, 40]);
  });

  it('given a store that never has it, then it looks for exactly the timeout, a last time at the deadline, and returns the last miss', async () => {
    const time = fakeTime();
    const { look, count } = looks(Number.POSITIVE_INFINITY, 'never');
    const seen = await untilStored(look, { timeoutMs: 10_000, ...time });
    expect(seen).toEqual({ found: false, missing: count() });
    expect(time.elapsed()).toBe(10_000);
    expect(time.slept.at(-1)).toBeLessThanOrEqual(250);
    expect(count()).toBe(time.slept.length + 1);
  });

  it('given a look that fails (not a miss), then the wait ends with its error at once', async () => {
    const time = fakeTime();
    let n = 0;
    const look = async (): Promise<Look<string, undefined>> => {
      n++;
      if (n === 2) throw new Error('Postgres away');
      return missing(undefined);
    };
    await expect(untilStored(look, { timeoutMs: 10_000, ...time })).rejects.toThrow('Postgres away');
    expect(n).toBe(2);
    expect(time.slept).toEqual([10]);
  });

  it('given a schedule that runs out, then it stops at its last look', async () => {
    const time = fakeTime();
    const { look, count } = looks(Number.POSITIVE_INFINITY, 'never');
    expect((await untilStored(look, { timeoutMs: 10_000, delays: [5, 5], ...time })).found).toBe(false);
    expect(count()).toBe(3);
    expect(time.slept).toEqual([5, 5]);
  });
});
