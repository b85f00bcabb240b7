import { describe, expect, it } from 'vitest';
import { aheadOfCommitted, keepAssigned } from '../src/consumer';

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

describe('what a pipelined member commits', () => {
  const mark = (topic: string, partition: number, offset: string) => ({ topic, partition, offset });

  it('given marks on three partitions, when one is behind and one level with what was committed, then only the one ahead is committed', () => {
    const marks = new Map([
      ['t:0', mark('t', 0, '100')],
      ['t:1', mark('t', 1, '50')],
      ['t:2', mark('t', 2, '7')],
    ]);
    const committed = new Map([
      ['t:0', 110n],
      ['t:1', 50n],
    ]);
    expect(aheadOfCommitted(marks, committed)).toEqual([{ key: 't:2', ...mark('t', 2, '7') }]);
  });

  it('given a partition never committed by this member, when it has a mark, then the mark is committed, offset 0 included', () => {
    expect(aheadOfCommitted(new Map([['t:0', mark('t', 0, '0')]]), new Map())).toEqual([{ key: 't:0', ...mark('t', 0, '0') }]);
  });

  it('given offsets past 2^53, then they are compared exactly', () => {
    const marks = new Map([['t:0', mark('t', 0, '9007199254740993')]]);
    expect(aheadOfCommitted(marks, new Map([['t:0', 9007199254740992n]]))).toHaveLength(1);
    expect(aheadOfCommitted(marks, new Map([['t:0', 9007199254740993n]]))).toHaveLength(0);
  });
});
