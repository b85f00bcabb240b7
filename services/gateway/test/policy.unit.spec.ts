import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { knownTimeZone, policyProblem, policyReader, policyWriter, withConnectors } from '../src/routes/policy';

describe('who may read and change an org policy (pure)', () => {
  it('given a token of the org, then it reads its own; another org is not found', () => {
    expect(policyReader({ userId: 'u', orgId: 'acme' }, 'acme')).toBe('acme');
    expect(() => policyReader({ userId: 'u', orgId: 'acme' }, 'globex')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
  });
  it('given a member without the admin role, then changing is forbidden; an admin may', () => {
    expect(() => policyWriter({ userId: 'u', orgId: 'acme' }, 'acme')).toThrow(expect.objectContaining({ code: 'FORBIDDEN' }));
    expect(policyWriter({ userId: 'u', orgId: 'acme', role: 'admin' }, 'acme')).toBe('acme');
  });
  it('knows IANA time zones', () => {
    expect(knownTimeZone('Europe/Paris')).toBe(true);
    expect(knownTimeZone('Mars/Olympus')).toBe(false);
  });
});

describe('rules a policy holds that could never apply (policyProblem, pure)', () => {
  const catalog = builtInCatalog.capabilities;
  it('given the catalog with the tools hireloop’s connectors bring, when a policy denies webhook.send, then that is no problem; without them, it is', () => {
    expect(policyProblem({ deniedTools: ['webhook.send'] }, withConnectors(catalog))).toBeNull();
    expect(policyProblem({ deniedTools: ['webhook.send'] }, catalog)).toMatchObject({ field: '/deniedTools/0' });
    // the catalog's own entry wins over the connector's
    const listed = [
      {
        id: 'webhook.send',
        providerId: 'webhook',
        inputSchema: { type: 'object' as const, properties: {}, required: [], additionalProperties: false },
      },
    ];
    expect(withConnectors(listed)).toEqual(listed);
  });
  it('given rules over the catalog’s tools, providers and numeric arguments, when checked, then none is a problem', () => {
    expect(
      policyProblem(
        {
          allowedTools: ['stripe', 'zendesk.reply_ticket'],
          deniedTools: ['http'],
          argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'amount', max: 100 }],
          rates: [{ capabilityId: 'slack.post_message', rate: '10/m' }],
          quietHours: { start: '22:00', end: '07:00', timeZone: 'UTC', during: 'defer' },
        },
        catalog,
      ),
    ).toBeNull();
  });
  it('given a limit on a text argument, when checked, then it names the argument and says limits are maxima of numbers', () => {
    expect(
      policyProblem({ argumentLimits: [{ capabilityId: 'stripe.refund_payment', argument: 'paymentId', max: 1 }] }, catalog),
    ).toEqual({ field: '/argumentLimits/0/argument', message: expect.stringContaining('no number') });
  });
  it('given rules that contradict each other or refuse every call, when checked, then each is named', () => {
    expect(policyProblem({ allowedTools: ['slack.post_message'], deniedTools: ['slack.post_message'] }, catalog)).toEqual({
      field: '/deniedTools/0',
      message: expect.stringContaining('both allowed and denied'),
    });
    // a provider denied holds its tools
    expect(policyProblem({ allowedTools: ['stripe.refund_payment'], deniedTools: ['stripe'] }, catalog)?.field).toBe(
      '/deniedTools/0',
    );
    // a provider allowed but one of its tools denied is a refinement, not a contradiction
    expect(policyProblem({ allowedTools: ['stripe'], deniedTools: ['stripe.refund_payment'] }, catalog)).toBeNull();
    expect(policyProblem({ allowedTools: ['stripe.refund_payment'], deniedTools: ['slack'] }, catalog)).toBeNull();
    const limit = (max: number) => ({ capabilityId: 'stripe.refund_payment', argument: 'amount', max });
    expect(policyProblem({ argumentLimits: [limit(100), limit(5)] }, catalog)).toEqual({
      field: '/argumentLimits/1',
      message: expect.stringContaining('limited twice'),
    });
    expect(policyProblem({ argumentLimits: [limit(-1)] }, catalog)).toEqual({
      field: '/argumentLimits/0/max',
      message: expect.stringContaining('refuse every call'),
    });
    expect(policyProblem({ argumentLimits: [limit(0)] }, catalog)).toBeNull();
  });
  it('given a mistyped tool, when checked, then it names the rule', () => {
    expect(policyProblem({ rates: [{ capabilityId: 'stripe.refund', rate: '1/m' }] }, catalog)?.field).toBe(
      '/rates/0/capabilityId',
    );
  });
});
