import { describe, expect, it } from 'vitest';
import { loadSupervisorSettings } from '../src/config';

describe('supervisor settings', () => {
  it('defaults to 5 running per org, a 7-day prompt timeout and a 30 s tick', () => {
    expect(loadSupervisorSettings({})).toEqual({ maxRunningPerOrg: 5, promptTimeoutMs: 604_800_000, tickMs: 30_000 });
  });

  it('reads the environment', () => {
    expect(loadSupervisorSettings({ MAX_RUNNING_PER_ORG: '2', PROMPT_TIMEOUT_MS: '1500', SUPERVISOR_TICK_MS: '200' })).toEqual({
      maxRunningPerOrg: 2,
      promptTimeoutMs: 1500,
      tickMs: 200,
    });
  });

  it.each([['0'], ['-1'], ['2.5'], ['lots']])('refuses MAX_RUNNING_PER_ORG=%s, naming the variable', (value) => {
    expect(() => loadSupervisorSettings({ MAX_RUNNING_PER_ORG: value })).toThrow(/MAX_RUNNING_PER_ORG/);
  });
});
