/**
 * The rails' decisions, pure (ARCHITECTURE §12): each takes what it needs and says pass or why not.
 * The registry calls them in §12's order — scope, policy, budget, rate, circuit — and does the I/O.
 */
import type { CatalogCapability, OrgPolicy, RefusalCode } from '@hireloop/schemas';
import { ConsecutiveBreaker } from 'cockatiel';

export interface Refusal {
  code: RefusalCode;
  message: string;
}

/** Providers that need no connection: they carry their own target (a URL) and credentials in the call. */
export const UNSCOPED_PROVIDERS: ReadonlySet<string> = new Set(['http', 'webhook']);

/** Scope: the org's connection grants the capability's provider (the Connect Hub's `connected`). */
export function scopeDecision(capability: CatalogCapability, connected: ReadonlySet<string> | 'all'): Refusal | undefined {
  if (connected === 'all' || UNSCOPED_PROVIDERS.has(capability.providerId) || connected.has(capability.providerId))
    return undefined;
  return {
    code: 'scope_denied',
    message: `${capability.id}: the org has not connected ${capability.providerId}`,
  };
}

const names = (capability: CatalogCapability, list: readonly string[]) =>
  list.includes(capability.id) || list.includes(capability.providerId);

/** Minutes since midnight of `at` in `timeZone`. */
export function minuteOfDay(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get('hour') * 60 + get('minute');
}

const minutes = (clock: string): number => {
  const [h = '0', m = '0'] = clock.split(':');
  return Number(h) * 60 + Number(m);
};

/** Whether `at` falls in [start, end) of the quiet hours, which may wrap midnight (22:00–07:00). */
export function inQuietHours(quiet: NonNullable<OrgPolicy['quietHours']>, at: Date): boolean {
  const now = minuteOfDay(at, quiet.timeZone);
  const start = minutes(quiet.start);
  const end = minutes(quiet.end);
  if (start === end) return false;
  return start < end ? now >= start && now < end : now >= start || now < end;
}

/**
 * When the quiet hours that hold `at` end: the next instant whose local clock (in the policy's zone)
 * reads `end`, at the minute. A day with a clock change may move it by the change's hour: the
 * candidate is checked on the local clock and shifted an hour either way when it does not read `end`.
 */
export function quietHoursEnd(quiet: NonNullable<OrgPolicy['quietHours']>, at: Date): Date {
  const end = minutes(quiet.end);
  const minute = new Date(Math.floor(at.getTime() / 60_000) * 60_000);
  const ahead = (end - minuteOfDay(minute, quiet.timeZone) + 1440) % 1440 || 1440;
  const candidate = new Date(minute.getTime() + ahead * 60_000);
  for (const shift of [0, -60, 60]) {
    const shifted = new Date(candidate.getTime() + shift * 60_000);
    if (minuteOfDay(shifted, quiet.timeZone) === end && shifted > at) return shifted;
  }
  return candidate;
}

/** A quiet-hours refusal under a policy that defers: the step runs again once they end. */
export function deferralOf(policy: OrgPolicy, code: string | undefined, now: Date): { until: Date } | undefined {
  const quiet = policy.quietHours;
  if (code !== 'quiet_hours' || !quiet || quiet.during !== 'defer' || !inQuietHours(quiet, now)) return undefined;
  return { until: quietHoursEnd(quiet, now) };
}

/**
 * Whether the org's quiet hours ask a person to approve a call now: a high-risk tool (by the catalog's risk) inside
 * quiet hours whose policy says `approval`. The run asks for it like any high-risk step's approval, whatever risk
 * the employee's spec gave the step.
 */
export function approvalInQuietHours(policy: OrgPolicy, capability: CatalogCapability, now: Date): boolean {
  const quiet = policy.quietHours;
  return capability.risk === 'high' && quiet?.during === 'approval' && inQuietHours(quiet, now);
}

/**
 * Policy: allowed and denied tools, argument limits, quiet hours for a high-risk step — deferred
 * (refused), or let through when a person approved this step and the policy says `approval`.
 */
export function policyDecision(
  policy: OrgPolicy,
  capability: CatalogCapability,
  args: Record<string, unknown>,
  now: Date,
  approved = false,
): Refusal | undefined {
  if (policy.allowedTools && !names(capability, policy.allowedTools))
    return { code: 'policy_denied', message: `${capability.id} is not among the org's allowed tools` };
  if (policy.deniedTools && names(capability, policy.deniedTools))
    return { code: 'policy_denied', message: `${capability.id} is denied by the org's policy` };
  for (const limit of policy.argumentLimits ?? []) {
    if (limit.capabilityId !== capability.id) continue;
    const value = args[limit.argument];
    if (typeof value === 'number' && value > limit.max)
      return {
        code: 'policy_denied',
        message: `${capability.id}: ${limit.argument} ${value} is over the org's limit of ${limit.max}`,
      };
  }
  if (capability.risk === 'high' && policy.quietHours && inQuietHours(policy.quietHours, now)) {
    const q = policy.quietHours;
    if (q.during === 'approval' && approved) return undefined;
    return {
      code: 'quiet_hours',
      message: `${capability.id} is high-risk and the org's quiet hours (${q.start}–${q.end} ${q.timeZone}) defer it${q.during === 'approval' ? ' unless a person approves it' : ''}`,
    };
  }
  return undefined;
}

/** Budget: the calls left to the run (absent: no limit). */
export function budgetDecision(capability: CatalogCapability, toolCallsLeft: number | undefined): Refusal | undefined {
  if (toolCallsLeft === undefined || toolCallsLeft > 0) return undefined;
  return { code: 'budget_exceeded', message: `${capability.id}: the run has spent its budget of tool calls` };
}

const WINDOWS = { s: 1, m: 60, h: 3600, d: 86_400 } as const;

/** `"60/m"` → 60 points per 60 seconds. */
export function parseRate(rate: string): { points: number; durationSeconds: number } {
  const match = /^([1-9][0-9]{0,5})\/(s|m|h|d)$/.exec(rate);
  if (!match) throw new Error(`a rate is calls/window (s, m, h, d), e.g. 60/m — not "${rate}"`);
  return { points: Number(match[1]), durationSeconds: WINDOWS[match[2] as keyof typeof WINDOWS] };
}

/** The rate of a tool for an org: the policy's, else the registry's default (undefined: unlimited). */
export const rateOf = (policy: OrgPolicy, capabilityId: string, fallback: string | undefined): string | undefined =>
  policy.rates?.find((r) => r.capabilityId === capabilityId)?.rate ?? fallback;

/** Whether a rate-limited call waits for the next point (bounded) or is refused. */
export function rateDecision(msBeforeNext: number, waitedMs: number, maxWaitMs: number): { wait: number } | Refusal {
  if (waitedMs + msBeforeNext <= maxWaitMs) return { wait: Math.max(1, msBeforeNext) };
  return {
    code: 'rate_limited',
    message: `the org's rate for this tool is spent; the next call is possible in ${Math.ceil(msBeforeNext / 1000)} s`,
  };
}

/** Transient connector errors are retried; every other code (4xx, invalid_args, …) is permanent. */
const TRANSIENT = new Set(['timeout', 'unreachable', 'unavailable', 'rate_limited_by_provider', 'server_error']);
export const isTransient = (code: string): boolean => TRANSIENT.has(code);

// ---- the circuit breaker, one per org and tool, its state a row every worker reads ----

export type CircuitState = 'closed' | 'open' | 'half_open';

export interface CircuitRow {
  state: CircuitState;
  /** consecutive failures (cockatiel's ConsecutiveBreaker state) */
  failures: number;
  /** when it opened, or when the half-open probe started */
  since: Date | null;
}

export const closedCircuit: CircuitRow = { state: 'closed', failures: 0, since: null };

/** Before a call: pass, be the one probe of a half-open circuit, or be refused. */
export function circuitGate(row: CircuitRow, now: Date, coolDownMs: number): { pass: 'closed' | 'probe' } | Refusal {
  if (row.state === 'closed') return { pass: 'closed' };
  const elapsed = now.getTime() - (row.since?.getTime() ?? 0);
  // an open circuit half-opens after the cool-down; a probe that never reported frees its place after one more
  if (elapsed >= coolDownMs) return { pass: 'probe' };
  const left = Math.ceil((coolDownMs - elapsed) / 1000);
  return {
    code: 'circuit_open',
    message:
      row.state === 'open'
        ? `the circuit of this tool is open after ${row.failures} consecutive failures; it half-opens in ${left} s`
        : 'the circuit of this tool is half-open and another call is probing it',
  };
}

/** After a call (or a probe): the next row. Failures count with cockatiel's ConsecutiveBreaker. */
export function circuitAfter(row: CircuitRow, ok: boolean, threshold: number, now: Date): CircuitRow {
  const breaker = new ConsecutiveBreaker(threshold);
  breaker.state = row.failures;
  if (ok) {
    breaker.success();
    return { state: 'closed', failures: breaker.state, since: null };
  }
  const opens = breaker.failure();
  // a failed probe opens it again at once
  if (opens || row.state !== 'closed') return { state: 'open', failures: breaker.state, since: now };
  return { state: 'closed', failures: breaker.state, since: null };
}
