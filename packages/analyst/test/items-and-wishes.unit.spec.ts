import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../src';
import { detectLead, passiveDuties, productSubject, splitClauses } from '../src/segment';
import { withoutRetracted } from '../src/text';
import { workflowsFor, workflowsOf } from './workflows-of';

const steps = (text: string) => workflowsOf(text).flatMap((w) => w.steps);
const capabilities = (text: string) => workflowsOf(text).flatMap((w) => w.capabilities);

describe('offline analyst: an item’s title and a wish said before the work', () => {
  const POSTING = [
    'Digital Parish Administrator',
    '',
    "What you'll be doing:",
    '• Being our first point of welcome – whenever someone fills in the connection card on our website, pop them into HubSpot as a new contact and send them a welcome email.',
    '• Keeping our volunteers in the loop – every Thursday at 10am, post a reminder in #sunday-volunteers.',
  ].join('\n');

  it('given "• Being our first point of welcome – whenever someone fills in the card …", when analysed, then the form starts it and adding the contact is a duty', () => {
    expect(workflowsOf(POSTING)[0]).toMatchObject({
      lead: 'whenever someone fills in the connection card on our website',
      triggerId: 'webhook.incoming_webhook',
      capabilities: ['hubspot.create_contact', 'gmail.send_email'],
    });
  });

  it('given "• Keeping our volunteers in the loop – every Thursday at 10am, post …", when analysed, then it runs every Thursday at ten', () => {
    expect(workflowsOf(POSTING)[1]).toMatchObject({ cron: '0 10 * * 4', capabilities: ['slack.post_message'] });
  });

  it('given a greeting before a dash ("Hi Callum – when I’m gone, please …"), when analysed, then it is no title to set aside and starts nothing', () => {
    const leads = workflowsOf(
      "Handover\n\nHi Callum – when I'm gone, please make sure the assistant keeps doing these.\n\n- When a new lead lands in Salesforce, email the applicant the checklist.",
    ).map((w) => w.lead);
    expect(leads).toEqual(['When a new lead lands in Salesforce']);
  });

  it('given "What I\'d like you to do is pick up the form when it comes in (it\'s sent to a webhook), add …", when analysed, then the form arriving starts it and taking it in is no duty', () => {
    expect(
      workflowsOf(
        "Tutors\n\nParents fill in the enquiry form on our website. What I'd like you to do is pick up the form when it comes in (it's sent to a webhook), add the parent to HubSpot as a lead, and email them to say thanks.",
      )[0],
    ).toMatchObject({
      triggerId: 'webhook.incoming_webhook',
      steps: ['add the parent to HubSpot as a lead', 'email them to say thanks'],
      capabilities: ['hubspot.create_contact', 'gmail.send_email'],
    });
  });

  it('given "I want that turned into a Jira issue …, and a quick post in #dev", when analysed, then an issue is created and the channel is posted in', () => {
    expect(
      workflowsOf(
        'Agency\n\nIf a ticket comes in tagged "bug", I want that turned into a Jira issue in the WEB project, with the ticket link in the description, and a quick post in #dev so someone grabs it.',
      )[0],
    ).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['jira.create_issue', 'slack.post_message'] });
  });
});

describe('offline analyst: verbs that say more than their head', () => {
  it('given "set them up in BambooHR with their start date", when matched, then a new employee is created, not a field set', () => {
    expect(
      workflowsFor(
        ['greenhouse', 'bamboohr', 'slack'],
        'Onboarding\n\nWhen a candidate is hired in Greenhouse, set them up in BambooHR with their start date.',
      )[0]?.capabilities,
    ).toEqual(['bamboohr.create_employee']);
  });

  it('given "pass it (straight) on to #pastoral-care" or "relay the details to #ops", when matched, then the message is posted there', () => {
    expect(
      capabilities(
        'Pastoral\n\nWhen a text message comes in, pass it straight on to the private #pastoral-care channel in Slack. When a form is submitted, relay the details to #ops.',
      ),
    ).toEqual(['slack.post_message', 'slack.post_message']);
  });

  it('given "create a QuickBooks invoice …, send it to them" after a start in another product, when matched, then the invoice made is what is sent', () => {
    expect(
      workflowsOf(
        'Crane hire\n\nWhen a customer has signed the hire agreement in DocuSign, raise a QuickBooks invoice for the deposit and send it to them.',
      )[0]?.capabilities,
    ).toEqual(['quickbooks.create_invoice', 'quickbooks.create_invoice']);
  });

  it('given "send it to them" with no team named, when matched, then "it" is not read as the IT team', () => {
    expect(
      workflowsOf(
        'Freight\n\nWhen a HubSpot deal moves to "Delivered", create a QuickBooks invoice for the shipper and send it to them.',
      )[0]?.capabilities,
    ).not.toContain('slack.post_message');
  });
});

describe('offline analyst: where one duty ends and the next begins', () => {
  it('given "check Jira … and if there isn\'t one raise one" with no comma, when split, then the condition guards raising one', () => {
    expect(detectLead("if there isn't one raise one")).toMatchObject({ text: "if there isn't one", body: 'raise one' });
    expect(detectLead("if the customer isn't in Stripe add them")).toMatchObject({ body: 'add them' });
  });

  it('given "just tell them and suggest they pick another date", when split, then it is one message', () => {
    expect(splitClauses('just tell them and suggest they pick another date').clauses).toEqual([
      'just tell them and suggest they pick another date',
    ]);
  });

  it('given "text the owner to say their dog is ready and remind them we close at 5:30", when analysed, then it is one text', () => {
    expect(
      workflowsOf(
        'Kennel\n\nAn hour before each collection in the Bookings calendar, text the owner to say their dog is ready and remind them we close at 5:30.',
      )[0]?.capabilities,
    ).toEqual(['twilio.send_sms']);
  });

  it('given "email the client and remind them on Slack", when split, then the other channel is its own duty', () => {
    expect(splitClauses('email the client the invoice and remind them on Slack').clauses).toHaveLength(2);
  });

  it('given "create HubSpot task for whoever\'s on quote duty: call back within 2 hrs" and "post to #dispatch: load #, carrier", when analysed, then what follows the colon is the task\'s and the post\'s words', () => {
    const workflow = workflowsOf(
      "Freight desk\n\nWhen a carrier signs the rate confirmation in DocuSign:\n- post to #dispatch: load #, carrier, pickup date\n- create HubSpot task for whoever's on quote duty: call back within 2 hrs",
    )[0];
    expect(workflow?.capabilities).toEqual(['slack.post_message', 'hubspot.create_task']);
  });

  it('given "create a QuickBooks invoice for the shipper, net 30, send it to them", when split, then the terms are the invoice\'s', () => {
    expect(splitClauses('create QuickBooks invoice for the shipper, net 30, send it to them').clauses).toEqual([
      'create QuickBooks invoice for the shipper, net 30',
      'send it to them',
    ]);
  });

  it('given duties chained by arrows inside an item ("record it in QuickBooks → tick … in the Notion database"), when split, then each is a duty', () => {
    expect(
      splitClauses(
        'record each one as an expense in QuickBooks → tick "Received" on that client\'s row in the Notion Clients database',
      ).clauses,
    ).toHaveLength(2);
  });

  it('given "workflow: delivered -> invoice" over its trigger and actions, when analysed, then the name does no work', () => {
    const text =
      'Freight desk\n\nworkflow: delivered -> invoice\n  trigger: HubSpot deal moves to "Delivered"\n  actions:\n    - email the carrier asking for the signed POD';
    expect(steps(text)).toEqual(['email the carrier asking for the signed POD']);
  });

  it('given "| Twice a day, at 8 and 4 | Check the inbox … |" in a table of cases, when analysed, then it runs at 8 and 16', () => {
    const text = [
      'Gardens',
      '',
      '| When | What to do |',
      '|---|---|',
      "| Twice a day, at 8 and 4 | Check the quotes@ Gmail inbox for enquiries nobody's answered yet and list them in #quotes |",
    ].join('\n');
    expect(workflowsOf(text)[0]).toMatchObject({
      cron: '0 8,16 * * *',
      capabilities: ['gmail.search_email', 'slack.post_message'],
    });
  });
});

describe('offline analyst: what is said of things, not done', () => {
  it('given "Passes can be left alone." or "Refunds can wait." after a duty, when analysed, then neither is a duty', () => {
    expect(
      steps(
        "Inspections\n\nWhen a new PDF lands in the Inspections folder on Google Drive and it's a FAIL, post in #safety. Passes can be left alone. Refunds can wait.",
      ),
    ).toEqual(['post in #safety']);
  });

  it('given "cancel the stay in the Bookings calendar", when analysed, then "the stay" is a thing cancelled, not a rule of where things stay', () => {
    expect(
      workflowsOf(
        'Kennel\n\nCancellations come in by email. When one arrives:\n- cancel the stay in the Bookings calendar in Google Calendar\n- email the owner back',
      )[0]?.capabilities,
    ).toEqual(['google-calendar.cancel_event', 'gmail.send_email']);
  });

  it('given "Medical details stay out of Notion", when analysed, then it is still a rule and no duty', () => {
    expect(steps('Clinic\n\nWhen a patient emails, reply with our hours. Medical details stay out of Notion.')).toEqual([
      'reply with our hours',
    ]);
  });
});

describe('offline analyst: an arrival and its duties said in the passive', () => {
  const PASSIVE =
    'Front desk\n\nNew-patient enquiries are submitted through the form on our website. Each enquiry is answered by email within the hour and a Slack message is posted to #front-desk.';

  it('given "New-patient enquiries are submitted through the form on our website.", when analysed, then the form starts the work', () => {
    expect(workflowsOf(PASSIVE)[0]).toMatchObject({
      lead: 'New-patient enquiries are submitted through the form on our website',
      triggerId: 'webhook.incoming_webhook',
    });
  });

  it('given "Each enquiry is answered by email … and a Slack message is posted to #front-desk." after it, when analysed, then both are its duties', () => {
    expect(workflowsOf(PASSIVE)).toHaveLength(1);
    expect(workflowsOf(PASSIVE)[0]?.capabilities).toEqual(['gmail.send_email', 'slack.post_message']);
  });

  it('given "An ILL request is set to \'Arrived\' in Notion" or "each enquiry is answered by Sam", when read, then neither is a duty of the employee', () => {
    expect(passiveDuties("An ILL request is set to 'Arrived' in Notion")).toBeNull();
    expect(passiveDuties('Each enquiry is answered by Sam within the hour')).toBeNull();
    expect(passiveDuties('Each enquiry is answered by email within the hour')).toBe(
      'answer each enquiry by email within the hour',
    );
  });

  it('given "Orders should be logged in Notion", when analysed, then logging them is still the duty', () => {
    expect(productSubject('Shopify orders should be logged in Notion')).toMatchObject({ body: 'log them in Notion' });
  });
});

describe('offline analyst: times and reasons said around a start', () => {
  it('given "every weekday at about six" or "every Friday at four", when the schedule is read, then the hour said in words is kept', () => {
    expect(parseSchedule('every weekday at about six')?.expression).toBe('0 18 * * 1-5');
    expect(parseSchedule('every Friday at four')?.expression).toBe('0 16 * * 5');
    expect(parseSchedule('every day at seven in the morning')?.expression).toBe('0 7 * * *');
    expect(parseSchedule('every day at one point')?.expression).toBe('0 9 * * *');
  });

  it('given "On the 3rd and 17th, the bins are collected, so post a reminder in #office", when analysed, then posting is the duty on both days', () => {
    expect(
      workflowsOf(
        'Facilities\n\nOn the 3rd and 17th, the bins are collected, so post a reminder in #office the evening before.',
      )[0],
    ).toMatchObject({ cron: '0 9 3,17 * *', capabilities: ['slack.post_message'] });
  });
});

describe('offline analyst: a terse line, a start said last, and the product the work is in', () => {
  it('given "opp -> Closed Won -> QB invoice for the first order, send it to them. + post in #brewhouse", when analysed, then the stage starts it and each is a duty', () => {
    expect(
      workflowsOf(
        'Brewery\n\n* opp -> Closed Won -> QB invoice for the first order, 30 day terms, send it to them. + post in #brewhouse w/ the beers & qty',
      )[0],
    ).toMatchObject({
      triggerId: 'salesforce.opportunity_stage_changed',
      params: { stage: 'Closed Won' },
      capabilities: ['quickbooks.create_invoice', 'quickbooks.create_invoice', 'slack.post_message'],
    });
  });

  it('given "Overdue QuickBooks invoices -> polite chase email to the customer, cc accounts@…", when analysed, then an overdue invoice starts it and the cc is the email\'s', () => {
    expect(
      workflowsOf(
        'Print shop\n\nOverdue QuickBooks invoices -> polite chase email to the customer, cc accounts@inkwell.example',
      )[0],
    ).toMatchObject({ triggerId: 'quickbooks.invoice_overdue', capabilities: ['gmail.send_email'] });
  });

  it('given "Move the HubSpot deal to "Deposit paid" as soon as that deposit invoice is paid in Stripe." after another start, when analysed, then it starts its own workflow', () => {
    const read = workflowsOf(
      'Ski school\n\nSend a Slack message to #office whenever a group deal is won in HubSpot. Set the group leader up as a customer in Stripe and send them an invoice for the deposit at the same time.\n\nMove the HubSpot deal to "Deposit paid" as soon as that deposit invoice is paid in Stripe.',
    );
    expect(read.map((w) => w.triggerId)).toEqual(['hubspot.deal_stage_changed', 'stripe.invoice_paid']);
    expect(read[1]?.capabilities).toEqual(['hubspot.update_deal']);
  });

  it('given "Book a 20-minute video interview with Lena" when someone applies in Greenhouse, when matched, then the interview is scheduled in Greenhouse', () => {
    expect(
      workflowsOf(
        'Ski school\n\nBook a 20-minute video interview with Lena every time someone applies for the instructor job in Greenhouse.',
      )[0]?.capabilities,
    ).toEqual(['greenhouse.schedule_interview']);
  });

  it("given \"when a couple's deal moves to 'Booked' in hubspot:\" over a list, when analysed, then the possessive is no verb and the stage starts it", () => {
    expect(
      workflowsOf(
        "Venue\n\nwhen a couple's deal moves to 'Booked' in hubspot:\n- send them the venue hire contract to sign via docusign",
      )[0],
    ).toMatchObject({ triggerId: 'hubspot.deal_stage_changed', params: { stage: 'Booked' } });
  });

  it('given a form that "posts to the employee\'s webhook", then "When one arrives, …", when analysed, then the webhook starts it', () => {
    expect(
      workflowsOf(
        'Funeral directors\n\nOur website has a "Request a call back" form which posts to the employee\'s webhook. When one arrives, email the family.',
      )[0]?.triggerId,
    ).toBe('webhook.incoming_webhook');
  });

  it('given "save to Drive "Artwork In"" with nothing named before "to", when matched, then the file is uploaded, no folder made', () => {
    expect(workflowsOf('Print shop\n\nWhen an email arrives with artwork, save to Drive "Artwork In".')[0]?.capabilities).toEqual(
      ['google-drive.upload_file'],
    );
  });
});

describe('offline analyst: what today’s readings must leave as it was', () => {
  it('given "We don\'t want any enquiry to slip through the cracks, so when a form comes in on the website, text Jane", when analysed, then the work is kept', () => {
    expect(
      workflowsOf(
        "Office\n\nWe don't want any enquiry to slip through the cracks, so when a form comes in on the website, text Jane straight away.",
      )[0]?.capabilities,
    ).toEqual(['twilio.send_sms']);
  });

  it('given "Workflow: every Friday at 4pm, email the timesheet summary to Jo.", when analysed, then the work on the label\'s line is kept', () => {
    expect(workflowsOf('Office\n\nWorkflow: every Friday at 4pm, email the timesheet summary to Jo.')[0]).toMatchObject({
      cron: '0 16 * * 5',
      capabilities: ['gmail.send_email'],
    });
  });

  it('given "email the tenant the date and remind them the day before", when split, then the later reminder is its own duty', () => {
    expect(splitClauses('email the tenant the date and remind them the day before').clauses).toHaveLength(2);
    expect(splitClauses('ask her manager to schedule an induction and tell her the date').clauses).toHaveLength(2);
  });

  it('given "Grab the latest numbers from Stripe when they are ready and email them to Sam every Monday", when analysed, then it still runs every Monday', () => {
    expect(
      workflowsOf('Finance\n\nGrab the latest numbers from Stripe when they are ready and email them to Sam every Monday.')[0]
        ?.cron,
    ).toBe('0 9 * * 1');
  });

  it('given "Overdue invoices get a reminder email – every Monday at 10.", when analysed, then the part before the dash is no title', () => {
    expect(
      workflowsOf('Office\n\nOverdue invoices get a reminder email – every Monday at 10.')[0]?.capabilities,
    ).not.toHaveLength(0);
  });

  it('given "If a lead is a bad fit we usually pass on them, so just tag them cold in HubSpot", when analysed, then "pass on" is no message', () => {
    expect(
      capabilities(
        'Sales\n\nWhen a new lead comes in on HubSpot, if a lead is a bad fit we usually pass on them, so just tag them cold in HubSpot.',
      ),
    ).not.toContain('gmail.send_email');
  });

  it('given "When a Zendesk ticket is solved, write back to the customer …", when matched, then writing back is an email', () => {
    expect(
      workflowsOf('Support\n\nWhen a Zendesk ticket is solved, write back to the customer to ask for a review.')[0]?.capabilities,
    ).toEqual(['gmail.send_email']);
  });
});

describe('offline analyst: an item of a list taken back', () => {
  const CHANGED = [
    'Recruitment',
    '',
    '1. when a candidate applies in Greenhouse, send them a friendly email',
    '2. book a 20 min phone screen for them and send them the invite',
    '3. when the placement agreement comes back signed in DocuSign, post in #wins',
    '',
    'actually, scrap the second one — the consultants want to book screens themselves. keep 1 and 3.',
  ].join('\n');

  it('given "actually, scrap the second one … keep 1 and 3." after a numbered list, when analysed, then the second item does nothing', () => {
    const read = workflowsOf(CHANGED);
    expect(read.map((w) => w.triggerId)).toEqual(['greenhouse.candidate_applied', 'docusign.envelope_completed']);
    expect(read.flatMap((w) => w.capabilities)).toEqual(['gmail.send_email', 'slack.post_message']);
  });

  it('given "forget number 3" or "drop the first one", when read, then that item goes, and nothing goes without a list before', () => {
    expect(withoutRetracted('- a\n- b\n- c\n\nDrop the first one.')).toBe('- b\n- c\n\n');
    expect(withoutRetracted('1. a\n2. b\n3. c\nForget number 3, please.')).toBe('1. a\n2. b\n');
    expect(withoutRetracted('Scrap the second one.')).toBe('Scrap the second one.');
  });

  it('given "if two bookings overlap, skip the second one" inside a duty, when read, then nothing is taken back', () => {
    const text =
      '1. when a booking comes in, add it to the calendar\n2. if two bookings overlap, skip the second one and email me';
    expect(withoutRetracted(text)).toBe(text);
  });
});

describe('offline analyst: a club’s and a shop’s ways of saying when', () => {
  it('given "First thing Monday (7am), post in #coaches …", when analysed, then it runs every Monday at seven', () => {
    expect(
      workflowsOf(
        'Club\n\n- First thing Monday (7am), post in #coaches on Slack reminding everyone to send in their match reports.',
      )[0],
    ).toMatchObject({ cron: '0 7 * * 1', capabilities: ['slack.post_message'] });
  });

  it('given "Open Mon-Sat 9:00-17:30." and "…, so our bookkeeper has everything at the end of the quarter", when analysed, then neither is a schedule', () => {
    const read = workflowsOf(
      'Bookshop\n\nOpen Mon-Sat 9:00-17:30. Wholesaler invoices arrive by email as PDFs. Save each one into the "Invoices" folder in Google Drive, so our bookkeeper has everything at the end of the quarter.',
    );
    expect(read.map((w) => w.triggerId)).toEqual(['gmail.new_email']);
    expect(read[0]?.capabilities).toEqual(['google-drive.upload_file']);
  });

  it('given "check the shop Gmail for new special-order requests", when matched, then the mail is searched', () => {
    expect(
      workflowsOf('Bookshop\n\nEvery 15 minutes, check the shop Gmail for new special-order requests.')[0]?.capabilities,
    ).toEqual(['gmail.search_email']);
  });

  it('given "text that team\'s coach the pitch, kick-off time and referee details" and "keep it kind", when analysed, then it is one text and no duty of style', () => {
    expect(
      steps(
        "Club\n\nIf a subs payment fails in Stripe, email the parent a gentle nudge. Lots of families are on payment plans, so keep it kind. 3 hours before each match in the Fixtures calendar, text that team's coach the pitch, kick-off time and referee details.",
      ),
    ).toEqual(['email the parent a gentle nudge', "text that team's coach the pitch, kick-off time and referee details"]);
  });

  it('given "The day before of each appointment", when analysed, then it is the day before each appointment', () => {
    expect(
      workflowsOf('Salon\n\nThe day before of each appointment in the Google Calendar, text the client a reminder.')[0],
    ).toMatchObject({ triggerId: 'google-calendar.event_starting', params: { minutesBefore: 1440 } });
  });
});
