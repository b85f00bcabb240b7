import { ApiLimits } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { activationSummary, activeLead, EMPLOYEE_LIST_LIMIT, statusLabel, type workflowStateLine } from '../src/employee';

describe('what the page says of an activation', () => {
  const base = { employeeId: 'e-1', version: 3, status: 'active' };
  const spec = {
    workflows: [
      { id: 'tickets', name: 'Answer tickets', trigger: { triggerId: 'zendesk.new_ticket', params: {} } },
      { id: 'refunds', name: 'Refund orders', trigger: { triggerId: 'zendesk.new_ticket', params: {} } },
    ],
  } as unknown as Parameters<typeof workflowStateLine>[1];

  it('given every workflow on (or none reported), then it runs when its triggers fire, each workflow said on', () => {
    expect(activationSummary({ ...base, workflows: [{ workflowId: 'tickets', status: 'on' }] })).toEqual({
      lead: 'Active: version 3 runs when its triggers fire.',
      workflows: ['tickets: on'],
    });
    expect(activationSummary(base)).toEqual({ lead: 'Active: version 3 runs when its triggers fire.', workflows: [] });
  });

  it('given some off, then those on run, and each workflow is said on or off with its reason, by name where the spec has it', () => {
    const summary = activationSummary(
      {
        ...base,
        workflows: [
          { workflowId: 'tickets', status: 'on' },
          { workflowId: 'refunds', status: 'off', reason: 'waiting for stripe to be connected for the org' },
          { workflowId: 'digest', status: 'off' },
        ],
      },
      spec,
    );
    expect(summary).toEqual({
      lead: 'Active: version 3 runs when the triggers of its workflows that are on fire; 2 of 3 are off for now.',
      workflows: [
        'Answer tickets (zendesk.new_ticket): on',
        'Refund orders (zendesk.new_ticket): off — waiting for stripe to be connected for the org',
        'digest: off — it cannot run yet',
      ],
    });
  });

  it('given every workflow off, then it says none can run yet, not that it runs', () => {
    const summary = activationSummary({
      ...base,
      workflows: [{ workflowId: 'refunds', status: 'off', reason: 'waits for stripe to be connected' }],
    });
    expect(summary.lead).toBe('Active, but none of its workflows can run yet: version 3 starts nothing until they can.');
    expect(summary.workflows).toEqual(['refunds: off — waits for stripe to be connected']);
    expect(activeLead([{ workflowId: 'refunds', status: 'off' }], 'it')).toBe(
      'Active, but none of its workflows can run yet: it starts nothing until they can.',
    );
  });

  it('given a listed employee, then its status says how many of its workflows are off', () => {
    expect(statusLabel('active', [{ workflowId: 'a', status: 'on' }])).toBe('active');
    expect(statusLabel('active', [{ workflowId: 'a', status: 'off' }])).toBe('active (1 of 1 workflow off)');
    expect(
      statusLabel('active', [
        { workflowId: 'a', status: 'off' },
        { workflowId: 'b', status: 'on' },
      ]),
    ).toBe('active (1 of 2 workflows off)');
    expect(statusLabel('inactive', [{ workflowId: 'a', status: 'off' }])).toBe('inactive');
    expect(statusLabel(undefined)).toBe('not reported');
  });

  it('given the contract’s list limit, then the page’s look for a just-registered employee knows the same one', () => {
    expect(EMPLOYEE_LIST_LIMIT).toBe(ApiLimits.list);
  });
});
