import { ConfigError } from '@hireloop/platform';
import type { SupervisorConfig } from './decider';

export interface SupervisorSettings extends SupervisorConfig {
  /** how often the timer reconciles: overdue prompts, free slots, unsent cancels */
  tickMs: number;
  /** how often the leader fires due cron slots */
  cronTickMs: number;
  /** on taking the lead, slots this far back are fired again (ids dedupe those already fired) */
  cronCatchUpMs: number;
}

export const SupervisorDefaults: SupervisorSettings = {
  maxRunningPerOrg: 5,
  promptTimeoutMs: 7 * 24 * 3600 * 1000,
  tickMs: 30_000,
  cronTickMs: 5_000,
  cronCatchUpMs: 120_000,
};

function positiveInteger(env: Record<string, string | undefined>, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ConfigError(`invalid ${name}: expected a positive integer, got ${JSON.stringify(raw)}`);
  }
  return value;
}

/**
 * `MAX_RUNNING_PER_ORG`, `PROMPT_TIMEOUT_MS`, `SUPERVISOR_TICK_MS`, `CRON_TICK_MS`, `CRON_CATCH_UP_MS`
 * (README, "Configuration").
 */
export function loadSupervisorSettings(env: Record<string, string | undefined> = process.env): SupervisorSettings {
  return {
    maxRunningPerOrg: positiveInteger(env, 'MAX_RUNNING_PER_ORG', SupervisorDefaults.maxRunningPerOrg),
    promptTimeoutMs: positiveInteger(env, 'PROMPT_TIMEOUT_MS', SupervisorDefaults.promptTimeoutMs),
    tickMs: positiveInteger(env, 'SUPERVISOR_TICK_MS', SupervisorDefaults.tickMs),
    cronTickMs: positiveInteger(env, 'CRON_TICK_MS', SupervisorDefaults.cronTickMs),
    cronCatchUpMs: positiveInteger(env, 'CRON_CATCH_UP_MS', SupervisorDefaults.cronCatchUpMs),
  };
}
