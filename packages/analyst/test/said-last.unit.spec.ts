import { describe, expect, it } from 'vitest';
import { analyseJob } from '../src';
import { freeTimeFirst, servedWords } from '../src/segment';
import { catalog, workflowsOf } from './workflows-of';

describe('offline analyst: a start said after the duty', () => {
  it('given a duty and then "whenever" something happens, when analysed, then what happens starts the workflow and the duty is its step', () => {
    expect(workflowsOf('text me on 0412 555 019 whenever a card payment fails on the flower shop')).toMatchObject([
      { triggerId: 'stripe.payment_failed', steps: ['text me on 0412 555 019'], capabilities: ['twilio.send_sms'] },
    ]);
    expect(workflowsOf('Create a Jira issue as soon as someone reports a bug in #bugs.')).toMatchObject([
      { triggerId: 'slack.new_message', steps: ['Create a Jira issue'], capabilities: ['jira.create_issue'] },
    ]);
    expect(workflowsOf('Post in #sales every time a new lead comes in from the website form.')[0]?.triggerId).toBe(
      'webhook.incoming_webhook',
    );
  });

  it('given the start said last in a request ("please …, thanks", "could you …?"), when analysed, then the asking is no part of the duty', () => {
    expect(workflowsOf('Please post in #wins when a HubSpot deal is won, thanks')).toMatchObject([
      { triggerId: 'hubspot.deal_stage_changed', params: { stage: 'Closed Won' }, steps: ['post in #wins'] },
    ]);
    expect(workflowsOf('I need you to text the on-call tech whenever a Zendesk ticket is marked urgent.')).toMatchObject([
      { triggerId: 'zendesk.ticket_updated', steps: ['text the on-call tech'] },
    ]);
  });

  it('given a person pointed back at, when analysed, then they start the work only where a product or a channel is named', () => {
    expect(workflowsOf('Email candidates when they apply in Greenhouse.')).toMatchObject([
      { triggerId: 'greenhouse.candidate_applied', steps: ['Email candidates'] },
    ]);
    expect(workflowsOf('Reply to the customer when they write back.')[0]?.triggerId).toBeNull();
  });

  it('given a "when" that says what to tell, a state, or a summary of the job, when analysed, then no start is read from it', () => {
    for (const text of [
      'Tell the client when the part arrives.',
      'Refund it when the amount is under $100.',
      'Keep parents informed when our buses run late.',
    ]) {
      const [first] = workflowsOf(text);
      expect(first?.triggerId, text).toBeNull();
      expect(first?.steps, text).toEqual([text.replace(/\.$/, '')]);
    }
  });
});

describe('offline analyst: times ahead of something with a time of its own', () => {
  it('given a time before an item no list knows ("the fitting", "a haul-out starts", "I come"), when analysed, then it is the calendar event starting', () => {
    expect(workflowsOf('The day before the fitting you send SMS to the customer for remember.')[0]).toMatchObject({
      triggerId: 'google-calendar.event_starting',
      params: { minutesBefore: 1440 },
    });
    expect(workflowsOf('15 min before a haul-out starts, text the owner that the lift is ready.')[0]).toMatchObject({
      triggerId: 'google-calendar.event_starting',
      params: { minutesBefore: 15 },
    });
    expect(workflowsOf('Text my customers the evening before I come.')[0]?.triggerId).toBe('google-calendar.event_starting');
  });

  it('given a time before a date of a record or a deadline, when analysed, then it stays a schedule, not a calendar event', () => {
    for (const text of [
      'Three days before their start date, email the new hire the first-day plan.',
      'A week before the deadline, post a reminder in #finance.',
    ])
      expect(workflowsOf(text)[0]?.triggerId, text).toBe('schedule.cron');
  });
});

describe('offline analyst: someone paying', () => {
  it('given someone paying their deposit, a bill or just paying, when analysed, then it is the invoice paid', () => {
    for (const text of [
      'When a hirer pays their deposit, email them the key instructions.',
      'When a customer pays, email them a receipt.',
      'Once the client has paid the deposit, book the job in the calendar.',
    ])
      expect(workflowsOf(text)[0]?.triggerId, text).toBe('stripe.invoice_paid');
  });

  it('given a payment someone must make, when analysed, then it is no payment made', () => {
    expect(
      workflowsOf(
        'When it is a wedding dress, the customer must pay deposit before the fitting, so make an invoice in Stripe.',
      )[0]?.triggerId,
    ).not.toBe('stripe.invoice_paid');
  });

  it('given a product name before the noun of its item, when analysed, then the noun is no verb ending the lead', () => {
    expect(
      workflowsOf("When a customer pays their Stripe invoice I'd like a text to my phone (828-555-0144) so I know."),
    ).toMatchObject([
      {
        lead: 'When a customer pays their Stripe invoice',
        triggerId: 'stripe.invoice_paid',
        steps: ['send a text to my phone (828-555-0144) so I know'],
        capabilities: ['twilio.send_sms'],
      },
    ]);
  });
});

describe('offline analyst: a free time found before it is used', () => {
  it('given a duty that offers or books a free time, when split, then a free slot is found first', () => {
    expect(freeTimeFirst('reply offering my next two free slots')).toEqual([
      'find a free slot in the calendar',
      'reply offering my next two free slots',
    ]);
    expect(freeTimeFirst('book a site measure on the Crew calendar when the crew lead is free')).toHaveLength(2);
  });

  it('given a duty that only looks, or a look at the calendar before, when split, then nothing is added', () => {
    expect(freeTimeFirst('look in my agenda (google) when I am free for 45 minute')).toEqual([
      'find a free slot: look in my agenda (google) when I am free for 45 minute',
    ]);
    expect(freeTimeFirst('reply with the nearest free slot', ['check the "Community Room" Google calendar'])).toEqual([
      'reply with the nearest free slot',
    ]);
  });

  it('given availability that is asked for or a free thing that is no time, when split, then nothing is added', () => {
    for (const clause of [
      'send email to volunteers@ to remember them to put their availability for next month',
      'tick them off in the "Squad availability" Notion database',
      'offer free shipping on the next order',
    ])
      expect(freeTimeFirst(clause), clause).toEqual([clause]);
  });

  it('given an email asking for a visit answered with free slots, when analysed, then the calendar is searched before the reply', () => {
    expect(
      workflowsOf('When someone emails asking for a tuning, reply offering my next two free slots.')[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'gmail.send_email']);
  });
});

describe('offline analyst: how chat, tables and third persons are written', () => {
  it('given a table of cases with a column of the systems each uses, when analysed, then each row is a case and its systems stay with its duty', () => {
    const said = workflowsOf(
      [
        'School office',
        '',
        '| When | What to do | Systems |',
        '|---|---|---|',
        '| A parent emails office@ about an absence | Send a short acknowledgement and label the email "Absence" | Gmail |',
        '| A signed consent form is uploaded to the "Trip Consent" folder in Drive | Tick the child off in the trip tracker in Notion | Drive, Notion |',
      ].join('\n'),
    );
    expect(said).toMatchObject([
      { triggerId: 'gmail.new_email', capabilities: ['gmail.send_email', 'gmail.label_email'] },
      {
        triggerId: 'google-drive.file_added',
        steps: ['tick the child off in the trip tracker in Notion (Drive, Notion)'],
        capabilities: ['notion.update_database_item'],
      },
    ]);
  });

  it('given a table of cases with a notes column, when analysed, then each row is a case and its notes stay with its duty', () => {
    const said = workflowsOf(
      [
        '| When | What to do | Notes |',
        '|---|---|---|',
        '| A slip-rental invoice in QuickBooks is 10 days overdue | Email the boat owner a reminder | keep it polite |',
        '| Every Friday 4pm | Post in #dock-staff the weekend checklist | |',
        '| 15 min before a haul-out starts | Text the owner that the lift is ready | only between 7am and 7pm |',
      ].join('\n'),
    );
    expect(said).toMatchObject([
      {
        triggerId: 'quickbooks.invoice_overdue',
        params: { daysOverdue: 10 },
        steps: ['email the boat owner a reminder (keep it polite)'],
      },
      { triggerId: 'schedule.cron', params: { expression: '0 16 * * 5' } },
      {
        triggerId: 'google-calendar.event_starting',
        steps: ['text the owner that the lift is ready (only between 7am and 7pm)'],
      },
    ]);
  });

  it('given a table whose columns are not cases and duties, when analysed, then it is left as written', () => {
    const said = workflowsOf('| Name | Phone |\n|---|---|\n| Dana | 555 0100 |');
    expect(said.every((w) => w.triggerId === null)).toBe(true);
  });

  it('given chat shorthand for tickets, priority and Zendesk, when analysed, then it reads as written in full', () => {
    expect(workflowsOf('- new zd tix w/ prio urgent -> ping #noc + sms whoever is oncall')[0]).toMatchObject({
      triggerId: 'zendesk.new_ticket',
      params: { priority: 'urgent' },
    });
  });

  it('given a note left on a ticket as an internal note, when analysed, then the ticket is updated', () => {
    expect(
      workflowsOf('When a new Zendesk ticket arrives, put the Jira key as internal note on the ticket.')[0]?.capabilities,
    ).toEqual(['zendesk.update_ticket']);
  });

  it('given what he, she or they do with no modal, when analysed, then it is somebody else acting, not a duty', () => {
    const said = workflowsOf('When a refund is requested in Zendesk, assign the ticket to Claire. She approves those herself.');
    expect(said.flatMap((w) => w.steps)).toEqual(['assign the ticket to Claire']);
    expect(
      workflowsOf('They forward receipts to receipts@ledgerly.example. For each one, save the attachment to Drive.'),
    ).toMatchObject([{ triggerId: 'gmail.new_email', steps: ['save the attachment to Drive'] }]);
  });

  it('given the employee called "he" with a verb in its base form, when analysed, then it is a duty', () => {
    const said = workflowsOf('When a new lead comes in HubSpot, he create a task in HubSpot for the salesman.');
    expect(said[0]?.capabilities).toEqual(['hubspot.create_task']);
  });

  it("given a label that names a product's new items, when analysed, then they are what arrives", () => {
    expect(
      workflowsOf('Triage every new Zendesk ticket: tag it (shipping, breakage, other) and set the priority.'),
    ).toMatchObject([{ triggerId: 'zendesk.new_ticket', capabilities: ['zendesk.update_ticket', 'zendesk.update_ticket'] }]);
  });

  it('given a form whose data is passed on to our webhook, when analysed, then the submissions are the event', () => {
    expect(
      workflowsOf(
        'They fill the loan request form in our website, and the form is sending the data to your webhook. For every request you must:\n- create a new loan in the Notion database "Loans"',
      )[0]?.triggerId,
    ).toBe('webhook.incoming_webhook');
  });

  it('given a second comment on a pull request, when analysed, then it is a GitHub comment, not a Jira one', () => {
    expect(
      workflowsOf(
        'When a PR is opened in acme/api, comment our checklist on it, then add a second comment asking the author to fix it.',
      )[0]?.capabilities,
    ).toEqual(['github.comment_pull_request', 'github.comment_pull_request']);
  });

  it('given a label of limits before what must not be done, when analysed, then none of its verbs is a duty', () => {
    for (const text of [
      "When a user reports a problem in #help, create a Jira issue. Restrictions: the assistant must not book, move or cancel sessions on anyone's behalf.",
      "When a new Zendesk ticket arrives, tag it. What you won't do: issue store credit, refund more than the order total, or talk about new flavours.",
    ]) {
      const said = workflowsOf(text);
      expect(said, text).toHaveLength(1);
      expect(said[0]?.steps, text).toHaveLength(1);
    }
  });

  it('given what a message tells said as a "that" clause with "and", when analysed, then the told part is no duty of its own', () => {
    expect(
      workflowsOf(
        'Every Monday at 9am, email the team reminding them that the usage report and recharge statements are available.',
      )[0]?.steps,
    ).toEqual(['email the team reminding them that the usage report and recharge statements are available']);
  });

  it('given a past participle after the thing made, when analysed, then it describes the thing and is no step of its own', () => {
    const served = analyseJob(
      'When a text comes in, open a Zendesk ticket for it, tagged "absence", so dispatch sees it.',
      servedWords(catalog),
    );
    expect(served.workflows[0]?.steps.map((s) => s.text)).toEqual([
      'open a Zendesk ticket for it, tagged "absence", so dispatch sees it',
    ]);
  });

  it('given the rest of the work and its duty with no comma between ("For everything else add …"), when analysed, then the duty is kept', () => {
    const said = workflowsOf(
      'When a new Zendesk ticket arrives, text the on-call engineer if it is urgent. For everything else add an internal note "queued" and tag it route.',
    );
    expect(said.flatMap((w) => w.capabilities)).toEqual(['twilio.send_sms', 'zendesk.update_ticket', 'zendesk.update_ticket']);
  });
});

describe('offline analyst: what a review of these readings found', () => {
  it('given a product named as the place of the event and the duty right after it with no comma, when analysed, then the duty is kept', () => {
    expect(workflowsOf('When a deal closes in HubSpot create an invoice in QuickBooks.')).toMatchObject([
      { lead: 'When a deal closes in HubSpot', capabilities: ['quickbooks.create_invoice'] },
    ]);
    expect(workflowsOf('When a new email arrives in Gmail label it and reply.')[0]?.capabilities).toEqual([
      'gmail.label_email',
      'gmail.send_email',
    ]);
  });

  it('given a job ad that calls the hire "she" or "they", when analysed, then what they do are the duties', () => {
    for (const text of [
      'We are hiring a virtual receptionist. They answer patient emails, book appointments in Google Calendar and send reminders.',
      'We are hiring a virtual receptionist. She answers the phones, books appointments in Google Calendar and sends reminders.',
    ])
      expect(
        workflowsOf(text).flatMap((w) => w.capabilities),
        text,
      ).toContain('google-calendar.create_event');
  });

  it('given a case of the work said last inside the paragraph of a workflow, when analysed, then it stays a step of that workflow', () => {
    const said = workflowsOf(
      'When a new Zendesk ticket comes in, tag it by topic. Escalate to Sam when the customer mentions a refund.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.triggerId).toBe('zendesk.new_ticket');
  });

  it('given a style or what not to do said with a start last, when analysed, then no workflow starts from it', () => {
    for (const text of [
      'Never reply when a customer emails after 10pm.',
      'Use British spelling when someone writes from the UK.',
    ])
      expect(
        workflowsOf(text).every((w) => w.triggerId === null),
        text,
      ).toBe(true);
  });

  it("given a time before a record's date, a deadline or an expiry, when analysed, then it is no calendar event", () => {
    for (const text of [
      'A week before the policy expires, email the client a renewal quote.',
      'Three days before the new hire starts, email them the first-day plan.',
      "A week before the employee's start date, order their laptop.",
      'Three days before the project deadline, email the client.',
    ])
      expect(workflowsOf(text)[0]?.triggerId, text).not.toBe('google-calendar.event_starting');
    expect(workflowsOf('The day before the bin collection, text residents a reminder.')[0]?.lead).toBe(
      'The day before the bin collection',
    );
  });

  it('given a payment not made, or made by us, when analysed, then it is no invoice paid', () => {
    for (const text of [
      "If the customer doesn't pay the deposit within 48 hours, cancel the booking.",
      "When a customer hasn't paid the balance by the due date, email them.",
      'When the office pays the electricity bill, file the receipt.',
    ])
      expect(workflowsOf(text)[0]?.triggerId, text).not.toBe('stripe.invoice_paid');
  });

  it('given someone or something available that is no free time, when split, then no free slot is found', () => {
    for (const clause of [
      'assign it to the next available agent',
      'text the customer when the order is available for pickup',
      'offer them a free half-hour consultation',
      'check stock availability in Shopify',
      'give them 2 free hours of parking',
    ])
      expect(freeTimeFirst(clause), clause).toEqual([clause]);
  });

  it('given a message wanted from someone else, when analysed, then it is no message we send', () => {
    expect(
      workflowsOf('We need an email from the customer with their order number before we refund.').flatMap((w) => w.capabilities),
    ).not.toContain('gmail.send_email');
  });
});

describe('offline analyst: tools named loosely, events said as labels, late invoices and misspellings', () => {
  it('given "the helpdesk", "our CRM" and "the chat" for the org\'s tools, when analysed, then they are the connected products', () => {
    const said = workflowsOf(
      [
        'When a new file lands in the Inspections folder on the shared drive, raise it on the helpdesk as urgent and post in #safety on the chat.',
        'When someone gets added to our CRM as a customer, make them a folder on the shared drive.',
        'Complaints come in through the helpdesk. When one comes in tagged "damage", put an internal note on it.',
      ].join('\n\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['google-drive.file_added', 'hubspot.new_contact', 'zendesk.new_ticket']);
    expect(said[0]?.capabilities).toEqual(['zendesk.create_ticket', 'slack.post_message']);
  });

  it('given an event said as a label with no lead word ("Opportunity moves to …:", "Agreement fully signed:"), when analysed, then it starts the items', () => {
    const said = workflowsOf(
      '1. Opportunity moves to "Contract Sent": send the service agreement through DocuSign.\n2. Agreement fully signed: move the opportunity to Closed Won.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['salesforce.opportunity_stage_changed', 'docusign.envelope_completed']);
    expect(said[0]?.params).toEqual({ stage: 'Contract Sent' });
  });

  it('given a time after an invoice falls due, when analysed, then it is the invoice that many days overdue', () => {
    expect(
      workflowsOf("A week after an invoice is due, if it still hasn't been paid, email the customer a nudge.")[0],
    ).toMatchObject({
      triggerId: 'quickbooks.invoice_overdue',
      params: { daysOverdue: 7 },
    });
    expect(workflowsOf('10 days past the invoice due date, email the client a reminder.')[0]?.params).toEqual({
      daysOverdue: 10,
    });
  });

  it('given the words of the work misspelt, when analysed, then they read as spelt', () => {
    expect(
      workflowsOf('When a Stripe invoice is paid, put the apointment in the artists calender and email them the confirmaton.')[0]
        ?.steps,
    ).toEqual(['put the appointment in the artists calendar', 'email them the confirmation']);
  });

  it('given a free slot with words between, or the finding said inside the duty, when split, then one finding, not two', () => {
    expect(freeTimeFirst('check the Education calendar for a free 90 min slot')).toEqual([
      'find a free slot: check the Education calendar for a free 90 min slot',
    ]);
    expect(freeTimeFirst("get them into an orientation: find a free 30-minute slot on Marisol's calendar")).toHaveLength(1);
  });
});

describe('offline analyst: what a second review found', () => {
  it('given "themselves" in a duty, when analysed, then the workflow stays', () => {
    const [first] = workflowsOf('When a new hire starts, send them the handbook and let them set up their laptop themselves.');
    expect(first?.triggerId).toBe('bamboohr.new_hire');
    expect(first?.steps).toHaveLength(2);
  });

  it('given a start said last with "whenever" of another product, or after a schedule, in the same paragraph, when analysed, then it is work of its own', () => {
    expect(
      workflowsOf('When a new lead comes in, add them to HubSpot. Text me whenever a Stripe payment fails.').map(
        (w) => w.triggerId,
      ),
    ).toEqual(['hubspot.new_contact', 'stripe.payment_failed']);
    expect(
      workflowsOf("Every morning at 7, post the day's orders in #kitchen. Email me whenever a customer pays their invoice.").map(
        (w) => w.triggerId,
      ),
    ).toEqual(['schedule.cron', 'stripe.invoice_paid']);
  });

  it('given a duty after "always" or "remember to", when its start is said last, then the start is read', () => {
    for (const text of [
      'Always text me when a Stripe payment fails.',
      'Remember to email the client whenever an invoice is paid.',
    ])
      expect(workflowsOf(text)[0]?.triggerId, text).not.toBeNull();
  });

  it('given a new customer on the website, or "our CRM" that is another product, when analysed, then no CRM of ours starts it', () => {
    expect(workflowsOf('When a new customer signs up on our website, email them a welcome.')[0]?.triggerId).toBe(
      'webhook.incoming_webhook',
    );
    expect(workflowsOf('When a deal is won in our CRM (Pipedrive), post in #wins.')[0]?.triggerId).toBeNull();
    expect(workflowsOf('When someone gets added to our CRM as a customer, make them a folder.')[0]?.triggerId).toBe(
      'hubspot.new_contact',
    );
  });

  it('given a calendar event said in two words, when analysed, then it is the event starting', () => {
    for (const text of [
      '15 minutes before the project standup, post in #eng.',
      'A week before the Christmas party, email the staff.',
    ])
      expect(workflowsOf(text)[0]?.triggerId, text).toBe('google-calendar.event_starting');
  });

  it('given a misspelt word inside a channel or an address, when analysed, then it is left as written', () => {
    expect(workflowsOf('When someone posts in #calender-updates, email me.')[0]?.params).toEqual({
      channel: '#calender-updates',
    });
  });

  it('given a message wanted by a time or from the employee, when analysed, then it is the duty that sends it', () => {
    expect(workflowsOf("I'd like an email by 9am every day with the day's bookings.")[0]?.capabilities).toEqual([
      'gmail.send_email',
    ]);
    expect(workflowsOf("I'd like an email from the bot whenever a Stripe payment fails.")[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      capabilities: ['gmail.send_email'],
    });
  });

  it('given a free time offered or awaited, when split, then a free slot is found first', () => {
    for (const clause of ['email them the earliest available interview slot', 'book the call when the therapist is free'])
      expect(freeTimeFirst(clause)[0], clause).toBe('find a free slot in the calendar');
  });

  it('given mail sent to a shared mailbox of ours, when analysed, then it is work arriving', () => {
    expect(
      workflowsOf('Our website sends every booking to reservations@bistro.com. Add each one to the calendar.')[0]?.triggerId,
    ).toBe('gmail.new_email');
  });

  it('given the employee called "he" with base-form verbs inside a sentence, when analysed, then each is a duty', () => {
    expect(
      workflowsOf('When a customer calls, he answer the phone, he book the job in calendar and he send the invoice.')[0]?.steps,
    ).toHaveLength(3);
  });

  it('given a number of days in words after an invoice is due, when analysed, then that many days overdue', () => {
    expect(workflowsOf('Fourteen days after an invoice is due, email the client.')[0]?.params).toEqual({ daysOverdue: 14 });
  });
});

describe('offline analyst: a fourteenth blind set', () => {
  it('given "day before" with no article, or "any" item on a calendar, when analysed, then it is the event starting', () => {
    expect(workflowsOf('Day before any survey on that calendar -> text the site contact.')[0]).toMatchObject({
      triggerId: 'google-calendar.event_starting',
      params: { minutesBefore: 1440 },
    });
  });

  it('given a time after an invoice passes its due date, when analysed, then it is the invoice that many days overdue', () => {
    expect(workflowsOf('Three days after an invoice passes its due date, email the practice manager.')[0]).toMatchObject({
      triggerId: 'quickbooks.invoice_overdue',
      params: { daysOverdue: 3 },
    });
  });
});
