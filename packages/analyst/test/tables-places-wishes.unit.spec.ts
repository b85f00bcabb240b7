import { describe, expect, it } from 'vitest';
import { parseSchedule } from '../src';
import { workflowsFor, workflowsOf } from './workflows-of';

const capabilities = (text: string) => workflowsOf(text).flatMap((w) => w.capabilities);
const triggers = (text: string) => workflowsOf(text).map((w) => w.triggerId);

describe('offline analyst: how many times a period', () => {
  it.each([
    ['two times per day', '0 9,17 * * *'],
    ['3x daily', '0 9,13,17 * * *'],
    ['four times a day', '0 9,12,14,17 * * *'],
    ['twice a week', '0 9 * * 1,4'],
    ['three times a week', '0 9 * * 1,3,5'],
    ['twice a month', '0 9 1,15 * *'],
  ])('given "%s", when parsed, then it runs %s', (said, expression) => {
    expect(parseSchedule(said)?.expression).toBe(expression);
  });

  it('given a count with its own times or days, when parsed, then those are kept', () => {
    expect(parseSchedule('twice a day at 7am and 3pm')?.expression).toBe('0 7,15 * * *');
    expect(parseSchedule('twice a week on Tuesday and Friday')?.expression).toBe('0 9 * * 2,5');
    expect(parseSchedule('once a week')?.expression).toBe('0 9 * * 1');
  });

  it('given "Two times per day, post …" as a duty, when analysed, then it is a schedule at two hours', () => {
    expect(workflowsOf('Two times per day, post the open tickets count in #support.')[0]).toMatchObject({
      triggerId: 'schedule.cron',
      cron: '0 9,17 * * *',
      capabilities: ['slack.post_message'],
    });
  });
});

describe('offline analyst: a table of who does what', () => {
  const RACI = [
    'The assistant takes the rows marked Bot.',
    '',
    '| Task | Who | When |',
    '|---|---|---|',
    '| Log the enquiry as a HubSpot contact | Bot | When the website enquiry form is submitted |',
    '| Run the conflict check | Jo | Same day as the enquiry |',
    '| Send the engagement letter for e-signature in DocuSign | Bot | When the engagement letter is approved in Notion |',
    '| Set that tracker row\'s status to "Letter sent" in Notion | Bot | Right after sending the letter |',
    '| Create a matter folder in Google Drive | Bot | When the engagement letter comes back signed |',
    '| Post the new matter in #private-client on Slack | Bot | When the engagement letter comes back signed |',
    '| Raise the invoice in QuickBooks | Bev | When the engagement letter comes back signed |',
  ].join('\n');

  it("given a Who column with rows of the bot, when analysed, then only the bot's rows are work", () => {
    expect(capabilities(RACI)).not.toContain('quickbooks.create_invoice');
    expect(capabilities(RACI)).toContain('hubspot.create_contact');
  });

  it('given the case in the last column, when analysed, then each case starts its work', () => {
    expect(triggers(RACI)).toEqual(['webhook.incoming_webhook', 'notion.page_updated', 'docusign.envelope_completed']);
  });

  it("given a row that follows on and rows of one case, when analysed, then they are one workflow's steps", () => {
    const [, letter, signed] = workflowsOf(RACI);
    expect(letter?.capabilities).toEqual(['docusign.send_envelope', 'notion.update_database_item']);
    expect(signed?.capabilities).toEqual(['google-drive.create_folder', 'slack.post_message']);
  });

  it('given a Who column that names no assistant, when analysed, then every row is work, as before', () => {
    const table = [
      '| When | What to do | Who |',
      '|---|---|---|',
      '| A new lead comes in from HubSpot | Post it in #sales | Sam |',
      '| A Stripe payment fails | Email the customer | Ana |',
    ].join('\n');
    expect(capabilities(table)).toEqual(['slack.post_message', 'gmail.send_email']);
  });
});

describe('offline analyst: a place named with its product is in that product', () => {
  it('given "the Notion "Intake" tracker" once, when a start names the Intake tracker only, then it is Notion\'s', () => {
    const text = [
      'Record each enquiry in the Notion "Intake" tracker.',
      '',
      'When an Intake tracker row\'s status changes to "Cleared", send the engagement letter with DocuSign.',
    ].join('\n');
    expect(workflowsOf(text).at(-1)?.triggerId).toBe('notion.page_updated');
  });

  it('given "the IT project in Jira" once, when a duty raises a ticket in the IT project, then it is a Jira issue', () => {
    const text = [
      'Hardware lives in the IT project in Jira.',
      '',
      'When a new hire is added in BambooHR, raise a ticket in the IT project for their laptop.',
    ].join('\n');
    expect(workflowsOf(text).at(-1)?.capabilities).toEqual(['jira.create_issue']);
  });

  it('given a place with no name of its own ("our Notion board"), when another board is named, then nothing is assumed', () => {
    const text = 'We plan in our Notion board.\n\nWhen a Jira issue is created, post it to the team board in #eng.';
    expect(workflowsOf(text).at(-1)?.capabilities).toEqual(['slack.post_message']);
  });
});

describe('offline analyst: a start said as a noun, and where a start is heard', () => {
  it.each([
    ['Upon payment of the deposit invoice in Stripe: post it in #lettings.', 'stripe.invoice_paid'],
    ['Upon failure of a rent payment: email the tenant.', 'stripe.payment_failed'],
    ['On signature of the tenancy agreement in DocuSign, email the landlord.', 'docusign.envelope_completed'],
  ])('given "%s", when analysed, then it starts on %s', (text, trigger) => {
    expect(triggers(text)).toEqual([trigger]);
  });

  it('given "our website notifies us" of a cancellation, when analysed, then the start is a webhook', () => {
    expect(
      triggers('Upon cancellation of a viewing (our website notifies us when someone cancels): text the negotiator.'),
    ).toEqual(['webhook.incoming_webhook']);
  });

  it('given a quoted calendar name, when a viewing is cancelled in it, then the calendar cancels it', () => {
    expect(capabilities('When a HubSpot deal is lost, cancel the viewing in the "Viewings" calendar.')).toEqual([
      'google-calendar.cancel_event',
    ]);
  });
});

describe('offline analyst: lists under their start, and what is said in one step', () => {
  it('given a blank line between "When …:" and its numbered items, when analysed, then every item is its work', () => {
    const text = [
      'When a GP referral comes into the referrals@ inbox:',
      '',
      '1. Save it into the Referrals folder on our Google Drive.',
      '2. Text the patient the date.',
      '3. Post in #desk.',
    ].join('\n');
    expect(workflowsOf(text)).toHaveLength(1);
    expect(capabilities(text)).toEqual(['google-drive.upload_file', 'twilio.send_sms', 'slack.post_message']);
  });

  it('given how someone works today, each time something comes, over a list, when analysed, then the list is the work', () => {
    const text = [
      'Right now Maria on our front desk does this every time a GP referral comes into the referrals@ inbox:',
      '',
      '1. She saves it into the Referrals folder on our Google Drive.',
      '2. She labels the email "Booked" in Gmail.',
    ].join('\n');
    expect(workflowsOf(text)).toMatchObject([
      { triggerId: 'gmail.new_email', capabilities: ['google-drive.upload_file', 'gmail.label_email'] },
    ]);
  });

  it('given "the date and time" and "tells them to reply if …", when analysed, then it is one text message', () => {
    const [flow] = workflowsOf(
      "When a Twilio text comes in, text the patient the date and time from the clinic number and tell them to reply if it doesn't suit.",
    );
    expect(flow?.capabilities).toEqual(['twilio.send_sms']);
  });
});

describe('offline analyst: wishes said as what would help', () => {
  it('given "…, but it would help if their text was posted to #front-desk", when analysed, then it is posted', () => {
    const text =
      'When a patient texts back, she rings them. She wants to keep doing that part herself, but it would help if their text was posted to our #front-desk Slack channel.';
    expect(workflowsOf(text)).toMatchObject([{ triggerId: 'twilio.sms_received', capabilities: ['slack.post_message'] }]);
  });

  it('given "what I\'d like is for every order email that comes in to become a new card …", when analysed, then each makes a card and is answered', () => {
    const text =
      "The cafes email their orders in, so what I'd like is for every order email that comes in to become a new card on the Orders board in Notion, and then for the cafe to get a quick email back confirming we've got it.";
    expect(workflowsFor(['gmail', 'notion'], text)).toMatchObject([
      { triggerId: 'gmail.new_email', capabilities: ['notion.create_page', 'gmail.send_email'] },
    ]);
  });

  it('given "…, but when a cafe actually pays one of those invoices it would be lovely if the card got its Paid box ticked", when analysed, then that start ticks it', () => {
    const text =
      'Every order goes on the Orders board in Notion. Marta does the invoicing herself in Stripe, but when a cafe actually pays one of those invoices it would be lovely if the matching card on the Orders board got its Paid box ticked.';
    expect(workflowsFor(['stripe', 'notion'], text).at(-1)).toMatchObject({
      triggerId: 'stripe.invoice_paid',
      capabilities: ['notion.update_database_item'],
    });
  });
});

describe('offline analyst: checklists, minutes and what is said to be no work', () => {
  it('given ticked boxes under "Already handled:" or saying "already", when analysed, then only the open boxes are work', () => {
    const text = [
      'Already handled (do not duplicate):',
      '- [x] Run CI tests on every pull request (GitHub Actions)',
      '',
      'For the new assistant:',
      '- [ ] When an issue labelled "bug" is opened on GitHub, create a Bug in the Jira PLAT project.',
      "- [x] Weekly on-call handover post in #eng, Sam's bot already does this on Mondays",
      '',
      'Not for the assistant: merging PRs and closing Jira tickets.',
    ].join('\n');
    expect(workflowsOf(text)).toMatchObject([{ triggerId: 'github.issue_opened', capabilities: ['jira.create_issue'] }]);
  });

  it('given a link in brackets in a comment, when analysed, then the comment is no HTTP call', () => {
    expect(
      capabilities(
        'When a pull request is opened on GitHub, comment on it with the review checklist link (https://wiki.example.dev/review).',
      ),
    ).toEqual(['github.comment_pull_request']);
    expect(capabilities('Every hour, call https://api.example.com/refresh.')).toEqual(['http.request']);
  });

  it('given "Please read carefully" before the rules, when analysed, then it is no duty; "read it carefully" in a duty stays', () => {
    const text =
      'Please read carefully, we have had problems before.\n\nWhen a patient texts the practice number, post the text in #reception.';
    expect(workflowsOf(text)).toHaveLength(1);
    expect(workflowsOf('When a Zendesk ticket arrives, read it carefully and reply.')[0]?.steps).toHaveLength(2);
  });

  it("given minutes whose actions name who does them, when analysed, then only the assistant's are work", () => {
    const text = [
      '4. Donations',
      'Aisha to look at moving the donate page to Stripe.',
      '',
      'Action items',
      '- Gareth: sign the insurance renewal with the second provider by 28 March.',
      '- Assistant: whenever someone submits the volunteer sign-up form on the website, add them to HubSpot as a contact.',
      '- Tom: update the volunteer handbook in Notion with the new food hygiene rules.',
      '- Assistant: every Thursday at 6pm, post a reminder in the #saturday-crew Slack channel.',
    ].join('\n');
    expect(workflowsOf(text).map((w) => w.capabilities)).toEqual([['hubspot.create_contact'], ['slack.post_message']]);
  });

  it("given a transcript where the assistant only answers back, when analysed, then every speaker's duties stay", () => {
    const text = [
      'Maria: When a Zendesk ticket comes in, tag it urgent.',
      'Assistant: Got it, will do that for you.',
      'Maria: Every Friday, post the open tickets in #support.',
    ].join('\n');
    expect(triggers(text)).toEqual(['zendesk.new_ticket', 'schedule.cron']);
  });

  it('given "When …, nothing to do, the sales person writes the reason himself", when analysed, then it starts nothing', () => {
    const text =
      'When an opportunity moves to "Closed Won" in Salesforce, post it in #sales.\n\nWhen the opportunity moves to "Closed Lost", nothing to do, the sales person writes the reason himself.';
    expect(workflowsOf(text)).toHaveLength(1);
  });
});

describe("offline analyst: English with another language's order", () => {
  const TEXT = [
    'When in Salesforce comes a new lead, the employee shall create a task "first call" for the sales person. Leads from source "Partner portal" please not e-mail, these the partner handles himself.',
    '',
    'When an opportunity goes in the stage "Closed Won", then must the framework contract (template "Rahmenvertrag 2025") be sent with DocuSign to the customer for signature. Additional make please a Slack channel for the customer.',
  ].join('\n');

  it('given "then must the contract be sent" and "make please a Slack channel", when analysed, then both are duties', () => {
    expect(workflowsOf(TEXT).at(-1)).toMatchObject({
      triggerId: 'salesforce.opportunity_stage_changed',
      capabilities: ['docusign.send_envelope', 'slack.create_channel'],
    });
  });

  it('given "Leads from source X please not e-mail", when analysed, then it is a rule, not a workflow', () => {
    expect(workflowsOf(TEXT)).toHaveLength(2);
  });
});

describe("offline analyst: items labelled with a case, a spec's givens, numbered sections", () => {
  const ROOFING = [
    'A) Customer invoices (QuickBooks)',
    '- 7 days overdue: email the customer a friendly reminder.',
    '- 45 days overdue AND more than £1,500: post the details in #accounts on Slack.',
    '',
    'B) Supplier bills',
    'Suppliers email their bills to accounts@example.co.uk.',
    '- Bill under £750: record it as an expense in QuickBooks and label the email "Entered".',
    '- £750 or more: label the email "Waiting approval".',
  ].join('\n');

  it('given items labelled "7 days overdue:", when analysed, then each is an invoice that overdue', () => {
    const read = workflowsOf(ROOFING);
    expect(read.slice(0, 2).map((w) => [w.triggerId, w.params.daysOverdue])).toEqual([
      ['quickbooks.invoice_overdue', 7],
      ['quickbooks.invoice_overdue', 45],
    ]);
  });

  it('given items labelled with an amount, when analysed, then the amount is a case and no step of its own', () => {
    expect(workflowsOf(ROOFING).at(-1)?.capabilities).toEqual([
      'quickbooks.record_expense',
      'gmail.label_email',
      'gmail.label_email',
    ]);
  });

  it('given a Gherkin spec, when analysed, then its Given and And lines are the state, not work', () => {
    const text = [
      'Feature: Failed payment follow-up for Ledgerly subscriptions',
      '  As the Head of Revenue at Ledgerly',
      '  I want the digital employee to chase failed card payments',
      '',
      '  Background:',
      '    Given Stripe is our billing system',
      '    And every paying customer also exists as a contact in HubSpot',
      '',
      '  Scenario: First failed payment',
      '    Given a customer on a paid plan',
      '    When their card payment fails in Stripe',
      '    Then post the customer name in #revenue-alerts on Slack',
    ].join('\n');
    expect(workflowsOf(text)).toMatchObject([{ triggerId: 'stripe.payment_failed', capabilities: ['slack.post_message'] }]);
  });

  it('given "3. Every Monday at 08:00:" over its sub-item, when analysed, then it runs then', () => {
    const text = ['3. Every Monday at 08:00:', '   3.1 Post a reminder in #hr-compliance to review expiring certificates.'].join(
      '\n',
    );
    expect(workflowsOf(text)).toMatchObject([{ cron: '0 8 * * 1', capabilities: ['slack.post_message'] }]);
  });

  it('given a quoted folder before "Drive folder" and a record updated by its field, when analysed, then both are read', () => {
    const [flow] = workflowsOf(
      'When a file is added to the "DBS Certificates" Drive folder: update the employee\'s BambooHR record: set "DBS received" to today\'s date.',
    );
    expect(flow?.triggerId).toBe('google-drive.file_added');
    expect(flow?.params.folder).toBe('DBS Certificates');
    expect(flow?.capabilities[0]).toBe('bamboohr.update_employee');
  });
});

describe("offline analyst: a job advert's bans, a ticket changed, times in words", () => {
  it('given "What you won\'t do" over items, when analysed, then they are bans', () => {
    const text = [
      'Responsibilities',
      '• Triage every new Zendesk ticket: tag it with the product area.',
      '',
      "What you won't do",
      '• Issue refunds or credits',
      '• Close tickets',
    ].join('\n');
    expect(capabilities(text)).toEqual(['zendesk.update_ticket']);
  });

  it('given "When an agent adds the tag X to a ticket", when analysed, then the ticket was updated; a new one tagged is new', () => {
    expect(triggers('When an agent adds the tag "confirmed-bug" to a ticket, log it as a Bug in the Jira SUP project.')).toEqual([
      'zendesk.ticket_updated',
    ]);
    expect(triggers('If a new ticket is tagged "schools", assign it to Jonty.')).toEqual(['zendesk.new_ticket']);
  });

  it('given "in a public reply", when analysed, then it is the ticket\'s reply', () => {
    expect(
      capabilities('When a Jira issue moves to "Released", tell the customer in a public reply that the fix is live.'),
    ).toEqual(['zendesk.reply_ticket']);
  });

  it('given "at ten and at two" and "at a quarter past seven in the morning", when analysed, then those are the hours', () => {
    expect(workflowsOf('Twice a day, at ten and at two, label the absence emails in Gmail.')[0]?.cron).toBe('0 10,14 * * *');
    expect(
      workflowsOf('On the first Monday of every month at a quarter past seven in the morning, text the site staff.')[0]?.cron,
    ).toBe('15 7 * * 1#1');
  });

  it('given "take over some of the reminders I do every week", when analysed, then it is no workflow of its own', () => {
    const text = [
      'Hello, this is Mrs Patel from the school office. We would like the assistant to take over some of the reminders I do every week.',
      '',
      'Every school day at half past eight, please post in our staff Slack channel #staffroom reminding teachers to finish the register.',
    ].join('\n');
    expect(workflowsOf(text)).toHaveLength(1);
  });

  it('given "look through the office inbox for emails", when analysed, then it searches the mail', () => {
    expect(capabilities('Every morning, look through the office inbox for emails from parents.')).toEqual(['gmail.search_email']);
  });
});

describe('offline analyst: threads, letters and things taken back', () => {
  it('given "should it merge the PRs too?" answered "no." in a thread, when analysed, then nothing is merged', () => {
    const text = [
      'Priya Raman  10:18 AM',
      'when a PR gets opened it should leave a comment on it thanking them',
      'Tom Becker  10:19 AM',
      'should it merge the dependabot PRs too? would save me an hour a week',
      'Priya Raman  10:21 AM',
      'no. nothing gets merged without a human, ever',
      'Tom Becker  10:21 AM',
      'and weekends?',
      'Priya Raman  10:22 AM',
      "it can run on weekends, it's only issues and PRs",
    ].join('\n');
    expect(workflowsOf(text)).toMatchObject([
      { triggerId: 'github.pull_request_opened', capabilities: ['github.comment_pull_request'] },
    ]);
  });

  it('given "scratch the bit about texting the subbies", when analysed, then the one item that texts goes', () => {
    const text = [
      '1) when a snag in the SNAG project in Jira gets moved to Done, email the client rep to say it is closed',
      '2) and text the subcontractor whose snag it was',
      '',
      'oh and scratch the bit about texting the subbies, half of them have changed numbers.',
    ].join('\n');
    expect(capabilities(text)).toEqual(['gmail.send_email']);
  });

  it('given a letter that welcomes the assistant and says what a message includes, when analysed, then neither is a duty', () => {
    const text = [
      'Dear assistant,',
      '',
      'Welcome to the Learning team at the museum!',
      '',
      'Whenever a teacher submits the visit request form on our website, email the teacher to confirm the date. Include the link to the risk assessment pack and a reminder that we need final pupil numbers a week before.',
      '',
      'On the day of each visit, about an hour before the tour starts, text the volunteer guide.',
    ].join('\n');
    const read = workflowsOf(text);
    expect(read.map((w) => w.triggerId)).toEqual(['webhook.incoming_webhook', 'google-calendar.event_starting']);
    expect(read[1]?.params.minutesBefore).toBe(60);
  });

  it('given a title and "ONLY after Marco replies approving it, refund …", when analysed, then the refund is a step of the ticket\'s work', () => {
    const text = [
      'Refund handling for Vico Group (4 pizzerias; deposits are paid through Stripe, emails come into Zendesk).',
      '',
      'When a new ticket comes in about being charged twice, a delivery that never arrived, or a table deposit for a booking the restaurant cancelled:',
      '1. Post a message to Marco in #refund-approvals and ask him to approve the refund.',
      '2. ONLY after Marco replies approving it, refund the payment in Stripe.',
    ].join('\n');
    expect(workflowsOf(text)).toMatchObject([
      { triggerId: 'zendesk.new_ticket', capabilities: expect.arrayContaining(['slack.post_message', 'stripe.refund_payment']) },
    ]);
  });
});

describe('offline analyst: what a review of these readings found, mended', () => {
  it('given a question whether to refund, answered no, when analysed, then nothing is refunded', () => {
    expect(
      capabilities(
        'When a customer cancels less than 24 hours before their lesson, should the deposit be refunded? No, never refund it. Just email them our cancellation policy.',
      ),
    ).not.toContain('stripe.refund_payment');
  });

  it('given ticked boxes under "Tick the jobs you want done:", when analysed, then the ticked ones are the work', () => {
    const text = [
      'Tick the jobs you want done:',
      "- [x] Every Monday at 9, post the week's jobs in #engineers",
      '- [ ] Reply to Google reviews',
    ].join('\n');
    expect(triggers(text)).toContain('schedule.cron');
  });

  it('given "twice a year" and "at most 2 times a week", when analysed, then the first runs and the second is a limit', () => {
    expect(triggers('Twice a year, email all tenants a reminder to test their smoke alarms.')).toEqual(['schedule.cron']);
    const limited = workflowsOf('When a Stripe payment fails, email the customer. Follow up at most 2 times a week.');
    expect(limited.map((w) => w.triggerId)).not.toContain('schedule.cron');
  });

  it('given "If a customer asks for a refund please don\'t promise anything, just forward …", when analysed, then it forwards', () => {
    expect(capabilities("If a customer asks for a refund please don't promise anything, just forward the email to me.")).toEqual([
      'gmail.send_email',
    ]);
  });

  it('given "nothing needed, but if …", when analysed, then the work after "but" stays', () => {
    expect(
      capabilities(
        'If the customer pays by card, nothing needed, but if they pay by bank transfer, email me so I can check the account.',
      ),
    ).toEqual(['gmail.send_email']);
  });

  it('given "take over all of the invoice chasing that I do every Friday", when analysed, then it is work', () => {
    expect(triggers("I'd like you to take over all of the invoice chasing that I do every Friday afternoon.")).toEqual([
      'schedule.cron',
    ]);
  });

  it('given "Background:" prose with "Given that …" and "And when …", when analysed, then it is no spec and the work stays', () => {
    const text = [
      'Background: we are a small dental practice in Leeds.',
      'Given that many patients are elderly, always text rather than email.',
      'And when a patient cancels in Google Calendar, post the free slot in #reception.',
    ].join('\n');
    expect(capabilities(text)).toContain('slack.post_message');
  });

  it('given topic labels ("Invoices:", "Reminders:") beside an "Assistant:" item, when analysed, then every item is work', () => {
    const text = [
      'Assistant: when a new lead comes in through the website form, add them to HubSpot.',
      'Invoices: every Friday at 4, email me a list of unpaid invoices.',
      'Reminders: text each client the day before their appointment.',
    ].join('\n');
    expect(workflowsOf(text)).toHaveLength(3);
  });

  it('given a table of what happens when, not of work, when analysed, then it starts nothing', () => {
    const text = [
      '| What | When |',
      '|---|---|',
      '| Staff meeting | Every Monday at 10am |',
      '| Payroll run | Last Friday of the month |',
    ].join('\n');
    expect(triggers(text).filter(Boolean)).toEqual([]);
  });

  it("given a human agent in the Who column, when analysed, then the agent's row is no work of the bot's", () => {
    const text = [
      '| When | What | Who |',
      '|---|---|---|',
      '| A new Zendesk ticket comes in | Tag it by product area | Bot |',
      '| A refund is asked for | Reply to the customer with the refund policy | Agent |',
    ].join('\n');
    expect(capabilities(text)).toEqual(['zendesk.update_ticket']);
  });

  it('given "2 days late:" under a heading of returns, and a price list "Orders over £50: free delivery", when analysed, then neither is an invoice', () => {
    const late = workflowsOf(
      'Late returns:\n- 2 days late: text the hirer a reminder to bring the kit back\n\nInvoices go out from Xero.',
    );
    expect(late[0]?.lead).not.toMatch(/invoice/);
    expect(triggers('Delivery:\n- Orders over £50: free delivery').filter(Boolean)).toEqual([]);
  });

  it('given "our booking system sends us an email", when analysed, then the start is the email', () => {
    expect(triggers('When our booking system sends us an email about a new booking, add it to the Google calendar.')).toEqual([
      'gmail.new_email',
    ]);
  });

  it('given "post in Slack and the jobs list", when analysed, then the jobs list is no Slack place', () => {
    const text =
      "Every morning at 8, post the day's jobs in Slack and the jobs list. When a job is finished in Notion, email the customer and tick it off the jobs list.";
    expect(workflowsOf(text).at(-1)?.steps.at(-1)).not.toMatch(/\(Slack\)/);
  });
});

describe('offline analyst: shorthand, an arrow to a record set, and a start said as the only one', () => {
  it('given "Stripe inv paid → HS contact: lifecycle = Customer", when analysed, then the HubSpot contact is updated', () => {
    expect(workflowsOf('• Stripe inv paid → HS contact: lifecycle = Customer, "Last paid" = today')).toMatchObject([
      { triggerId: 'stripe.invoice_paid', capabilities: ['hubspot.update_contact'] },
    ]);
  });

  it('given "cust", "pmt" and "amt", when analysed, then they are read as the words they stand for', () => {
    expect(capabilities('• New HubSpot contact → create Stripe cust')).toEqual(['stripe.create_customer']);
    expect(
      workflowsOf('• Stripe pmt failed → SMS the cust w/ link to update card + msg #billing w/ acct name & amt'),
    ).toMatchObject([{ triggerId: 'stripe.payment_failed', capabilities: ['twilio.send_sms', 'slack.post_message'] }]);
  });

  it('given "- Only when an invoice is more than 45 days overdue, also create …", when analysed, then that is its start and its duty', () => {
    expect(
      workflowsOf('- Only when an invoice is more than 45 days overdue, also create a HubSpot task for the partner.'),
    ).toMatchObject([{ triggerId: 'quickbooks.invoice_overdue', capabilities: ['hubspot.create_task'] }]);
  });

  it('given "one of our invoices goes overdue", when analysed, then it is an invoice overdue', () => {
    expect(triggers('When one of our invoices goes overdue, email the client.')).toEqual(['quickbooks.invoice_overdue']);
  });
});
