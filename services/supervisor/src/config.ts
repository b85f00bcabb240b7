import { ConfigError, positiveIntegerEnv } from '@hireloop/platform';
import type { SupervisorConfig } from './decider';

export interface SupervisorSettings extends SupervisorConfig {
  /** how often the timer reconciles: prompts to remind or time out, free slots, unsent cancels */
  tickMs: number;
  /** how often the leader fires due cron slots */
  cronTickMs: number;
  /** on taking the lead, slots this far back are fired again (ids dedupe those already fired) */
  cronCatchUpMs: number;
  /** what follows an execution (prompts, answers, results) is fetched at most once per this while */
  followLingerMs: number;
}

const HOUR = 3600 * 1000;

export const SupervisorDefaults: SupervisorSettings = {
  maxRunningPerOrg: 5,
  maxOpenPerUser: 10,
  promptTimeoutMs: 8 * HOUR,
  promptReminderMs: HOUR,
  tickMs: 30_000,
  cronTickMs: 5_000,
  cronCatchUpMs: 120_000,
  followLingerMs: 50,
};

/**
 * `MAX_RUNNING_PER_ORG`, `MAX_OPEN_PER_USER`, `PROMPT_TIMEOUT_MS`, `PROMPT_REMINDER_MS`,
 * `SUPERVISOR_TICK_MS`, `CRON_TICK_MS`, `CRON_CATCH_UP_MS`, `SUPERVISOR_FOLLOW_LINGER_MS` (README, "Configuration"). The reminder must come before the deadline: set,
 * it must be shorter than the timeout; unset, it is an hour, or half the timeout when that is shorter.
 */
export function loadSupervisorSettings(env: Record<string, string | undefined> = process.env): SupervisorSettings {
  const promptTimeoutMs = positiveIntegerEnv(env, 'PROMPT_TIMEOUT_MS', SupervisorDefaults.promptTimeoutMs);
  const promptReminderMs = positiveIntegerEnv(
    env,
    'PROMPT_REMINDER_MS',
    Math.min(SupervisorDefaults.promptReminderMs, Math.floor(promptTimeoutMs / 2)) || 1,
  );
  if (promptReminderMs >= promptTimeoutMs) {
    throw new ConfigError(
      `invalid PROMPT_REMINDER_MS: ${promptReminderMs} is not shorter than PROMPT_TIMEOUT_MS (${promptTimeoutMs}); the reminder goes out that long before the deadline`,
    );
  }
  return {
    maxRunningPerOrg: positiveIntegerEnv(env, 'MAX_RUNNING_PER_ORG', SupervisorDefaults.maxRunningPerOrg),
    maxOpenPerUser: positiveIntegerEnv(env, 'MAX_OPEN_PER_USER', SupervisorDefaults.maxOpenPerUser),
    promptTimeoutMs,
    promptReminderMs,
    tickMs: positiveIntegerEnv(env, 'SUPERVISOR_TICK_MS', SupervisorDefaults.tickMs),
    cronTickMs: positiveIntegerEnv(env, 'CRON_TICK_MS', SupervisorDefaults.cronTickMs),
    cronCatchUpMs: positiveIntegerEnv(env, 'CRON_CATCH_UP_MS', SupervisorDefaults.cronCatchUpMs),
    followLingerMs: positiveIntegerEnv(env, 'SUPERVISOR_FOLLOW_LINGER_MS', SupervisorDefaults.followLingerMs),
  };
}
