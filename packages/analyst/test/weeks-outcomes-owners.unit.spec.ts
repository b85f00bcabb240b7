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

describe('offline analyst: prose of a week, with its starts implied', () => {
  it('given "I want that everything is made ready: a X, a Y and a Z", when analysed, then each is made', () => {
    const ws = workflowsOf(
      'When a HubSpot deal moves to Won, we want everything set up: a Slack channel for the client, a project page in Notion, and a folder in Google Drive.',
    );
    expect(ws[0]?.capabilities).toEqual(['slack.create_channel', 'notion.create_page', 'google-drive.create_folder']);
  });

  it('given "… . But only when …", when analysed, then it is a condition of the work before, not a start', () => {
    expect(
      triggers('When a Jira issue moves to Review, email the client. But only when the issue is not marked internal.'),
    ).toEqual(['jira.issue_transitioned']);
  });

  it('given "the contract goes out through DocuSign", when analysed, then it is sent through DocuSign', () => {
    expect(capabilities('When a deal moves to Won in HubSpot, the contract goes out through DocuSign.')).toEqual([
      'docusign.send_envelope',
    ]);
  });

  it('given "the contract should go out through DocuSign", when analysed, then the modal is no part of the thing sent', () => {
    expect(workflowsOf('When a deal moves to Won in HubSpot, the contract should go out through DocuSign.')[0]?.steps).toEqual([
      'send the contract through DocuSign',
    ]);
  });

  it('given "smaller companies just get our standard email", when analysed, then they are sent it', () => {
    expect(
      workflowsFor(
        ['salesforce', 'gmail'],
        'When a new lead comes into Salesforce, if the company is large create a task for Marcus; smaller companies just get our standard welcome email.',
      )[0]?.capabilities,
    ).toEqual(['salesforce.create_task', 'gmail.send_email']);
  });

  it('given "On payday, which is the last Friday of the month, …", when analysed, then it runs on that day', () => {
    expect(
      workflowsOf('On payday, which is the last Friday of the month, post in #all-staff that payslips are up.')[0]?.cron,
    ).toBe('0 9 * * 5#L');
  });

  it('given an inbox said to get invoices, then "When an invoice comes in", when analysed, then it comes by email', () => {
    expect(
      triggers('Our payables inbox gets about forty supplier invoices a week. When an invoice comes in, save it to Drive.'),
    ).toEqual(['gmail.new_email']);
  });

  it('given "The lab we use, SmileCraft, emails their invoices to accounts@", when analysed, then their email starts it', () => {
    expect(
      triggers(
        'The lab we use, SmileCraft, emails their invoices to accounts@. Please capture each one as an expense in QuickBooks.',
      ),
    ).toEqual(['gmail.new_email']);
  });

  it('given "post it to QuickBooks as a bill", when analysed, then an expense is recorded', () => {
    expect(capabilities('When a supplier emails an invoice, post it to QuickBooks as a bill.')).toEqual([
      'quickbooks.record_expense',
    ]);
  });

  it('given "When the MSA comes back fully signed", when analysed, then DocuSign’s envelope completed starts it', () => {
    expect(triggers('When the MSA comes back fully signed, post in #wins.')).toEqual(['docusign.envelope_completed']);
  });

  it('given "The day before anyone’s appointment they should get an SMS reminder", when analysed, then each is texted a day before', () => {
    expect(workflowsOf("The day before anyone's appointment they should get an SMS reminder with the time.")[0]).toMatchObject({
      triggerId: 'google-calendar.event_starting',
      params: { minutesBefore: 1440 },
      capabilities: ['twilio.send_sms'],
    });
  });

  it('given "Every Thursday evening can it email the squad …, and if any of them reply …, label …", when analysed, then the replies start their own work', () => {
    const ws = workflowsOf(
      "Every Thursday evening can it email the squad the kick-off time, and if any of the lads reply that they're not available, just label the email 'Unavailable'?",
    );
    expect(ws.map((w) => [w.triggerId, w.capabilities])).toEqual([
      ['schedule.cron', ['gmail.send_email']],
      ['gmail.new_email', ['gmail.label_email']],
    ]);
    expect(ws[0]?.cron).toBe('0 18 * * 4');
  });

  it('given "unless it is an agency, they get an email instead", when analysed, then they are emailed', () => {
    expect(
      capabilities(
        "If an invoice in QuickBooks is a week overdue, text the customer a reminder, unless it's an agency, they get an email instead.",
      ),
    ).toEqual(['twilio.send_sms', 'gmail.send_email']);
  });

  it('given "Everyone who applies should get a thank-you email", when analysed, then someone applying starts it', () => {
    expect(
      workflowsFor(
        ['greenhouse', 'gmail'],
        'Applications come through Greenhouse. Everyone who applies should get a thank-you email.',
      )[0],
    ).toMatchObject({ triggerId: 'greenhouse.candidate_applied', capabilities: ['gmail.send_email'] });
  });

  it('given "move them straight to Phone Screen" under a Greenhouse start, when analysed, then the candidate is moved', () => {
    expect(capabilities('When a candidate applies in Greenhouse, move them straight to Phone Screen.')).toEqual([
      'greenhouse.move_candidate_stage',
    ]);
  });

  it('given "If a volunteer SMSes back", when analysed, then a text arriving starts it', () => {
    expect(triggers("If a volunteer SMSes back to say they can't make it, post it in #shift-leads.")).toEqual([
      'twilio.sms_received',
    ]);
  });

  it('given "I want each driver to get a text with …", when analysed, then each driver is texted', () => {
    expect(
      capabilities(
        'Deliveries are on the Google Calendar. The night before each delivery, I want each driver to get a text with their first stop.',
      ),
    ).toEqual(['twilio.send_sms']);
  });

  it('given "please do the refund in Stripe", when analysed, then it is a Stripe refund', () => {
    expect(
      capabilities(
        'Whenever a customer raises a Zendesk ticket asking for a refund under $50, please do the refund in Stripe directly.',
      ),
    ).toEqual(['stripe.refund_payment']);
  });

  it('given "Once fees are overdue, …", when analysed, then an invoice overdue starts it', () => {
    expect(triggers('Once fees are overdue, parents should get a polite reminder by email.')).toEqual([
      'quickbooks.invoice_overdue',
    ]);
  });

  it('given "our booking system can ping a web address with each booking", when analysed, then a webhook starts it', () => {
    expect(normalise('Our booking system can ping a web address with each new booking.')).toBe(
      'Our booking system calls our webhook with each new booking.',
    );
    expect(triggers('When our booking system pings a web address, add the guest to HubSpot as a contact.')).toEqual([
      'webhook.incoming_webhook',
    ]);
  });
});

describe('offline analyst: what a review of these readings found, mended', () => {
  it('given a step marked "(for now)", "(you)" or "(later)" in a list, when analysed, then every step stays', () => {
    const ws = workflowsOf(
      'When a customer fills in the quote form on our website:\n1. Add them to HubSpot as a contact\n2. Email the customer a confirmation (you)\n3. Save the form in Google Drive (for now)\n4. Send them a review request (later)',
    );
    expect(ws[0]?.steps).toHaveLength(4);
  });

  it('given "The others will be added later, but for now when …", when analysed, then the work after it stays', () => {
    expect(
      triggers(
        'We have three ideas. The others will be added later, but for now when a lead comes in through the website form, add it to HubSpot.',
      ),
    ).toEqual(['webhook.incoming_webhook']);
  });

  it('given "You will report to me every Friday at 5pm with a summary", when analysed, then it is a weekly report', () => {
    expect(workflowsOf("You will report to me every Friday at 5pm with a summary of the week's Stripe payments.")[0]?.cron).toBe(
      '0 17 * * 5',
    );
  });

  it('given "For tickets tagged "billing", Anna handles them herself", when analysed, then no ticket so tagged starts work', () => {
    expect(triggers('For tickets tagged "billing", Anna handles them herself.')).not.toContain('zendesk.ticket_updated');
  });

  it('given "Every email from … should be answered by me personally", when analysed, then nothing is asked of the assistant', () => {
    expect(capabilities('Every email from ceo@bigclient.com should be answered by me personally.')).toEqual([]);
  });

  it('given "Every email with … gets forwarded automatically … already", when analysed, then no such email starts work', () => {
    expect(
      triggers('Every email with "invoice" in the subject gets forwarded automatically to our bookkeeper already.'),
    ).not.toContain('gmail.new_email');
  });

  it.each([
    ['The whole team already finds out about every refund in #refunds on Slack, so you do not need to tell anyone.'],
    ['Every order on Etsy gets an automatic confirmation email from Etsy itself, so no need to send one.'],
    ['Every new starter gets a laptop from IT on their first day.'],
    ['Every client in Xero has an account manager.'],
  ])('given "%s", when analysed, then it is no work', (said) => {
    expect(capabilities(said)).toEqual([]);
  });

  it.each([
    ['Our opening hours:\nMonday\n9:00 - 17:00\nSaturday\n10:00 - 14:00'],
    ['Classes:\nMONDAY\n18:00 Vinyasa with Kate\n19:30 Yin yoga with Tom'],
    ['Rota:\nMONDAY\n08:00 Sam opens the shop and counts the float'],
  ])('given a day heading over clocked lines that are no duties (%#), when analysed, then no schedule is made', (said) => {
    expect(triggers(said)).not.toContain('schedule.cron');
  });

  it('given owner-table rows that are duties with notes, when analysed, then each duty keeps its words and its time', () => {
    const ws = workflowsOf(
      [
        '| Task | Owner | Notes |',
        '|---|---|---|',
        '| Chase overdue invoices by email | Assistant | Every Monday at 9am |',
        '| Reply to Zendesk tickets about delivery | Ava (AI) | Check with me first if the customer is angry |',
        '| Book the venue | Tom | |',
      ].join('\n'),
    );
    expect(ws.map((w) => w.cron)).toContain('0 9 * * 1');
    expect(ws.flatMap((w) => w.steps).join(' ')).toContain('Reply to Zendesk tickets about delivery');
    expect(ws.flatMap((w) => w.steps).join(' ')).not.toContain('venue');
  });

  it('given "- Under £20: nothing needs approving, just refund it in Stripe", when analysed, then the refund stays', () => {
    expect(
      capabilities(
        'When a customer emails asking for a refund:\n- Under £20: nothing needs approving, just refund it in Stripe\n- Over £20: forward it to me',
      ),
    ).toContain('stripe.refund_payment');
  });

  it('given "When a return parcel comes by mail", when analysed, then no email starts it', () => {
    expect(triggers('When a return parcel comes by mail, refund the customer in Stripe.')).not.toContain('gmail.new_email');
  });

  it('given "concerns must be raised with Helen in person", when analysed, then it is no duty', () => {
    expect(capabilities('Any safeguarding concerns must be raised with Helen in person, never by email.')).toEqual([]);
  });
});

describe('offline analyst: amounts, labels and counts of mail', () => {
  it('given "When the amount is more than EUR 1.000 then don’t book it, but …", when analysed, then it is a condition, not a start', () => {
    expect(
      triggers(
        'When a receipt arrives by email, book it as an expense in QuickBooks. When the amount is more than EUR 1.000 then don’t book it, but send a message to Sanne in Slack.',
      ),
    ).toEqual(['gmail.new_email']);
  });

  it('given "put the label "Done" on the mail", when analysed, then the email is labelled', () => {
    expect(capabilities('When a receipt arrives by email, put the label "Done" on the mail.')).toEqual(['gmail.label_email']);
  });

  it('given "look how many receipt mails are still without a label", when analysed, then the mailbox is searched', () => {
    expect(
      capabilities(
        'At the end of every month, look how many receipt mails are still without the label "Done" and tell Sanne in Slack.',
      ),
    ).toEqual(['gmail.search_email', 'slack.post_message']);
  });
});

describe('offline analyst: blind-42’s ways of writing', () => {
  it('given "when someone buys a class pack through Stripe", when analysed, then a Stripe payment starts it', () => {
    expect(triggers('When someone buys a gift card through Stripe, email them a thank-you note.')).toEqual([
      'stripe.invoice_paid',
    ]);
  });

  it.each([
    ['The afternoon before each move', 1440],
    ['The morning before each job', 1440],
  ])('given "%s, …" with the jobs on a calendar, when analysed, then it is a day before each', (lead, minutes) => {
    expect(
      workflowsOf(`Our jobs are in the Google calendar. ${lead}, text the customer the arrival window.`)[0]?.params.minutesBefore,
    ).toBe(minutes);
  });

  it('given "the arvo before each move", when analysed, then it is the afternoon before', () => {
    expect(normalise('the arvo before each move')).toBe('the afternoon before each move');
  });

  it('given "Give Kylie a hoy in Slack", when analysed, then Kylie is messaged in Slack', () => {
    expect(capabilities('When a booking is interstate, give Kylie a hoy in Slack.')).toEqual(['slack.post_message']);
  });

  it('given items marked (BOT) and (us), when analysed, then only the assistant’s items are work, without their mark', () => {
    const ws = workflowsOf(
      [
        'Items marked (BOT) are for the assistant, the rest we keep doing ourselves.',
        '1. Open up at 5:30 and check the sauna (us)',
        '2. (BOT) When a membership payment fails in Stripe, email the member a heads-up',
        '3. Give trial folks the tour (us)',
        '4. (BOT) Every Sunday at 6pm, post a reminder in #coaches',
      ].join('\n'),
    );
    expect(ws.map((w) => w.triggerId)).toEqual(['stripe.payment_failed', 'schedule.cron']);
  });

  it('given "Shout if you need access to anything.", when analysed, then it is no duty', () => {
    expect(
      workflowsOf('When a PR is opened on GitHub, post it in #code-review. Shout if you need access to anything.').flatMap(
        (w) => w.steps,
      ),
    ).toEqual(['post it in #code-review']);
  });

  it('given "check the events calendar for the date they asked about", when analysed, then a free slot is looked for', () => {
    expect(
      capabilities(
        'When an enquiry email comes in, check the events calendar for the date they asked about and reply with the brochure.',
      ),
    ).toContain('google-calendar.find_free_slot');
  });

  it('given "pencil a HOLD event on my calendar", when analysed, then an event is made', () => {
    expect(capabilities('When someone fills in the form on my website, pencil a "HOLD" event on my Google Calendar.')).toContain(
      'google-calendar.create_event',
    );
  });
});
