import { describe, expect, it } from 'vitest';
import { analyseJob, OfflineAnalyst } from '../src';
import { sentences, withoutRetracted } from '../src/text';
import { catalog, workflowsFor, workflowsOf } from './workflows-of';

describe('offline analyst: dictation that tells the story first', () => {
  it('given the problem told first and "so what I want is when …", when analysed, then the wish with its own start is the workflow and the story is no start', () => {
    const said = workflowsFor(
      ['stripe', 'gmail', 'slack', 'schedule', 'webhook', 'http'],
      "we run a cleaning company and clients pay online when they book, and the trouble is when a cleaner cancels on us we owe them money back and nobody remembers, so what I want is when our rota app flags a visit as cancelled it'll post to your webhook with the visit id and the amount, and you refund the amount in Stripe, then email the client to say sorry.",
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.triggerId).toBe('webhook.incoming_webhook');
    expect(said[0]?.capabilities).toEqual(['stripe.refund_payment', 'gmail.send_email']);
  });

  it('given a wish with no start of its own after the story, when analysed, then the sentence stays whole and the wish is the duty of what arrives', () => {
    const [first] = workflowsFor(
      ['stripe', 'gmail', 'slack'],
      'So orders come in by email to orders@, with the date and the size, and what I want is for something to send them a Stripe invoice for the deposit.',
    );
    expect(first?.triggerId).toBe('gmail.new_email');
    expect(first?.capabilities).toContain('stripe.create_invoice');
  });
});

describe('offline analyst: a system that calls us, said after the start', () => {
  it('given "when X happens it will send a webhook to you with …, and …", when analysed, then the call is part of the start and what follows it are the steps', () => {
    const [first] = workflowsFor(
      ['stripe', 'gmail', 'webhook'],
      'When the warehouse marks a parcel as lost it will send a webhook to you with the order id, the amount and the reason, and you refund the amount in Stripe.',
    );
    expect(first?.lead).toContain('send a webhook to you with the order id, the amount and the reason');
    expect(first?.triggerId).toBe('webhook.incoming_webhook');
    expect(first?.steps).toEqual(['refund the amount in Stripe']);
  });

  it('given a start whose next words are a duty of ours, when analysed, then nothing is taken into the start', () => {
    const [first] = workflowsOf('When a ticket comes in, send a webhook to the billing system with its id.');
    expect(first?.lead).toBe('When a ticket comes in');
  });
});

describe('offline analyst: something made on a schedule, wished for as a thing', () => {
  it('given "a summary every Friday afternoon in #channel of … would be nice", when analysed, then it is a weekly post on Friday afternoon', () => {
    const [first] = workflowsOf(
      'oh and a short summary every Friday afternoon in #finance of what we refunded that week would be nice',
    );
    expect(first).toMatchObject({ lead: 'every Friday afternoon', cron: '0 14 * * 5', capabilities: ['slack.post_message'] });
    expect(first?.steps[0]).not.toMatch(/afternoon/);
  });

  it('given the same wish with "would really help", when analysed, then it is a duty too', () => {
    expect(workflowsOf('A digest of failed payments in #billing every morning would really help.')[0]).toMatchObject({
      lead: 'every morning',
      capabilities: ['slack.post_message'],
    });
  });

  it('given a thing praised, with no time, when analysed, then it is no duty', () => {
    expect(analyseJob('The new report looks great.').workflows.every((w) => w.steps.length === 0)).toBe(true);
  });

  it("given a duty said with the part of the day after its weekday, when analysed, then the part of the day is the schedule's and not the step's", () => {
    expect(workflowsOf('Post the rota in #staff every Monday morning.')[0]).toMatchObject({
      lead: 'every Monday morning',
      cron: '0 9 * * 1',
      steps: ['Post the rota in #staff'],
    });
  });
});

describe('offline analyst: markdown headings', () => {
  it('given a markdown title over the job, when analysed, then the title is no step', () => {
    const said = workflowsOf(
      '## Onboarding Helper (digital)\n\nWhen a new hire is added in BambooHR, invite them to #general in Slack.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toEqual(['invite them to #general in Slack']);
  });

  it("given a markdown heading that says a start at a clock time, when analysed, then the items under it are that schedule's", () => {
    const [first] = workflowsOf(
      "### Every weekday at 7:30\n- Post the day's deliveries in #drivers.\n- Email the depot the list.",
    );
    expect(first).toMatchObject({ lead: 'Every weekday at 7:30', cron: '30 7 * * 1-5' });
    expect(first?.steps).toHaveLength(2);
  });

  it('given a "Not your job" heading over a plain line, with or without a blank line between, when analysed, then the line is a rule and no workflow', () => {
    for (const gap of ['\n', '\n\n']) {
      const said = workflowsOf(
        `When a new hire is added in BambooHR:\n1. Invite them to #general in Slack.\n\n### Not your job${gap}Payroll, contracts, or changing anything in BambooHR.`,
      );
      expect(said).toHaveLength(1);
      expect(said[0]?.triggerId).toBe('bamboohr.new_hire');
    }
  });

  it('given code said first in a sentence ("`GET /due` returns …"), when split, then the sentence does not start with a verb', () => {
    const [s] = sentences('Our system has an API: `GET /patients/due` returns the patients due this week.');
    expect(s?.text).toMatch(/the `GET \/patients\/due` returns/);
  });
});

describe('offline analyst: items under a sentence that ends in a colon', () => {
  it('given "I want every new ticket triaged as it comes in:" over cases, with a blank line between, when analysed, then the cases are steps of that one workflow', () => {
    const said = workflowsFor(
      ['zendesk', 'twilio', 'slack'],
      'Customers report faults through our portal, which creates a Zendesk ticket. Please triage every new fault ticket as it comes in:\n\n- Outages (no power, no signal): set priority to Urgent and text the on-call engineer on 07700 900456.\n- Everything else: set priority to Normal and tag it by product.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.triggerId).toBe('zendesk.new_ticket');
    expect(said[0]?.capabilities).toContain('twilio.send_sms');
  });
});

describe('offline analyst: a duty taken back by its name', () => {
  it('given "…, tag it and reply to the customer with …" then "Actually, scrap the reply to customers", when read, then that clause and the retraction go', () => {
    const text =
      '- Everything else: set priority to Normal, tag it by product and reply to the customer with the expected fix date (5 days).\n\nActually, scrap the reply to customers – account managers do all contact. Put the fix date in an internal note instead.';
    const kept = withoutRetracted(text);
    expect(kept).not.toMatch(/reply to the customer/);
    expect(kept).not.toMatch(/scrap/);
    expect(kept).toMatch(/tag it by product\./);
    expect(kept).toMatch(/internal note instead/);
  });

  it('given the name said of two clauses before, when read, then nothing is taken back', () => {
    const text = 'Reply to the customer first. Then tag it and reply to the manager.\n\nActually, scrap the reply.';
    expect(withoutRetracted(text)).toBe(text);
  });
});

describe('offline analyst: smaller readings', () => {
  it('given a booking whose time is said relative to the person ("on their first day"), when analysed, then the booking stays a step of the start, not a daily schedule', () => {
    const said = workflowsOf(
      'When a new hire is added in BambooHR:\n1. Invite them to #general in Slack.\n2. Book a welcome coffee at 10:00 on their first day with their manager in Google Calendar.\n3. Email them the handbook.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.capabilities).toEqual(['slack.invite_user', 'google-calendar.create_event', 'gmail.send_email']);
  });

  it('given "From now on …" before a duty whose start is said last, when analysed, then the start is read', () => {
    expect(
      workflowsFor(
        ['gmail', 'quickbooks'],
        'From now on I want an invoice raised in QuickBooks as soon as the order email lands.',
      )[0],
    ).toMatchObject({ triggerId: 'gmail.new_email', capabilities: ['quickbooks.create_invoice'] });
  });

  it('given a mailbox written short ("to orders@"), when analysed, then mail sent there is how work arrives', () => {
    const [first] = workflowsFor(
      ['gmail', 'quickbooks', 'slack'],
      'Drivers email a delivery note to deliveries@ after every drop. For each note, raise an invoice in QuickBooks.',
    );
    expect(first?.triggerId).toBe('gmail.new_email');
  });

  it('given "Anything over £X …" in the next paragraph, when analysed, then it is a rule of the work just said, not a workflow of its own', () => {
    const said = workflowsFor(
      ['gmail', 'quickbooks', 'slack'],
      'When an order email arrives at orders@acme.com, raise an invoice in QuickBooks.\n\nAnything over £2,000 I want to see first, so post it in #finance.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.capabilities).toEqual(['quickbooks.create_invoice', 'slack.post_message']);
  });

  it('given a plural noun first that the served words know as a verb, when analysed, then the sentence is how work arrives, not a duty', () => {
    const said = workflowsFor(
      ['gmail', 'jira'],
      'Role: Records Officer, Legal Team\n\nRequests under the records policy are received at records@acme.gov. For each new request, log it as an issue in Jira.',
    );
    expect(said[0]?.triggerId).toBe('gmail.new_email');
  });

  it('given "X should also be assigned to …" after a start, when analysed, then it is a step of that start', () => {
    const said = workflowsFor(
      ['zendesk'],
      'When a ticket comes in, tag it by product. Billing tickets should also be assigned to the Finance group.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toContain('assign billing tickets to the Finance group');
  });

  it('given what a call carries said after it ("The payload contains …, (… are flagged)"), when analysed, then the call stays the start', () => {
    const [first] = workflowsFor(
      ['twilio', 'slack', 'webhook'],
      '1. Our alarm system calls your webhook whenever a freezer goes above -15C. The payload contains the site, the freezer and the mobile numbers of the staff registered on shift (managers are flagged).\n2. Post the alert in #facilities.',
    );
    expect(first).toMatchObject({ triggerId: 'webhook.incoming_webhook', capabilities: ['slack.post_message'] });
  });

  it('given a writer who capitalises only the first sentence, when split, then the later lower-case sentences are sentences too', () => {
    expect(
      sentences('Returns helper for our shop. customers email returns@ourshop. if its recent, reply with the label.'),
    ).toHaveLength(3);
  });
});

describe('offline analyst: a yes waited for, said as a start', () => {
  it('given "Once approved, …" after the work at hand, when analysed, then its steps are that work\'s, each said to wait for the approval', () => {
    const said = workflowsOf(
      'When a refund request comes in on Zendesk, post it in #finance for Sam to check. Once approved, refund it in Stripe and reply to the customer.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toEqual([
      'post it in #finance for Sam to check',
      'refund it in Stripe once approved',
      'reply to the customer once approved',
    ]);
  });

  it('given "Once approved, …" with no work before it, when analysed, then it is read as before', () => {
    expect(workflowsOf('Once approved, post the rota in #staff.')[0]?.steps).not.toContain(
      'post the rota in #staff once approved',
    );
  });
});

describe('offline analyst: where the new readings must not fire (a review of them)', () => {
  it('given "Remove the tag …" or "Skip the text on Sundays", when analysed, then nothing said before is taken back', () => {
    expect(
      workflowsOf('When a Zendesk ticket is solved, tag it as resolved. Remove the tag "urgent" as well.')[0]?.steps,
    ).toContain('tag it as resolved');
    expect(workflowsOf('Every morning at 7, text the drivers their routes. Skip the text on Sundays.')[0]?.capabilities).toEqual([
      'twilio.send_sms',
    ]);
    expect(
      workflowsOf(
        'When a Zendesk ticket comes in, reply to the customer with our hours.\n\nActually, scrap the reply to customers on weekends, the weekend team does those.',
      )[0]?.capabilities,
    ).toEqual(['zendesk.reply_ticket']);
  });

  it('given a duty taken back that has another joined on after it, when analysed, then only the one named goes', () => {
    const [first] = workflowsOf(
      'When a Zendesk ticket comes in, tag it by product, reply to the customer with the expected fix date and post it in #support.\n\nActually, scrap the reply to customers, account managers do that.',
    );
    expect(first?.capabilities).toEqual(['zendesk.update_ticket', 'slack.post_message']);
  });

  it("given a call of ours to someone else's endpoint after a start, when analysed, then it stays a step", () => {
    expect(
      workflowsOf('When a manager approves it, call the payroll endpoint with the hours and email the contractor.')[0]
        ?.capabilities,
    ).toEqual(['http.request', 'gmail.send_email']);
    expect(
      workflowsFor(
        ['hubspot', 'quickbooks', 'webhook', 'http'],
        'When a deal closes in HubSpot, it then posts to the finance webhook, and you create the invoice in QuickBooks.',
      )[0]?.triggerId,
    ).toBe('hubspot.deal_stage_changed');
  });

  it('given a statement of a thing on a schedule ("The report every Friday goes to the board too"), when analysed, then it is no duty', () => {
    expect(
      workflowsOf('When a refund is issued in Stripe, post it in #finance. The report every Friday goes to the board too.'),
    ).toHaveLength(1);
  });

  it('given a job advert\'s duty in the third person ("Texts the on-call engineer when …"), when analysed with the served words, then it is still a duty', () => {
    const offline = new OfflineAnalyst();
    const [w] = offline.analyseSync('Texts the on-call engineer when a Zendesk ticket is marked urgent.', catalog).workflows;
    expect(w && offline.matchCapabilitiesSync(w, catalog).steps.map((s) => s.capabilityId)).toEqual(['twilio.send_sms']);
  });

  it('given a colon sentence over separate jobs, when analysed, then each job keeps its own start', () => {
    const said = workflowsOf(
      "I'd like you to look after these three jobs for the office from next week:\n\n- Post the rota in #staff every Monday.\n- Reply to customer emails about opening hours.\n- Text Sam when a Stripe payment fails.",
    );
    expect(said.map((w) => w.triggerId)).toEqual(['schedule.cron', 'gmail.new_email', 'stripe.payment_failed']);
  });

  it('given a markdown heading right under the lines a "Not your job" heading rules, when analysed, then that heading starts work again', () => {
    const said = workflowsOf(
      "## Refund helper\n\nWhen a Zendesk ticket asks for a refund, refund it in Stripe.\n\n### Not your job\nPayroll and contracts.\n### Every Friday\n- Post the week's refunds in #finance.",
    );
    expect(said.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket', 'schedule.cron']);
  });

  it('given a story with a "When …" of its own before "so what I want is when …", when analysed, then the story is no workflow', () => {
    expect(
      workflowsOf(
        'When a cleaner cancels on us we owe the client money back, so what I want is when our rota app flags a visit as cancelled, refund the client in Stripe.',
      ),
    ).toHaveLength(1);
  });

  it('given "Refunds over £50 come in as …" after another workflow, when analysed, then it is not carried on as a rule of it', () => {
    const said = workflowsOf(
      'When a customer emails orders@acme.com, raise an invoice in QuickBooks.\n\nRefunds over £50 come in as Zendesk tickets; tag them big-refund and post them in #finance.',
    );
    expect(said[0]?.capabilities).toEqual(['quickbooks.create_invoice']);
  });

  it('given a message in backticks after a colon, when split, then its words are kept as they are', () => {
    const [s] = sentences('When a Stripe refund is issued, post in #finance: `Refund of {amount} for {customer}`.');
    expect(s?.text).not.toMatch(/the `Refund/);
  });
});
