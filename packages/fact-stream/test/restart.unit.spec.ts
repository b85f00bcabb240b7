import { describe, expect, it } from 'vitest';
import { restartDelayMs } from '../src/consumer';

describe('starting a consumer again after a crash kafkajs does not restart from', () => {
  it('given the first crash since joining, then it starts again after half a second', () => {
    expect(restartDelayMs(1)).toBe(500);
  });

  it('given crashes in a row, then each waits twice as long as the one before', () => {
    expect([2, 3, 4].map(restartDelayMs)).toEqual([1_000, 2_000, 4_000]);
  });

  it('given many crashes in a row, then it waits at most 30 s and never gives up', () => {
    expect(restartDelayMs(50)).toBe(30_000);
    expect(restartDelayMs(10_000)).toBe(30_000);
  });
});
