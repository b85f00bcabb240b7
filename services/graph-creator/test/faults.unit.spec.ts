import { describe, expect, it } from 'vitest';
import { type FaultPoint, faultsFromEnv } from '../src/faults';

describe('fault points (make chaos)', () => {
  const recorder = () => {
    const killed: FaultPoint[] = [];
    return { killed, kill: (point: FaultPoint) => killed.push(point) };
  };

  it('given no FAULT_KILL_AT, when every point is passed, then nothing dies', () => {
    const { killed, kill } = recorder();
    const faults = faultsFromEnv({}, kill);
    for (const p of ['node', 'publish', 'resume', 'execute'] as const) faults.at(p);
    expect(killed).toEqual([]);
  });

  it('given a point and a count, when it is passed that many times, then it dies there once', () => {
    const { killed, kill } = recorder();
    const faults = faultsFromEnv({ FAULT_KILL_AT: 'publish', FAULT_KILL_AFTER: '2' }, kill);
    faults.at('publish');
    faults.at('resume');
    expect(killed).toEqual([]);
    faults.at('publish');
    faults.at('publish');
    expect(killed).toEqual(['publish']);
  });

  it('refuses an unknown point, a bad count and any fault in production', () => {
    expect(() => faultsFromEnv({ FAULT_KILL_AT: 'later' })).toThrow(/FAULT_KILL_AT/);
    expect(() => faultsFromEnv({ FAULT_KILL_AT: 'node', FAULT_KILL_AFTER: '0' })).toThrow(/FAULT_KILL_AFTER/);
    expect(() => faultsFromEnv({ FAULT_KILL_AT: 'node', NODE_ENV: 'production' })).toThrow(/production/);
  });
});
