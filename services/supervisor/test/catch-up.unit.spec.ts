import { describe, expect, it } from 'vitest';
import { adoptedPositions, rewindTargets } from '../src/catch-up';

describe('rewindTargets: resume at the earlier of the committed offset and the end of the store', () => {
  const committed = [
    { topic: 't', partition: 0, offset: '10' },
    { topic: 't', partition: 1, offset: '7' },
    { topic: 't', partition: 2, offset: '-1' },
    { topic: 'u', partition: 0, offset: '3' },
  ];

  it('rewinds a partition whose committed facts the store does not hold yet', () => {
    const stored = new Map([
      ['t:0', 5n],
      ['t:1', 6n],
      ['u:0', 2n],
    ]);
    expect(rewindTargets(committed, stored)).toEqual([{ topic: 't', partition: 0, offset: '6' }]);
  });

  it('reads a partition from its start when the store holds nothing of it', () => {
    expect(rewindTargets(committed, new Map([['t:0', 9n]]))).toEqual([
      { topic: 't', partition: 1, offset: '0' },
      { topic: 'u', partition: 0, offset: '0' },
    ]);
  });

  it('leaves alone partitions without a committed offset and stores ahead of the group', () => {
    expect(
      rewindTargets(
        committed,
        new Map([
          ['t:0', 20n],
          ['t:1', 6n],
          ['u:0', 2n],
        ]),
      ),
    ).toEqual([]);
  });
});

describe('adoptedPositions: a new group starts where the group that read its partitions before stood', () => {
  it('given partitions the new group never committed, then each takes the former group’s position, where it has one', () => {
    const own = [
      { topic: 'hil-prompt', partition: 0, offset: '-1' },
      { topic: 'hil-prompt', partition: 1, offset: '-1' },
      { topic: 'employees', partition: 0, offset: '-1' },
    ];
    const former = [
      { topic: 'hil-prompt', partition: 0, offset: '42' },
      { topic: 'hil-prompt', partition: 1, offset: '-1' },
    ];
    expect(adoptedPositions(own, former)).toEqual([{ topic: 'hil-prompt', partition: 0, offset: '42' }]);
  });

  it('given partitions the new group committed, then they are left alone, whatever the former group says', () => {
    expect(adoptedPositions([{ topic: 't', partition: 0, offset: '3' }], [{ topic: 't', partition: 0, offset: '90' }])).toEqual(
      [],
    );
  });
});
