import { describe, expect, it } from 'vitest';
import { analyseJob, matchWorkflow, parseSchedule } from '../src';
import { passiveAsDuty } from '../src/segment';
import { catalog, workflowsOf } from './workflows-of';

describe('offline analyst: where a lead ends', () => {
  it('given a lead with no verb of its own followed at once by the duty, when analysed, then the lead ends before the verb, not at a later comma', () => {
    expect(workflowsOf('Every Monday post the plan to #ops, and email it to Bob.')[0]).toMatchObject({
      lead: 'Every Monday',
      steps: ['post the plan to #ops', 'email it to Bob'],
    });
    expect(workflowsOf('On each new order, email the customer.')[0]).toMatchObject({
      lead: 'On each new order',
      steps: ['email the customer'],
    });
    expect(workflowsOf('On every new order email the customer.')[0]).toMatchObject({ lead: 'On every new order' });
  });

  it('given an event with a verb and a duty with an object before a comma, when analysed, then the duty starts at its verb', () => {
    expect(workflowsOf('When a deal closes create an invoice in QuickBooks, and email it to the client.')[0]).toMatchObject({
      lead: 'When a deal closes',
      steps: ['create an invoice in QuickBooks', 'email it to the client'],
    });
    // a verb without an object before the comma leaves the comma to end the lead
    expect(workflowsOf('When a ticket is tagged refund, process it.')[0]?.lead).toBe('When a ticket is tagged refund');
  });

  it('given a list in brackets or quotes, when analysed, then its commas split neither the lead nor the steps', () => {
    const [first] = workflowsOf(
      'When a text comes in, add it to our Notion "Absences" database (child name, class, reason, date) and text the parent back "thanks, noted, get well soon".',
    );
    expect(first?.steps).toEqual([
      'add it to our Notion "Absences" database (child name, class, reason, date)',
      'text the parent back "thanks, noted, get well soon"',
    ]);
  });

  it('given duties ordered by words (First, Second), when analysed, then each is a workflow of its own', () => {
    const said = workflowsOf(
      'First, when someone applies to one of our openings, send them an acknowledgement email. Second, when a new hire shows up in BambooHR, book their induction in the HSE calendar.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['greenhouse.candidate_applied', 'bamboohr.new_hire']);
  });

  it('given a case written with an arrow, when analysed, then something new arriving starts a workflow and a case of the item guards a step', () => {
    const said = workflowsOf(
      "New Zendesk ticket -> set priority from the plan. If it's a bug report -> open a Jira bug in PLAT with the ticket link.",
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({ triggerId: 'zendesk.new_ticket' });
    expect(said[0]?.steps).toEqual(['set priority from the plan', 'open a Jira bug in PLAT with the ticket link']);
  });

  it('given a request to take the work over, when analysed, then it is no duty of its own', () => {
    const said = workflowsOf(
      'Parents text us when their kid is off sick, can you take this over? When a text comes in, text the parent back.',
    );
    expect(said.flatMap((w) => w.steps)).not.toContain('take this over');
  });
});

describe('offline analyst: how the work is told', () => {
  it('given how the work is done today ("At the moment a secretary copies …"), when analysed, then it is no workflow', () => {
    const said = workflowsOf(
      'Enquiries come in through the contact form on our website, which can call any URL. At the moment a secretary copies each enquiry into HubSpot by hand and it can take two days before anyone replies. As soon as an enquiry is submitted, create the person as a contact in HubSpot.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]).toMatchObject({
      triggerId: 'webhook.incoming_webhook',
      steps: ['create the person as a contact in HubSpot'],
    });
  });

  it('given work someone needs done ("the client needs our terms sent out …, and a folder created in Drive"), when analysed, then each is a step', () => {
    const [first] = workflowsOf(
      'Once a HubSpot deal reaches the "Instructed" stage, the client needs our terms of engagement sent out for e-signature through DocuSign, and a matter folder created in Google Drive.',
    );
    expect(first?.steps).toEqual([
      'send our terms of engagement for e-signature through DocuSign',
      'create a matter folder in Google Drive',
    ]);
  });

  it('given a message quoted after a comma and an aside before the duty, when analysed, then one step that sends the message', () => {
    const [first] = workflowsOf(
      'The day before each appointment (so 24h before it starts) text the patient a reminder, "reply C to cancel".',
    );
    expect(first).toMatchObject({
      triggerId: 'google-calendar.event_starting',
      steps: ['text the patient a reminder, "reply C to cancel"'],
    });
  });

  it('given people who @mention the bot and duties joined by a plus, when analysed, then the mention starts the work and each duty is a step', () => {
    const said = workflowsOf(
      'every 15 min: GET https://status.example/health. if anything != ok -> post in #it-ops + open a Jira incident.\n- ppl @mention @itbot in #it-help -> make a Jira task in OPS and reply in the thread',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['schedule.cron', 'slack.mention']);
    expect(said[0]?.steps).toEqual(expect.arrayContaining(['post in #it-ops', 'open a Jira incident']));
    // an email that mentions something is no Slack mention
    expect(workflowsOf('When a customer emails us, reply. If their email mentions a recall, log a Zendesk ticket.')).toHaveLength(
      1,
    );
  });
});

describe('offline analyst: ways in, and what not to do', () => {
  it('given one duty with two ways in said as alternatives, when analysed, then a workflow for each way in', () => {
    const said = workflowsOf(
      'Patients ask for refills by texting our refill number, or through the refill form on our website. Either way, create a Zendesk ticket tagged refill.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['twilio.sms_received', 'webhook.incoming_webhook']);
    expect(said.every((w) => w.steps.includes('create a Zendesk ticket tagged refill'))).toBe(true);
    // two channels named without an "or" between them are one arrival
    expect(workflowsOf('When a customer emails us about the form, reply.').map((w) => w.triggerId)).toEqual(['gmail.new_email']);
  });

  it('given a system of ours that calls a webhook, when analysed, then that is the arrival, and a message the employee drops is no arrival', () => {
    const [first, ...rest] = workflowsOf(
      'Our ticketing platform, Ticket Tailor, calls a webhook for every order. Only for VIP tickets: create the buyer as a contact in HubSpot, and drop a message in #vip-desk with their name.',
    );
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      triggerId: 'webhook.incoming_webhook',
      steps: ['create the buyer as a contact in HubSpot', 'drop a message in #vip-desk with their name'],
    });
  });

  it('given an event said of the place its label names ("Our GitHub repo …: when a new issue is opened there"), when analysed, then the event is of that product', () => {
    const said = workflowsOf(
      "Players report bugs in two places:\n- Our public GitHub repo acme/feedback: when a new issue is opened there with the 'bug' label, create a bug in Jira.\n- Zendesk: when a new ticket comes in tagged 'crash', reply to the player.",
    );
    expect(said.map((w) => w.triggerId)).toEqual(['github.issue_opened', 'zendesk.new_ticket']);
  });

  it('given bullets under a heading of things not to do, when analysed, then they are rules, no workflow of their own', () => {
    const said = workflowsOf(
      "When a donor fills in the form on our website, add them to HubSpot as a contact.\n\nPlease DON'T:\n- touch Stripe at all\n- create invoices\n- email donors anything else",
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toEqual(['add them to HubSpot as a contact']);
  });

  it('given a wish for things to get done ("I\'d love for a folder to get created …, a session put on our calendar"), when analysed, then each is a step', () => {
    const [first] = workflowsOf(
      "When a booking comes in I'd love for a folder for that episode to get created on Google Drive and shared with the guest, a recording session put on our calendar for the date they picked, and a friendly email sent to them.",
    );
    expect(first?.lead).toBe('When a booking comes in');
    expect(first?.steps).toEqual([
      'create a folder for that episode on Google Drive',
      'share it with the guest',
      'put a recording session on our calendar for the date they picked',
      'send a friendly email to them',
    ]);
  });
});

describe('offline analyst: times of day said as a list, and in other languages', () => {
  it('given two times of a day, when parsed, then the cron runs at both', () => {
    expect(parseSchedule('twice a day at 7am and 3pm')?.expression).toBe('0 7,15 * * *');
    expect(parseSchedule('every day at 9:00, 12:00 and 17:00')?.expression).toBe('0 9,12,17 * * *');
    // two times at different minutes are not one cron expression: the first holds
    expect(parseSchedule('every day at 9:00 and 17:30')?.expression).toBe('0 9 * * *');
  });

  it('given a schedule, a comma and its time of day, when analysed, then the time belongs to the schedule', () => {
    expect(workflowsOf('Twice a day, at 7am and 3pm (at shift change), search the Gmail inbox for bookings.')[0]).toMatchObject({
      cron: '0 7,15 * * *',
      steps: ['search the Gmail inbox for bookings'],
    });
    expect(workflowsOf('Every day, at 7am, post the numbers to #ops.')[0]?.cron).toBe('0 7 * * *');
  });

  it('given a schedule in French, German, Spanish or Dutch inside an English description, when analysed, then it is scheduled as in English', () => {
    const said: [string, string][] = [
      ['Deux fois par jour, à 7h et à 15h, post a recap to #reception.', '0 7,15 * * *'],
      ['Tous les lundis à 9h, post the plan to #ops.', '0 9 * * 1'],
      ['Jeden Montag um 10 Uhr, post the plan to #ops.', '0 10 * * 1'],
      ['De lunes a viernes a las 8:30, post the plan to #ops.', '30 8 * * 1-5'],
      ['Elke maandag om 9 uur, post the plan to #ops.', '0 9 * * 1'],
      ['Every school day at 9.15 post a reminder in #staffroom.', '15 9 * * 1-5'],
    ];
    for (const [text, cron] of said) expect(workflowsOf(text)[0]?.cron, text).toBe(cron);
  });

  it('given words that only look like a time, when analysed, then nothing is scheduled', () => {
    expect(parseSchedule('reply within 24h')).toBeNull();
    expect(workflowsOf('When a ticket arrives, reply within 24h.')[0]?.triggerId).toBe('zendesk.new_ticket');
  });
});

describe('offline analyst: replies and answered items', () => {
  it('given a message sent and then "if they reply …" in the same sentence, when analysed, then the reply is a workflow of its own, started by a text coming back', () => {
    const said = workflowsOf(
      'Text each tenant two days before their viewing, and if they reply STOP, cancel the viewing in Google Calendar and tell the agent on Slack.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['google-calendar.event_starting', 'twilio.sms_received']);
    expect(said[1]?.steps).toEqual(['cancel the viewing in Google Calendar', 'tell the agent on Slack']);
  });

  it('given a condition that is no arrival after ", and if", when analysed, then it stays in its workflow', () => {
    const said = workflowsOf(
      'When a refund request comes in by email, refund it in Stripe, and if the amount is over $100, ask a manager first.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.triggerId).toBe('gmail.new_email');
  });

  it('given a reply that names no channel, when analysed, then it comes back the way the message before it went', () => {
    const byText = workflowsOf(
      'Every day at 6pm, send each driver an SMS with tomorrow’s route. If a driver replies, post the reply in #dispatch.',
    );
    expect(byText.map((w) => w.triggerId)).toEqual(['schedule.cron', 'twilio.sms_received']);
    const byEmail = workflowsOf(
      'Email every supplier the purchase order on Mondays. If a supplier replies, post it in #purchasing.',
    );
    expect(byEmail.map((w) => w.triggerId)).toEqual(['schedule.cron', 'gmail.new_email']);
  });

  it('given a duty that answers items with no start said, when analysed, then the items coming in start it', () => {
    expect(workflowsOf('Reply to customer emails about shipping delays.')[0]?.triggerId).toBe('gmail.new_email');
    expect(workflowsOf('Respond to all Zendesk tickets about billing with the right help article.')[0]?.triggerId).toBe(
      'zendesk.new_ticket',
    );
    // the phone is answered, not something that arrives as an item
    expect(workflowsOf('Answer the phone and take messages.')[0]?.lead).toBe('');
  });

  it('given an answered item after another workflow’s start, when analysed, then it is that workflow’s work', () => {
    const said = workflowsOf('When an email arrives, label it. Reply to customer emails about delivery times.');
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toEqual(['label it', 'Reply to customer emails about delivery times']);
  });

  it('given two duties joined by ", and", each with work arriving its own way, when analysed, then each is a workflow', () => {
    const said = workflowsOf(
      'Answer patients’ Zendesk questions about parking, and add every referral that GPs email to referrals@clinic.example to our Notion database.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['zendesk.new_ticket', 'gmail.new_email']);
    // one arrival said twice is one workflow
    expect(workflowsOf('Forward every invoice vendors email us to accounting, and log each invoice in the sheet.')).toHaveLength(
      1,
    );
  });

  it('given a service of ours that texts or emails things in to a number or inbox of ours, when analysed, then that is the arrival', () => {
    const said = workflowsOf(
      'Our night porter texts lost-property reports (item, room, time) to our Twilio number. Log each one in the Notion "Lost property" database.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['twilio.sms_received']);
    expect(said[0]?.steps).toEqual(['Log each one in the Notion "Lost property" database']);
    // what the employee itself sends to a place of ours is no arrival
    expect(workflowsOf('Every Friday, email the weekly numbers to our finance inbox.')[0]?.triggerId).toBe('schedule.cron');
  });

  it('given someone who texts back or calls back, and what they cannot do, when analysed, then the lead keeps its particle and their words', () => {
    const [first] = workflowsOf('If a cleaner texts back that they can’t make it, post it in #cover.');
    expect(first).toMatchObject({ lead: "If a cleaner texts back that they can't make it", triggerId: 'twilio.sms_received' });
    expect(first?.steps).toEqual(['post it in #cover']);
  });

  it('given a time before something that is then said as before a calendar’s item, when analysed, then the item starting starts it', () => {
    const [first] = workflowsOf(
      'The day before move-in, so 24 hours before the calendar event starts, text the tenant the door code.',
    );
    expect(first?.triggerId).toBe('google-calendar.event_starting');
  });

  it('given "You will, when …, do …" or "You will, on the 1st of every month, do …", when analysed, then the start set off by commas leads', () => {
    const said = workflowsOf(
      'You will, when a viewing is about to start, text the agent the address. You will, on the 1st of every month, create a page in Notion for the month’s viewings.',
    );
    expect(said.map((w) => [w.triggerId, w.cron])).toEqual([
      ['google-calendar.event_starting', undefined],
      ['schedule.cron', '0 9 1 * *'],
    ]);
  });

  it('given what to watch for with no duty in its sentence, when analysed, then the sentences after it are its steps', () => {
    const [first] = workflowsOf(
      'Watch for people tagging @deskbot in #facilities on Slack with a broken chair or desk. Open a Jira issue for it. Reply in the thread with the issue key.',
    );
    expect(first?.triggerId).toBe('slack.mention');
    expect(first?.steps).toEqual(['Open a Jira issue for it', 'Reply in the thread with the issue key']);
  });

  it('given a table of cases and what to do, written with pipes, when analysed, then each row is a workflow', () => {
    const said = workflowsOf(
      [
        'Rules:',
        '',
        '| When | Do |',
        '|---|---|',
        '| A guest emails the front desk | Log it in the Notion "Requests" database |',
        '| Every Friday at 4pm | Post the week’s requests in #housekeeping |',
      ].join('\n'),
    );
    expect(said.map((w) => [w.triggerId, w.steps])).toEqual([
      ['gmail.new_email', ['log it in the Notion "Requests" database']],
      ['schedule.cron', ["post the week's requests in #housekeeping"]],
    ]);
  });

  it('given someone doing something written as a case with an arrow, when analysed, then it starts a workflow', () => {
    const said = workflowsOf(
      '- a supplier emails orders@ → log it in Notion\n- someone moves the Jira issue to Done → text the customer',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['gmail.new_email', 'jira.issue_transitioned']);
    // a case of the item at hand stays a condition
    expect(workflowsOf('When an order arrives by email, log it in Notion.\n- over $500 → ask Dana on Slack')).toHaveLength(1);
  });

  it('given a list of fields whose last word could be a verb, when analysed, then it stays in its step', () => {
    const [first] = workflowsOf(
      'When a repair is booked in, create a Zendesk ticket with the customer’s name, device, fault and branch.',
    );
    expect(first?.steps).toEqual(["create a Zendesk ticket with the customer's name, device, fault and branch"]);
    // duties listed with commas stay apart
    expect(workflowsOf('When a form comes in, check it, tag it and file it.')[0]?.steps).toEqual([
      'check it',
      'tag it',
      'file it',
    ]);
  });

  it('given a deposit or a balance that gets paid, when analysed, then an invoice paid starts it', () => {
    expect(workflowsOf('Once the deposit is paid, book the session in Google Calendar.')[0]?.triggerId).toBe(
      'stripe.invoice_paid',
    );
    expect(workflowsOf('When the balance has been paid, email the client the keys.')[0]?.triggerId).toBe('stripe.invoice_paid');
  });

  it('given an aside in brackets inside an event, when analysed, then its verbs end no lead', () => {
    const [first] = workflowsOf(
      'When a tenant signs the lease (we send it out through DocuSign) save the signed PDF into the Leases folder on Google Drive.',
    );
    expect(first).toMatchObject({
      lead: 'When a tenant signs the lease (we send it out through DocuSign)',
      triggerId: 'docusign.envelope_completed',
      steps: ['save the signed PDF into the Leases folder on Google Drive'],
    });
  });

  it('given "evry" typed for every, when analysed, then it is scheduled', () => {
    expect(workflowsOf('evry friday at 4pm post the rota in #staff')[0]?.cron).toBe('0 16 * * 5');
  });

  it('given an hourly schedule between two hours, when analysed, then it runs those hours only', () => {
    expect(workflowsOf('During the season, every hour from 8 to 4, post the snow report in #ops.')[0]?.cron).toBe('0 8-16 * * *');
    expect(parseSchedule('hourly between 6am and 10pm')?.expression).toBe('0 6-22 * * *');
    expect(parseSchedule('every 2 hours from 9 to 5')?.expression).toBe('0 9-17/2 * * *');
    // a span that goes past midnight, or numbers that are no hours, leave it every hour
    expect(parseSchedule('every hour from 10pm to 6am')?.expression).toBe('0 * * * *');
    expect(parseSchedule('check hourly and post 3-4 updates')?.expression).toBe('0 * * * *');
  });

  it('given "every second Monday", when analysed, then it is a schedule on Mondays', () => {
    expect(workflowsOf('Every second Monday at 7pm, email the rehearsal plan to the players.')[0]?.cron).toBe('0 19 * * 1');
  });

  it('given a table that is no list of cases (contacts, prices), when analysed, then no workflow comes of it', () => {
    const said = workflowsOf(
      [
        'When a booking arrives by email, log it in Notion.',
        '',
        '| Name | Role | Email |',
        '|---|---|---|',
        '| Bob Smith | workshop lead | bob@acme.com |',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['gmail.new_email']);
  });

  it('given plural items with an arrow, replies said passively or to a named product, and a phone answered, when analysed, then none starts a workflow of its own', () => {
    expect(
      workflowsOf(
        'When a new review is posted on Google, read it:\n- Negative reviews → escalate to Bob in Slack\n- Positive reviews → thank the customer',
      ),
    ).toHaveLength(1);
    const passive = workflowsOf(
      'When a new order comes in, text the customer a confirmation. When a question in Intercom is answered, log it in Notion.',
    );
    expect(passive[1]?.triggerId).not.toBe('twilio.sms_received');
    expect(workflowsOf('When a new lead lands in HubSpot, call them. If they answer, book a demo.')).toHaveLength(1);
  });

  it('given two duties on the same items, or a duty that sends, after ", and", when analysed, then they stay one workflow', () => {
    expect(workflowsOf('Check new pull requests on GitHub, and post new pull requests to #dev.')).toHaveLength(1);
    expect(workflowsOf('Look after the trade@ inbox, and post new orders in #orders.')).toHaveLength(1);
  });

  it('given minutes in the hours a schedule runs between, or "every second" unit, when parsed, then the hours are read and no daily run is guessed', () => {
    expect(parseSchedule('every 2 hours between 9:15am and 5pm')?.expression).toBe('0 9-17/2 * * *');
    expect(parseSchedule('every hour from 7:30 am until 6 pm')?.expression).toBe('0 7-18 * * *');
    expect(parseSchedule('every second month')).toBeNull();
    expect(parseSchedule('every alternate hour')).toBeNull();
  });

  it('given an hour said without am or pm beside a part of the day, when parsed, then the part of the day says which half', () => {
    expect(parseSchedule('every Thursday evening around 7')?.expression).toBe('0 19 * * 4');
    expect(parseSchedule('every weekday at 6 in the morning')?.expression).toBe('0 6 * * 1-5');
    expect(parseSchedule('every evening at 10:30')?.expression).toBe('30 22 * * *');
    expect(parseSchedule('each night at 11')?.expression).toBe('0 23 * * *');
    // a part of the day said of something else, farther off, leaves the working day's reading
    expect(parseSchedule("every day at 5, post a summary of the morning's tickets and the evening rota")?.expression).toBe(
      '0 17 * * *',
    );
  });

  it('given one weekday with a time of day, said mid-sentence or after "every week,", when analysed, then that weekday is the schedule', () => {
    expect(workflowsOf('Text everyone the rota on thursday evening around 7.')[0]).toMatchObject({
      triggerId: 'schedule.cron',
      cron: '0 19 * * 4',
    });
    expect(workflowsOf('Post the menu in #kitchen on Monday at 8.')[0]).toMatchObject({ cron: '0 8 * * 1' });
    expect(workflowsOf('Every week, on Friday at 4pm, send the timesheets to payroll by email.')[0]).toMatchObject({
      lead: 'Every week, on Friday at 4pm',
      cron: '0 16 * * 5',
    });
    // a weekday that dates a thing, with no time of day, is no schedule
    expect(workflowsOf('If the delivery is due on Friday, tell the customer by email.')[0]?.triggerId).not.toBe('schedule.cron');
  });

  it('given cases with an arrow that say a thing changing, or someone changing it, when analysed, then each is a workflow started by that change', () => {
    const flows = workflowsOf(
      [
        '1) new Zendesk ticket tagged refund → post it in #refunds',
        '2) that Jira bug goes to Done → email the reporter',
        '3) support crew bumps a Zendesk ticket up to urgent → text the on-call engineer',
      ].join('\n'),
    );
    expect(flows.map((f) => f.triggerId)).toEqual(['zendesk.new_ticket', 'jira.issue_transitioned', 'zendesk.ticket_updated']);
    expect(analyseJob('2) that Jira bug goes to Done → email the reporter').workflows).toHaveLength(1);
    expect(
      matchWorkflow(analyseJob('When that Jira bug goes to Done, email the reporter.').workflows[0]!, catalog).trigger.params,
    ).toEqual({ toStatus: 'Done' });
  });

  it('given the hours a schedule keeps said before it, or business hours, when analysed, then the schedule runs in those hours and days', () => {
    expect(
      workflowsOf('Business hours only (Mon–Fri 8:00–18:00), every 30 min: check the status API and post outages in #noc.')[0],
    ).toMatchObject({
      triggerId: 'schedule.cron',
      cron: '*/30 8-17 * * 1-5',
    });
    expect(workflowsOf('Business hours only, every 30 min: check the status API and post outages in #noc.')[0]).toMatchObject({
      lead: 'Business hours only, every 30 min',
      cron: '*/30 9-16 * * 1-5',
    });
    expect(parseSchedule('every 15 minutes between 8am and 6pm')?.expression).toBe('*/15 8-17 * * *');
    expect(parseSchedule('every hour in office hours')?.expression).toBe('0 9-17 * * 1-5');
    expect(parseSchedule('every 10 minutes')?.expression).toBe('*/10 * * * *');
  });

  it('given a weekday in its short form with a time, first in a list item, when analysed, then it is a weekly schedule', () => {
    expect(workflowsOf('- fri 4pm remind the team in #callouts to count their van stock')[0]).toMatchObject({
      triggerId: 'schedule.cron',
      cron: '0 16 * * 5',
    });
  });

  it('given a list item with no start of its own that answers or points back at the arrival of the item before, when analysed, then it carries on that workflow', () => {
    const flows = workflowsOf(
      [
        '- ppl text the emergency number when theyre locked out. forward the txt into #callouts on slack',
        '- txt the customer back rite away: "a locksmith will ring you within 15 mins"',
      ].join('\n'),
    );
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({ triggerId: 'twilio.sms_received' });
    // an item that neither answers nor points back is a duty of its own
    expect(
      workflowsOf(
        [
          '- When a new order comes in on Shopify, email the customer a thank-you.',
          '- Keep the HubSpot pipeline tidy and up to date.',
        ].join('\n'),
      ),
    ).toHaveLength(2);
  });

  it('given some of the work said done to it ("get refunded in Stripe"), when analysed, then it is the duty that does it; a duty already is left as it is', () => {
    const [flow] = workflowsOf(
      'When a Stripe payment fails, post it in #billing. Customers on the annual plan get emailed a reminder with the card link.',
    );
    expect(flow).toMatchObject({
      triggerId: 'stripe.payment_failed',
      steps: ['post it in #billing', 'email customers on the annual plan a reminder with the card link'],
    });
    expect(
      workflowsOf('Log every receipt that gets emailed to receipts@example.com as an expense in QuickBooks.')[0],
    ).toMatchObject({
      triggerId: 'gmail.new_email',
    });
  });

  it('given "when that happens" after an arrival, and a later item about the same thing, when analysed, then they carry on its workflow', () => {
    const flows = workflowsOf(
      [
        '- Harbour ops cancel a sailing by posting in #ops-sailings on Slack.',
        '- When that happens, call the booking system: POST https://bookings.example.com/api/cancel with the sailing code.',
        '- Text every booked passenger that the sailing is cancelled.',
      ].join('\n'),
    );
    expect(flows).toHaveLength(1);
    expect(flows[0]).toMatchObject({ triggerId: 'slack.new_message' });
    expect(flows[0]?.steps).toHaveLength(3);
  });

  it('given a quoted message with sentences of its own, when analysed, then the sentences after the quote keep their own starts', () => {
    const flows = workflowsOf(
      [
        'When a member of the public texts the rescue line, text them back: "Thank you. A volunteer will call you shortly."',
        "On the money side: if a monthly donor's payment fails in Stripe, send them a kind email.",
      ].join('\n\n'),
    );
    expect(flows.map((f) => f.triggerId)).toEqual(['twilio.sms_received', 'stripe.payment_failed']);
    expect(flows[0]?.steps).toHaveLength(1);
    expect(flows[0]?.steps[0]).toContain('"Thank you. A volunteer will call you shortly."');
  });

  it('given the nth weekday of the month, when parsed, then that weekday of every month', () => {
    expect(parseSchedule('The first Monday of each month at 10:00')?.expression).toBe('0 10 * * 1#1');
    expect(parseSchedule('on the last Friday of each month')?.expression).toBe('0 9 * * 5#L');
    expect(parseSchedule('on the 2nd Tuesday of the month at 3pm')?.expression).toBe('0 15 * * 2#2');
    expect(parseSchedule('on the first day of each month')?.expression).toBe('0 9 1 * *');
  });

  it('given a ticket set to a priority or status with the ticket unsaid, when matched, then it is a ticket update', () => {
    expect(
      workflowsOf('new zendesk tickets tagged bedbugs → set to urgent and drop them in #field-team on slack')[0],
    ).toMatchObject({
      triggerId: 'zendesk.new_ticket',
    });
    const [flow] = analyseJob(
      'new zendesk tickets tagged bedbugs → set to urgent and drop them in #field-team on slack',
    ).workflows;
    expect(matchWorkflow(flow!, catalog).steps.map((x) => x.capabilityId)).toEqual([
      'zendesk.update_ticket',
      'slack.post_message',
    ]);
  });

  it('given "Separately," before a schedule, a verb without its -s after "somebody", a weekday of the month first, and people reserving through a form, when analysed, then each starts as said', () => {
    expect(
      workflowsOf(
        'Separately, every weekday at 06:45, pull the shipments from https://tms.example.com/api and post a summary to #dispatch.',
      )[0],
    ).toMatchObject({ triggerId: 'schedule.cron', cron: '45 6 * * 1-5' });
    expect(
      workflowsOf('If somebody mention @StarBot in #telescope-ops with a problem, create an issue in Jira.')[0],
    ).toMatchObject({
      triggerId: 'slack.mention',
    });
    expect(
      workflowsOf('The first Monday of each month at 10:00, send email to volunteers@example.org to ask their availability.')[0],
    ).toMatchObject({ triggerId: 'schedule.cron', cron: '0 10 * * 1#1' });
    expect(
      workflowsOf(
        'People reserve a place for the public nights with the form of our web. When a reservation arrives, add the person in HubSpot as contact.',
      )[0],
    ).toMatchObject({ triggerId: 'webhook.incoming_webhook' });
  });

  it('given the inputs a review of these rules found misread, when analysed, then each reads as before them or better', () => {
    // a weekday's time is read whole, and a step's day in a paragraph that has a start stays that step's
    expect(workflowsOf('Remind the chef on Friday at 10pm.')[0]).toMatchObject({ cron: '0 22 * * 5' });
    expect(
      workflowsOf('When a new hire signs their contract, add them to BambooHR. Send them the welcome pack on Monday at 9am.'),
    ).toHaveLength(1);
    // a lead before work said done to it stays the lead; how it is done today, or by someone else, is no duty
    expect(workflowsOf('Every Monday at 4pm, overdue invoices get emailed to Dana.')[0]).toMatchObject({ cron: '0 16 * * 1' });
    expect(passiveAsDuty('Customers get notified automatically by Shopify when their order ships.')).toBe(
      'Customers get notified automatically by Shopify when their order ships.',
    );
    // a noun is no one acting, and a kind of the items at hand is a case of them
    expect(
      workflowsOf(['When a new Zendesk ticket arrives:', '- ticket labels include vip → assign it to Dana'].join('\n'))[0],
    ).toMatchObject({ triggerId: 'zendesk.new_ticket' });
    expect(
      workflowsOf(
        [
          'When a new Zendesk ticket arrives:',
          '- tickets that mention a Shopify order → add the order as a note',
          '- anything else → tag it general',
        ].join('\n'),
      ),
    ).toHaveLength(1);
    // another product's items, or other items of the same kind, are a duty of their own
    expect(
      workflowsOf(['- When a new ticket arrives in Zendesk, tag it by topic.', '- Respond to reviews on Trustpilot.'].join('\n')),
    ).toHaveLength(2);
    expect(
      workflowsOf(
        ['- When a new invoice arrives in the accounts inbox, add it to QuickBooks.', '- Chase overdue invoices by email.'].join(
          '\n',
        ),
      ),
    ).toHaveLength(2);
    // a priority set on another tool's item is no Zendesk update; a ticket going unanswered is no Jira move
    const [bug] = analyseJob('When a new Jira bug is filed in MOB, set it to high priority.').workflows;
    expect(matchWorkflow(bug!, catalog).steps[0]?.capabilityId).not.toBe('zendesk.update_ticket');
    expect(workflowsOf('When a ticket goes unanswered for 2 days, email the team lead.')[0]?.triggerId).not.toBe(
      'jira.issue_transitioned',
    );
    // outside business hours is no bound of business hours; a short weekday keeps its day; "Monday's" is no day
    expect(parseSchedule('Every 15 minutes outside business hours')?.expression).toBe('*/15 * * * *');
    expect(workflowsOf('tues 4pm email the cleaners the week rota')[0]).toMatchObject({ cron: '0 16 * * 2' });
    expect(workflowsOf("Every morning at 8, Monday's new tickets get a summary in #support.")[0]).toMatchObject({
      cron: '0 8 * * *',
    });
    // a part of the day said of something else, past a comma or in brackets, leaves the hour alone
    expect(parseSchedule('every day at 8, hand over to the night shift')?.expression).toBe('0 8 * * *');
    expect(parseSchedule('daily at 4 (after the morning rush)')?.expression).toBe('0 16 * * *');
  });

  it('given questions and answers, a spoken note with fillers, and a sentence of what not to do, when analysed, then the cases are read and the rest is not', () => {
    const qa = workflowsOf(
      [
        'Q: Someone emails berths@ asking for a berth. What do I do?',
        'A: Add them to the Waitlist database in Notion and email them back to say they are on the list.',
        '',
        'Q: And if a card payment fails?',
        'A: Email the berth holder with a link to update their card.',
        '',
        'Q: Should I refund people who leave mid-season?',
        'A: No, never.',
        '',
        'Q: Tide tables?',
        'A: Not you, it is all on the website.',
      ].join('\n'),
    );
    expect(qa.map((f) => f.triggerId)).toEqual(['gmail.new_email', 'stripe.payment_failed']);
    const spoken = workflowsOf(
      "So basically the main thing is um when a deal goes to Installed in HubSpot, send them the care guide email. Oh and don't book anything in my calendar, I do that myself.",
    );
    expect(spoken).toHaveLength(1);
    expect(spoken[0]).toMatchObject({ triggerId: 'hubspot.deal_stage_changed' });
  });

  it('given the inputs a second review found misread, when analysed, then each reads as before these rules or better', () => {
    // fillers are lower-case words before no number: German "um 8" and "the ER" stay
    expect(workflowsOf('Jeden Montag um 8, email the team the weekly summary.')[0]).toMatchObject({ cron: '0 8 * * 1' });
    expect(workflowsOf('When a patient is sent to the ER by a doctor, text the family.')[0]?.lead).toContain('ER');
    // a question about the job is no case
    expect(
      workflowsOf("When a new lead comes in from HubSpot, post it in #sales.\nQ: What's the salary?\nA: $50k plus bonus."),
    ).toHaveLength(1);
    // going to a product or a level is no status
    expect(workflowsOf('When a lead goes to HubSpot, post it in #sales.')[0]?.triggerId).not.toBe('hubspot.deal_stage_changed');
    expect(workflowsOf('When a ticket goes to Tier 2, email the lead.')[0]?.triggerId).not.toBe('jira.issue_transitioned');
    // a comma between a part of the day and its hour; "outside of normal business hours"; dotted minutes
    expect(workflowsOf('On Thursday evening, around 7, email the team the rota.')[0]).toMatchObject({ cron: '0 19 * * 4' });
    expect(parseSchedule('Every hour outside of normal business hours')?.expression).toBe('0 * * * *');
    expect(workflowsOf('Email the timesheet reminder to staff on Thursday at 7.45am')[0]).toMatchObject({ cron: '45 7 * * 4' });
    // a bare reply answers what came in; "each candidate" names the arrival's items
    expect(
      workflowsOf(
        '- ppl text the shop number asking about repairs\n- log the repair request in the Notion board\n- reply with the price list',
      ),
    ).toHaveLength(1);
    expect(
      workflowsOf(
        '- Candidates apply through the careers form\n- add each candidate to the Candidates sheet\n- email each candidate a confirmation',
      ),
    ).toHaveLength(1);
    // a weekday with a time after a schedule is a schedule of its own
    expect(
      workflowsOf('Every day at 8am, post the rota in #staff. Email the payroll summary to Jane on Friday at 3pm.').map(
        (f) => f.cron,
      ),
    ).toEqual(['0 8 * * *', '0 15 * * 5']);
  });

  it('given a quoted field set to a value after the record was found, when matched, then the record of the product at hand is updated', () => {
    const steps = (text: string, connected: string[]) => {
      const [w] = analyseJob(text).workflows;
      return matchWorkflow(w!, { ...catalog, connected }).steps.map((x) => x.capabilityId);
    };
    expect(
      steps(
        'When an annual invoice gets paid in Stripe, find their row in the Berth Holders database in Notion and set "Season 2025" to Paid.',
        ['stripe', 'notion'],
      ),
    ).toEqual([null, 'notion.update_database_item']);
    expect(
      steps("When a new HubSpot contact is created, look them up and set 'Lead source' to Web.", ['hubspot', 'notion']),
    ).toEqual([null, 'hubspot.update_contact']);
  });
});
