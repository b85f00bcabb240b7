import { describe, expect, it } from 'vitest';
import { crashesInARow, restartDelayMs, STEADY_MS } from '../src/consumer';

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

  it('given a crash soon after joining, then it counts as one more in a row, so the wait keeps growing', () => {
    expect(crashesInARow(3, 2_000)).toBe(4);
    expect(crashesInARow(3, null)).toBe(4);
  });

  it('given a crash after a join that held for a minute, then the backoff starts over', () => {
    expect(crashesInARow(7, STEADY_MS)).toBe(1);
    expect(restartDelayMs(crashesInARow(7, STEADY_MS + 1))).toBe(500);
  });
});
