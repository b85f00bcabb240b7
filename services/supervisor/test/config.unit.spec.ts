import { describe, expect, it } from 'vitest';
import { loadSupervisorSettings } from '../src/config';

describe('supervisor settings', () => {
  it('defaults to 5 running per org, a 7-day prompt timeout, a 30 s tick, cron slots every 5 s and 2 min of catch-up', () => {
    expect(loadSupervisorSettings({})).toEqual({
      maxRunningPerOrg: 5,
      promptTimeoutMs: 604_800_000,
      tickMs: 30_000,
      cronTickMs: 5_000,
      cronCatchUpMs: 120_000,
    });
  });

  it('reads the environment', () => {
    expect(
      loadSupervisorSettings({
        MAX_RUNNING_PER_ORG: '2',
        PROMPT_TIMEOUT_MS: '1500',
        SUPERVISOR_TICK_MS: '200',
        CRON_TICK_MS: '1000',
        CRON_CATCH_UP_MS: '30000',
      }),
    ).toEqual({ maxRunningPerOrg: 2, promptTimeoutMs: 1500, tickMs: 200, cronTickMs: 1000, cronCatchUpMs: 30_000 });
  });

  it.each([['0'], ['-1'], ['2.5'], ['lots']])('refuses MAX_RUNNING_PER_ORG=%s, naming the variable', (value) => {
    expect(() => loadSupervisorSettings({ MAX_RUNNING_PER_ORG: value })).toThrow(/MAX_RUNNING_PER_ORG/);
  });
});
