import { describe, expect, it } from 'vitest';
import { workflowsFor } from './workflows-of';

// A kind of product said instead of its name ("the CRM", "our ATS", "the HRIS") is the org's product of
// that kind, whichever it has connected: where a step lands, it outweighs a verb and object another
// product shares ("add the person" is also how people are brought into a Slack channel).

const capabilities = (connected: string[], text: string) => workflowsFor(connected, text).flatMap((w) => w.capabilities);

describe('offline analyst: a kind of product named instead of the product', () => {
  it('given "add the person to the CRM as a lead" with HubSpot connected, when analysed, then a HubSpot contact is made, not a Slack invite', () => {
    expect(
      capabilities(
        ['gmail', 'slack', 'hubspot', 'webhook'],
        'When someone fills in the contact form, add the person to the CRM as a lead.',
      ),
    ).toEqual(['hubspot.create_contact']);
  });

  it('given the same step with Salesforce connected instead, when analysed, then a Salesforce lead is made', () => {
    expect(
      capabilities(
        ['gmail', 'slack', 'salesforce', 'webhook'],
        'When someone fills in the contact form, add the person to the CRM as a lead.',
      ),
    ).toEqual(['salesforce.create_lead']);
  });

  it('given "add the new engineer to #platform", when analysed, then the Slack invite still reads', () => {
    expect(
      capabilities(['gmail', 'slack', 'hubspot', 'bamboohr'], 'When a new hire starts in BambooHR, add them to #platform.'),
    ).toEqual(['slack.invite_user']);
  });
});

describe('offline analyst: another system calling in at a time of its own', () => {
  const connected = ['gmail', 'slack', 'twilio', 'http', 'webhook', 'schedule'];

  it('given "Every evening around 6 our dispatch software can ping a web address with tomorrow\'s runs", when analysed, then its call starts the work, not a schedule', () => {
    const ws = workflowsFor(
      connected,
      "Every evening around 6 our dispatch software, DispatchTrack, can ping a web address with tomorrow's runs. Text each driver their first stop.",
    );
    expect(ws.map((w) => [w.triggerId, w.capabilities])).toEqual([['webhook.incoming_webhook', ['twilio.send_sms']]]);
  });

  it('given "Every evening at 6, call the endpoint", when analysed, then calling it is a scheduled duty of ours', () => {
    const ws = workflowsFor(connected, 'Every evening at 6, call the endpoint and post the result in #ops.');
    expect(ws.map((w) => [w.triggerId, w.capabilities])).toEqual([['schedule.cron', ['http.request', 'slack.post_message']]]);
  });

  it('given "Every morning we ping the URL", when analysed, then the morning is still our schedule', () => {
    expect(
      workflowsFor(connected, 'Every morning we can ping the URL to check it is up; if it fails, post in #ops.').map(
        (w) => w.triggerId,
      ),
    ).toEqual(['schedule.cron']);
  });
});

describe('offline analyst: a person asked to approve before a step', () => {
  const connected = ['gmail', 'slack', 'zendesk', 'jira', 'hubspot', 'docusign', 'stripe'];

  it('given "ask a manager to approve before posting it to #escalations", when analysed, then the post is the step, done once the manager approves', () => {
    const [w] = workflowsFor(
      connected,
      'When a new Zendesk ticket arrives, create a Jira issue for it, ask a manager to approve before posting it to the #escalations Slack channel, and reply in the ticket.',
    );
    expect(w?.steps).toEqual([
      'create a Jira issue for it',
      'post it to the #escalations Slack channel once a manager approves',
      'reply in the ticket',
    ]);
    expect(w?.capabilities).toEqual(['jira.create_issue', 'slack.post_message', 'zendesk.reply_ticket']);
  });

  it('given "Before posting it to #escalations, ask a manager to approve.", when analysed, then no start is read into "before"', () => {
    const ws = workflowsFor(
      connected,
      'When a new Zendesk ticket arrives, create a Jira issue for it. Before posting it to #escalations, ask a manager to approve.',
    );
    expect(ws.map((w) => [w.triggerId, w.steps])).toEqual([
      ['zendesk.new_ticket', ['create a Jira issue for it', 'Post it to #escalations once a manager approves']],
    ]);
  });

  it('given "ask Sarah for approval before sending the contract through DocuSign", when analysed, then the contract is sent once Sarah approves', () => {
    const [w] = workflowsFor(
      connected,
      'When a deal closes in HubSpot, ask Sarah for approval before sending the contract through DocuSign.',
    );
    expect(w?.steps).toEqual(['send the contract through DocuSign once Sarah approves']);
    expect(w?.capabilities).toEqual(['docusign.send_envelope']);
  });

  it('given "ask the customer before refunding", when analysed, then no approval is read (only a yes asked for is one)', () => {
    const [w] = workflowsFor(
      connected,
      'When a refund request comes in on Zendesk, ask the customer for their order number before refunding it.',
    );
    expect(w?.steps.join(' ')).not.toMatch(/approves/);
  });
});

describe('offline analyst: an approval before a step, where the words only look like one (review)', () => {
  const connected = ['gmail', 'slack', 'zendesk', 'jira', 'stripe', 'google-calendar', 'schedule', 'webhook', 'http', 'twilio'];
  const stepsOf = (text: string) => workflowsFor(connected, text).map((w) => w.steps);

  it('given an address or an amount in the step, when analysed, then the step keeps it whole', () => {
    expect(stepsOf('When an escalation email arrives, ask a manager to approve before emailing it to ops@acme.com.')).toEqual([
      ['email it to ops@acme.com once a manager approves'],
    ]);
    expect(
      stepsOf('When a refund request comes in on Zendesk, ask a manager to approve before refunding $12.50 to the customer.'),
    ).toEqual([['refund $12.50 to the customer once a manager approves']]);
  });

  it('given another step joined on after the approved one, when analysed, then only the approved one waits for the yes', () => {
    expect(
      stepsOf(
        'When a new Zendesk ticket arrives, ask a manager to approve before posting it to #escalations and email the customer.',
      ),
    ).toEqual([['post it to #escalations once a manager approves', 'email the customer']]);
  });

  it('given the customer asked for a yes, when analysed, then it is a message to them, no approval of ours', () => {
    expect(
      stepsOf('When a booking request comes in by email, ask the customer for a yes before booking the appointment.')
        .flat()
        .join(' '),
    ).not.toMatch(/approves/);
  });

  it('given "before closing time", when analysed, then no step is made of the time', () => {
    expect(
      stepsOf('When a new Zendesk ticket arrives, ask a manager to approve it before closing time.').flat().join(' '),
    ).not.toMatch(/\bclose time\b/);
  });

  it('given a rule of every reply ("Before replying to any customer, ask a manager for approval."), when analysed, then it is no workflow of its own', () => {
    expect(
      workflowsFor(
        connected,
        'Before replying to any customer, ask a manager for approval. When a ticket arrives in Zendesk, reply to the customer.',
      ).map((w) => w.triggerId),
    ).toEqual(['zendesk.new_ticket']);
  });

  it('given the ask said first in its sentence ("Ask a manager to approve before posting it …"), when analysed, then the post waits for it', () => {
    expect(
      stepsOf('When a Zendesk ticket arrives, summarise it. Ask a manager to approve before posting it to #escalations.').flat(),
    ).toContain('Post it to #escalations once a manager approves');
  });

  it('given a time, then a call that may not come or a duty after the call, when analysed, then the time stays our schedule', () => {
    for (const text of [
      'Every night at 10, if the POS never calls our webhook, alert #ops.',
      "Every night our POS pings our webhook with the day's sales, then post a summary to #ops.",
      "Every Monday at 9, the shop's report is due; when it posts to our endpoint, summarise it in #ops.",
    ])
      expect(
        workflowsFor(connected, text).map((w) => w.triggerId),
        text,
      ).toEqual(['schedule.cron']);
  });
});
