import { describe, expect, it } from 'vitest';
import { WorkPool } from '../src/work-pool';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('the worker pool: answers first', () => {
  it('given a saturated pool with starts waiting, when answers arrive, then every answer is served before the waiting starts', async () => {
    const pool = new WorkPool(1);
    const order: string[] = [];
    let finishFirst: () => void = () => {};
    const first = pool.run('start', () => new Promise<void>((resolve) => (finishFirst = resolve)));
    const work = (name: string) => async () => {
      order.push(name);
    };
    const later = [
      pool.run('start', work('s1')),
      pool.run('start', work('s2')),
      pool.run('answer', work('a1')),
      pool.run('start', work('s3')),
      pool.run('answer', work('a2')),
    ];
    await tick();
    expect(order).toEqual([]); // nothing overtakes the running one
    finishFirst();
    await Promise.all([first, ...later]);
    expect(order).toEqual(['a1', 'a2', 's1', 's2', 's3']);
    expect(pool.served).toEqual(['start', 'answer', 'answer', 'start', 'start', 'start']);
  });

  it('given a closed pool, when starts arrive before answers, then nothing runs until it opens, and answers go first', async () => {
    const pool = new WorkPool(1, { closed: true });
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(name);
    };
    const all = [pool.run('start', work('s1')), pool.run('start', work('s2')), pool.run('answer', work('a1'))];
    await tick();
    expect(order).toEqual([]);
    pool.open();
    await Promise.all(all);
    expect(order).toEqual(['a1', 's1', 's2']);
  });

  it('runs at most its size at once and frees the slot of work that failed', async () => {
    const pool = new WorkPool(2);
    let running = 0;
    let most = 0;
    const job = (fail: boolean) => async () => {
      running++;
      most = Math.max(most, running);
      await tick();
      running--;
      if (fail) throw new Error('graph failed');
    };
    const results = await Promise.allSettled([true, false, false, true, false].map((fail) => pool.run('start', job(fail))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(most).toBe(2);
    expect(pool.queued()).toBe(0);
  });
});
