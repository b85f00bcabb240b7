import { describe, expect, it } from 'vitest';
import { workflowsOf } from './workflows-of';

const capabilities = (text: string) => workflowsOf(text).flatMap((w) => w.capabilities);

describe('offline analyst: rules said with a subject or a label, and a list item that leads the items under it', () => {
  const DONTS = [
    'Assistant for a family law firm.',
    '',
    'You must not:',
    '- send emails to clients, opposing solicitors or the court - ever, for any reason',
    '- send anything for signature in DocuSign, or void or resend envelopes',
    "- create, move or cancel anything in anyone's calendar",
    '- share Google Drive files or folders with anyone',
    '',
    'What you should do:',
    '1. Once an engagement letter has been signed by everyone in DocuSign, save a copy of the signed PDF into the client folder on Google Drive.',
    '',
    "That's it. If in doubt, do nothing and ask Helen.",
  ].join('\n');

  it('given "You must not:" over bare verbs, when analysed, then none of the items is a duty and only the real one is', () => {
    expect(capabilities(DONTS)).toEqual(['google-drive.upload_file']);
    expect(workflowsOf(DONTS)).toHaveLength(1);
  });

  it('given "The assistant should never:" over items, when analysed, then they are rules, not duties', () => {
    const text = [
      'The assistant should never:',
      '- post in Slack',
      '- email customers',
      '',
      'When a Stripe payment fails, create a Zendesk ticket.',
    ].join('\n');
    expect(capabilities(text)).toEqual(['zendesk.create_ticket']);
  });

  it('given "You must:" over items (no negation), when analysed, then the items are duties as before', () => {
    const text = ['When a deal is won in HubSpot, you must:', '- post in #sales', '- email the customer a welcome note'].join(
      '\n',
    );
    expect(capabilities(text)).toEqual(['slack.post_message', 'gmail.send_email']);
  });

  it('given "If in doubt, do nothing and ask Helen.", when analysed, then asking Helen is no step of the work before it', () => {
    const [workflow] = workflowsOf('When a deal is won in HubSpot, post in #sales. If in doubt, do nothing and ask Helen.');
    expect(workflow?.steps).toEqual(['post in #sales']);
  });

  it('given "If a refund is over $100, ask Dana" (a condition, not doubt), when analysed, then asking stays the work', () => {
    const [workflow] = workflowsOf(
      'When a refund is requested in Zendesk, refund it in Stripe. If it is over $100, ask Dana in Slack first.',
    );
    expect(workflow?.capabilities).toContain('slack.post_message');
  });

  it('given "Explicitly out: merging anything, touching deploys, changing Jira statuses.", when analysed, then none of it is work', () => {
    const text =
      'When someone opens a pull request, leave a comment on it with our checklist.\n\nExplicitly out: merging anything (even green PRs), touching deploys, changing Jira statuses.';
    expect(workflowsOf(text)).toHaveLength(1);
    expect(capabilities(text)).toEqual(['github.comment_pull_request']);
  });

  const LEAD_ITEM = [
    'Duties:',
    '',
    '* When someone opens a pull request against helio/api, leave a comment on it with our checklist.',
    '* When someone @-mentions @release-bot in Slack:',
    "  - if it's a hotfix request, create a Bug in the REL Jira project and reply in their thread with the key;",
    "  - if it's a docs problem, open an issue in helio/docs on GitHub instead.",
    '* Any time a Blocker is raised in Jira, post the issue link in #platform.',
  ].join('\n');

  it('given "* When someone @-mentions the bot in Slack:" over indented items, when analysed, then the mention starts them', () => {
    const mention = workflowsOf(LEAD_ITEM)[1];
    expect(mention).toMatchObject({ lead: 'When someone @-mentions @release-bot in Slack', triggerId: 'slack.mention' });
    expect(mention?.capabilities).toEqual(expect.arrayContaining(['jira.create_issue', 'github.create_issue']));
  });

  it('given such a lead item, when analysed, then the items before and after it keep their own starts and work', () => {
    const workflows = workflowsOf(LEAD_ITEM);
    expect(workflows).toHaveLength(3);
    expect(workflows[0]?.capabilities).toEqual(['github.comment_pull_request']);
    expect(workflows[2]).toMatchObject({ lead: 'Any time a Blocker is raised in Jira', capabilities: ['slack.post_message'] });
  });

  const IF_THEN = [
    'Helpdesk assistant rules',
    '',
    'IF a new Zendesk ticket comes in with priority Urgent',
    'THEN post it in #noc.',
    '',
    'IF a customer reopens a ticket',
    'THEN set it to High priority and leave an internal note saying it was reopened.',
    '',
    "IF it's the 1st of the month",
    'THEN raise the retainer invoices in Stripe.',
  ].join('\n');

  it('given rules written IF over THEN on two lines, when analysed, then each rule is a start of its own with its work', () => {
    const workflows = workflowsOf(IF_THEN);
    expect(workflows.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket', 'zendesk.ticket_updated', 'schedule.cron']);
    expect(workflows[1]?.steps).toEqual(['set it to High priority', 'leave an internal note saying it was reopened']);
  });

  it('given "IF it\'s the 1st of the month" over "THEN raise …", when analysed, then it runs on the first of each month', () => {
    expect(workflowsOf(IF_THEN)[2]).toMatchObject({
      cron: expect.stringMatching(/^\d+ \d+ 1 \* \*$/),
      capabilities: ['stripe.create_invoice'],
    });
  });

  it('given "If it is over $100, ask Dana" inside a paragraph (no THEN line), when analysed, then it stays a condition of the work before it', () => {
    const workflows = workflowsOf(
      'When a refund is requested in Zendesk, refund it in Stripe.\nIf it is over $100, ask Dana in Slack first.',
    );
    expect(workflows).toHaveLength(1);
  });
});
