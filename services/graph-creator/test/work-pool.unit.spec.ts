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

  it('given an answer done with starts waiting, when the next answer arrives a moment later, then it is served before the starts', async () => {
    const pool = new WorkPool(1, { answerGraceMs: 20 });
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(name);
    };
    const a1 = pool.run('answer', work('a1'));
    const starts = [pool.run('start', work('s1')), pool.run('start', work('s2'))];
    await a1;
    // the answers' consumer hands over the partition's next answer once a1 is done
    await new Promise((resolve) => setTimeout(resolve, 5));
    const a2 = pool.run('answer', work('a2'));
    await Promise.all([a2, ...starts]);
    expect(order).toEqual(['a1', 'a2', 's1', 's2']);
  });

  it('given an answer done with starts waiting and no answer coming, when the grace passes, then the starts are served', async () => {
    const pool = new WorkPool(1, { answerGraceMs: 5 });
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(name);
    };
    await Promise.all([pool.run('answer', work('a1')), pool.run('start', work('s1'))]);
    expect(order).toEqual(['a1', 's1']);
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
    const results = await Promise.allSettled([true, false, false, true, false].map((fail) => pool.run('answer', job(fail))));
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    expect(most).toBe(2);
    expect(pool.queued()).toBe(0);
  });

  it('given starts filling a pool of three, when an answer arrives, then it runs at once in the slot kept for answers', async () => {
    const pool = new WorkPool(3);
    const order: string[] = [];
    const finish: (() => void)[] = [];
    const long = (name: string) => () =>
      new Promise<void>((resolve) => {
        order.push(name);
        finish.push(resolve);
      });
    const starts = ['s1', 's2', 's3', 's4'].map((name) => pool.run('start', long(name)));
    await tick();
    expect(order).toEqual(['s1', 's2']); // two of three slots: starts never take the last
    const answered = pool.run('answer', async () => void order.push('a1'));
    await answered;
    expect(order).toEqual(['s1', 's2', 'a1']);
    for (const done of finish.splice(0)) done();
    await tick();
    await tick();
    expect(order).toEqual(['s1', 's2', 'a1', 's3', 's4']);
    for (const done of finish.splice(0)) done();
    await Promise.all(starts);
  });

  it('given only starts, then a pool of two runs one at a time and a pool of one still runs its start', async () => {
    for (const [size, expected] of [
      [2, 1],
      [1, 1],
      [4, 3],
    ] as const) {
      const pool = new WorkPool(size);
      let running = 0;
      let most = 0;
      const job = async () => {
        running++;
        most = Math.max(most, running);
        await tick();
        running--;
      };
      await Promise.all(Array.from({ length: 6 }, () => pool.run('start', job)));
      expect({ size, most }).toEqual({ size, most: expected });
    }
  });

  it('given a start that fails, then its slot goes to the next start', async () => {
    const pool = new WorkPool(2);
    const failing = pool.run('start', async () => {
      throw new Error('graph failed');
    });
    const next = pool.run('start', async () => 'ran');
    await expect(failing).rejects.toThrow('graph failed');
    await expect(next).resolves.toBe('ran');
    expect(pool.queued()).toBe(0);
  });
});
