import { builtInCatalog, type CatalogCapability, type OrgPolicy } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import {
  approvalInQuietHours,
  budgetDecision,
  type CircuitRow,
  circuitAfter,
  circuitGate,
  closedCircuit,
  deferralOf,
  inQuietHours,
  isTransient,
  parseRate,
  policyDecision,
  quietHoursEnd,
  rateDecision,
  rateOf,
  scopeDecision,
} from '../src/tools/rails';

const cap = (id: string) => builtInCatalog.capabilities.find((c) => c.id === id) as CatalogCapability;
const refund = cap('stripe.refund_payment');
const post = cap('slack.post_message');
const http = cap('http.request');
const noon = new Date('2026-11-24T12:00:00Z');
const night = new Date('2026-11-24T23:30:00Z');

describe('scope', () => {
  it('given the org connected stripe, when a stripe tool is called, then it passes', () => {
    expect(scopeDecision(refund, new Set(['stripe']))).toBeUndefined();
  });
  it('given the org has not connected stripe, when a stripe tool is called, then scope_denied names the provider', () => {
    expect(scopeDecision(refund, new Set(['slack']))).toEqual({
      code: 'scope_denied',
      message: 'stripe.refund_payment: the org has not connected stripe',
    });
  });
  it('given no connection at all, when http.request is called, then it passes: it needs none', () => {
    expect(scopeDecision(http, new Set())).toBeUndefined();
  });
});

describe('policy', () => {
  it('given no rules, then every call passes', () => {
    expect(policyDecision({}, refund, { amount: 1_000_000 }, night)).toBeUndefined();
  });
  it('given allowed tools by provider or id, when another tool is called, then policy_denied', () => {
    const policy: OrgPolicy = { allowedTools: ['slack', 'zendesk.reply_ticket'] };
    expect(policyDecision(policy, post, {}, noon)).toBeUndefined();
    expect(policyDecision(policy, refund, {}, noon)).toMatchObject({
      code: 'policy_denied',
      message: expect.stringMatching(/allowed/),
    });
  });
  it('given a denied tool, when it is called, then policy_denied even though it is allowed', () => {
    expect(policyDecision({ allowedTools: ['stripe'], deniedTools: ['stripe.refund_payment'] }, refund, {}, noon)).toMatchObject({
      code: 'policy_denied',
    });
  });
  it('given the largest refund is 100, when 150 is refunded, then policy_denied names the argument; 100 passes', () => {
    const policy: OrgPolicy = { argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 100 }] };
    expect(policyDecision(policy, refund, { amount: 150 }, noon)).toEqual({
      code: 'policy_denied',
      message: "stripe.refund_payment: amount 150 is over the org's limit of 100",
    });
    expect(policyDecision(policy, refund, { amount: 100 }, noon)).toBeUndefined();
  });
  it('given quiet hours 22:00–07:00, when a high-risk step runs at 23:30, then quiet_hours; a low-risk one passes; at noon both pass', () => {
    const policy: OrgPolicy = { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' } };
    expect(refund.risk).toBe('high');
    expect(policyDecision(policy, refund, {}, night)).toMatchObject({ code: 'quiet_hours' });
    expect(policyDecision(policy, { ...refund, risk: 'low' }, {}, night)).toBeUndefined();
    expect(policyDecision(policy, refund, {}, noon)).toBeUndefined();
  });
  it('given quiet hours by approval, when a high-risk step runs inside them, then only an approved one passes', () => {
    const policy: OrgPolicy = { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'approval' } };
    expect(policyDecision(policy, refund, {}, night, false)).toMatchObject({
      code: 'quiet_hours',
      message: expect.stringMatching(/unless a person approves it/),
    });
    expect(policyDecision(policy, refund, {}, night, true)).toBeUndefined();
  });
  it('given quiet hours that defer, when an approved high-risk step runs inside them, then it is still deferred', () => {
    const policy: OrgPolicy = { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' } };
    expect(policyDecision(policy, refund, {}, night, true)).toMatchObject({ code: 'quiet_hours' });
  });
  it('given quiet hours in a time zone, then the local clock decides', () => {
    const quiet = { start: '22:00', end: '07:00', timeZone: 'Asia/Tokyo', during: 'defer' as const };
    // 12:00 UTC is 21:00 in Tokyo; 13:30 UTC is 22:30
    expect(inQuietHours(quiet, noon)).toBe(false);
    expect(inQuietHours(quiet, new Date('2026-11-24T13:30:00Z'))).toBe(true);
    expect(inQuietHours({ ...quiet, start: '09:00', end: '17:00', timeZone: 'UTC' }, noon)).toBe(true);
  });
});

describe('budget', () => {
  it('given calls left, then pass; given none, then budget_exceeded; given no budget, then pass', () => {
    expect(budgetDecision(refund, 1)).toBeUndefined();
    expect(budgetDecision(refund, 0)).toMatchObject({ code: 'budget_exceeded' });
    expect(budgetDecision(refund, undefined)).toBeUndefined();
  });
});

describe('rate', () => {
  it('parses calls per window', () => {
    expect(parseRate('60/m')).toEqual({ points: 60, durationSeconds: 60 });
    expect(parseRate('5/s')).toEqual({ points: 5, durationSeconds: 1 });
    expect(() => parseRate('60 per minute')).toThrow(/60\/m/);
  });
  it("given the org's rate for a tool, then it wins over the default", () => {
    expect(rateOf({ rates: [{ capabilityId: refund.id, rate: '2/m' }] }, refund.id, '60/m')).toBe('2/m');
    expect(rateOf({}, refund.id, '60/m')).toBe('60/m');
    expect(rateOf({}, refund.id, undefined)).toBeUndefined();
  });
  it('given the next point within the wait bound, then wait; beyond it, then rate_limited', () => {
    expect(rateDecision(300, 0, 1_000)).toEqual({ wait: 300 });
    expect(rateDecision(300, 800, 1_000)).toMatchObject({ code: 'rate_limited' });
    expect(rateDecision(59_000, 0, 0)).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/59 s/) });
  });
});

describe('retries', () => {
  it('timeouts, unreachable providers and 5xx are transient; 4xx and bad arguments are permanent', () => {
    expect(['timeout', 'unreachable', 'server_error', 'unavailable', 'rate_limited_by_provider'].every(isTransient)).toBe(true);
    expect(['http_error', 'invalid_args', 'invalid_url', 'invalid_output', 'tool_failed'].some(isTransient)).toBe(false);
  });
});

describe('circuit', () => {
  const t0 = new Date('2026-11-24T12:00:00Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  it('given a closed circuit, when N-1 calls fail, then it stays closed; the Nth opens it', () => {
    let row: CircuitRow = closedCircuit;
    row = circuitAfter(row, false, 3, t0);
    row = circuitAfter(row, false, 3, t0);
    expect(row).toEqual({ state: 'closed', failures: 2, since: null });
    row = circuitAfter(row, false, 3, t0);
    expect(row).toEqual({ state: 'open', failures: 3, since: t0 });
  });
  it('given failures, when a call succeeds, then the count starts again', () => {
    expect(circuitAfter({ state: 'closed', failures: 2, since: null }, true, 3, t0)).toEqual(closedCircuit);
  });
  it('given an open circuit, when called before the cool-down, then circuit_open; after it, then one probe', () => {
    const open: CircuitRow = { state: 'open', failures: 3, since: t0 };
    expect(circuitGate(open, at(999), 1_000)).toMatchObject({
      code: 'circuit_open',
      message: expect.stringMatching(/3 consecutive/),
    });
    expect(circuitGate(open, at(1_000), 1_000)).toEqual({ pass: 'probe' });
  });
  it('given a half-open circuit, when another call comes while the probe runs, then circuit_open', () => {
    expect(circuitGate({ state: 'half_open', failures: 3, since: t0 }, at(10), 1_000)).toMatchObject({ code: 'circuit_open' });
  });
  it('given a half-open circuit, when the probe succeeds, then closed; when it fails, then open again from now', () => {
    const half: CircuitRow = { state: 'half_open', failures: 3, since: t0 };
    expect(circuitAfter(half, true, 3, at(5))).toEqual(closedCircuit);
    expect(circuitAfter(half, false, 3, at(5))).toEqual({ state: 'open', failures: 4, since: at(5) });
  });
});

describe('quiet hours that defer: when the step runs again', () => {
  const night = { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' } as const;
  it('given quiet hours 22:00–07:00 UTC, when a step is refused at 23:30, then it runs again at 07:00 the next day', () => {
    expect(quietHoursEnd(night, new Date('2026-11-24T23:30:00Z')).toISOString()).toBe('2026-11-25T07:00:00.000Z');
  });
  it('given the same window, when refused at 03:15:42, then at 07:00 the same day', () => {
    expect(quietHoursEnd(night, new Date('2026-11-25T03:15:42Z')).toISOString()).toBe('2026-11-25T07:00:00.000Z');
  });
  it('given quiet hours in Europe/Paris, then their end is on the local clock', () => {
    const paris = { ...night, timeZone: 'Europe/Paris' };
    // 23:30 in Paris (UTC+1 in November) → 07:00 Paris = 06:00 UTC
    expect(quietHoursEnd(paris, new Date('2026-11-24T22:30:00Z')).toISOString()).toBe('2026-11-25T06:00:00.000Z');
  });
  it('given a defer policy and a quiet_hours refusal inside them, then a deferral; otherwise none', () => {
    const at = new Date('2026-11-24T23:30:00Z');
    expect(deferralOf({ quietHours: night }, 'quiet_hours', at)?.until.toISOString()).toBe('2026-11-25T07:00:00.000Z');
    expect(deferralOf({ quietHours: { ...night, during: 'approval' } }, 'quiet_hours', at)).toBeUndefined();
    expect(deferralOf({ quietHours: night }, 'policy_denied', at)).toBeUndefined();
    expect(deferralOf({}, 'quiet_hours', at)).toBeUndefined();
    // the policy changed meanwhile and they no longer hold: no deferral, the refusal stands as it was
    expect(deferralOf({ quietHours: night }, 'quiet_hours', new Date('2026-11-24T12:00:00Z'))).toBeUndefined();
  });
});

describe('quiet hours that ask for approval: which calls a person approves', () => {
  const approval = { quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'approval' } } as const;
  it('given quiet hours that ask for approval, when a high-risk tool is called inside them, then a person approves it', () => {
    expect(approvalInQuietHours(approval, refund, night)).toBe(true);
  });
  it('given the same policy, when a low-risk tool or any tool outside them, then nobody is asked', () => {
    expect(approvalInQuietHours(approval, post, night)).toBe(false);
    expect(approvalInQuietHours(approval, refund, noon)).toBe(false);
  });
  it('given quiet hours that defer, or none, then nobody is asked (the step is deferred or runs)', () => {
    expect(approvalInQuietHours({ quietHours: { ...approval.quietHours, during: 'defer' } }, refund, night)).toBe(false);
    expect(approvalInQuietHours({}, refund, night)).toBe(false);
  });
});
