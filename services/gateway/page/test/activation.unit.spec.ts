import { describe, expect, it } from 'vitest';
import { activationSummary } from '../src/employee';

describe('what the page says of an activation', () => {
  const base = { employeeId: 'e-1', version: 3, status: 'active' };

  it('given every workflow on (or none reported), then it runs when its triggers fire, nothing listed off', () => {
    expect(activationSummary({ ...base, workflows: [{ workflowId: 'tickets', status: 'on' }] })).toEqual({
      lead: 'Active: version 3 runs when its triggers fire.',
      off: [],
    });
    expect(activationSummary(base).lead).toBe('Active: version 3 runs when its triggers fire.');
  });

  it('given some off, then each is listed with its reason', () => {
    const summary = activationSummary({
      ...base,
      workflows: [
        { workflowId: 'tickets', status: 'on' },
        { workflowId: 'refunds', status: 'off', reason: 'waits for stripe to be connected' },
        { workflowId: 'digest', status: 'off' },
      ],
    });
    expect(summary).toEqual({
      lead: 'Active: version 3 runs when its triggers fire.',
      off: ['refunds: waits for stripe to be connected', 'digest: it cannot run yet'],
    });
  });

  it('given every workflow off, then it says none can run yet, not that it runs', () => {
    const summary = activationSummary({
      ...base,
      workflows: [{ workflowId: 'refunds', status: 'off', reason: 'waits for stripe to be connected' }],
    });
    expect(summary.lead).toBe('Active, but none of its workflows can run yet: version 3 starts nothing until they can.');
    expect(summary.off).toEqual(['refunds: waits for stripe to be connected']);
  });
});
