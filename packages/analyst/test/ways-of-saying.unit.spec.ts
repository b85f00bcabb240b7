import { describe, expect, it } from 'vitest';
import { analyseJob } from '../src';
import { servedWords } from '../src/segment';
import { contextOf, rewriteIdioms, withContext } from '../src/text';
import { catalog, workflowsOf } from './workflows-of';

describe('offline analyst: work said to want doing', () => {
  it('given "they need adding to X and inviting to Y", when analysed, then both are duties, each with its object', () => {
    expect(
      workflowsOf(
        'When we hire someone in Greenhouse, they need adding to BambooHR for payroll and inviting to the #crew channel on Slack.',
      )[0],
    ).toMatchObject({
      steps: ['add them to BambooHR for payroll', 'invite them to the #crew channel on Slack'],
      capabilities: ['bamboohr.create_employee', 'slack.invite_user'],
    });
  });

  it('given "overdue invoices need chasing" with a schedule, when analysed, then the schedule runs the chase', () => {
    expect(workflowsOf('We invoice from QuickBooks. Overdue invoices need chasing every Monday by email.')).toMatchObject([
      { cron: '0 9 * * 1', steps: ['chase overdue invoices by email'], capabilities: ['gmail.send_email'] },
    ]);
  });

  it('given "it needs logging in Notion", when analysed, then "in" stays a preposition, not a particle of the verb', () => {
    expect(workflowsOf('When a deal closes in HubSpot, it needs logging in Notion.')[0]?.steps).toEqual(['log it in Notion']);
  });
});

describe('offline analyst: a message wished received by people named as a kind', () => {
  it('given "we\'d also like volunteers to get a text the evening before their shift", when analysed, then a text goes before each shift', () => {
    expect(
      workflowsOf(
        "We run a food bank. We'd also like volunteers to get a text the evening before their shift, as a lot of them don't check email.",
      ),
    ).toMatchObject([
      { triggerId: 'google-calendar.event_starting', steps: ['send volunteers a text'], capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given a wish of something that is no message, when analysed, then it is no text', () => {
    expect(
      workflowsOf("We run a food bank. We'd like volunteers to get a parking permit the evening before their shift.").flatMap(
        (w) => w.capabilities,
      ),
    ).not.toContain('twilio.send_sms');
  });
});

describe('offline analyst: a question and answer that say no case', () => {
  it('given "Q: What about reminders?" and its answer, when analysed, then the answer is read without its "A:"', () => {
    const faq = [
      'Q: What about lesson reminders?',
      "A: Learners should get a text 2 hours before each lesson (lessons are in the instructors' calendars).",
    ].join('\n');
    expect(workflowsOf(faq)).toMatchObject([
      { triggerId: 'google-calendar.event_starting', params: { minutesBefore: 120 }, capabilities: ['twilio.send_sms'] },
    ]);
  });
});

describe('offline analyst: a time of day said first, or in words', () => {
  it.each([
    ['We run a gym. At 9am every Monday, post the rota in #ops.', '0 9 * * 1', 'post the rota in #ops'],
    [
      'We run a gym. At 7:30pm every evening, text each member with a class booked.',
      '30 19 * * *',
      'text each member with a class booked',
    ],
    ['We run a gym. Every evening at half past seven, text each member.', '30 19 * * *', 'text each member'],
    ['We run a gym. Noon on Fridays: email the trainers the timetable.', '0 12 * * 5', 'email the trainers the timetable'],
    ['We run a bakery. Quarter to nine, Monday to Friday: email Dom the drop list.', '45 8 * * 1-5', 'email Dom the drop list'],
    ['We run a bakery. Every Friday at about four, email Dom the week.', '0 16 * * 5', 'email Dom the week'],
  ])('given "%s", when analysed, then it runs on %s', (text, cron, step) => {
    expect(workflowsOf(text)).toMatchObject([{ cron, steps: [step] }]);
  });

  it('given a number that is no time of day after "at", when analysed, then nothing is read as a clock', () => {
    expect(workflowsOf('Every Monday at 9am, email the team about the jobs at one of our sites.')).toMatchObject([
      { cron: '0 9 * * 1', steps: ['email the team about the jobs at one of our sites'] },
    ]);
  });
});

describe('offline analyst: an item with a time of its own, said bare', () => {
  it('given "a week before drop-off", when analysed, then it is a week before the calendar item', () => {
    expect(
      workflowsOf('Drop-offs are in the Kennels calendar. Owners need emailing a week before drop-off with the checklist.'),
    ).toMatchObject([{ triggerId: 'google-calendar.event_starting', params: { minutesBefore: 10080 }, steps: ['email owners'] }]);
  });

  it('given "more than 7 days before drop-off" in a condition, when analysed, then it is how far ahead, no start', () => {
    expect(
      workflowsOf(
        "Cancellations come in by email. Refund their deposit through Stripe if it's more than 7 days before drop-off.",
      ).map((w) => w.triggerId),
    ).toEqual(['gmail.new_email']);
  });
});

describe('offline analyst: a duty said done to its object', () => {
  it('given "it gets saved in the folder", when analysed, then it saves it there', () => {
    expect(
      workflowsOf("When an owner emails a photo of the card, it gets saved in that pet's folder on the Drive.")[0],
    ).toMatchObject({ steps: ["save it in that pet's folder on the Drive"], capabilities: ['google-drive.upload_file'] });
  });

  it('given someone named doing it, when analysed, then it is not the employee’s duty', () => {
    expect(workflowsOf('When an order comes in, it gets picked by the warehouse team.')[0]?.steps).not.toContain(
      'pick it by the warehouse team',
    );
  });

  it('given "every café … gets an invoice" in a business on QuickBooks, when analysed, then it invoices them in QuickBooks', () => {
    const text =
      "Noon on Fridays: every café that ordered that week gets an invoice for the week. We're on QuickBooks but it isn't linked to you yet.";
    expect(workflowsOf(text)).toMatchObject([{ cron: '0 12 * * 5', capabilities: ['quickbooks.create_invoice'] }]);
  });

  it('given a step that names its product, when analysed, then the product said elsewhere does not replace it', () => {
    const text = "When a sample form comes in, create a Jira issue in the SEQ project. GitHub isn't hooked up to this yet.";
    expect(workflowsOf(text)[0]?.capabilities).toEqual(['jira.create_issue']);
  });
});

describe('offline analyst: user stories', () => {
  const stories = [
    'User stories: people-ops assistant',
    '',
    '1. As the studio manager, I want every applicant in Greenhouse who applies without a portfolio attached to get an email asking for one, so that I stop chasing them by hand.',
    '2. As HR, I want every new hire added in BambooHR to be invited to #studio on Slack, and emailed a welcome note.',
    "3. As a line manager, I want a Slack message two weeks before a report's probation ends, so that I book the review in time.",
  ].join('\n');

  it('given "As <role>, I want every <item> who <event> to get …", when analysed, then the event starts a workflow that sends it', () => {
    expect(workflowsOf(stories)[0]).toMatchObject({
      lead: 'When an applicant in Greenhouse applies without a portfolio attached',
      triggerId: 'greenhouse.candidate_applied',
      steps: ['send them an email asking for one'],
      capabilities: ['gmail.send_email'],
    });
  });

  it('given "every new hire added in BambooHR to be invited …, and emailed …", when analysed, then both are duties of the hire', () => {
    expect(workflowsOf(stories)[1]).toMatchObject({
      lead: 'When a new hire is added in BambooHR',
      triggerId: 'bamboohr.new_hire',
      capabilities: ['slack.invite_user', 'gmail.send_email'],
    });
  });

  it('given a message wanted some weeks before a date, when analysed, then it is checked on a schedule and no role or purpose is left in a step', () => {
    const all = workflowsOf(stories);
    expect(all[2]).toMatchObject({ triggerId: 'schedule.cron', capabilities: ['slack.post_message'] });
    for (const w of all) for (const step of w.steps) expect(step).not.toMatch(/\bAs (?:the|a|HR)\b|so that/);
  });

  it('given "As soon as …, I want …", when analysed, then the start is kept', () => {
    expect(workflowsOf('As soon as a deal closes in HubSpot, I want a message in #sales.')[0]).toMatchObject({
      triggerId: 'hubspot.deal_stage_changed',
    });
  });
});

describe('offline analyst: a formal procedure', () => {
  const procedure = [
    'Procedure LS-3: Adult course enrolment',
    '',
    '3.1 Enrolment applications come in through the application form on our website.',
    '3.2 Upon receipt, the applicant shall be entered as a new record in the Notion Students database, and a 40-minute placement test shall be booked in the Academic Office calendar.',
    '3.3 Applicants who require a student visa shall additionally be sent the Letter of Acceptance via DocuSign.',
    "3.4 Every Friday at 17:00, a summary of that week's enrolments by level is to be posted to #academic.",
  ].join('\n');

  it('given numbered sections and duties said with "shall be", when analysed, then each is read as the duty it states', () => {
    expect(workflowsOf(procedure)).toMatchObject([
      {
        triggerId: 'webhook.incoming_webhook',
        steps: [
          'enter the applicant as a new record in the Notion Students database',
          'book a 40-minute placement test in the Academic Office calendar',
          'send them the Letter of Acceptance via DocuSign',
        ],
        capabilities: ['notion.create_page', 'google-calendar.create_event', 'docusign.send_envelope'],
      },
      { cron: '0 17 * * 5', steps: ["post a summary of that week's enrolments by level to #academic"] },
    ]);
  });

  it('given "when an opportunity gets moved to Closed Won", when analysed, then it stays the event, not a duty to move it', () => {
    expect(
      workflowsOf(
        'We sell beer to pubs. When an opportunity gets moved to Closed Won in Salesforce, email the landlord a welcome.',
      )[0],
    ).toMatchObject({ triggerId: 'salesforce.opportunity_stage_changed', steps: ['email the landlord a welcome'] });
  });

  it('given a product named where a thing is kept, when analysed, then the step acts where its verb says', () => {
    expect(
      workflowsOf('When the level is recorded, email the student a link to the Course Handbook held on Google Drive.')[0]
        ?.capabilities,
    ).toEqual(['gmail.send_email']);
  });
});

describe('offline analyst: an outline of starts and their items', () => {
  const outline = [
    'assistant: install coordinator',
    '',
    'on new Salesforce lead (source Website):',
    '  - text the homeowner within 5 min: thanks, a surveyor will call',
    '  - create a follow-up task for the surveyor',
    '',
    'on opportunity -> "Proposal Accepted":',
    '  - send the install contract through DocuSign',
    '',
    'on contract fully signed:',
    '  - opportunity -> "Contracted"',
    '  - text the homeowner the dates',
    '',
    'daily 17:30:',
    '  - text homeowners with an install tomorrow: clear the drive',
  ].join('\n');

  it('given "on <event>:" headings over items, when analysed, then each heading starts the workflow of its items', () => {
    expect(workflowsOf(outline).map((w) => w.triggerId)).toEqual([
      'salesforce.new_lead',
      'salesforce.opportunity_stage_changed',
      'docusign.envelope_completed',
      'schedule.cron',
    ]);
    expect(workflowsOf(outline)[1]?.params).toEqual({ stage: 'Proposal Accepted' });
  });

  it('given an item "<record> -> "<stage>"", when analysed, then it moves the record to that stage', () => {
    expect(workflowsOf(outline)[2]).toMatchObject({
      steps: ['move the opportunity to "Contracted"', 'text the homeowner the dates'],
      capabilities: ['salesforce.update_opportunity', 'twilio.send_sms'],
    });
  });

  it('given "daily 17:30:" over "text …: <the words>", when analysed, then it runs daily at 17:30 and the words stay with the text', () => {
    expect(workflowsOf(outline)[3]).toMatchObject({
      cron: '30 17 * * *',
      steps: ['text homeowners with an install tomorrow: clear the drive'],
    });
  });

  it('given a heading "On holidays:" or a label that is no start, when analysed, then it starts nothing', () => {
    expect(workflowsOf('When a ticket comes in to Zendesk, tag it.\n\nOn holidays:\n- be brief').map((w) => w.triggerId)).toEqual(
      ['zendesk.new_ticket'],
    );
  });
});

describe('offline analyst: days of a month and a time after a comma', () => {
  it.each([
    ['We run an IT desk. Last business day of the month, 4 PM: post ticket counts in #management.', '0 16 LW * *'],
    ['We run an IT desk. On the last day of the month, post ticket counts in #management.', '0 9 L * *'],
    ['We run an IT desk. On the first working day of each month at 9am, post ticket counts in #management.', '0 9 1W * *'],
    ['We run an IT desk. Every Friday, 4 PM, post ticket counts in #management.', '0 16 * * 5'],
  ])('given "%s", when analysed, then it runs on %s', (text, cron) => {
    expect(workflowsOf(text)).toMatchObject([{ cron, steps: ['post ticket counts in #management'] }]);
  });
});

describe('offline analyst: ways in that end in one place', () => {
  it('given "opens a ticket (email or portal, both land in Zendesk)", when analysed, then one workflow starts on the ticket', () => {
    expect(
      workflowsOf('When a client opens a ticket (email or portal, both land in Zendesk), tag it and set the priority.').map(
        (w) => w.triggerId,
      ),
    ).toEqual(['zendesk.new_ticket']);
  });

  it('given two ways in said with "or" and no one place, when analysed, then each way is a workflow as before', () => {
    expect(
      workflowsOf('When a customer orders by texting our refill number, or through the refill form on our website, confirm it.')
        .length,
    ).toBe(2);
  });
});

describe('offline analyst: a terse list of arrows and a checklist', () => {
  const terse = [
    'Studio 9. Assistant:',
    "- booking request by email → 2 free slots from the room's calendar, offer both, book the one they pick",
    '- deposit unpaid after 72h → cancel the hold, email them',
    "- Sun 20:00 → next week's sessions in #engineers",
  ].join('\n');

  it('given arrow items that come in by a channel or after a time, when analysed, then each starts work of its own', () => {
    expect(workflowsOf(terse).map((w) => w.lead)).toEqual([
      'when booking request comes in by email',
      'when deposit unpaid after 72h',
      'every sunday at 20:00',
    ]);
    expect(workflowsOf(terse)[0]?.triggerId).toBe('gmail.new_email');
  });

  it('given a time before an arrow and a channel after it, when analysed, then it posts there on that schedule', () => {
    expect(workflowsOf(terse)[2]).toMatchObject({
      cron: '0 20 * * 0',
      steps: ["post next week's sessions in #engineers"],
      capabilities: ['slack.post_message'],
    });
  });

  it('given "cancel the hold", when analysed, then a calendar hold is cancelled', () => {
    expect(workflowsOf(terse)[1]?.capabilities).toEqual(['google-calendar.cancel_event', 'gmail.send_email']);
  });

  it('given every item of a kind before an arrow, when analysed, then it is a case of the start that speaks of it', () => {
    const florist = [
      '- new enquiry email → reply with the brochure',
      '- every enquiry → new row in Notion enquiries tracker',
    ].join('\n');
    expect(workflowsOf(florist)).toMatchObject([
      { triggerId: 'gmail.new_email', capabilities: ['gmail.send_email', 'notion.create_page'] },
    ]);
  });

  it('given checklist boxes and "Each email = one Jira issue", when analysed, then the boxes are items and the equation a duty', () => {
    const checklist = [
      'What the assistant does:',
      '[ ] When a dentist emails a prescription to cases@lab.example, each email = one Jira issue in project CASE.',
      '[x] Case moved to Dispatched in Jira → email the practice that it is on its way.',
    ].join('\n');
    const read = workflowsOf(checklist);
    expect(read.map((w) => w.capabilities)).toEqual([['jira.create_issue'], ['gmail.send_email']]);
    for (const w of read) for (const step of w.steps) expect(step).not.toMatch(/\[/);
  });
});

describe('offline analyst: what a review of these readings found, mended', () => {
  const steps = (text: string) => workflowsOf(text).flatMap((w) => w.capabilities);

  it('given a ban said passively, when analysed, then nothing is done', () => {
    expect(steps('We run a shop. No messages should be sent after 8pm.')).toEqual([]);
    expect(steps('We run a shop. Nothing should be sent to a customer without my approval.')).toEqual([]);
  });

  it('given work done by something or someone else, when analysed, then it is no step of the employee', () => {
    expect(steps('When a candidate applies in Greenhouse, they get added to HubSpot automatically.')).not.toContain(
      'hubspot.create_contact',
    );
    expect(steps('We run a shop. We need leads to be contacted by the sales team, not you.')).toEqual([]);
  });

  it('given products said not linked to each other, or by customers, when analysed, then no product is said unconnected', () => {
    const { workflows } = analyseJob(
      "When a ticket comes in to Zendesk, tag it. Our GitHub isn't linked to Jira yet. Customers who haven't linked their Stripe account get an email.",
    );
    expect(workflows.flatMap((w) => w.unconnected ?? [])).toEqual([]);
  });

  it('given the name right before "isn’t connected", when analysed, then that product is the one said unconnected', () => {
    const { workflows } = analyseJob(
      "When a film is submitted, log it in our Notion database, but FilmFreeway isn't connected to hireloop.",
    );
    expect(workflows.flatMap((w) => (w.unconnected ?? []).map((u) => u.providerId))).toEqual(['filmfreeway']);
  });

  it('given an answer "Not you." followed by a duty, when analysed, then the duty stays', () => {
    expect(
      workflowsOf('Q: Who updates the rota?\nA: Not you. When a shift is swapped in Slack, post the new rota in #staff.'),
    ).toMatchObject([{ steps: ['post the new rota in #staff'] }]);
  });

  it('given "at least 24 hours before", when analysed, then it is still before the appointment', () => {
    expect(workflowsOf('Text every client at least 24 hours before their appointment.')[0]).toMatchObject({
      triggerId: 'google-calendar.event_starting',
      params: { minutesBefore: 1440 },
    });
  });

  it('given "Upon receipt of the signed NDA in DocuSign", when analysed, then the whole arrival is the start', () => {
    expect(workflowsOf('Upon receipt of the signed NDA in DocuSign, email the client.')[0]?.triggerId).toBe(
      'docusign.envelope_completed',
    );
  });

  it('given labels that name a message’s kind, a date that is a fact, or a decimal, when analysed, then none is a duty or a schedule', () => {
    expect(steps('We run a shop. Message tone: friendly, short, no emojis.')).toEqual([]);
    expect(workflowsOf('We run a shop. The 15th of the month is payday.').map((w) => w.cron)).not.toContain('0 9 1 * *');
    expect(
      workflowsOf('We run a school. 2.5 hours after each class, email the attendees the recording.')[0]?.capabilities,
    ).toEqual(['gmail.send_email']);
  });

  it('given things wished to get a message or a noun in -ing, when analysed, then no message is sent to them', () => {
    expect(steps('We run a shop. We need invoices to get a reminder after 30 days.')).not.toContain('stripe.create_invoice');
    expect(steps('We run a shop. Customers want booking confirmations by text.')).not.toContain('google-calendar.create_event');
  });

  it('given ways in that both go to a person, when analysed, then each way stays a start', () => {
    expect(workflowsOf('Leads email us or fill in the website form, and both go to Sam.').map((w) => w.triggerId)).toEqual([
      'gmail.new_email',
      'webhook.incoming_webhook',
    ]);
  });

  it('given "On weekends:" over items, when analysed, then it is no schedule', () => {
    expect(workflowsOf('On weekends:\n- reply to urgent emails only').map((w) => w.triggerId)).not.toContain('schedule.cron');
  });

  it('given a file kept in a product and a step that acts on it there, when analysed, then the step is that product’s', () => {
    expect(steps('When a client signs, share the contract saved in Google Drive with the client.')).toEqual([
      'google-drive.share_file',
    ]);
  });

  it('given "a quarter to one charity" and "one by one", when analysed, then no clock is read into the words', () => {
    expect(
      workflowsOf('Every month, email the board: we donate a quarter to one charity and thank them one by one.')[0]?.steps[0],
    ).toContain('a quarter to one charity');
  });
});

describe('offline analyst: a story of the people served', () => {
  it('given "As a customer, I want to get a text when my order ships", when analysed, then the customer is texted when their order ships', () => {
    expect(workflowsOf('We run a shop. As a customer, I want to get a text when my order ships.')).toMatchObject([
      { lead: 'When their order ships', steps: ['text the customer'], capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given a story of the business’s own role, when analysed, then the role is dropped as before', () => {
    expect(
      workflowsOf('We run a shop. As the shop manager, I want a Slack message in #ops every Monday at 9am.')[0]?.steps.join(' '),
    ).not.toMatch(/shop manager/);
  });
});

describe('offline analyst: a person moving a record, said as a plain sentence', () => {
  it('given "<name> moves the deal to <stage>." and the duties after it, when analysed, then that move starts them', () => {
    expect(
      workflowsOf('Carla moves the deal to Signed. Then set them up as a contact and invite them to #clients in Slack.'),
    ).toMatchObject([
      {
        triggerId: 'hubspot.deal_stage_changed',
        params: { stage: 'Signed' },
        capabilities: expect.arrayContaining(['slack.invite_user']),
      },
    ]);
  });

  it('given a case said before the person who moves the deal, when analysed, then the move is the event, with its stage', () => {
    expect(
      workflowsOf('If the trial goes well, Omar moves their deal to Won. Then invite them to #customers in Slack.')[0],
    ).toMatchObject({ triggerId: 'hubspot.deal_stage_changed', params: { stage: 'Won' } });
  });

  it('given the deal named between the verb and its stage, when analysed, then the stage is still read', () => {
    expect(workflowsOf('When the account manager moves the deal to Contract Sent, post it in #legal.')[0]?.params).toEqual({
      stage: 'Contract Sent',
    });
  });
});

describe('offline analyst: a job advert of duties in the third person', () => {
  const advert = [
    "We're hiring a virtual assistant who:",
    '• Turns every booking from the enquiry form on our site into a HubSpot contact, plus a follow-up task for the owner.',
    '• Posts the week’s bookings in #sales every Friday at 4pm.',
    'Is that so hard?',
  ].join('\n');

  it('given "Turns every X from the form into a HubSpot contact, plus a task", when analysed, then the form starts both', () => {
    expect(workflowsOf(advert)[0]).toMatchObject({
      triggerId: 'webhook.incoming_webhook',
      capabilities: ['hubspot.create_contact', 'hubspot.create_task'],
    });
  });

  it('given a question in the third person, when analysed, then it is no duty', () => {
    expect(workflowsOf(advert).flatMap((w) => w.steps)).not.toContainEqual(expect.stringMatching(/so hard/));
  });

  it('given a sum "plus" a fee, when analysed, then it stays one duty', () => {
    expect(
      workflowsOf('When a job is marked done in Jira, raise an invoice in QuickBooks for the work, plus the £40 call-out fee.')[0]
        ?.steps,
    ).toHaveLength(1);
  });
});

describe('offline analyst: where work arrives, said aside, and a request said before', () => {
  it('given "(those arrive as Zendesk tickets)", when analysed, then the event is the ticket, not the email', () => {
    expect(
      workflowsOf('When a parent emails the school office (those arrive as Zendesk tickets), reply on the ticket.')[0],
    ).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['zendesk.reply_ticket'] });
  });

  it('given "Upon receipt of such a request" after how requests come by email, when analysed, then an email starts it', () => {
    expect(
      workflowsOf(
        'Surveyors request site visits by email to our bookings address. Upon receipt of such a request, the assistant should log it as an issue in Jira.',
      )[0],
    ).toMatchObject({ triggerId: 'gmail.new_email', capabilities: ['jira.create_issue'] });
  });
});

describe('offline analyst: clocks with minutes and no am or pm; a system named in code quotes; a thing moved again', () => {
  it('given "at 4:30" with no am or pm, when analysed, then it is the afternoon; "04:30" stays the morning', () => {
    expect(workflowsOf('Every weekday at 4:30, post the takings in #finance.')[0]?.cron).toBe('30 16 * * 1-5');
    expect(workflowsOf('Daily at 04:30, post the backup report in #ops.')[0]?.cron).toBe('30 4 * * *');
  });

  it('given arrow items whose case is a system named in code quotes, when analysed, then each starts work of its own', () => {
    const items = [
      '- `billing-svc` reports `overdue` → post the account in #finance',
      '- `billing-svc` reports `paid` → email the customer a receipt',
    ].join('\n');
    expect(workflowsOf(items).map((w) => w.capabilities)).toEqual([['slack.post_message'], ['gmail.send_email']]);
  });

  it('given "move it to Review" after a Jira step, when analysed, then the issue is transitioned', () => {
    expect(
      workflowsOf('When a new file lands in Drive, comment on the Jira issue and then move it to Review.')[0]?.capabilities,
    ).toEqual(['jira.comment_issue', 'jira.transition_issue']);
  });
});

describe('offline analyst: bans and facts said in the passive, with a plural subject', () => {
  it('given "Requests for X are not to be accepted; these must be forwarded …", when analysed, then no step accepts them and the forward stays', () => {
    const [first] = workflowsOf(
      'When a booking request arrives by email, reply to confirm it. Requests for Sunday slots are not to be accepted; these must be forwarded to the Manager.',
    );
    expect(first?.steps).toEqual(['reply to confirm it', expect.stringMatching(/^forward (?:them|these) to the Manager$/)]);
  });

  it('given "Customer names are not to be posted in Slack; …", when analysed, then it starts nothing and posts nothing', () => {
    const read = workflowsOf(
      'When a new ticket comes in to Zendesk, reply with our opening hours. Customer names are not to be posted in Slack; the order number is used instead.',
    );
    expect(read.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket']);
    expect(read.flatMap((w) => w.steps)).toEqual(['reply with our opening hours']);
  });

  it('given a ban that says when it may be done, or one followed by what to do, when analysed, then neither is lost', () => {
    // "… must not be issued without Dana's approval" is an approval rule, kept with the refund
    expect(
      workflowsOf(
        "When a customer asks for a refund in Zendesk, refund the charge in Stripe. Refunds over $1,000 must not be issued without Dana's approval.",
      ).flatMap((w) => w.steps),
    ).not.toContainEqual(expect.stringMatching(/^(?:do not|refund over \$1$)/));
    expect(
      workflowsOf('Urgent tickets must never be ignored, so when one arrives in Zendesk, post it in #oncall.')[0],
    ).toMatchObject({ triggerId: 'zendesk.new_ticket', capabilities: ['slack.post_message'] });
    expect(workflowsOf('Tickets must never be ignored; reply to every new Zendesk ticket within an hour.')[0]).toMatchObject({
      triggerId: 'zendesk.new_ticket',
      capabilities: ['zendesk.reply_ticket'],
    });
  });

  it('given a noun in -s, then who sends it ("Emails a client sends to support@ should be logged …"), when analysed, then it is the arrival, not a duty', () => {
    expect(workflowsOf('Emails a client sends to support@acme.com should be logged as notes in HubSpot.')[0]?.triggerId).toBe(
      'gmail.new_email',
    );
    expect(workflowsOf('Texts a patient sends to our Twilio number get a reply from the front desk.')[0]?.triggerId).toBe(
      'twilio.sms_received',
    );
  });

  it("given what work arrives as when it is no product's item, or an event of its own, when analysed, then the event stays", () => {
    expect(
      workflowsOf('When a client pays, which shows up as a Stripe payment, send them a thank-you email.')[0]?.triggerId,
    ).toBe('stripe.invoice_paid');
  });

  it('given "plus" a thing no product makes, when analysed, then it stays one duty', () => {
    expect(
      workflowsOf('When a bug is reported in #bugs, create a Jira issue with the error plus a link to the log.')[0]?.steps,
    ).toHaveLength(1);
  });

  it('given a fact spliced on after a comma ("…, deliveries are all on our Google calendar"), when analysed, then the duty keeps its own product', () => {
    expect(
      workflowsOf(
        'The day before every delivery, text the customer the arrival window, deliveries are all on our Google calendar.',
      )[0],
    ).toMatchObject({ steps: ['text the customer the arrival window'], capabilities: ['twilio.send_sms'] });
  });
});

describe('offline analyst: what people type in a chat box (blind-20)', () => {
  it('given who we are comma-spliced onto how orders come, when analysed, then the orders are the start and the intro no part of it', () => {
    expect(
      workflowsOf(
        "We're a small brewery in Leeds, bars email their orders to orders@. Make the invoice in QuickBooks and reply with the delivery day.",
      )[0],
    ).toMatchObject({
      lead: 'Bars email their orders to orders@',
      capabilities: ['quickbooks.create_invoice', 'gmail.send_email'],
    });
  });

  it('given a name and who they are between commas, and a product whose name holds a verb, when analysed, then the event reads whole', () => {
    expect(
      workflowsOf(
        'When Maria, our head chef, adds a new menu to the "Menus" folder in Google Drive please share it with the front of house team.',
      )[0],
    ).toMatchObject({
      triggerId: 'google-drive.file_added',
      params: { folder: 'Menus' },
      capabilities: ['google-drive.share_file'],
    });
  });

  it('given "make the invoice", "make them a Stripe customer" and "set the family up as a customer", when analysed, then each is the tool that makes it', () => {
    const [first] = workflowsOf(
      'When a deal is won in HubSpot, make them a Stripe customer, set the family up as a customer in QuickBooks too, and make the invoice in Stripe.',
    );
    expect(first?.capabilities).toEqual(['stripe.create_customer', null, 'stripe.create_invoice']);
    expect(workflowsOf('When a deal is won in HubSpot, set the family up as a customer in Stripe.')[0]?.capabilities).toEqual([
      'stripe.create_customer',
    ]);
  });

  it('given a capitalised folder beside a product of the catalog, when analysed, then it is a place in that product, not another product', () => {
    expect(
      workflowsOf(
        'When an email comes into jobs@ with attachments, save the files to google drive in Incoming Artwork/<customer>.',
      )[0]?.capabilities,
    ).toEqual(['google-drive.upload_file']);
  });
});

describe('offline analyst: a case inside an event, and its "otherwise"', () => {
  it('given "When a ticket arrives: if …, X; otherwise Y", when analysed, then the arrival alone starts it; without an otherwise, the case narrows what starts it', () => {
    expect(
      workflowsOf(
        'When a new Zendesk ticket arrives: if its priority is urgent, post it in #urgent; otherwise reply to the ticket.',
      )[0],
    ).toMatchObject({
      lead: 'When a new Zendesk ticket arrives',
      params: {},
      capabilities: ['slack.post_message', 'zendesk.reply_ticket'],
    });
    expect(workflowsOf('When a new Zendesk ticket arrives, if its priority is urgent, post it in #urgent.')[0]?.params).toEqual({
      priority: 'urgent',
    });
  });
});

describe('offline analyst: an invoice that passes its due date unpaid, however it is said', () => {
  it('given a paragraph of its own that opens "if an invoice is not paid after the due date", when analysed, then it is work of its own, started by the overdue invoice', () => {
    const flows = workflowsOf(
      'When a customer emails an order, make the invoice in QuickBooks and confirm the order by email.\n\nIf an invoice is not paid after the due date, send the client a gentle reminder by email.',
    );
    expect(flows.map((f) => f.triggerId)).toEqual(['gmail.new_email', 'quickbooks.invoice_overdue']);
    expect(flows[1]?.capabilities).toEqual(['gmail.send_email']);
  });

  it('given other ways of saying it, when analysed, then each is the overdue invoice; an invoice sent or paid on time is not', () => {
    for (const said of [
      'When an invoice goes unpaid past its due date, email the client.',
      'If an invoice is still outstanding 10 days after it was due, email the client.',
      "When an invoice hasn't been paid on time, email the client.",
    ])
      expect(workflowsOf(said)[0]?.triggerId, said).toBe('quickbooks.invoice_overdue');
    expect(workflowsOf('When an invoice is paid, email the client a receipt.')[0]?.triggerId).not.toBe(
      'quickbooks.invoice_overdue',
    );
  });
});

describe('offline analyst: "them" after work that came in by no channel of ours', () => {
  it('given a form that starts the work, when a step sends "them" a confirmation with no channel, then it is an email to the one who sent it', () => {
    expect(
      workflowsOf(
        'People book private events with the form on our website. Check the Taproom calendar, put the event in it and send them a confirmation.',
      )[0]?.capabilities.at(-1),
    ).toBe('gmail.send_email');
  });

  it('given a text sent just before, when "them" is reminded, then the reminder goes the same way', () => {
    expect(
      workflowsOf('The day before each appointment, text the patient the time. Remind them to bring their insurance card.')[0]
        ?.capabilities,
    ).toEqual(['twilio.send_sms', 'twilio.send_sms']);
  });
});

describe('offline analyst: a handle said as the verb, and a look at a calendar for a free time', () => {
  it('given "people will @labbot in #lab-general", when analysed, then it is the bot mentioned, not any message in the channel', () => {
    expect(workflowsOf('People will @labbot in #lab-general asking for a booking. Reply in the thread.')[0]?.triggerId).toBe(
      'slack.mention',
    );
    expect(workflowsOf('When someone posts in #help, reply in the thread.')[0]?.triggerId).toBe('slack.new_message');
  });

  it('given a look at a calendar, then a booking made only if the time is free, when analysed, then the look finds a free slot', () => {
    expect(
      workflowsOf(
        "When someone @labbot's for the confocal, check the instrument's calendar, book it if it's free and reply in the thread.",
      )[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'google-calendar.create_event', 'slack.post_message']);
  });
});

describe('offline analyst: a reminder said after why, a wish after an arrival, and thanks', () => {
  it('given "we get a lot of no-shows, so what I\'d like is: about two hours before each appointment, send …", when analysed, then the reminder runs before each appointment', () => {
    expect(
      workflowsOf(
        "We get a lot of no-shows, so what I'd like is: about two hours before each appointment, send the owner a text reminding them of the time.",
      ),
    ).toMatchObject([{ triggerId: 'google-calendar.event_starting', capabilities: ['twilio.send_sms'] }]);
  });

  it('given a why before "so" that says how work arrives, when analysed, then the arrival stays the start', () => {
    expect(
      workflowsOf(
        'The orders come in through the form on our website, it can send each one to a webhook, so when one of those comes in please email the customer that we have their order.',
      )[0]?.triggerId,
    ).toBe('webhook.incoming_webhook');
  });

  it('given "one more thing: people text our number …, and I\'d love those texts forwarded to my mobile", when analysed, then the texts are forwarded', () => {
    expect(
      workflowsOf(
        "One more thing and I don't know if it's possible: in May people text our swarm number when they spot a swarm, and I'd love those texts forwarded to my mobile by text.",
      ),
    ).toMatchObject([{ triggerId: 'twilio.sms_received', steps: ['forward those texts to my mobile by text'] }]);
  });

  it('given thanks of any length that ask nothing done, when analysed, then they are no work; a thank-you that is sent stays a duty', () => {
    for (const thanks of [
      'Thanks so much, really appreciate it!',
      "Thanks for Thursday's call.",
      'Thank you in advance, and do ask if anything is unclear.',
    ])
      expect(
        workflowsOf(`When a Zendesk ticket comes in, reply to it.\n\n${thanks}`).map((f) => f.steps),
        thanks,
      ).toEqual([['reply to it']]);
    expect(workflowsOf('When a donation is paid in Stripe, thank the donor by email.')[0]?.capabilities).toEqual([
      'gmail.send_email',
    ]);
  });
});

describe('offline analyst: lists of wishes, asides and signatures', () => {
  it('given "I\'d like them added to X, sent Y, and booked into Z at a time I\'m actually free", when analysed, then each is its own duty to them, the time found first', () => {
    expect(
      workflowsOf(
        "When someone signs up through the form on our website, I'd like them added to our Volunteers database in Notion, sent a warm welcome email, and booked into a 20-minute intro call with me at a time I'm actually free.",
      )[0]?.capabilities,
    ).toEqual(['notion.create_page', 'gmail.send_email', 'google-calendar.find_free_slot', 'google-calendar.create_event']);
  });

  it('given "I\'d like them to be sent X, and to be booked onto Y", when analysed, then both are done to them', () => {
    expect(
      workflowsOf(
        "When a new hire is added in BambooHR, I'd like them to be sent their contract to sign through DocuSign, and to be booked onto the next induction morning on the Training calendar.",
      )[0]?.steps,
    ).toEqual([
      'send them their contract to sign through DocuSign',
      'book them onto the next induction morning on the Training calendar',
    ]);
  });

  it('given "…, for those find the next open slot, book it, and email them back", when analysed, then finding the slot is a duty, not part of the arrival', () => {
    expect(
      workflowsOf(
        'People email us asking to get their car in for a service, for those find the next open slot on the Service Bays calendar, book it, and email them back the time.',
      )[0],
    ).toMatchObject({
      triggerId: 'gmail.new_email',
      capabilities: ['google-calendar.find_free_slot', 'google-calendar.create_event', 'gmail.send_email'],
    });
  });

  it('given an example of the event between commas ("like asking a question or whatever"), when analysed, then it is no step', () => {
    expect(
      workflowsOf(
        'If a customer texts back, like asking a question or whatever, just put it in the #front-counter channel in Slack.',
      )[0]?.steps,
    ).toEqual(['just put it in the #front-counter channel in Slack']);
  });

  it('given "email them a welcome letter with what to bring on their first day", when analysed, then the day is the letter\'s, not when it is sent', () => {
    const flows = workflowsOf(
      'When a new hire is added in BambooHR, send them their contract through DocuSign. Please also email them a welcome letter with what to bring on their first day.',
    );
    expect(flows).toHaveLength(1);
    expect(flows[0]?.capabilities).toEqual(['docusign.send_envelope', 'gmail.send_email']);
  });

  it('given someone signing what was sent them, when analysed, then the envelope completed starts it; signing up or in does not', () => {
    for (const said of [
      'Once the client has signed the appointment letter, save the signed copy to Google Drive.',
      "Once they've signed everything, save the signed documents to Google Drive.",
      'When the tenant signs the lease, save it to Google Drive.',
    ])
      expect(workflowsOf(said)[0]?.triggerId, said).toBe('docusign.envelope_completed');
    expect(workflowsOf('When someone signs up for the newsletter, add them to HubSpot.')[0]?.triggerId).not.toBe(
      'docusign.envelope_completed',
    );
  });
});

describe('offline analyst: what each item needs, said after the items', () => {
  it('given "Complaints come in by email … Each one needs a Zendesk ticket and an email back to the listener", when analysed, then both are made for each complaint that arrives', () => {
    expect(
      workflowsOf(
        'Complaints come in by email to complaints@radio.example. Each one needs a Zendesk ticket (we log every complaint) and an email back to the listener acknowledging it.',
      ),
    ).toMatchObject([{ triggerId: 'gmail.new_email', capabilities: ['zendesk.create_ticket', 'gmail.send_email'] }]);
  });

  it('given "Those need a reply the same day", when analysed, then it is a reply to them; a rule with a subject of its own is not', () => {
    expect(workflowsOf('Those need a reply the same day with our rates.')[0]?.steps).toEqual([
      'reply to them the same day with our rates',
    ]);
    expect(workflowsOf("When a Stripe refund is requested, refunds need a manager's approval.")[0]?.steps ?? []).not.toContain(
      "create a manager's approval for them",
    );
  });
});

describe('offline analyst: typed in a hurry, tags, priorities, deposits given back, looks said twice', () => {
  it('given "creat a ticket in zendesk …, mark it urgent" after a form, when analysed, then the ticket is made and its priority set', () => {
    expect(
      workflowsOf(
        'when a customer books a callout thru the form on our website, creat a ticket in zendesk with the address, mark it urgent',
      )[0]?.capabilities,
    ).toEqual(['zendesk.create_ticket', 'zendesk.update_ticket']);
  });

  it('given "bands and artists tag @studiobot in #bookings", when analysed, then the bot is mentioned', () => {
    expect(
      workflowsOf('Bands and artists tag @studiobot in #bookings to ask for session time. Reply in the thread.')[0]?.triggerId,
    ).toBe('slack.mention');
  });

  it('given "they get their deposit back", when analysed, then the deposit is refunded', () => {
    expect(
      workflowsOf("If someone emails to cancel with more than 48 hours' notice they get their deposit back.")[0]?.capabilities,
    ).toEqual(['stripe.refund_payment']);
  });

  it('given "look at my calendar, find a free 3-hour block", when analysed, then one step finds the time', () => {
    expect(
      workflowsOf(
        'People email me asking for appointments. When one comes in, look at my calendar, find a free 3-hour block and reply offering a couple of options.',
      )[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'gmail.send_email']);
  });

  it('given "Every time, no exceptions." after a duty, when analysed, then it starts nothing', () => {
    expect(workflowsOf('When a deposit is paid in Stripe, email the client. Every time, no exceptions.')).toHaveLength(1);
  });
});

describe('offline analyst: the review of the day’s readings, held', () => {
  it('given a bill the org owes past its due date, when analysed, then it is no overdue invoice of theirs', () => {
    for (const said of [
      'If a supplier bill is still unpaid after its due date, remind me by email to pay it.',
      'When our electricity bill goes past its due date, email me.',
    ])
      expect(workflowsOf(said)[0]?.triggerId ?? null, said).not.toBe('quickbooks.invoice_overdue');
  });

  it('given signing that is no envelope of ours (a petition, a timesheet, a copy we get back), when analysed, then it is not DocuSign', () => {
    for (const said of [
      'When a supporter signs our petition on the website, add them to HubSpot.',
      'Once the manager has signed the timesheet, email it to payroll.',
      "When we get the client's signed copy back, save it to Google Drive.",
    ])
      expect(workflowsOf(said)[0]?.triggerId ?? null, said).not.toBe('docusign.envelope_completed');
    expect(workflowsOf('When the client has signed the application, email the underwriter.')[0]?.triggerId).toBe(
      'docusign.envelope_completed',
    );
  });

  it('given thanks that ask something done, or "thanks to" a product, when analysed, then the duty stays', () => {
    expect(
      workflowsOf(
        'When a ticket comes in, reply to it.\n\nCheers, and please also save every attachment to Google Drive.',
      ).flatMap((f) => f.steps),
    ).toContain('also save every attachment to Google Drive');
  });

  it('given a look at a calendar for something of its own before a free slot is found, when analysed, then the look stays a step', () => {
    expect(
      workflowsOf(
        'Every evening, check tomorrow’s calendar for double bookings, find a free slot for any clash, and email me the changes.',
      )[0]?.steps,
    ).toHaveLength(3);
  });

  it('given what arrives already, from someone else or by itself, when analysed, then it is no duty', () => {
    expect(
      workflowsOf('When a Zendesk ticket comes in, reply to it. Each one gets a ticket number automatically.')[0]?.steps,
    ).toEqual(['reply to it']);
  });
});

describe('offline analyst: arrivals said by what reaches us, wishes of the employee, what someone receives, cards on a board', () => {
  it('given an arrival said in one sentence and named in the next by a word holding a cue ("reports"), when analysed, then the next takes it as its start', () => {
    const [first, ...rest] = workflowsOf(
      'Drivers report breakdowns by emailing fleet@example.org. When a driver reports a breakdown: post it in #fleet and text the depot manager.',
    );
    expect(rest).toEqual([]);
    expect(first?.triggerId).toBe('gmail.new_email');
    expect(first?.capabilities).toEqual(['slack.post_message', 'twilio.send_sms']);
  });

  it('given "I want you to" after a start, when analysed, then the wish starts the duty and the start ends before it', () => {
    const [w] = workflowsOf(
      'When a booking comes through the form on our website I want you to put it on the Rooms calendar and email the guest a confirmation.',
    );
    expect(w?.lead).toBe('When a booking comes through the form on our website');
    expect(w?.triggerId).toBe('webhook.incoming_webhook');
    expect(w?.capabilities).toEqual(['google-calendar.create_event', 'gmail.send_email']);
  });

  it('given someone told by what they do, and what they get, when analysed, then what they do starts it and what they get is the duty', () => {
    const [refund] = workflowsOf('Anyone who emails within a month of buying asking for their money back gets a full refund.');
    expect(refund?.triggerId).toBe('gmail.new_email');
    expect(refund?.capabilities).toEqual(['stripe.refund_payment']);
    const [overdue] = workflowsOf('Any customer invoice that is ten days overdue gets a polite reminder email.');
    expect(overdue?.triggerId).toBe('quickbooks.invoice_overdue');
    expect(overdue?.capabilities).toEqual(['gmail.send_email']);
  });

  it('given a tracker item set to a status in Notion, or a task moved in Jira, when analysed, then each is its product’s change', () => {
    expect(workflowsOf("When a row in our Notion tracker is set to 'Shipped', email the customer.")[0]?.triggerId).toBe(
      'notion.page_updated',
    );
    expect(workflowsOf('When an editor marks a story Published in Notion, post the link in #web.')[0]?.triggerId).toBe(
      'notion.page_updated',
    );
    expect(workflowsOf("When a Jira task is moved to 'Done', post it in #eng.")[0]?.triggerId).toBe('jira.issue_transitioned');
    // ("my nephew set it up": setting up is no change of an item)
    expect(workflowsOf("We're on Slack and Notion (my nephew set it up).").map((w) => w.triggerId)).not.toContain(
      'notion.page_updated',
    );
  });

  it('given a thing popped, stuck or put on a calendar or a board, when analysed, then it is added there; put in a channel, it is said there', () => {
    expect(
      workflowsOf(
        'When a customer texts us, pop the visit in the Jobs calendar, stick a card on the Repairs board in Notion and put the details in #dispatch.',
      )[0]?.capabilities,
    ).toEqual(['google-calendar.create_event', 'notion.create_page', 'slack.post_message']);
  });

  it('given a time before a calendar’s items and the calendar they are on, when analysed, then the calendar is the lead’s and the duty stays', () => {
    const [w] = workflowsOf('2 hrs before every rehearsal on the Choir calendar post a reminder in #singers with the call time.');
    expect(w?.lead).toBe('2 hours before every rehearsal on the Choir calendar');
    expect(w?.triggerId).toBe('google-calendar.event_starting');
    expect(w?.capabilities).toEqual(['slack.post_message']);
    expect(
      workflowsOf('15 mins before each booking on the "Kiln" calendar starts, post in #pottery who booked it.')[0]?.steps,
    ).toEqual(['post in #pottery who booked it']);
  });

  it('given work the person does themself ("I send it through DocuSign myself"), when analysed, then it is no duty and "it" later is what they sent', () => {
    const ws = workflowsOf(
      'When a buyer accepts our quote, I send the purchase agreement through DocuSign myself. When it comes back signed, create a folder in Google Drive for the sale.',
    );
    expect(ws.flatMap((w) => w.capabilities)).not.toContain('docusign.send_envelope');
    expect(ws.at(-1)?.triggerId).toBe('docusign.envelope_completed');
    expect(ws.at(-1)?.capabilities).toEqual(['google-drive.create_folder']);
  });

  it('given what arrives, then a schedule that goes through it, when analysed, then the arrival is the schedule’s context, no workflow', () => {
    const ws = workflowsOf(
      'Suppliers email their invoices to ap@example.com. Every Friday at 4pm, go through that week’s invoice emails and post a summary in #finance.',
    );
    expect(ws.map((w) => w.triggerId)).toEqual(['schedule.cron']);
    expect(ws[0]?.capabilities).toEqual(['gmail.search_email', 'slack.post_message']);
  });

  it('given a time inside why a duty is done ("so we can count them at the end of the month"), when analysed, then it is no schedule', () => {
    const [w] = workflowsOf(
      'Members email us to pause their membership. Reply to confirm the pause and label the email "Paused" so we can count them at the end of the month.',
    );
    expect(w?.triggerId).toBe('gmail.new_email');
    expect(w?.capabilities).toEqual(['gmail.send_email', 'gmail.label_email']);
  });

  it('given a line that only asks for help, when analysed with the served catalog’s verbs, then it is no workflow', () => {
    const text =
      "Hi, I'm the office manager at a small school. Looking for help with two things:\n\n- Rota. Every Monday at 9, post the rota in #staff.\n- Parents. When a parent emails the office, reply with the term dates.";
    const served = analyseJob(text, servedWords(catalog)).workflows;
    expect(served.map((w) => w.triggerHint.kind)).toEqual(['schedule', 'event']);
  });

  it('given questions answered on the same line, one asking what it must never do, when analysed, then the bans are no work and the rest is read', () => {
    const text = [
      'Q: What should happen to a new Zendesk ticket? A: Tag it by topic and set a priority.',
      'Q: Anything else? A: If a customer replies to a solved ticket, ping Ria on Slack.',
      'Q: What must it never do? A: Close tickets, or put the door code in writing.',
    ].join('\n');
    const ws = workflowsOf(text);
    expect(ws.flatMap((w) => w.steps).join(' | ')).not.toMatch(/door code|close tickets/i);
    expect(ws.map((w) => w.lead).join(' | ')).not.toMatch(/\bA:/);
    expect(ws.at(-1)?.capabilities).toEqual(['slack.post_message']);
  });

  it('given every way in said to end up as a ticket in Zendesk, and a line saying what is set up, when analysed, then one workflow starts on the new ticket', () => {
    const ws = workflowsOf(
      'Setting up a digital assistant for customer messages at our bakery.\nEverything customers email or send through the website ends up as a ticket in Zendesk. Tag each one and set a priority.',
    );
    expect(ws.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket']);
    expect(ws[0]?.capabilities).toEqual(['zendesk.update_ticket', 'zendesk.update_ticket']);
  });

  it('given chat shorthand for someone and texts, an arrival from someone by email, a folder things are uploaded to, and people doing two things, when analysed, then each is the start it says', () => {
    expect(workflowsOf('when some1 txts wanting a visit, find a free hour in my calendar and txt them back')[0]?.triggerId).toBe(
      'twilio.sms_received',
    );
    const [letters] = workflowsOf(
      'Letters of instruction arrive from solicitors by email, usually with a bundle attached. For each one, create a folder in Google Drive and acknowledge it by email.',
    );
    expect(letters?.triggerId).toBe('gmail.new_email');
    expect(
      workflowsOf(
        'The editor drops the finished cut into our Drive folder "Final Cuts". When it lands, share it with the client and post in #edits.',
      )[0]?.triggerId,
    ).toBe('google-drive.file_added');
    const [parents] = workflowsOf('Parents book on our website and pay a deposit, which comes through as a Stripe invoice.');
    expect(parents?.lead).toBe('Parents book on our website and pay a deposit, which comes through as a Stripe invoice');
  });

  it('given how the work is done today under a label that says so, or a limit said with "only", when analysed, then neither is a workflow', () => {
    const ws = workflowsOf(
      "How it works now: the photographer drops the edited set in the Drive folder 'Ready' and someone remembers to email the couple.\n\nWhat I'd like: as soon as a set lands in that folder, share it with the couple and email them the link. Only share that folder with the couple if they paid.",
    );
    expect(ws).toHaveLength(1);
    expect(ws[0]?.triggerId).toBe('google-drive.file_added');
  });

  it('given starts that point back at what an earlier sentence or item said ("each report", "when one lands", "an hour before each one"), when analysed, then each is that arrival', () => {
    expect(
      workflowsOf('Staff report faults in the #kit Slack channel. Each report should become a ticket in our Jira project KIT.')[0]
        ?.triggerId,
    ).toBe('slack.new_message');
    const items = workflowsOf(
      '- people email jobs@ with their moving date\n- when one lands, post it in #dispatch on slack\n- 6pm every wkday post a roundup in #admin',
    );
    expect(items.map((w) => w.triggerId)).toEqual(['gmail.new_email', 'schedule.cron']);
    expect(
      workflowsOf(
        'Lessons are in the "Lessons" Google calendar. An hour before each one, email the instructor the group name.',
      )[0]?.triggerId,
    ).toBe('google-calendar.event_starting');
    const [sheets] = workflowsOf(
      'The engineer drops the signed job sheet into the "Job Sheets" folder in Drive. When one lands there, raise a QuickBooks invoice for that customer.',
    );
    expect(sheets?.triggerId).toBe('google-drive.file_added');
    expect(sheets?.capabilities).toEqual(['quickbooks.create_invoice']);
  });

  it('given opening hours in brackets inside a duty, and "kindly" before one, when analysed, then neither is a schedule nor part of the start', () => {
    const [w] = workflowsOf(
      'New Zendesk tickets tagged lost_property: reply with the procedure (collect from the pier office, Mon-Sat 8-4) and set the ticket to pending.',
    );
    expect(w?.triggerId).toBe('zendesk.new_ticket');
    expect(w?.capabilities).toEqual(['zendesk.reply_ticket', 'zendesk.update_ticket']);
    expect(workflowsOf("Each Monday at 9 o'clock, kindly post a note in #guides.")[0]?.lead).toBe("Each Monday at 9 o'clock");
  });

  it('given "every workday" or "workdays" with a time, when analysed, then it runs Monday to Friday at that time', () => {
    expect(workflowsOf("Text each crew lead at 6:15 AM every workday with the day's first job.")[0]?.cron).toBe('15 6 * * 1-5');
    expect(workflowsOf('Workdays at 7, post the plan in #ops.')[0]?.cron).toBe('0 7 * * 1-5');
  });

  it('given "check with me on Slack first", when analysed, then somebody is asked', () => {
    expect(
      workflowsOf('When a refund request comes in by email, check with me on Slack before you refund it.')[0]?.capabilities,
    ).toContain('slack.post_message');
  });

  it('given "we get X by email" (or it comes by email), when analysed, then that is the arrival; being paid is none', () => {
    const [enquiry] = workflowsOf('We get catering enquiries by email. Reply with the menu and add them to HubSpot.');
    expect(enquiry?.triggerId).toBe('gmail.new_email');
    expect(enquiry?.capabilities).toEqual(['gmail.send_email', 'hubspot.create_contact']);
    expect(
      workflowsOf('Most of our orders come by email. For each one, add it to the Orders board in Notion.')[0]?.triggerId,
    ).toBe('gmail.new_email');
    expect(workflowsOf('We get paid by bank transfer. Email the client a receipt.')[0]?.triggerId ?? null).toBeNull();
  });

  it('given an arrival, a dash and a duty, or what they do said of them, when analysed, then the dash ends the start and what they do is no duty', () => {
    const [w] = workflowsOf(
      'We receive most warranty claims through email - please reply to each with the claim form and log it in Notion.',
    );
    expect(w?.lead).toBe('We receive most warranty claims through email');
    expect(w?.capabilities).toEqual(['gmail.send_email', 'notion.create_page']);
    expect(
      workflowsOf('Customers email us all year and they pile up in December. Reply to each the same day.')[0]?.steps,
    ).toEqual(['Reply to each the same day']);
  });
});

describe('offline analyst: a start written with its context, and checking with someone', () => {
  it('given a start written with the arrival it points back at, when read back, then the context is the last bracketed part, brackets inside it kept', () => {
    const said = withContext('When one lands', 'The engineer drops the sheet (PDF) into the "Jobs" folder in Drive');
    expect(contextOf(said)).toBe('The engineer drops the sheet (PDF) into the "Jobs" folder in Drive');
    expect(contextOf('When a lead comes in')).toBeUndefined();
    expect(contextOf('(only brackets)')).toBeUndefined();
  });

  it('given "check with" a person, a pronoun or a name, then they are asked; "check with care" is no asking', () => {
    expect(rewriteIdioms('check with me on Slack first')).toBe('ask me on Slack first');
    expect(rewriteIdioms('clear it with Priya before you refund it')).toBe('ask Priya before you refund it');
    expect(rewriteIdioms('confirm with the manager')).toBe('ask the manager');
    expect(rewriteIdioms('check with care that the amounts match')).toBe('check with care that the amounts match');
  });
});

describe('offline analyst: a forwarded note, what others do, and the rest of the work', () => {
  it('given a forwarded email whose lines are quoted with ">", when analysed, then the quoted lines are read as written', () => {
    const [w] = workflowsOf(
      [
        '---------- Forwarded message ---------',
        'From: Jan <jan@example.org>',
        '',
        '> Hiya, two things that eat my week:',
        '>> - Parents fill in the tutor form on the website (it posts to the webhook). Email each of them our price list.',
        '> - Every Monday at 9am, post the rota in #staff on Slack.',
      ].join('\n'),
    );
    expect(w?.lead).toBe('Parents fill in the tutor form on the website (it posts to the webhook)');
    expect(w?.capabilities).toEqual(['gmail.send_email']);
    expect(workflowsOf('> - Every Monday at 9am, post the rota in #staff on Slack.')[0]?.lead).toBe('Every Monday at 9am');
  });

  it('given "when we scan forms they land in a folder" and then "every time one is added …", when analysed, then the folder is where it starts', () => {
    for (const scanned of ['When we scan the forms they land', 'When we scan the forms, they land']) {
      const ws = workflowsOf(
        `${scanned} in the "Scans" folder on Google Drive. Every time one's added please email Colin in finance so he knows - just the file name, NOT the donor's name, he'll open it himself.`,
      );
      expect(ws).toHaveLength(1);
      expect(ws[0]?.triggerId).toBe('google-drive.file_added');
      expect(ws[0]?.capabilities).toEqual(['gmail.send_email']);
      expect(ws[0]?.lead.startsWith("Every time one's added (")).toBe(true);
    }
    // (a question's "they" is still the duty's: "could they be emailed …" keeps its step)
    expect(
      workflowsOf('When somebody pays in Stripe, could they be emailed a thank-you with their sticker number?')[0]?.steps,
    ).toHaveLength(1);
  });

  it('given "…, anything else ping #front-desk", when analysed, then the rest of the work has its own duty; "everyone else gets an email" stays one', () => {
    const [gym] = workflowsOf(
      'if anyone texts the gym number asking about opening times, text back todays hours, anything else ping #front-desk in slack',
    );
    expect(gym?.steps).toEqual(['text back todays hours', 'ping #front-desk in slack']);
    expect(gym?.capabilities).toEqual(['twilio.send_sms', 'slack.post_message']);
    expect(
      workflowsOf('When a customer emails us, reply with the price list; for anything else forward it to Sam.')[0]?.steps,
    ).toEqual(['reply with the price list', 'forward it to Sam']);
    expect(
      workflowsOf(
        'When a ticket is solved in Zendesk, text the patient, but only those who asked for texts, everyone else gets an email.',
      )[0]?.capabilities,
    ).toEqual(['twilio.send_sms', 'gmail.send_email']);
  });

  it('given where something is kept, said in brackets, when matched, then it is no place of the work', () => {
    expect(
      workflowsOf(
        '12 hours before each shoot on the production Google Calendar, text the drivers (numbers are in the pinned message in #transport) with the pickup time.',
      )[0]?.capabilities,
    ).toEqual(['twilio.send_sms']);
  });

  it('given "send X a text", "send X a public reply" and "put it in" after a free slot, when matched, then it is texting, replying and booking', () => {
    expect(workflowsOf('The day before each appointment, send the owner a text reminder.')[0]?.capabilities).toEqual([
      'twilio.send_sms',
    ]);
    expect(
      workflowsOf('When a new Zendesk ticket arrives, send the tenant a public reply acknowledging it.')[0]?.capabilities,
    ).toEqual(['zendesk.reply_ticket']);
    expect(
      workflowsOf(
        'When an email arrives, find a free slot on the Van calendar, put the collection in with the address in the description, and email the donor.',
      )[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'google-calendar.create_event', 'gmail.send_email']);
  });

  it('given work said to be outside the role, or "theres" typed without its apostrophe, when analysed, then neither starts a workflow', () => {
    expect(
      workflowsOf(
        'When a booking form comes in, email the organiser. General enquiries come in through Zendesk and are handled by the Customer Services team; they are outside the scope of this role.',
      ).map((w) => w.triggerId),
    ).toEqual(['webhook.incoming_webhook']);
    expect(
      workflowsOf(
        'Every Monday at 7pm post a reminder in #committee. theres also a Drive folder with all the photos, pls dont share that with anyone EVER.',
      ).map((w) => w.triggerId),
    ).toEqual(['schedule.cron']);
  });
});

describe('offline analyst: headed specs, rules and what is no work', () => {
  it('given items opened by an emoji under "please DON\'T:" and a cc line, when analysed, then the items are rules and the cc is nobody\'s work', () => {
    const ws = workflowsOf(
      [
        "what I'd like:",
        '📲 when a driver texts the dispatch number → post it in #dispatch-live',
        '',
        "please DON'T:",
        '⛔ text or email customers about delays',
        '⛔ reply to drivers with anything beyond the acknowledgement',
        '',
        'thanks! cc @Priya @Sam',
      ].join('\n'),
    );
    expect(ws.map((w) => w.triggerId)).toEqual(['twilio.sms_received']);
    expect(ws[0]?.capabilities).toEqual(['slack.post_message']);
  });

  it('given a numbered "Do NOT" heading over lettered items, and headings "Must not", "Not for the helper:", "STILL WITH ME (please don\'t touch)", then what is under them is no work', () => {
    const runbook = [
      '1. Receipts',
      '   When a receipt is emailed to receipts@, record it as an expense in QuickBooks.',
      '',
      '2. Do NOT',
      '   a. raise, edit or void invoices',
      '   b. refund or credit anyone',
    ].join('\n');
    expect(workflowsOf(runbook).flatMap((w) => w.capabilities)).toEqual(['quickbooks.record_expense']);
    for (const heading of ['Must not', 'Out of scope / must not', "STILL WITH ME (please don't touch)"])
      expect(
        workflowsOf(
          `When a ticket comes in, tag it urgent.\n\n${heading}\n- reply to customers on tickets\n- close tickets`,
        ).flatMap((w) => w.capabilities),
      ).toEqual(['zendesk.update_ticket']);
    expect(
      workflowsOf(
        'When a ticket comes in, tag it urgent.\n\nNot for the helper:\nReplying to customers on tickets, the support team does that',
      ).flatMap((w) => w.capabilities),
    ).toEqual(['zendesk.update_ticket']);
    // (what an item says after its rule is a rule too — unless it says what to do instead)
    expect(
      workflowsOf(
        'Every Monday at 9 post the renewals in #cs.\n\n## Not in scope\n- Replying to customers. Support owns every customer-facing reply.',
      ).flatMap((w) => w.capabilities),
    ).toEqual(['slack.post_message']);
  });

  it('given "Rule 2", "Story 1" on lines of their own, a "TODAY" section and a "Purpose" section, when analysed, then none of them is work', () => {
    const ws = workflowsOf(
      [
        '## Purpose',
        'Take the repetitive work off the team so they can spend time with customers.',
        '',
        'TODAY',
        '- Every Monday I go through the inbox and email each employee to confirm.',
        '',
        'FROM NOW ON',
        '- When an approved request lands in leave@, the assistant records the time off in BambooHR.',
        '',
        'Rule 2',
        'Trigger: Monday 08:00',
        'Action: post in #ops a summary of last week',
      ].join('\n'),
    );
    expect(ws.map((w) => [w.triggerId, w.capabilities])).toEqual([
      ['gmail.new_email', ['bamboohr.update_employee']],
      ['schedule.cron', ['slack.post_message']],
    ]);
    expect(ws[1]?.cron).toBe('0 8 * * 1');
  });

  it('given the first weekday of named months or of every quarter, when analysed, then it runs on that weekday of those months', () => {
    expect(
      workflowsOf(
        'Fire alarm tests: on the first Monday of January, April, July and October at 9am, book the test on the Building Ops calendar.',
      )[0]?.cron,
    ).toBe('0 9 * 1,4,7,10 1#1');
    expect(workflowsOf('On the last Friday of every quarter at 4pm, post the numbers in #finance.')[0]?.cron).toBe(
      '0 16 * 1,4,7,10 5#L',
    );
  });

  it('given "a ticket that mentions a refund", "tag @Gareth in the post", "tag me", "put the Filed label on the email", when matched, then a ticket, a message and a label', () => {
    expect(workflowsOf('When a new support ticket mentions a refund, tag it refund-review.')[0]?.triggerId).toBe(
      'zendesk.new_ticket',
    );
    expect(
      workflowsOf('When a driver texts, post it in #dispatch-live and tag @Gareth in the #dispatch-live post.')[0]?.capabilities,
    ).toEqual(['slack.post_message', 'slack.post_message']);
    expect(
      workflowsOf('When a signed agreement comes back by email, put the "Filed" label on the email.')[0]?.capabilities,
    ).toEqual(['gmail.label_email']);
  });

  it('given a note about who asked for it, a title with its version, "keep the tone friendly", "Ignore …" and "just ignore those", when analysed, then none is work', () => {
    const ws = workflowsOf(
      [
        'Credit control helper — RUNBOOK v3',
        'hey @Priya asked me to write this up for the new dispatch assistant so here goes',
        'When an invoice in QuickBooks goes overdue, email the customer a reminder. Keep the tone friendly.',
        'Ignore anything Stripe-related.',
        'Calla sends the same webhook with status "no_show" — just ignore those.',
      ].join('\n\n'),
    );
    expect(ws.map((w) => [w.triggerId, w.capabilities])).toEqual([['quickbooks.invoice_overdue', ['gmail.send_email']]]);
  });

  it('given "Instead …" after a duty stopped, "In office hours post …", and "invite …" after a channel is made, when analysed, then each is a duty of the workflow it follows', () => {
    expect(
      workflowsOf(
        'Once an invoice is 30 days overdue, stop emailing the customer. Instead create a follow-up task in HubSpot for the account owner.',
      )[0]?.capabilities,
    ).toEqual([null, 'hubspot.create_task']);
    expect(
      workflowsOf('When a ticket comes in, tag it. In office hours just post urgent ones in #facilities-desk.').map(
        (w) => w.capabilities,
      ),
    ).toEqual([['zendesk.update_ticket', 'slack.post_message']]);
    expect(
      workflowsOf(
        'When a deal moves to Closed Won in HubSpot, create a private Slack channel, invite the assigned CSM and the AE.',
      )[0]?.capabilities,
    ).toEqual(['slack.create_channel', 'slack.invite_user']);
    expect(
      workflowsOf('When a request comes in by email, add an all-day entry to the Ops Team Leave calendar.')[0]?.capabilities,
    ).toEqual(['google-calendar.create_event']);
  });
});

describe('offline analyst: stories, rules for each, and names given', () => {
  it('given "I want a list of … posted in #channel every Monday at 8" (in a story), when analysed, then the schedule posts that list', () => {
    const [w] = workflowsOf(
      'As the IT lead, I want a list of tickets that have been open for more than 5 working days posted in #it-team every Monday at 08:00, so that we can pick them up in stand-up.',
    );
    expect(w?.cron).toBe('0 8 * * 1');
    expect(w?.capabilities).toEqual(['slack.post_message']);
  });

  it('given "every new message in #it-help becomes a ticket in Jira", and a reply "with the ticket key and link", when analysed, then the message starts it, a ticket is made and one reply carries both', () => {
    const [w] = workflowsOf(
      'Every new top-level message in #it-help becomes a ticket in the ITSD Jira project, and the assistant replies in the thread with the ticket key and link.',
    );
    expect(w?.triggerId).toBe('slack.new_message');
    expect(w?.capabilities).toEqual(['jira.create_issue', 'slack.post_message']);
  });

  it('given an issue opened on a name in code quotes, and a link back to another product, when matched, then a repository starts it and the link names no product', () => {
    expect(
      workflowsOf('When someone opens an issue on `payments-sdk-js` with the `bug` label, post it in #bugs.')[0]?.triggerId,
    ).toBe('github.issue_opened');
    expect(
      workflowsOf('When a pull request is opened on GitHub, comment on the pull request with the link to the Jira issue.')[0]
        ?.capabilities,
    ).toEqual(['github.comment_pull_request']);
  });

  it('given a name given ("Jira project is PAY") and something said to need nothing done, when analysed, then neither is work', () => {
    expect(
      workflowsOf(
        "Jira project is PAY. Stand-up is 9:45 daily and sprint planning every other Wednesday at 10:00, both are already in everyone's calendar, nothing to do there. When a PAY ticket moves to Ready for Release, post it in #release-train.",
      ).map((w) => w.triggerId),
    ).toEqual(['jira.issue_transitioned']);
  });
});

describe('offline analyst: stories with their start, rules said of the employee, days said together', () => {
  it('given "As the support lead, when …, I want …" and a reply wished for "the customer on the linked Zendesk ticket", when analysed, then the start is the story\'s and the reply and the marking are duties', () => {
    const [created, done] = workflowsOf(
      [
        'Story 1',
        'As the support lead, when a new Zendesk ticket comes in tagged "bug", I want a Bug created in the APP Jira project.',
        '',
        'Story 2',
        'As an engineer, when an APP bug moves to "Done" in Jira, I want the customer on the linked Zendesk ticket to get a reply saying the fix is coming, and the ticket marked as solved.',
      ].join('\n'),
    );
    expect(created?.triggerId).toBe('zendesk.new_ticket');
    expect(created?.capabilities).toEqual(['jira.create_issue']);
    expect(done?.triggerId).toBe('jira.issue_transitioned');
    expect(done?.capabilities).toEqual(['zendesk.reply_ticket', 'zendesk.update_ticket']);
  });

  it('given "The assistant must never …", work "done by Ana", and "… just leave it alone", when analysed, then none starts a workflow', () => {
    expect(
      workflowsOf(
        [
          'When a pull request is opened on GitHub, post it in #prs.',
          'The assistant must never merge pull requests or move Jira issues itself; humans do that.',
          "Invoicing is done by Ana in Xero; don't go near it.",
          'Karen runs the service desk on her own system, so if something in the leads inbox is a service booking just leave it alone.',
        ].join('\n\n'),
      ).map((w) => w.triggerId),
    ).toEqual(['github.pull_request_opened']);
    // (someone else's work with a duty of the employee's said after it keeps that duty)
    expect(
      workflowsOf(
        'When a refund request comes in by email, tag it. Refunds are handled by Sam; post each one in #refunds for him.',
      ).flatMap((w) => w.capabilities),
    ).toContain('slack.post_message');
  });

  it('given days said together before a time ("mon & thurs 7:15am msg the lads"), "put the test drive in, with …" and "stick a message in the channel", when analysed, then a schedule of those days, a booking and a post', () => {
    expect(workflowsOf('mon & thurs 7:15am msg the lads on slack (#vans) to do their van stock check')[0]?.cron).toBe(
      '15 7 * * 1,4',
    );
    expect(
      workflowsOf(
        "When the website form comes in, find a free half-hour slot on the sales calendar, put the test drive in, with the customer's name in the title, and stick a message in the sales-floor channel on Slack.",
      )[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'google-calendar.create_event', 'slack.post_message']);
  });
});
