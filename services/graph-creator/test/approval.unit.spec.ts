import { describe, expect, it } from 'vitest';
import { runTimeRisks } from '../src/creation/approval';

const step = (stepId: string, text: string, risk: 'low' | 'high' = 'high') => ({ stepId, text, risk });

describe('which steps a person approves at run time', () => {
  it('given a description that says where a person approves, then only the steps behind that approval ask', () => {
    expect(
      runTimeRisks([
        step('s1', 'refund it in Stripe automatically when it is under $100'),
        step('s2', 'ask a manager in Slack to approve anything larger before refunding', 'low'),
        step('s2.approved', 'refund it in Stripe (after approval)'),
        step('s3', 'reply to the customer in the ticket with the outcome'),
      ]),
    ).toEqual(['low', 'low', 'high', 'low']);
  });

  it('given a clause that waits for a yes, then that step asks and the others run as described', () => {
    expect(
      runTimeRisks([
        step('s1', 'draft the invoice', 'low'),
        step('s2', 'once the finance lead approves, send the invoice to the customer'),
        step('s3', 'email the customer a receipt'),
      ]),
    ).toEqual(['low', 'high', 'low']);
  });

  it('given a description silent about approvals, then every high-risk step of the catalog asks first', () => {
    expect(runTimeRisks([step('s1', 'merge the pull request'), step('s2', 'post in #dev', 'low')])).toEqual(['high', 'low']);
  });

  it('given a step its clause says runs on its own, then it never asks', () => {
    expect(
      runTimeRisks([step('s1', 'send the welcome email without asking'), step('s2', 'issue refunds automatically')]),
    ).toEqual(['low', 'low']);
  });

  it('given a low-risk step said done once a manager approves ("ask a manager to approve before posting …"), then that step asks and no other', () => {
    expect(
      runTimeRisks([
        step('s1', 'create a Jira issue for it', 'low'),
        step('s2', 'post it to the #escalations Slack channel once a manager approves', 'low'),
        step('s3', 'reply in the ticket'),
      ]),
    ).toEqual(['low', 'high', 'low']);
  });
});
