import { describe, expect, it } from 'vitest';
import { loadSupervisorSettings } from '../src/config';

describe('supervisor settings', () => {
  it('defaults to 5 advancing per org, 10 open per user, an 8-hour prompt deadline reminded an hour before, a 30 s tick, cron slots every 5 s, 2 min of catch-up and follow-ups read in 50 ms windows', () => {
    expect(loadSupervisorSettings({})).toEqual({
      maxRunningPerOrg: 5,
      maxOpenPerUser: 10,
      promptTimeoutMs: 28_800_000,
      promptReminderMs: 3_600_000,
      tickMs: 30_000,
      cronTickMs: 5_000,
      cronCatchUpMs: 120_000,
      followLingerMs: 50,
    });
  });

  it('reads the environment', () => {
    expect(
      loadSupervisorSettings({
        MAX_RUNNING_PER_ORG: '2',
        MAX_OPEN_PER_USER: '3',
        PROMPT_TIMEOUT_MS: '1500',
        PROMPT_REMINDER_MS: '500',
        SUPERVISOR_TICK_MS: '200',
        CRON_TICK_MS: '1000',
        CRON_CATCH_UP_MS: '30000',
        SUPERVISOR_FOLLOW_LINGER_MS: '5',
      }),
    ).toEqual({
      maxRunningPerOrg: 2,
      maxOpenPerUser: 3,
      promptTimeoutMs: 1500,
      promptReminderMs: 500,
      tickMs: 200,
      cronTickMs: 1000,
      cronCatchUpMs: 30_000,
      followLingerMs: 5,
    });
  });

  it('reminds half-way when the deadline is shorter than two hours and no reminder is set', () => {
    expect(loadSupervisorSettings({ PROMPT_TIMEOUT_MS: '1500' }).promptReminderMs).toBe(750);
  });

  it('refuses a reminder that does not come before the deadline', () => {
    expect(() => loadSupervisorSettings({ PROMPT_TIMEOUT_MS: '1000', PROMPT_REMINDER_MS: '1000' })).toThrow(/PROMPT_REMINDER_MS/);
  });

  it.each([['0'], ['-1'], ['2.5'], ['lots']])('refuses MAX_RUNNING_PER_ORG=%s, naming the variable', (value) => {
    expect(() => loadSupervisorSettings({ MAX_RUNNING_PER_ORG: value })).toThrow(/MAX_RUNNING_PER_ORG/);
  });

  it.each([['0'], ['many']])('refuses MAX_OPEN_PER_USER=%s, naming the variable', (value) => {
    expect(() => loadSupervisorSettings({ MAX_OPEN_PER_USER: value })).toThrow(/MAX_OPEN_PER_USER/);
  });
});
