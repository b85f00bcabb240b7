import { describe, expect, it } from 'vitest';
import { policyRows } from '../src/policy';

describe("the org's policy in an employee's view, in words", () => {
  it('given no policy set, then every rule says what holds by default', () => {
    expect(policyRows({ policy: {}, updatedAt: null })).toEqual([
      ['Allowed tools', 'every connected tool'],
      ['Denied tools', 'none'],
      ['Argument limits', 'none'],
      ['Quiet hours', 'none'],
      ['Rates', 'the default rate for every tool'],
      ['Budgets of a run', 'no limit'],
      ['Policy changed', 'never set'],
    ]);
  });

  it('given a policy, then its limits, quiet hours and rates; the spec’s budgets win over the org’s defaults', () => {
    const rows = new Map(
      policyRows(
        {
          policy: {
            allowedTools: ['stripe', 'slack.post_message'],
            argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 100 }],
            quietHours: { start: '22:00', end: '07:00', timeZone: 'Europe/Paris', during: 'defer' },
            rates: [{ capabilityId: 'slack.post_message', rate: '10/m' }],
            budgets: { maxSteps: 9, maxToolCalls: 5 },
          },
          updatedAt: null,
        },
        { maxToolCalls: 20 },
      ),
    );
    expect(rows.get('Allowed tools')).toBe('stripe, slack.post_message');
    expect(rows.get('Argument limits')).toBe('stripe.refund_payment: amount at most 100');
    expect(rows.get('Quiet hours')).toBe('22:00–07:00 Europe/Paris: high-risk steps are deferred until they end');
    expect(rows.get('Rates')).toBe('slack.post_message 10/m');
    expect(rows.get('Budgets of a run')).toBe('9 steps, 20 tool calls');
  });

  it('given quiet hours by approval, then high-risk steps run only when approved', () => {
    const rows = new Map(
      policyRows({
        policy: { quietHours: { start: '20:00', end: '06:00', timeZone: 'UTC', during: 'approval' } },
        updatedAt: null,
      }),
    );
    expect(rows.get('Quiet hours')).toBe('20:00–06:00 UTC: high-risk steps run only when approved');
  });
});
