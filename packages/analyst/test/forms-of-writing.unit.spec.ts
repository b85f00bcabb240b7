import { describe, expect, it } from 'vitest';
import { analyseJob } from '../src';
import { unknownProductsIn } from '../src/text';
import { saidUnconnected } from '../src/unconnected';
import { workflowsFor } from './workflows-of';

describe('offline analyst: acceptance criteria written Given / When / Then', () => {
  it('given criteria on one line each, when analysed, then each "when" is a start and what "then" says is done is its work', () => {
    const said = workflowsFor(
      ['zendesk', 'jira', 'slack'],
      [
        'Acceptance criteria',
        'AC1 - Given a new Zendesk ticket tagged "outage", when it is created, then a Task is created in Jira project OPS, and the Jira key is added to the ticket as an internal note.',
        'AC2 - Given a ticket linked to a Jira incident, when the requester adds a new comment, then the comment is copied onto the Jira issue.',
        'AC3 - Given a linked Jira incident, when it moves to Resolved, then the requester gets a public reply on the ticket.',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket', 'zendesk.ticket_updated', 'jira.issue_transitioned']);
    expect(said[0]?.capabilities).toEqual(['jira.create_issue', 'zendesk.update_ticket']);
    expect(said[1]?.capabilities).toEqual(['jira.comment_issue']);
    expect(said[2]?.capabilities).toEqual(['zendesk.reply_ticket']);
  });

  it('given Given / When / Then on lines of their own, when analysed, then they are read as one criterion', () => {
    const said = workflowsFor(
      ['zendesk', 'jira', 'slack'],
      [
        'Scenario: outage',
        '  Given a new Zendesk ticket tagged "outage"',
        '  When it is created',
        '  Then a message is posted in #ops-alerts',
      ].join('\n'),
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['slack.post_message'] });
  });

  it('given a Gherkin scenario whose "Given" says the start and has no "When", when analysed, then it reads line by line as before', () => {
    const said = workflowsFor(
      ['stripe', 'gmail', 'webhook'],
      [
        'Scenario: a sign-up',
        '  Given someone signs up on the form on our website',
        '  Then create them as a customer in Stripe',
        '  And email them a welcome',
      ].join('\n'),
    );
    expect(said.flatMap((w) => w.capabilities)).toEqual(['stripe.create_customer', 'gmail.send_email']);
  });
});

describe('offline analyst: a formal letter', () => {
  it('given "I should be most grateful if your assistant could, whenever …, …", when analysed, then the start and its work are read', () => {
    const said = workflowsFor(
      ['webhook', 'gmail', 'notion'],
      'Dear Sir, I should be most grateful if your assistant could, whenever a member of the public completes the enquiry form on our website, add them to the enquiries database in Notion and send them a kind acknowledgement by email.',
    );
    expect(said[0]).toMatchObject({
      triggerId: 'webhook.incoming_webhook',
      capabilities: ['notion.create_page', 'gmail.send_email'],
    });
  });

  it('given "we should very much appreciate the assistant writing to …", when analysed, then the writing is the work', () => {
    const said = workflowsFor(
      ['notion', 'gmail'],
      'Furthermore, when our secretary marks a booking as "Confirmed" in Notion, we should very much appreciate the assistant writing to the client with the date of the visit.',
    );
    expect(said[0]).toMatchObject({ triggerId: 'notion.page_updated', capabilities: ['gmail.send_email'] });
  });

  it('given "Were it possible for the assistant to …, that would be a considerable help", when analysed, then it is a duty', () => {
    const said = workflowsFor(
      ['gmail', 'schedule'],
      'Were it possible for the assistant to email our trustees a summary every Friday at 4pm, that would be a considerable help.',
    );
    expect(said[0]).toMatchObject({ triggerId: 'schedule.cron', capabilities: ['gmail.send_email'] });
  });

  it('given a start in "that register" said before to be kept in a product, when analysed, then the start is that product\'s', () => {
    const said = workflowsFor(
      ['webhook', 'gmail', 'notion'],
      'When someone fills in the form on our website, add them to the members register we keep in Notion. When our coordinator marks someone as "Active" in that register, email them the welcome pack.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['webhook.incoming_webhook', 'notion.page_updated']);
  });
});

describe('offline analyst: hurried writing', () => {
  it('given a run-on note in lower case, when analysed, then "the other thing is" parts two pieces of work and a new subject parts a start', () => {
    const said = workflowsFor(
      ['stripe', 'hubspot', 'gmail', 'twilio'],
      'ok so whenever someone pays one of our membership invoices in stripe they should go into hubspot as a contact and then they get an email from us with the house rules and then the other thing is when a card payment fails can it text them a heads up to update their card thanks',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['stripe.invoice_paid', 'stripe.payment_failed']);
    expect(said[0]?.capabilities).toEqual(['hubspot.create_contact', 'gmail.send_email']);
    expect(said[1]?.capabilities).toEqual(['twilio.send_sms']);
  });

  it('given contractions without apostrophes, when a product is said not to be hooked up, then the workflow carries it', () => {
    const { workflows } = analyseJob(
      'when a class is booked in Mindbody email the member a confirmation but we havent connected Mindbody yet',
    );
    expect(workflows.flatMap((w) => w.unconnected?.map((u) => u.providerId) ?? [])).toEqual(['mindbody']);
  });

  it('given "-> put in salesforce as a lead", when analysed, then what came in is made a lead', () => {
    const said = workflowsFor(
      ['webhook', 'salesforce', 'twilio'],
      'new enquiry from the website form (it goes to the webhook) -> put in salesforce as a lead + txt the customer that we got it',
    );
    expect(said[0]?.capabilities).toEqual(['salesforce.create_lead', 'twilio.send_sms']);
  });
});

describe('offline analyst: outlines, procedures and templates', () => {
  it('given "Starts when:" under each section of an outline, when analysed, then each section is a workflow of its own', () => {
    const said = workflowsFor(
      ['gmail', 'hubspot', 'google-calendar', 'slack', 'quickbooks'],
      [
        '- New enquiries',
        '  - Starts when: an email arrives at hello@ with "Enquiry" in the subject',
        '    - Add the sender to HubSpot as a contact',
        '- Event prep',
        '  - Starts when: a booking on the "Events" calendar is 72 hours away',
        '    - Post the run sheet in #crew',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['gmail.new_email', 'google-calendar.event_starting']);
    expect(said[1]?.params).toMatchObject({ minutesBefore: 72 * 60 });
  });

  it("given numbered steps of a procedure after a start, when analysed, then the steps are that start's work", () => {
    const said = workflowsFor(
      ['gmail', 'google-drive', 'notion'],
      [
        '1. When a new claim email arrives, the assistant saves the attached form to the "Claims" folder in Google Drive.',
        '2. The assistant adds the claimant to the Claims database in Notion.',
        '3. The assistant labels the email "Filed".',
      ].join('\n'),
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.capabilities).toEqual(['google-drive.upload_file', 'notion.create_page', 'gmail.label_email']);
  });

  it('given a numbered list of duties each with its own start, when analysed, then each stays a workflow of its own', () => {
    const said = workflowsFor(
      ['gmail', 'slack', 'schedule'],
      ['1. When a new email arrives at sales@, post it in #sales.', '2. Every Friday at 4pm, email the team a summary.'].join(
        '\n',
      ),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['gmail.new_email', 'schedule.cron']);
  });

  it('given a message set out on quoted lines under what sends it, when analysed, then the quote is what is sent, not work', () => {
    const said = workflowsFor(
      ['google-calendar', 'twilio'],
      [
        'A day before every fitting, text the client:',
        '  "Hi {name}, a reminder of your fitting tomorrow at {time}.',
        '   Reply C to cancel."',
        '',
        'If a client replies C, cancel the fitting on the calendar and send:',
        '  "No problem, your fitting is cancelled."',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['google-calendar.event_starting', 'twilio.sms_received']);
    expect(said[0]?.capabilities).toEqual(['twilio.send_sms']);
    expect(said[1]?.capabilities).toEqual(['google-calendar.cancel_event', 'twilio.send_sms']);
  });

  it('given "Please set up:" before the work, when analysed, then it is no workflow', () => {
    const said = workflowsFor(['gmail', 'schedule'], 'Please set up:\n\nEvery Monday at 8am, email the rota to the team.');
    expect(said).toHaveLength(1);
  });
});

describe('offline analyst: what a product, a mailbox or a system says', () => {
  it('given a file name in a step, when products are read, then it is no product', () => {
    expect(unknownProductsIn('remind the author to add a line to CHANGELOG.md and attach report.pdf')).toEqual([]);
  });

  it('given "Once Practo is connected, …", when read, then Practo is not connected yet', () => {
    expect(
      saidUnconnected('Once Practo is connected, the assistant will also add the patient there.').map((p) => p.providerId),
    ).toEqual(['practo']);
  });

  it('given "message the manager for that site on WhatsApp", when analysed, then the step is in WhatsApp, which is missing', () => {
    const said = workflowsFor(
      ['gmail', 'zendesk'],
      'When a client emails in to complain, message the manager for that site on WhatsApp.',
    );
    expect(said[0]?.capabilities).toEqual([null]);
  });

  it('given "when someone @\'s the bot in #channel", when analysed, then it is a mention', () => {
    const said = workflowsFor(
      ['slack', 'google-drive'],
      "When someone @'s the bot in #new-jobs, make a folder for that job on Google Drive.",
    );
    expect(said[0]?.triggerId).toBe('slack.mention');
  });

  it('given a system that sends alerts to a web address, when its alert is the start, then it is the webhook', () => {
    const said = workflowsFor(
      ['webhook', 'slack'],
      'The door alarm can now send alerts to a web address. When it sends an alert, post it in #security.',
    );
    expect(said[0]?.triggerId).toBe('webhook.incoming_webhook');
  });
});

describe('offline analyst: a job ad', () => {
  it('given duties as gerunds under "will be responsible for:", when analysed, then each gerund is the duty and each start its own', () => {
    const said = workflowsFor(
      ['greenhouse', 'docusign', 'bamboohr', 'slack', 'gmail'],
      [
        'Job title: Talent Coordinator (digital)',
        'Reports to: Head of Talent',
        '',
        'The coordinator will be responsible for:',
        '• Thanking every candidate who applies for one of our jobs in Greenhouse with a short email, and letting #talent on Slack know.',
        '• Once a contract has been signed by both sides in DocuSign, setting up the new starter in BambooHR with their start date.',
        '',
        'KPIs: every candidate thanked within the hour; no starter missing from BambooHR.',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['greenhouse.candidate_applied', 'docusign.envelope_completed']);
    expect(said[0]?.capabilities).toEqual(['gmail.send_email', 'slack.post_message']);
    expect(said[1]?.capabilities).toEqual(['bamboohr.create_employee']);
  });

  it('given a gerund that is no verb opening an item ("Onboarding …"), when analysed, then the item keeps its words', () => {
    const said = workflowsFor(
      ['bamboohr', 'slack'],
      '• Onboarding for new starters is handled by Priya.\n• When a new hire is added in BambooHR, post a welcome in #team.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.triggerId).toBe('bamboohr.new_hire');
  });
});

describe('offline analyst: headings that name what happened, and duties said with "only"', () => {
  it('given "Failed payments (… through Stripe):" over items, when analysed, then the heading is their start', () => {
    const said = workflowsFor(
      ['stripe', 'twilio', 'hubspot'],
      [
        'Failed payments (membership fees taken through Stripe):',
        '- Text the member a short note asking them to update their card.',
      ].join('\n'),
    );
    expect(said[0]).toMatchObject({ triggerId: 'stripe.payment_failed', capabilities: ['twilio.send_sms'] });
  });

  it('given "- Only create … if …" among a start\'s items, when analysed, then the duty is kept with its condition', () => {
    const said = workflowsFor(
      ['stripe', 'twilio', 'hubspot'],
      [
        'Failed card payments (taken through Stripe):',
        '- Text the customer.',
        '- Only create a HubSpot task for the account owner if the amount is over £500.',
      ].join('\n'),
    );
    expect(said[0]?.capabilities).toEqual(['twilio.send_sms', 'hubspot.create_task']);
  });
});

describe('offline analyst: how it is done today, and what the sketch of a config says', () => {
  it('given "We\'d like the assistant to take over that admin:" over items, and "When both have signed", when analysed, then the items are the work', () => {
    const said = workflowsFor(
      ['hubspot', 'docusign', 'stripe', 'gmail'],
      [
        "We'd like the assistant to take over that admin:",
        '- When Tom moves a deal to "Won", send the contract for signature.',
        '- When both have signed, raise the deposit invoice in Stripe.',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['hubspot.deal_stage_changed', 'docusign.envelope_completed']);
    expect(said.map((w) => w.capabilities)).toEqual([['docusign.send_envelope'], ['stripe.create_invoice']]);
  });

  it('given a config-like sketch with on:, only_if:, do: and a message to a channel, when analysed, then each block is a workflow', () => {
    const said = workflowsFor(
      ['webhook', 'http', 'quickbooks', 'slack', 'gmail'],
      [
        'new_orders:',
        '  on: webhook /orders      # the shop calls this on every order',
        '  only_if: order total > 500',
        '  do:',
        '    - quickbooks: invoice the customer, net 14',
        '    - slack #orders: "big order from {customer}"',
        '    - push the order json to the warehouse url',
        '',
        'refund_mails:',
        '  on: email in refunds@ with "refund" in the subject',
        '  do:',
        '    - label the mail -> "Refunds"',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['webhook.incoming_webhook', 'gmail.new_email']);
    expect(said[0]?.capabilities).toEqual(['quickbooks.create_invoice', 'slack.post_message', 'http.request']);
    expect(said[1]?.capabilities).toEqual(['gmail.label_email']);
  });

  it('given "POST their name + email to the door system\'s webhook URL", when analysed, then one call sends both', () => {
    const said = workflowsFor(
      ['webhook', 'http', 'slack', 'gmail'],
      "When someone signs up on the form on our website, POST their name + email to the door system's webhook URL.",
    );
    expect(said[0]?.capabilities).toEqual(['http.request']);
  });

  it("given a job ad's item that heads what it means with a dash, when analysed, then the headline is no duty", () => {
    const said = workflowsFor(
      ['twilio', 'slack'],
      '• Supporting our care line – the line is a text number (it runs on Twilio). When a message comes in, post it in #care.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ triggerId: 'twilio.sms_received', capabilities: ['slack.post_message'] });
  });
});

describe('offline analyst: a field set on the record at hand', () => {
  it('given "set "X" on their record to …" after a start in a product, when analysed, then it is that product\'s record', () => {
    const said = workflowsFor(
      ['bamboohr', 'gmail'],
      'When a new employee is added in BambooHR, set "Induction due" on their record to their start date plus 7 days.',
    );
    expect(said[0]?.capabilities).toEqual(['bamboohr.update_employee']);
  });
});

describe('offline analyst: a duty that points back at the arrival before it', () => {
  it('given "It also needs to … as soon as they are added." after a start, when analysed, then it is that start\'s work', () => {
    const said = workflowsFor(
      ['bamboohr', 'gmail', 'slack'],
      'When a new employee is added in BambooHR, email them the handbook.\n\nIt also needs to post their name in #welcome as soon as they are added.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.capabilities).toEqual(['gmail.send_email', 'slack.post_message']);
  });
});

describe("offline analyst: a decision tree's questions and a calendar looked at", () => {
  it('given "-> mentions a … ?" branches under a start, when analysed, then the question is no step and "check that room\'s calendar" looks for room', () => {
    const said = workflowsFor(
      ['slack', 'google-calendar'],
      [
        'Message posted in #desk-bookings:',
        '  -> mentions a desk and a day?',
        "       yes -> check that desk's calendar. free -> book it in their name",
        '       no  -> reply asking which desk and when',
      ].join('\n'),
    );
    expect(said[0]?.triggerId).toBe('slack.new_message');
    expect(said[0]?.capabilities).toEqual([
      'google-calendar.find_free_slot',
      'google-calendar.create_event',
      'slack.post_message',
    ]);
  });
});

describe('offline analyst: what the new readings must leave alone (from a review of old against new)', () => {
  const caps = (connected: string[], text: string) => workflowsFor(connected, text).map((w) => [w.triggerId, ...w.capabilities]);

  it('given a lower-case text that opens with "i", when analysed, then it is still parted at its full stops', () => {
    expect(
      caps(
        ['gmail', 'hubspot'],
        'i look after a small shop. when an order email arrives in gmail add the sender to hubspot as a contact.',
      ),
    ).toEqual([['gmail.new_email', 'hubspot.create_contact']]);
  });

  it('given "The other thing is, every Friday …" in a paragraph of its own, when analysed, then it is a schedule of its own', () => {
    expect(
      caps(
        ['hubspot', 'slack', 'gmail'],
        'When a deal closes in HubSpot, post in #wins.\n\nThe other thing is, every Friday email me the pipeline.',
      ),
    ).toEqual([
      ['hubspot.deal_stage_changed', 'slack.post_message'],
      ['schedule.cron', 'gmail.send_email'],
    ]);
  });

  it('given "asks whether they need to …" in a start, when analysed, then the start keeps its words', () => {
    const [first] = workflowsFor(
      ['zendesk', 'gmail'],
      'When a guest asks whether they need to bring a towel, reply with our kit list.',
    );
    expect(first?.lead).toBe('When a guest asks whether they need to bring a towel');
  });

  it('given labels such as "Metrics:", "Hours:" or "Contract:" before work, when analysed, then the work is read', () => {
    expect(caps(['slack', 'stripe'], "Metrics: every Monday at 9am, post last week's revenue in #numbers.")).toEqual([
      ['schedule.cron', 'slack.post_message'],
    ]);
    expect(
      caps(
        ['docusign', 'google-drive'],
        'Contract: when a contract is signed in DocuSign, create a folder for the client in Google Drive.',
      ),
    ).toEqual([['docusign.envelope_completed', 'google-drive.create_folder']]);
  });

  it('given "Runs on: every weekday at 7am", when analysed, then the hour is kept', () => {
    const [first] = workflowsFor(['gmail', 'schedule'], "Runs on: every weekday at 7am\nDoes: email me the day's bookings");
    expect(first?.cron).toBe('0 7 * * 1-5');
  });

  it('given a numbered list of unrelated duties after a start, when analysed, then they do not join it', () => {
    const said = workflowsFor(
      ['gmail', 'slack'],
      [
        '1. When an order is placed, email the customer a confirmation.',
        '2. Keep the stock spreadsheet up to date.',
        "3. Post the week's sales in #shop on Fridays.",
      ].join('\n'),
    );
    expect(said[0]?.capabilities).toEqual(['gmail.send_email']);
  });

  it('given "Only email customers when …" said apart, when analysed, then it is a rule, not work', () => {
    expect(
      caps(
        ['gmail', 'slack'],
        'Only email customers when we have their consent. When a new order email arrives in Gmail, post it in #orders.',
      ),
    ).toEqual([['gmail.new_email', 'slack.post_message']]);
  });

  it('given "and then they receive an invoice email automatically", when analysed, then nothing is sent by us', () => {
    const said = workflowsFor(
      ['stripe', 'gmail'],
      'Customers pay in Stripe and then they receive an invoice email automatically.',
    );
    expect(said.flatMap((w) => w.capabilities)).toEqual([]);
  });

  it("given a job ad's gerund items with no product, channel or start, when analysed, then no work is made of them", () => {
    const said = workflowsFor(['slack', 'gmail'], 'Duties:\n• Greeting visitors at reception\n• Answering the phone');
    expect(said.flatMap((w) => w.capabilities)).toEqual([]);
  });

  it('given "write to the customer record in HubSpot", when analysed, then it is no email', () => {
    const [first] = workflowsFor(
      ['twilio', 'hubspot', 'gmail'],
      'When a call ends in Twilio, write to the customer record in HubSpot with the call notes.',
    );
    expect(first?.capabilities).not.toContain('gmail.send_email');
  });

  it('given "that customer" after "we keep every customer in HubSpot", when the start says an email, then it stays an email', () => {
    const [first] = workflowsFor(
      ['gmail', 'hubspot', 'slack'],
      'We keep every customer in HubSpot. When that customer replies to our quote email, post in #sales.',
    );
    expect(first?.triggerId).toBe('gmail.new_email');
  });

  it('given "Thank every donor who … at the end of the year", when analysed, then the schedule stays its start', () => {
    const [first] = workflowsFor(
      ['stripe', 'gmail', 'schedule'],
      'Thank every donor who gives over £100 with a personal email at the end of the year.',
    );
    expect(first?.triggerId).toBe('schedule.cron');
  });
});
