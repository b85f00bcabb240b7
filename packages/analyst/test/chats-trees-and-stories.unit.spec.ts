import { describe, expect, it } from 'vitest';
import { unknownProductsIn, withoutRetracted } from '../src/text';
import { workflowsFor, workflowsOf } from './workflows-of';

describe('offline analyst: a pasted chat', () => {
  it('given lines that open with who said them and when, when analysed, then each message is read without its sender and time', () => {
    const said = workflowsFor(
      ['quickbooks', 'gmail', 'slack', 'hubspot', 'schedule'],
      [
        'Ruth (owner), 14:02: could the assistant chase late cafe accounts?',
        'Sam (finance), 14:05: sure - when a QuickBooks invoice is 30 days overdue it can email the cafe a polite reminder',
        'Ruth, 14:06: good. and every Friday, a summary of who still owes us in #money',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['quickbooks.invoice_overdue', 'schedule.cron']);
    expect(said[0]?.lead).not.toMatch(/Sam|14:05/);
    expect(said[0]?.capabilities).toEqual(['gmail.send_email']);
    expect(said[1]?.capabilities).toEqual(['slack.post_message']);
  });

  it('given one line that opens with a name and a time, when analysed, then it is read as written (no chat)', () => {
    const [first] = workflowsOf('Monday 09:00: post the rota in #staff.');
    expect(first).toMatchObject({ triggerId: 'schedule.cron', capabilities: ['slack.post_message'] });
  });

  it('given "I\'ll have it tick …", when analysed, then ticking is the duty', () => {
    const [first] = workflowsFor(
      ['stripe', 'hubspot', 'gmail'],
      'When a Stripe payment fails, email the member. And we\'ll have it tick "Lapsed" on their HubSpot contact.',
    );
    expect(first?.capabilities).toEqual(['gmail.send_email', 'hubspot.update_contact']);
  });

  it('given a purpose clause that names new things, when analysed, then it opens no arrival', () => {
    const said = workflowsFor(
      ['stripe', 'hubspot', 'gmail'],
      "When a Stripe payment fails, email the member. Also mark their HubSpot contact so the coaches don't book new sessions.",
    );
    expect(said).toHaveLength(1);
  });
});

describe('offline analyst: a decision tree of arrows under headings that say what arrives', () => {
  it('given "Stripe payment fails:" over "-> …" items, when analysed, then the heading is the start and the arrows its steps', () => {
    const said = workflowsFor(
      ['stripe', 'gmail', 'slack', 'webhook'],
      [
        'Stripe payment fails:',
        '  -> email the member a link to update their card',
        '  -> post their name in #billing',
        '',
        'Message posted in #desk-requests:',
        '  -> reply in the thread that we have seen it',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['stripe.payment_failed', 'slack.new_message']);
    expect(said[0]?.capabilities).toEqual(['gmail.send_email', 'slack.post_message']);
  });

  it('given a heading of two sentences over items, when analysed, then it is not read as one start', () => {
    const said = workflowsFor(
      ['gmail', 'jira'],
      [
        'Some suppliers still post their invoices to ap@acme.example. For those:',
        '- create a Jira issue',
        '- label the email Logged',
      ].join('\n'),
    );
    expect(said[0]?.lead).not.toMatch(/^When some/);
  });
});

describe('offline analyst: labels of automation rules', () => {
  it('given "Trigger: 10 min before each class on the Studio calendar", when analysed, then it is the calendar event, not a daily time', () => {
    const [first] = workflowsOf(
      'Trigger: 10 min before each class on the Studio calendar\nAction: post the class list in #front-desk',
    );
    expect(first).toMatchObject({ triggerId: 'google-calendar.event_starting', params: { minutesBefore: 10 } });
  });

  it('given "Condition: …" under an action, when analysed, then the condition is no step', () => {
    const [first] = workflowsOf(
      'Trigger: Stripe invoice paid\nAction: email the customer that their bike is ready\nCondition: repair invoices only, not web shop orders',
    );
    expect(first?.steps).toEqual(['email the customer that their bike is ready']);
  });

  it('given "IF … THEN … AND …" in capitals on one line, after another rule, when analysed, then each line is its own start', () => {
    const said = workflowsFor(
      ['twilio', 'zendesk', 'slack'],
      [
        'IF a customer texts the support number THEN open a Zendesk ticket with their message.',
        '',
        'IF a new Zendesk ticket is tagged "outage" THEN set its priority to Urgent AND post it in #ops.',
      ].join('\n'),
    );
    expect(said.map((w) => w.triggerId)).toEqual(['twilio.sms_received', 'zendesk.new_ticket']);
  });

  it('given "post a public reply" after a helpdesk start, when analysed, then it is the ticket reply', () => {
    const [first] = workflowsFor(
      ['zendesk', 'slack'],
      'When a ticket is changed to Solved, post a public reply thanking the customer.',
    );
    expect(first?.capabilities).toEqual(['zendesk.reply_ticket']);
  });
});

describe('offline analyst: what the employee must never do, said several ways', () => {
  it('given "What this role does not do:" over items, when analysed, then the items are no work', () => {
    const said = workflowsFor(
      ['zendesk', 'gmail'],
      'Responsibilities:\n- Reply to every new Zendesk ticket within the hour.\n\nWhat this role does not do:\n- Offer discounts or refunds.',
    );
    expect(said).toHaveLength(1);
  });

  it('given "Things it must never do: …" on one line, when analysed, then nothing on it is work', () => {
    const said = workflowsFor(
      ['gmail', 'twilio', 'slack'],
      'When a volunteer emails us, reply to thank them. Things it must never do: text anyone after 9pm, or share a phone number in Slack.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.capabilities).toEqual(['gmail.send_email']);
  });

  it('given "Please make sure it never …" and "the helper never …", when analysed, then they are rules, not steps', () => {
    const said = workflowsFor(
      ['gmail', 'github'],
      'When a pull request is opened, comment with the checklist. Please make sure it never emails clients. The helper never merges pull requests.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.steps).toHaveLength(1);
  });
});

describe('offline analyst: user stories', () => {
  it('given "As a lead, I want every message in #channel to become an issue", when analysed, then the message is the start and the issue the step', () => {
    const [first] = workflowsFor(
      ['slack', 'github'],
      'As the support lead, I want every message posted in #bug-reports to become a GitHub issue labelled "from-support".',
    );
    expect(first).toMatchObject({ triggerId: 'slack.new_message', capabilities: ['github.create_issue'] });
  });

  it('given "any X opened with a label should create Y", when analysed, then X is the start and creating Y the step', () => {
    const [first] = workflowsFor(
      ['github', 'jira'],
      'As dev lead, I want any GitHub issue opened with the label "billing" to create a Jira issue in the FIN project.',
    );
    expect(first).toMatchObject({ triggerId: 'github.issue_opened', capabilities: ['jira.create_issue'] });
  });

  it('given "every invoice should be paid", when analysed, then a statement of the item is no duty of ours', () => {
    expect(workflowsOf('Every invoice should be paid within 30 days.').flatMap((w) => w.capabilities)).toEqual([]);
  });
});

describe("offline analyst: times said the org's way", () => {
  it('given "At close of business (18:00) every day", when analysed, then it is a daily schedule at that hour', () => {
    const [first] = workflowsOf('At close of business (18:00) every day, email the manager the list of open orders.');
    expect(first).toMatchObject({ triggerId: 'schedule.cron', cron: '0 18 * * *' });
  });

  it('given "At the start of each term (first Monday of …, 9am)", when analysed, then the bracket says when', () => {
    const [first] = workflowsOf(
      'At the start of each term (first Monday of January, April and September, 9am), email all tutors the timetable.',
    );
    expect(first).toMatchObject({ triggerId: 'schedule.cron', cron: '0 9 * 1,4,9 1#1' });
  });

  it('given a time then a thing with no verb, when analysed, then the thing is made on that schedule', () => {
    const [first] = workflowsFor(
      ['hubspot', 'schedule'],
      'Every Monday, tasks for Priya in HubSpot to call the clients who have not booked in a month.',
    );
    expect(first).toMatchObject({ triggerId: 'schedule.cron', capabilities: ['hubspot.create_task'] });
  });

  it('given a time then things said to go out, when analysed, then no verb is added', () => {
    const [first] = workflowsOf('Every Friday, reminders to tutors go out at 9.');
    expect(first?.steps.join(' ')).not.toMatch(/^send/);
  });

  it('given "A weekly digest of … in #channel, please", when analysed, then it is a weekly post', () => {
    const [first] = workflowsFor(['gmail', 'slack', 'schedule'], 'A weekly digest of new signups in #growth, please.');
    expect(first).toMatchObject({ triggerId: 'schedule.cron', capabilities: ['slack.post_message'] });
  });
});

describe('offline analyst: arrivals said with a participle, and modal duties', () => {
  it('given "enquiries arriving at sales@…", when analysed, then they are new emails', () => {
    const [first] = workflowsFor(
      ['gmail', 'hubspot'],
      '- Handle wholesale enquiries arriving at trade@mill.example: create a HubSpot contact for the buyer.',
    );
    expect(first).toMatchObject({ triggerId: 'gmail.new_email', capabilities: ['hubspot.create_contact'] });
  });

  it('given "when X it can do Y" with no comma, when analysed, then X is the start and Y the step', () => {
    const [first] = workflowsFor(
      ['quickbooks', 'gmail'],
      'when an invoice is 14 days overdue it can email the customer a reminder',
    );
    expect(first).toMatchObject({ lead: 'when an invoice is 14 days overdue', capabilities: ['gmail.send_email'] });
  });

  it('given "It also needs to …" after a start, when analysed, then the duty is kept', () => {
    const [first] = workflowsFor(
      ['bamboohr', 'gmail'],
      'When a new hire is added in BambooHR, email them the handbook. It also needs to order their laptop through Kandji.',
    );
    expect(first?.steps).toContain('order their laptop through Kandji');
  });
});

describe('offline analyst: the wish said after the story, with a comma', () => {
  it('given "…, so what I want is, if X, do Y", when analysed, then X is the start and Y its steps', () => {
    const [first, ...rest] = workflowsFor(
      ['gmail', 'slack'],
      'we sell bikes online and people keep emailing about late deliveries and nobody answers, so what I want is, if a customer emails support@ about a late order, reply with the tracking link and post it in #shipping.',
    );
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ triggerId: 'gmail.new_email', capabilities: ['gmail.send_email', 'slack.post_message'] });
  });
});

describe('offline analyst: an "About us" line', () => {
  it('given "About us: … . Staff log complaints as tickets.", when analysed, then the rest of the line is about us, no work', () => {
    const said = workflowsFor(
      ['zendesk', 'gmail'],
      'About us: a family-run hotel. Reception logs guest complaints as Zendesk tickets.\n\nReply to every new Zendesk ticket within the hour.',
    );
    expect(said).toHaveLength(1);
    expect(said[0]?.lead).not.toMatch(/Reception/);
  });

  it('given "Context: … . People email …", when analysed, then how the work arrives is still read', () => {
    const said = workflowsFor(
      ['gmail'],
      'Context: 200 members. Members report problems by email to help@club.example.\n\nDuties:\n- Problem emails: reply to the member to acknowledge.',
    );
    expect(said[0]?.triggerId).toBe('gmail.new_email');
  });
});

describe('offline analyst: taking a duty back after a change of mind, and product names', () => {
  it('given "Actually, drop the confirmation", when read, then the confirming clause goes', () => {
    const text = withoutRetracted(
      'When a booking comes in, add it to the calendar and confirm it by text. Actually, drop the confirmation, they get one anyway.',
    );
    expect(text).not.toMatch(/confirm it by text/);
  });

  it('given "Drop the file into the Shared folder", when read, then nothing is taken back', () => {
    const text = 'When a scan arrives, label it. Drop the label once it is filed.';
    expect(withoutRetracted(text)).toBe(text);
  });

  it('given a brand with a capital inside, last in its sentence, when read, then the next sentence is no part of its name', () => {
    expect(unknownProductsIn('Mark it as cancelled in ezyVet. Raj will chase access.').map((p) => p.providerId)).toEqual([
      'ezyvet',
    ]);
  });
});

describe('offline analyst: what a review of these readings found them doing wrongly (each read as before them)', () => {
  it('given timetable lines "Monday 09:00: …", when analysed, then each is its own schedule, no chat', () => {
    const said = workflowsOf(
      'Monday 09:00: post the weekly plan in #team on Slack\nFriday 16:00: email the client a status update',
    );
    expect(said.map((w) => w.cron)).toEqual(['0 9 * * 1', '0 16 * * 5']);
  });

  it('given "Daily 08:30: …" over "Friday 17:00: …", when analysed, then both schedules stay', () => {
    const said = workflowsOf(
      "Daily 08:30: check the Zendesk queue and assign new tickets to the right agent\nFriday 17:00: email me a summary of the week's tickets",
    );
    expect(said.map((w) => w.cron)).toEqual(['30 8 * * *', '0 17 * * 5']);
  });

  it('given "It doesn\'t have access to Stripe, so when …, post …", when analysed, then the duty stays', () => {
    const [first] = workflowsOf(
      "It doesn't have access to Stripe, so when a customer asks for a refund by email, post the request in #refunds on Slack.",
    );
    expect(first?.capabilities).toEqual(['slack.post_message']);
  });

  it('given a heading over rules of its things ("- must have an owner"), when analysed, then it opens no arrival', () => {
    const said = workflowsOf(
      'Leads added to HubSpot:\n- must have a company name\n- must have an owner\nEvery Friday, email Sam the leads with no owner.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['schedule.cron']);
  });

  it('given a heading of what we send, when analysed, then it opens no arrival', () => {
    const said = workflowsOf(
      'Invoices we send from QuickBooks:\n- the monthly retainer for each client\n- one-off project invoices\nEvery month on the 1st, create the retainer invoices in QuickBooks.',
    );
    expect(said).toHaveLength(1);
  });

  it('given "Actually, drop the signed PDF into the folder too", when analysed, then it is work, not a retraction', () => {
    const said = workflowsOf(
      'When a contract is signed in DocuSign, email the client a copy. Actually, drop the signed PDF into the Contracts folder in Google Drive too.',
    );
    expect(said[0]?.triggerId).toBe('docusign.envelope_completed');
    expect(said.flatMap((w) => w.capabilities)).toContain('google-drive.upload_file');
  });

  it('given "Actually, skip the label, just send the address", when analysed, then what is to be done instead stays', () => {
    const [first] = workflowsOf(
      'When a customer emails support@acme.com about a return, reply with the returns label. Actually, skip the label, just send the address.',
    );
    expect(first?.steps).toContain('send the address');
  });

  it('given "About us: …. Please email …" on one line, when analysed, then the duty stays', () => {
    const said = workflowsOf(
      'About us: we are a small bakery in Leeds. Please email every new Shopify customer a thank-you note.',
    );
    expect(said.flatMap((w) => w.steps)).toEqual(['email every new Shopify customer a thank-you note']);
  });

  it('given "post a response time summary", when analysed, then the step keeps its words', () => {
    expect(workflowsOf('Every Friday, post a response time summary in #support on Slack.')[0]?.steps).toEqual([
      'post a response time summary in #support on Slack',
    ]);
  });

  it('given "If a new Shopify customer has no email address, skip them", when analysed, then it stays a condition of the work before', () => {
    const said = workflowsOf(
      'When a Shopify order comes in, add the customer to HubSpot. If a new Shopify customer has no email address, skip them.',
    );
    expect(said).toHaveLength(1);
  });

  it('given "All new hires must complete the training", when analysed, then what the hires must do is no duty of ours', () => {
    const said = workflowsOf(
      'All new hires in BambooHR must complete the security training in their first week. When a new hire is added in BambooHR, email them the training link.',
    );
    expect(said).toHaveLength(1);
  });

  it('given "I\'d like every new starter to open a ticket …, so please email them …", when analysed, then the starter\'s own doing is not ours', () => {
    const said = workflowsOf(
      "I'd like every new starter in BambooHR to open a ticket with IT for their laptop, so please email them the IT request form on their first day.",
    );
    expect(said.flatMap((w) => w.capabilities)).toEqual(['gmail.send_email']);
  });

  it('given tickets said to be there on a schedule, when analysed, then none are created', () => {
    const said = workflowsOf(
      'On Mondays, tickets in Zendesk pile up from the weekend. Go through them first thing and reply to the easy ones.',
    );
    expect(said.flatMap((w) => w.capabilities)).not.toContain('zendesk.create_ticket');
  });

  it('given "By end of day every Friday, everyone\'s timesheet has to be in …", when analysed, then a deadline of others is no schedule', () => {
    const said = workflowsOf(
      "By end of day every Friday, everyone's timesheet has to be in the Hours sheet. On Monday morning, email anyone who missed it.",
    );
    expect(said).toHaveLength(1);
  });

  it('given "I\'ll have it checked by Dana", when analysed, then what someone else does is not glued to the step', () => {
    const [first] = workflowsOf(
      "When a deal is won in HubSpot, create the project in Notion. I'll have it checked by Dana on Fridays.",
    );
    expect(first?.steps).toEqual(['create the project in Notion']);
  });
});
