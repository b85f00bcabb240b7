import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type Route, routeMessage } from '../src/intent';

const LONG_JOB_DESCRIPTION = `Accounts Receivable Clerk

We are a 40-person agency and our invoices keep slipping. We need someone who keeps cash flowing
without anyone having to chase it by hand.

Responsibilities:
- Every morning, check QuickBooks for invoices that became overdue and email the client a friendly reminder.
- When an invoice is 14 days overdue, create a task in HubSpot for the account owner and post a note in #finance on Slack.
- When a Stripe payment fails, notify the customer and retry the charge after three days.

Every Friday, prepare a summary of outstanding receivables and share it with the finance lead.`;

const creates: [string, string | undefined][] = [
  ['I need someone to handle refunds', undefined],
  // a request that ends by asking what to give: "tell me what you'd need from me" is no question about hireloop
  [
    "Boxing gym. I just want someone to keep on top of the members who've gone quiet and sort out whatever lands in the gym inbox. I don't know what's possible, so tell me what you'd need from me.",
    undefined,
  ],
  ['can you set up an agent that triages tickets', undefined],
  ['hire a recruiting coordinator who schedules interviews with candidates from Greenhouse', 'Recruiting Coordinator'],
  ['hire a recruiting coordinator', 'Recruiting Coordinator'],
  ['build me an assistant for onboarding new customers', undefined],
  ['need a bot that posts standup reminders in slack every morning', undefined],
  [
    'Customer Onboarding Specialist: when a deal closes in HubSpot, send a welcome email, book a kickoff call and post in #onboarding.',
    'Customer Onboarding Specialist',
  ],
  [LONG_JOB_DESCRIPTION, 'Accounts Receivable Clerk'],
  ['Every Monday, send the team a summary of open Jira issues and post it to Slack.', undefined],
  ['When a new lead comes in from the website, add it to HubSpot and email the sales team.', undefined],
  ["We're looking for an SDR to qualify inbound leads and book demos", 'SDR'],
  ["I'd like a support triage agent that tags Zendesk tickets by urgency", 'Support Triage Agent'],
  ['Hey! Can you build me an agent that answers support emails?', undefined],
  ['Triage incoming Zendesk tickets, tag them by urgency and escalate urgent ones to Slack.', undefined],
  [
    'Role: Customer Success Manager\nResponsible for renewals: remind account owners 60 days before a renewal.',
    'Customer Success Manager',
  ],
  ['The employee will be responsible for reconciling Stripe payouts with QuickBooks each week.', undefined],
  ['i want an employee that reconciles stripe payouts with quickbooks every friday', undefined],
  ['Thanks! Now I need a bot that posts standup reminders in Slack', undefined],
  ['Whenever a candidate applies in Greenhouse, screen the CV and schedule an interview on Google Calendar.', undefined],
  ['please create an hr onboarding assistant that welcomes new hires and shares the handbook', 'HR Onboarding Assistant'],
  ['build a workflow that emails me every morning with new github issues', undefined],
  ['Can you automate our invoicing?', undefined],
  ['Hire Zara, a recruiting coordinator who schedules interviews', 'Zara'],
  ['I need an assistant that triages my inbox, call it Ada', 'Ada'],
  ['Executive Assistant - manage my calendar, book travel, and reply to routine emails', 'Executive Assistant'],
  [
    'Customer Onboarding Specialist. When a deal in HubSpot moves to Closed Won, create an onboarding folder in Google Drive, ' +
      'send the customer a welcome email, and post a short note in the #onboarding Slack channel.',
    'Customer Onboarding Specialist',
  ],
  ['Thanks. Now every Friday send the team a summary of closed deals and post it in #sales', undefined],
  // when, one duty and where: a job, though it names only one verb of work
  ['Every Monday at 9, email the sales team a summary of new HubSpot deals.', undefined],
  ['When a deal closes in Salesforce, email the account owner a thank-you note.', undefined],
  ['each morning post the on-call rota in #ops', undefined],
  // work in words the verb lists miss, in a tool, as standing work, under a title, or help for a group
  [
    'Healthcare admin assistant at a physiotherapy clinic. Once DocuSign reports that a consent form is signed, store it in Google Drive and tell the front desk on Slack.',
    undefined,
  ],
  ['can u keep track of our grant deadlines and nag ppl on slack so we never miss one again', undefined],
  ['Office manager. Keep things running smoothly around here and take care of whatever comes up.', 'Office Manager'],
  ['Help the PTA stay organised and keep parents in the loop.', undefined],
  ['Make sure renewal contracts go out through DocuSign in good time.', undefined],
  // a tool's name after "the" is no particular thing, and "for now" is no errand
  ['Triage the Zendesk queue', undefined],
  ['Keep the Notion wiki tidy', undefined],
  ['Just handle the Zendesk tickets for now', undefined],
];

const replies: [string, RegExp][] = [
  ['hi, how are you', /^Hi!/],
  ['hello', /^Hi!/],
  ['Good morning', /^Hi!/],
  ['what is an employee?', /digital employee is/],
  ['tell me what an agent can do', /digital employee is/],
  ['thanks!', /welcome/],
  ['thank you so much', /welcome/],
  ['what can you do?', /create digital employees/],
  ['help', /create digital employees/],
  ["what's the weather like in Paris today?", /can't help with that/],
  ['agent', /what should it do/],
  ['?', /create digital employees/],
  ['Set up an agent', /what should it do/],
  ['can you tell me what an agent is', /digital employee is/],
  ['do you have any agents?', /digital employee is/],
  ['could you send an email to Bob about the invoice?', /one-off tasks/],
  ['I need to send the invoice, update the CRM and email Bob today', /one-off tasks/],
  ['when is the meeting where we review and update the roadmap?', /can't help with that/],
  ['when will you email me the HubSpot report?', /one-off tasks/],
  ['what happens when you email the HubSpot contacts every Monday', /can't help with that/],
  ['tell me a joke about slack', /create digital employees/],
  ['we use hubspot and gmail', /create digital employees/],
  ['help me understand how this works', /create digital employees/],
  ['I sent an email to the team on slack yesterday', /create digital employees/],
  ['ok', /create digital employees/],
  ['how do I automate invoicing?', /create digital employees/],
  ['how do I create an agent?', /create digital employees/],
  ['tell me a joke', /create digital employees/],
  ['hey there!', /^Hi!/],
  ['what is hireloop?', /create digital employees/],
  ['how does this work?', /create digital employees/],
  ['thanks, that helps', /welcome/],
];

/** Terse and vague requests for work (a verb of work, a role, a duty, a tool) start a creation that asks what is meant. */
const terse: [string, string | undefined][] = [
  ['Handle IT requests from Slack.', undefined],
  ['Triage Jira bugs.', undefined],
  ['Post new Zendesk tickets to #support.', undefined],
  ['Be our SDR.', undefined],
  ['IT helpdesk for the office.', undefined],
  ['refunds', undefined],
  ['Recruiting Coordinator', 'Recruiting Coordinator'],
  ['Wish people happy birthday in #general.', undefined],
  ['Log every receipt I forward into QuickBooks.', undefined],
];

/** Pasted or typed with markup, or opening with how often: still a request for work. */
const marked: [string, string | undefined][] = [
  ['**Role:** Office assistant', 'Office Assistant'],
  ['**Role:** Office assistant\n- book rooms when asked\n- send the weekly usage report', 'Office Assistant'],
  ['- Answer support tickets in Zendesk', undefined],
  ['# Support bot\nReply to new Zendesk tickets.', 'Support Bot'],
  ['## Duties\n* file bugs in Jira', undefined],
  ['> Triage incoming bugs', undefined],
  ['1. Reply to every new ticket', undefined],
  ['Regularly check the inbox for invoices and save them to Drive.', undefined],
  ['Regularly remind the team to fill in their timesheets.', undefined],
  ['Periodically, clean up stale deals in HubSpot.', undefined],
];

/** Greetings and questions about hireloop get the help reply whatever their markup. */
const markedReplies: [string, RegExp][] = [
  ['**Hi!**', /^Hi!/],
  ['# Hello', /^Hi!/],
  ['- what is hireloop?', /create digital employees/],
  ['**What is a digital employee?**', /digital employee is/],
  ['> thanks!', /welcome/],
];

const created = (route: Route) => (route.action === 'create_graph' ? route : undefined);

describe('routeMessage: requests for an employee and job descriptions create a graph', () => {
  it.each(creates)('%j → create_graph (name %j)', (text, name) => {
    const route = created(routeMessage(text));
    expect(route, JSON.stringify(routeMessage(text))).toBeDefined();
    expect(route?.jobDescription).toBe(text.trim());
    expect(route?.name).toBe(name);
  });
});

describe('routeMessage: terse requests for work create a graph that asks what is meant', () => {
  it.each(terse)('%j → create_graph (name %j)', (text, name) => {
    const route = created(routeMessage(text));
    expect(route, JSON.stringify(routeMessage(text))).toBeDefined();
    expect(route?.jobDescription).toBe(text.trim());
    expect(route?.name).toBe(name);
  });
});

describe('routeMessage: a terse request in a sentence of its own, after who is asking', () => {
  it('given who we are, then a wish for a hand with a duty, when routed, then it creates a graph; a hand with nothing named does not', () => {
    expect(
      routeMessage(
        "We're a four-person bookkeeping practice. Tax season is coming up and we'd love a hand with client follow-ups.",
      ).action,
    ).toBe('create_graph');
    expect(routeMessage("We're a small clinic and we'd love a hand.").action).toBe('reply');
  });
});

describe('routeMessage: a day said of what a standing duty reads is no one-off', () => {
  it('given "tomorrow\'s jobs" in a duty done every night, when routed, then it creates a graph; a duty done tomorrow is a one-off', () => {
    expect(routeMessage("Email me tomorrow's cleaning jobs from the Jobs calendar every night at 8.").action).toBe(
      'create_graph',
    );
    expect(routeMessage('Email me the sales report tomorrow.').action).toBe('reply');
    expect(routeMessage("Please email tomorrow's rota to the team.").action).toBe('reply');
  });
});

describe('routeMessage: chat shorthand for the work itself', () => {
  it('given "txt", "msg" and "b4" in numbered duties, when routed, then the duties are read and it creates a graph', () => {
    expect(
      routeMessage(
        '1) 2hr b4 each class on the Studio calender txt the member a reminder\n2) if a member txts back STOP -> msg me on slack',
      ).action,
    ).toBe('create_graph');
  });
});

describe('routeMessage: how soon, said in work that comes round, is no one-off', () => {
  it('given "asap" inside rules of what arrives, when routed, then it creates a graph; "asap" of one thing to do is a one-off', () => {
    const rules = [
      'new ticket comes in w/ "damaged" → tag it returns & ping #cx-returns on slack so Jess sees it asap',
      'if a customer reopens a ticket → bump it to high prio + drop a msg in #cx-leads w/ the link',
      'ty!!',
    ].join('\n');
    expect(routeMessage(rules).action).toBe('create_graph');
    expect(routeMessage('can you email the rota to the team asap').action).toBe('reply');
    expect(routeMessage('reply to the customer asap').action).toBe('reply');
  });
});

describe('routeMessage: markup and frequency words do not hide a request', () => {
  it.each(marked)('%j → create_graph (name %j), the description as written', (text, name) => {
    const route = created(routeMessage(text));
    expect(route, JSON.stringify(routeMessage(text))).toBeDefined();
    expect(route?.jobDescription).toBe(text.trim());
    expect(route?.name).toBe(name);
  });

  it.each(markedReplies)('%j → a reply matching %s', (text, expected) => {
    const route = routeMessage(text);
    expect(route.action, JSON.stringify(route)).toBe('reply');
    if (route.action === 'reply') expect(route.text).toMatch(expected);
  });
});

describe('routeMessage: anything else gets a short helpful reply, never silence', () => {
  it.each(replies)('%j → a reply matching %s', (text, expected) => {
    const route = routeMessage(text);
    expect(route.action, JSON.stringify(route)).toBe('reply');
    if (route.action !== 'reply') return;
    expect(route.text).toMatch(expected);
    expect(route.text.length).toBeGreaterThan(20);
    expect(route.text.length).toBeLessThan(500);
  });

  it('answers an empty or whitespace-only line too', () => {
    expect(routeMessage('   ').action).toBe('reply');
  });
});

describe('routeMessage: is pure and bounded', () => {
  it('routes the same text the same way every time', () => {
    expect(routeMessage(LONG_JOB_DESCRIPTION)).toEqual(routeMessage(LONG_JOB_DESCRIPTION));
  });

  it('keeps a name within the schema bound and never invents one from a generic worker', () => {
    expect(created(routeMessage('I need an AI agent to handle refunds in Stripe'))?.name).toBeUndefined();
    const long = `${'Senior '.repeat(30)}Specialist: when a ticket arrives, tag it and reply to the customer.`;
    const name = created(routeMessage(long))?.name;
    expect(name === undefined || name.length <= 200).toBe(true);
  });
});

describe('routeMessage: every job description of the golden sets, sent as a chat line, starts a creation', () => {
  const root = fileURLToPath(new URL('../../../golden', import.meta.url));
  const shared = fileURLToPath(new URL('../../../../shared/golden', import.meta.url));
  const dirs = [
    root,
    ...readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => `${root}/${d.name}`),
    shared,
  ];
  const cases = dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => [f, (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { jobDescription: string }).jobDescription] as const),
  );

  it('holds over a hundred job descriptions written in every style', () => expect(cases.length).toBeGreaterThan(100));
  it.each(cases)('%s', (_, jobDescription) => expect(routeMessage(jobDescription).action).toBe('create_graph'));
});

/**
 * Chat lines written without sight of the router (2026-11-29), each set by its own writer: job
 * descriptions in every way people ask (pains, wishes, questions that are requests, lists by schedule,
 * other languages, typos) and lines that are not (product questions, one-off errands naming tools,
 * feedback, an existing employee). Read unseen: the first set, 116 of 150 right with the router of the
 * day before; the second, 79 of 120 with that router and 98 of 120 with the one mended on the first set; the
 * third, 107 of 120 with the router mended on both.
 */
describe.each(['chat-lines.json', 'chat-lines-2.json', 'chat-lines-3.json'])(
  'routeMessage: chat lines written blind to the router (%s)',
  (file) => {
    const lines = JSON.parse(readFileSync(fileURLToPath(new URL(`./fixtures/${file}`, import.meta.url)), 'utf8')) as {
      text: string;
      expect: 'create' | 'reply';
      why: string;
    }[];
    it.each(lines.map((l) => [l.why, l.expect, l.text] as const))('%s → %s', (_, expected, text) =>
      expect(routeMessage(text).action).toBe(expected === 'create' ? 'create_graph' : 'reply'),
    );
  },
);

describe('routeMessage: jobs that name one particular person, amount or worker are still jobs', () => {
  it.each([
    'Make a bot called Ticket Tom that answers our Zendesk tickets',
    'Set up an assistant called Penny to chase overdue invoices',
    'Monitor support@acme.com and reply to customers in Zendesk',
    'Remind ops@acme.com about expiring contracts',
    'Flag expenses above the $500 limit in Slack',
    'Our receptionist missed calls again last week. Text back every missed caller in Twilio and log it in HubSpot.',
    'Our sales rep sent the wrong price list again — send the current price list to every new HubSpot lead',
  ])('given "%s", then a creation', (text) => expect(routeMessage(text).action).toBe('create_graph'));

  it.each([
    'refund the $42 charge for jess.moreno@gmail.com in Stripe please',
    'add maria@acme.com to the #design channel',
    'make a new Google Doc called Q4 planning and share it with Tom',
    'ugh the support bot answered a customer in the wrong language again',
  ])('given "%s", then a reply', (text) => expect(routeMessage(text).action).toBe('reply'));
});
