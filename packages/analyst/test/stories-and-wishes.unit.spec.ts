import { describe, expect, it } from 'vitest';
import { workflowsFor, workflowsOf } from './workflows-of';

const FOOD_BANK = [
  'Volunteer coordination — Riverside Food Bank',
  '',
  'As a volunteer coordinator, I want everyone who fills in the "Get involved" form on our website to be added to HubSpot as a contact (lifecycle stage: volunteer), so we stop losing people in a spreadsheet.',
  '',
  'As a new volunteer, I want a welcome email within the hour telling me where to park, so my first shift is not confusing.',
  '',
  "As Priya (volunteer lead), I want a 20-minute intro call with each new volunteer booked into a time when I'm actually free.",
  '',
  'As the operations director, I want a short round-up in #volunteers every Friday morning of who signed up in the last two weeks.',
].join('\n');

describe('offline analyst: user stories and wishes said every way', () => {
  it('given "I want everyone who fills in the form to be added to HubSpot", when analysed, then the form starts it and the contact is created', () => {
    expect(workflowsOf(FOOD_BANK)[0]).toMatchObject({
      triggerId: 'webhook.incoming_webhook',
      capabilities: [
        'hubspot.create_contact',
        'gmail.send_email',
        'google-calendar.find_free_slot',
        'google-calendar.create_event',
      ],
    });
  });

  it('given a thing wished done, its participle after it ("a call … booked into a time"), when analysed, then the duty is that verb on that thing', () => {
    expect(workflowsOf(FOOD_BANK)[0]?.steps).toContain(
      "book a 20-minute intro call with each new volunteer into a time when I'm actually free",
    );
  });

  it('given a message wished for a channel on a schedule ("a round-up in #volunteers every Friday"), when analysed, then it is posted there on that schedule', () => {
    expect(workflowsOf(FOOD_BANK)[1]).toMatchObject({ cron: '0 9 * * 5', capabilities: ['slack.post_message'] });
  });

  it('given a message wanted from someone else, when analysed, then nothing is sent', () => {
    expect(
      workflowsOf('Billing desk.\nWe need an email from the customer with their order number before we refund.').flatMap(
        (w) => w.capabilities,
      ),
    ).not.toContain('gmail.send_email');
  });

  it('given a customer\'s story with its start ("As a customer, when …, I want to hear back on my ticket, and the ticket to be solved"), when analysed, then the reply and the solve are the duties', () => {
    expect(
      workflowsOf(
        'Bug loop.\nAs a customer, when engineering moves the bug to Done in Jira, I want to hear back on my Zendesk ticket that it is fixed, and the ticket to be solved.',
      ),
    ).toMatchObject([{ triggerId: 'jira.issue_transitioned', capabilities: ['zendesk.reply_ticket', 'zendesk.update_ticket'] }]);
  });

  it('given each new item wished to get a comment ("every new pull request in acme/web … to get a comment"), when analysed, then it comments on the pull request', () => {
    expect(
      workflowsOf(
        'Repo helper.\nI want every new pull request in acme/web that has no ENG key in its title to get a comment asking the author to add one.',
      ),
    ).toMatchObject([{ triggerId: 'github.pull_request_opened', capabilities: ['github.comment_pull_request'] }]);
  });

  it('given "I don\'t want the assistant merging PRs", when analysed, then merging is no duty', () => {
    const said = workflowsOf(
      "Repo helper.\nWhen a pull request is opened on GitHub, post it in #reviews.\nAs the CTO, I don't want the assistant merging PRs under any circumstances.",
    );
    expect(said.flatMap((w) => w.capabilities)).toEqual(['slack.post_message']);
  });

  it('given a record wished for in a product ("I\'d like a short summary page in Notion"), when analysed, then the page is created', () => {
    expect(
      workflowsOf("Office helper.\nFridays at 5pm I'd like a short summary page in Notion of the tours booked."),
    ).toMatchObject([{ cron: '0 17 * * 5', capabilities: ['notion.create_page'] }]);
  });
});

describe("offline analyst: the org decides which product a ticket is, and what is no one's work", () => {
  const ZOO =
    'Zoo helper.\nKeepers post vet requests in the #vet-requests Slack channel. For each new request there, raise a ticket in the VET project with the animal and the enclosure.';

  it('given "raise a ticket" in an org with Jira and no helpdesk, when analysed, then it is a Jira issue', () => {
    expect(workflowsFor(['slack', 'jira'], ZOO)).toMatchObject([
      { triggerId: 'slack.new_message', capabilities: ['jira.create_issue'] },
    ]);
  });

  it('given "raise a ticket" in an org with a helpdesk, when analysed, then it is a helpdesk ticket', () => {
    expect(workflowsFor(['slack', 'jira', 'zendesk'], ZOO)[0]?.capabilities).toEqual(['zendesk.create_ticket']);
  });

  it('given "nothing for you there", "it is not your job" and "leave QuickBooks alone", when analysed, then they start no workflow', () => {
    expect(
      workflowsOf(
        [
          'Box office.',
          'When a Stripe payment fails, email the member.',
          'Funding requests go to the treasurer on paper forms, nothing for you there.',
          'The weekly tonnage report we make in Excel, it is not your job.',
          'Our accountant reconciles Stripe into QuickBooks herself at the end of each month, so leave QuickBooks alone.',
        ].join('\n'),
      ),
    ).toMatchObject([{ triggerId: 'stripe.payment_failed', capabilities: ['gmail.send_email'] }]);
  });

  it('given what a webhook carries listed after "with" ("the school name, contact email, number of pupils"), when analysed, then no item of it is a duty', () => {
    expect(
      workflowsOf(
        'Box office.\nSchools book through the form on our Learning page, which posts to your webhook with the school name, contact email, number of pupils and price per seat. For each booking, set the school up as a customer in Stripe.',
      ),
    ).toMatchObject([{ triggerId: 'webhook.incoming_webhook', capabilities: ['stripe.create_customer'] }]);
  });

  it('given a room\'s calendar looked at and "If it\'s free, book it" in the next sentence, when analysed, then the look is a search for a free slot', () => {
    expect(
      workflowsOf(
        "Rooms.\nWhen a room request comes in through our form webhook, check that room's calendar. If it's free, book it in that calendar and email the society to confirm.",
      )[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'google-calendar.create_event', 'gmail.send_email']);
  });
});

describe("offline analyst: a runbook's turns of phrase", () => {
  it('given "spin up a Slack channel" then "pull in the account lead", when analysed, then they are invited to it', () => {
    expect(
      workflowsOf(
        'Agency helper.\nWhen a deal hits Closed Won in HubSpot, spin up a private Slack channel called #client-acme and pull in the account lead and the PM named on the deal.',
      )[0]?.capabilities,
    ).toEqual(['slack.create_channel', 'slack.invite_user']);
  });

  it('given "find an hour next week when the lead and the PM are both free", when analysed, then it finds a free slot', () => {
    expect(
      workflowsOf(
        'Agency helper.\nWhen a deal hits Closed Won in HubSpot, find an hour next week when the account lead and PM are both free and book the kickoff call with the client.',
      )[0]?.capabilities,
    ).toEqual(['google-calendar.find_free_slot', 'google-calendar.create_event']);
  });

  it('given "the monthly retainer" inside an event\'s duty, when analysed, then no monthly schedule starts', () => {
    const said = workflowsOf(
      'Agency helper.\nWhen a deal hits Closed Won in HubSpot, raise the first retainer invoice in QuickBooks, but if the monthly retainer is over £15,000, post the details in #finance instead.',
    );
    expect(said.map((w) => w.triggerId)).toEqual(['hubspot.deal_stage_changed']);
  });

  it('given "text the guest to let them know it\'s sorted and ask if there\'s anything else", when analysed, then it is one text', () => {
    expect(
      workflowsOf(
        "Hotel helper.\nWhen the team marks the ticket solved in Zendesk, text the guest to let them know it's sorted and ask if there's anything else.",
      ),
    ).toMatchObject([{ triggerId: 'zendesk.ticket_updated', capabilities: ['twilio.send_sms'] }]);
  });

  it('given "Then reply to the parent: thanks, absence noted." and "Medical details stay out of Notion — just put "illness"", when analysed, then the reply is a duty and the rule is none', () => {
    expect(
      workflowsOf(
        'Attendance helper.\nParent emails attendance@ about an absence → add an entry to the Absences database in Notion.\nThen reply to the parent: thanks, absence noted.\nMedical details stay out of Notion — just put "illness".',
      ),
    ).toMatchObject([{ triggerId: 'gmail.new_email', capabilities: ['notion.create_page', 'gmail.send_email'] }]);
  });
});

describe('offline analyst: how work arrives by a hook, and thresholds before a duty', () => {
  it('given "When that happens, our booking system calls your webhook with …" and then a heading "When a disruption notice comes in", when analysed, then the notice arrives by that webhook', () => {
    const said = workflowsOf(
      [
        'Ferry helper.',
        '',
        'Background',
        'Only the duty master cancels a sailing. When that happens, our booking system (SeaTix) calls your webhook with the sailing and the passenger manifest.',
        '',
        'When a disruption notice comes in',
        '1. Text every passenger on the manifest.',
        '2. Let the terminal team know in #terminal-ops.',
        'Delays of less than 20 minutes: do nothing.',
        '',
        'Replies from passengers',
        'People often text back. When a text arrives on our ferry number, open a Zendesk ticket with their message.',
      ].join('\n'),
    );
    expect(said.map((w) => [w.triggerId, w.capabilities])).toEqual([
      ['webhook.incoming_webhook', ['twilio.send_sms', 'slack.post_message']],
      ['twilio.sms_received', ['zendesk.create_ticket']],
    ]);
  });

  it('given sensors that send a webhook and "From 85% please write in #yard-crew …", when analysed, then the thresholds guard duties of that webhook', () => {
    expect(
      workflowsOf(
        'Recycling helper.\n\nContainers: our container sensors send a webhook with the fill level in percent. From 85% please write in #yard-crew on Slack which container it is. From 95% also send an email to our haulier (dispo@haul.example) that they must exchange it today.',
      ),
    ).toMatchObject([{ triggerId: 'webhook.incoming_webhook', capabilities: ['slack.post_message', 'gmail.send_email'] }]);
  });

  it('given "residents send SMS to our number", a bare tag after the ticket and "… and thank you", when analysed, then a text arrives, the ticket carries the tag and the thanks are in the text', () => {
    expect(
      workflowsOf(
        'Recycling helper.\nResidents send SMS to our number to book a pickup. For every SMS please create a ticket in Zendesk with the text, tag "bulky", and answer the resident by SMS that we received it.\nWhen the ticket is set to solved, send one more SMS to the resident that the pickup is done and thank you.',
      ),
    ).toMatchObject([
      { triggerId: 'twilio.sms_received', capabilities: ['zendesk.create_ticket', 'twilio.send_sms'] },
      { triggerId: 'zendesk.ticket_updated', capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given "about 24h before each appointment text them a reminder", when analysed, then it runs a day before each calendar event', () => {
    expect(
      workflowsOf(
        'Groomer helper.\nWhen a booking comes in through the website form webhook, put it in my diary.\nthen about 24h before each appointment text them a reminder.',
      ),
    ).toMatchObject([
      { triggerId: 'webhook.incoming_webhook', capabilities: ['google-calendar.create_event'] },
      { triggerId: 'google-calendar.event_starting', params: { minutesBefore: 1440 }, capabilities: ['twilio.send_sms'] },
    ]);
  });

  it('given a form that "posts to a webhook" and then "Every one goes into HubSpot as a contact", when analysed, then the webhook starts it and the contact is created', () => {
    expect(
      workflowsOf(
        'Front desk.\nThe "book a tour" form on the website — it posts to a webhook. Every one goes into HubSpot as a contact, then book them a 20-minute tour on the Community calendar.',
      ),
    ).toMatchObject([
      { triggerId: 'webhook.incoming_webhook', capabilities: ['hubspot.create_contact', 'google-calendar.create_event'] },
    ]);
  });

  it('given "48h before a session: reminder email to the participant", when analysed, then the reminder is sent before each session', () => {
    expect(
      workflowsOf('Lab helper.\n3. Reminders\n  3a. 48h before a session: reminder email to the participant.'),
    ).toMatchObject([
      { triggerId: 'google-calendar.event_starting', params: { minutesBefore: 2880 }, capabilities: ['gmail.send_email'] },
    ]);
  });
});

describe("offline analyst: a billing runbook's sections, amounts and asides", () => {
  const BILLING = [
    'Billing ops assistant — Ledgerly (B2B SaaS, ~900 paying accounts)',
    '',
    'Failed payments',
    "- When a Stripe charge fails, email the account's billing contact a friendly heads-up.",
    '- Also give the account owner a HubSpot task, due in 2 business days, to follow up personally.',
    '',
    'Refund requests',
    '- CSMs ask for refunds in #billing-requests. Up to $250: just refund it in Stripe and reply in the thread with the amount.',
    '- Over $250: reply in the thread tagging @dana (Head of Finance) and wait.',
    '',
    'FYI we moved off HubSpot deals last year.',
  ].join('\n');

  it('given a role title with its company after a dash, when analysed, then it is no duty', () => {
    expect(workflowsOf(BILLING).flatMap((w) => w.capabilities)).not.toContain('stripe.create_invoice');
  });

  it('given "- Also give the account owner a HubSpot task, …, to follow up personally" under a start, when analysed, then it is a task in that workflow', () => {
    expect(workflowsOf(BILLING)[0]).toMatchObject({
      triggerId: 'stripe.payment_failed',
      capabilities: ['gmail.send_email', 'hubspot.create_task'],
    });
  });

  it('given a title over a list ("Refund requests") and amounts before a colon ("Up to $250:", "Over $250:"), when analysed, then the channel starts it and the amounts guard its duties', () => {
    expect(workflowsOf(BILLING)[1]).toMatchObject({
      triggerId: 'slack.new_message',
      capabilities: ['stripe.refund_payment', 'slack.post_message', 'slack.post_message'],
    });
    expect(workflowsOf(BILLING)).toHaveLength(2);
  });

  it('given "Order form fully signed → mark the opp Closed Won", when analysed, then the signed envelope starts it', () => {
    expect(workflowsOf('Deal desk.\nOrder form fully signed → mark the opp Closed Won and announce it in #wins.')).toMatchObject([
      { triggerId: 'docusign.envelope_completed', capabilities: ['salesforce.update_opportunity', 'slack.post_message'] },
    ]);
  });
});
