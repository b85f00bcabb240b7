import { describe, expect, it } from 'vitest';
import { normalise } from '../src/text';
import { workflowsFor, workflowsOf } from './workflows-of';

const capabilities = (text: string) => workflowsOf(text).flatMap((w) => w.capabilities);
const triggers = (text: string) => workflowsOf(text).map((w) => w.triggerId);

describe('offline analyst: a week laid out by its days', () => {
  const WEEK = [
    'Office rhythm for the assistant:',
    '',
    'TUESDAY',
    '07:45  Post the week’s stock count reminder in #warehouse.',
    '2pm - email the suppliers on our reorder list asking for lead times.',
    '',
    'Wednesday:',
    'Nothing planned.',
    '',
    '## Thursday',
    '- 17:30 open a Jira task in OPS for the weekly fire-door check',
  ].join('\n');

  it('given clocked lines under day headings, when analysed, then each is a weekly schedule at its day and time', () => {
    const ws = workflowsOf(WEEK);
    expect(ws.map((w) => w.cron)).toEqual(['45 7 * * 2', '0 14 * * 2', '30 17 * * 4']);
    expect(ws.flatMap((w) => w.capabilities)).toEqual(['slack.post_message', 'gmail.send_email', 'jira.create_issue']);
  });

  it('given a day heading over prose, when analysed, then the heading is left as it was', () => {
    expect(normalise('FRIDAY\nWe close early on Fridays.')).toContain('FRIDAY\nWe close early on Fridays.');
  });

  it('given "EVERY DAY, ANY TIME" over work with its own start, when analysed, then no daily schedule is made', () => {
    const ws = workflowsOf('EVERY DAY, ANY TIME\nWhen a tenant texts the repairs number, log it as a Jira issue in MAINT.');
    expect(ws.map((w) => w.triggerId)).toEqual(['twilio.sms_received']);
  });
});

describe('offline analyst: parts of a plan for another time', () => {
  const PLAN = [
    'We want two helpers eventually.',
    '',
    '1. Sales helper (later)',
    '   - Create a HubSpot deal for every new lead',
    '   - Email prospects a brochure',
    '',
    '2. Support helper',
    '   - When a Zendesk ticket is created, post it in #support.',
  ].join('\n');

  it('given a part marked "(later)", when analysed, then its items are not this employee’s work', () => {
    expect(capabilities(PLAN)).toEqual(['slack.post_message']);
  });

  it('given one part marked "<-- this one", when analysed, then only its items are the work', () => {
    const chosen = PLAN.replace('(later)', '').replace('2. Support helper', '2. Support helper  <-- this one');
    expect(capabilities(chosen)).toEqual(['slack.post_message']);
  });

  it('given "#1 and #3 will be set up later", when analysed, then that sentence starts nothing', () => {
    const ws = workflowsOf(
      'This request is for #2 only. #1 and #3 will be set up later once we see how it goes. When a Stripe payment fails, email the customer.',
    );
    expect(ws.map((w) => w.triggerId)).toEqual(['stripe.payment_failed']);
  });

  it('given no part marked, when analysed, then every part is work', () => {
    expect(capabilities(PLAN.replace(' (later)', ''))).toContain('gmail.send_email');
  });
});

describe('offline analyst: times around one thing, said once', () => {
  it('given "- 2 days before each appointment: …" then "- 30 minutes before: …", when analysed, then both are before the appointment', () => {
    const ws = workflowsOf(
      '- 2 days before each appointment: email the client a reminder.\n- 30 minutes before: text the client.\n- 5 minutes before: nothing, the calendar pings them.',
    );
    expect(ws.map((w) => [w.triggerId, w.params.minutesBefore])).toEqual([
      ['google-calendar.event_starting', 2880],
      ['google-calendar.event_starting', 30],
    ]);
  });
});

describe('offline analyst: outcomes said of each thing that comes', () => {
  it('given "Every … who … exists as a lead in Salesforce", when analysed, then the coming is the start and the lead is made', () => {
    const ws = workflowsFor(
      ['salesforce', 'webhook', 'slack'],
      'Every visitor who submits the demo form on our website exists as a lead in Salesforce within minutes.',
    );
    expect(ws[0]).toMatchObject({ triggerId: 'webhook.incoming_webhook', capabilities: ['salesforce.create_lead'] });
  });

  it('given "Every new lead in Salesforce has a follow-up task", when analysed, then a new lead starts it and a task is made', () => {
    const ws = workflowsFor(['salesforce'], 'Every new lead in Salesforce has a follow-up task for its owner.');
    expect(ws[0]).toMatchObject({ triggerId: 'salesforce.new_lead', capabilities: ['salesforce.create_task'] });
  });

  it('given "… and the customer has the contract in their inbox to sign through DocuSign", when analysed, then it is sent', () => {
    const ws = workflowsFor(
      ['hubspot', 'docusign'],
      'Every deal that moves to Closed Won in HubSpot has a kickoff task for the owner, and the customer has the contract in their inbox to sign through DocuSign.',
    );
    expect(ws[0]?.capabilities).toEqual(['hubspot.create_task', 'docusign.send_envelope']);
  });

  it('given "the team hears about every refund in #refunds", when analysed, then it is posted there', () => {
    expect(capabilities('The whole team hears about every refund in #refunds on Slack.')).toEqual(['slack.post_message']);
  });

  it('given "Every customer has an account manager", when analysed, then it is no work', () => {
    expect(normalise('Every customer has an account manager.')).toBe('Every customer has an account manager.');
  });
});

describe('offline analyst: each arriving thing picked out by what it carries', () => {
  it('given "Log every email with "invoice" in the subject in Notion", when analysed, then such an email starts it', () => {
    expect(workflowsOf('Log every email with "invoice" in the subject in Notion.')[0]).toMatchObject({
      triggerId: 'gmail.new_email',
      params: { subjectContains: 'invoice' },
      capabilities: ['notion.create_page'],
    });
  });

  it('given the same said passively, with the sender to get a confirmation, when analysed, then both are done', () => {
    expect(
      workflowsOf(
        'Every email with "complaint" in the subject should be logged in Notion and the sender should get a confirmation email.',
      )[0],
    ).toMatchObject({ triggerId: 'gmail.new_email', capabilities: ['notion.create_page', 'gmail.send_email'] });
  });

  it('given "Forward each email from bills@acme.com to Sam", when analysed, then an email from that address starts it', () => {
    expect(workflowsOf('Forward each email from bills@acme.com to Sam.')[0]).toMatchObject({
      triggerId: 'gmail.new_email',
      params: { from: 'bills@acme.com' },
    });
  });

  it('given "Requests come by mail. For each such mail, create a Jira task", when analysed, then an email starts it', () => {
    expect(triggers('Support requests come on mail from our clients. For each such mail, create a Jira task.')).toEqual([
      'gmail.new_email',
    ]);
  });

  it('given "So for tickets tagged "vip" the assistant should …", when analysed, then a ticket so tagged starts it', () => {
    expect(triggers('So for tickets tagged "vip" the assistant should reply to the customer in Zendesk.')).toEqual([
      'zendesk.ticket_updated',
    ]);
  });

  it('given "The moment a card charge fails in Stripe, …", when analysed, then the failure starts it', () => {
    expect(workflowsOf("The moment a card charge fails in Stripe, you'll post a heads-up in #billing.")[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      capabilities: ['slack.post_message'],
    });
  });
});

describe('offline analyst: a who-does-what table with no column of cases', () => {
  const TABLE = [
    '| Task | Owner | Notes |',
    '|---|---|---|',
    '| Customer pays an invoice | Bot | Post it in #cash and thank them by email. |',
    '| Quarterly VAT return | Nadia | Not the assistant. |',
    '| Chase overdue invoices | Assistant | Every Monday at 9am |',
  ].join('\n');

  it('given the assistant’s rows, when analysed, then each is its work and the other rows are people’s', () => {
    const ws = workflowsOf(TABLE);
    expect(ws.map((w) => w.triggerId)).toEqual(['stripe.invoice_paid', 'schedule.cron']);
    expect(ws[0]?.capabilities).toEqual(['slack.post_message', 'gmail.send_email']);
    expect(ws[1]?.cron).toBe('0 9 * * 1');
  });

  it('given no row the assistant’s, when analysed, then the table is left as it is', () => {
    const people = TABLE.replace('| Bot |', '| Ravi |').replace('| Assistant |', '| Ravi |');
    expect(normalise(people)).toContain('| Customer pays an invoice | Ravi |');
  });
});

describe('offline analyst: what is not work', () => {
  it('given "Councillors do not want Slack pings about these", when analysed, then it starts nothing', () => {
    expect(
      triggers('When a Zendesk ticket is created, post it in #support. Councillors do not want Slack pings about these.'),
    ).toEqual(['zendesk.new_ticket']);
  });

  it('given "Welcome to Brightfield!", when analysed, then it is no duty', () => {
    expect(workflowsOf('Welcome to Brightfield! When a Stripe payment fails, email the customer.').length).toBe(1);
  });

  it('given "You will work alongside Sam and report to Priya", when analysed, then it is no duty', () => {
    const ws = workflowsOf(
      "You'll work alongside Sam and the support team. You'll report to Priya. When a Stripe payment fails, email the customer.",
    );
    expect(ws.map((w) => w.steps)).toEqual([['email the customer']]);
  });
});

describe('offline analyst: a client in Stripe', () => {
  it('given "create the client in Stripe", when analysed, then a Stripe customer is made', () => {
    expect(capabilities('When a DocuSign envelope is completed, create the client in Stripe.')).toEqual([
      'stripe.create_customer',
    ]);
  });
});
