import { describe, expect, it } from 'vitest';
import { keepAssigned } from '../src/consumer';

describe('pipelined batches after a rebalance', () => {
  it('given batches pending on three partitions, when the member keeps two, then only those two may still be committed', () => {
    const pending = new Map([
      ['t:0', ['b1']],
      ['t:1', ['b2']],
      ['u:0', ['b3']],
    ]);
    const kept = keepAssigned(pending, { t: [0], u: [0, 1] });
    expect([...kept.keys()]).toEqual(['t:0', 'u:0']);
  });

  it('given batches pending, when the member is assigned nothing, then none may be committed', () => {
    expect(keepAssigned(new Map([['t:0', 1]]), {}).size).toBe(0);
  });
});
