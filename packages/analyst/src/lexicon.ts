import { capabilityVocabulary, triggerVocabulary } from '@hireloop/schemas';

/** What sits on a calendar and starts at a time: "the day before each appointment" is relative to one. */
export const CALENDAR_ITEMS = [
  'meeting',
  'event',
  'call',
  'demo',
  'appointment',
  'interview',
  'session',
  'kickoff',
  'webinar',
  'class',
  'lesson',
  'visit',
  'consultation',
  'booking',
  'reservation',
  'tour',
  'viewing',
  'shift',
  'qbr',
] as const;

/** Said after "before each …", what is not an item with a time of its own: a deadline, a period, a payment. */
const UNDATED_ITEMS = [
  'deadline',
  'payday',
  'due date',
  'day',
  'morning',
  'evening',
  'night',
  'week',
  'weekend',
  'month',
  'quarter',
  'year',
  'holiday',
  'renewal',
  'invoice',
  'payment',
  'cutoff',
  'cut-off',
  'release',
  'launch',
  'sprint',
  'deploy',
  'deployment',
  'time',
  'one',
  'other',
  'single',
  'start',
  'end',
  'first',
  'last',
  'next',
  'birthday',
  'anniversary',
  'expiry',
  'expiration',
  'contract',
  'lease',
  'trial',
  'subscription',
  'payroll',
  'close',
  'closing',
  'filing',
  'tax',
  'audit',
  'report',
  'board',
  'policy',
  'visa',
  'licence',
  'license',
  'warranty',
  'membership',
  'quote',
  'tenancy',
  'rent',
  'timesheet',
  'project',
  'bank',
  'school',
  'christmas',
  'insurance',
  'employee',
  'hire',
  'certificate',
  'permit',
  'passport',
  'registration',
  'term',
  'semester',
  'season',
  'period',
  'cycle',
  'statement',
  'bill',
  'new',
];

/**
 * An item on a calendar, said after "before" or "the morning of" (a regular expression): one of the known
 * kinds ("the demo", "their appointment"), or any item said with "each" or "every" ("the day before every
 * move", "an hour before each tasting") — something that happens, one by one, at a time of its own.
 */
export const CALENDAR_ITEM = String.raw`(?:(?:the|each|every|a|an|their|her|his|my|our) (?:[\w-]+ )?(?:${CALENDAR_ITEMS.join('|')})s?|(?:each|every|any) (?!(?:${UNDATED_ITEMS.join('|')})s?\b)[a-z][\w-]*)\b`;

/** What has a time of its own said bare, with no "the" or "their": "a week before drop-off", "the day before arrival". */
const BARE_DATED = [
  'arrival',
  'departure',
  'check-?in',
  'check-?out',
  'drop-?off',
  'pick-?up',
  'collection',
  'move-?in',
  'move-?out',
  'handover',
  'surgery',
  'installation',
  'go-?live',
  'kick-?off',
];

/** Words after an item's first noun that end it: a verb of what it does, a joining word ("the crew arrives", "the job and"). */
const NOT_A_NOUN =
  'is|are|was|were|starts?|begins?|expires?|ends?|runs?|lapses?|renews?|closes?|opens?|arrives?|comes?|gets?|shows?|turns?|and|or|to|for|in|on|at|with|by|of|from|so|when|if|date|dates|deadline|due|you|we|i|they|he|she';

/**
 * What has a time of its own, said after "the day before" (a regular expression): an item on a calendar, any
 * other thing said with "the" or "their" that is no deadline, period or payment ("the fitting", "their
 * tasting"), or someone arriving ("I come", "the tech arrives").
 */
export const DATED_ITEM = String.raw`(?:${CALENDAR_ITEM}|(?:${BARE_DATED.join('|')})\b|(?:the|their|her|his|my|our) (?:(?!(?:${NOT_A_NOUN})\b)[a-z][\w-]* ){0,2}?(?!(?:${UNDATED_ITEMS.join('|')}|${NOT_A_NOUN})s?\b)[a-z][\w-]*(?=\s*(?:[,.;:!?()]|$)|\s+(?:${NOT_A_NOUN})\b)(?!\s+(?:is|are|was|expires?|ends?|runs?|lapses?|renews?|closes?|date|dates|deadline|due|period|window|holidays?|break|cut-?off)\b)|(?:a|an) (?!(?:${UNDATED_ITEMS.join('|')})s?\b)[a-z][\w-]* (?:starts|begins|kicks off)\b|(?:i|we|they|you|he|she|the [\w-]+) (?:come|comes|arrive|arrives|visit|visits|get there|gets there|show up|shows up|turn up|turns up)\b)`;

// The offline analyst's vocabulary: how people name products, actions, schedules and vague asks.
// Terms are lower case; a single word matches any of its inflections (see text.ts `lemmas`), a
// phrase ("pull request") matches with a plural or verb ending on its words.

/** Product names and aliases → provider id. A name found in a clause is a strong hint. */
export const PROVIDER_NAMES: ReadonlyArray<readonly [string, string]> = [
  ['gmail', 'gmail'],
  ['google mail', 'gmail'],
  ['google calendar', 'google-calendar'],
  ['gcal', 'google-calendar'],
  ['slack', 'slack'],
  ['hubspot', 'hubspot'],
  ['hub spot', 'hubspot'],
  ['salesforce', 'salesforce'],
  ['sfdc', 'salesforce'],
  ['zendesk', 'zendesk'],
  ['zd', 'zendesk'],
  ['jira', 'jira'],
  ['github', 'github'],
  ['git hub', 'github'],
  ['notion', 'notion'],
  ['stripe', 'stripe'],
  ['docusign', 'docusign'],
  ['docu sign', 'docusign'],
  ['google drive', 'google-drive'],
  ['gdrive', 'google-drive'],
  ['twilio', 'twilio'],
  ['quickbooks', 'quickbooks'],
  ['quick books', 'quickbooks'],
  ['qbo', 'quickbooks'],
  ['greenhouse', 'greenhouse'],
  ['bamboohr', 'bamboohr'],
  ['bamboo hr', 'bamboohr'],
  ['bamboo', 'bamboohr'],
  ['webhook', 'webhook'],
  ['web hook', 'webhook'],
  // products outside the built-in catalog: named, they are a missing integration, not another tool
  ['microsoft teams', 'microsoft-teams'],
  ['ms teams', 'microsoft-teams'],
  ['asana', 'asana'],
  ['trello', 'trello'],
  ['shopify', 'shopify'],
  ['xero', 'xero'],
  ['intercom', 'intercom'],
  ['freshdesk', 'freshdesk'],
  ['pipedrive', 'pipedrive'],
  ['clickup', 'clickup'],
  ['confluence', 'confluence'],
  ['dropbox', 'dropbox'],
  ['calendly', 'calendly'],
  ['airtable', 'airtable'],
  ['mailchimp', 'mailchimp'],
  ['gusto', 'gusto'],
  ['workday', 'workday'],
  ['okta', 'okta'],
];

/**
 * Words that point at a provider without naming it ("in the ticket" → Zendesk, "#sales" → Slack).
 * Weaker than a name; strongest when they are where the action lands ("post it in the channel").
 */
export const PROVIDER_CUES: Readonly<Record<string, readonly string[]>> = {
  gmail: ['email', 'e-mail', 'inbox', 'mailbox', 'mail'],
  'google-calendar': ['calendar', 'calendar invite', 'meeting invite', 'diary', 'agenda'],
  slack: ['channel', 'thread', 'dm', 'direct message', 'chat'],
  zendesk: [
    'ticket',
    'support ticket',
    'requester',
    'helpdesk',
    'help desk',
    'service desk',
    'support desk',
    'public reply',
    'internal note',
  ],
  jira: ['jira issue', 'backlog', 'sprint'],
  github: ['pull request', 'pr', 'repo', 'repository', 'merge request'],
  notion: ['wiki', 'notion page', 'tracker', 'knowledge base'],
  'google-drive': ['drive', 'folder', 'shared drive'],
  twilio: ['sms', 'text message', 'phone', 'mobile'],
  stripe: ['card', 'charge'],
  docusign: ['e-signature', 'esignature', 'signature', 'envelope'],
  http: ['api', 'endpoint', 'url', 'http'],
  webhook: ['webhook', 'form'],
};

/**
 * A kind of product said instead of its name, where a step lands: "add them to the CRM" is in the org's CRM,
 * whichever it is (not a start's cue: "a deal won in our CRM (Pipedrive)" may be another product's).
 */
export const PRODUCT_KIND_CUES: Readonly<Record<string, readonly string[]>> = {
  hubspot: ['crm'],
  salesforce: ['crm'],
  greenhouse: ['ats', 'applicant tracking system'],
  bamboohr: ['hris', 'hr system'],
};

/**
 * How a step's verb and object map onto one capability.
 * verbs: score 2 when the clause's verb is one of them; keyVerbs: score 4 (the verb alone names
 * the capability); objects: score 2 in the direct object, 1 elsewhere; generic: 1 / 0.5;
 * phrases: score 3 when the regular expression matches the clause.
 */
export type Sense = {
  verbs: readonly string[];
  keyVerbs?: readonly string[];
  objects?: readonly string[];
  generic?: readonly string[];
  phrases?: readonly RegExp[];
};

/** The verbs that send something to somebody; the channel is chosen from cues, recipients and context. */
export const MESSAGE_VERBS = [
  'send',
  'notify',
  'tell',
  'inform',
  'remind',
  'alert',
  'ask',
  'message',
  'ping',
  'update',
  'reply',
  'respond',
  'answer',
  'thank',
  'welcome',
  'follow up',
  'reach out',
  'contact',
  'nudge',
  'chase',
  'announce',
  'share',
  'confirm',
  'acknowledge',
  'escalate',
  'warn',
  'let know',
  'check in',
  'greet',
  'congratulate',
  'forward',
  'relay',
  'dm',
] as const;

const MESSAGE_GENERIC = [
  'message',
  'note',
  'reminder',
  'summary',
  'digest',
  'report',
  'update',
  'announcement',
  'alert',
  'notification',
  'list',
  'reply',
  'response',
  'confirmation',
  'link',
  'thank-you',
  'recap',
  'answer',
  'heads-up',
  'survey',
  'outcome',
  'status',
  'copy',
  'agenda',
] as const;

/** Messaging capabilities: the family whose member is chosen by channel. */
export const MESSAGE_FAMILY = ['gmail.send_email', 'slack.post_message', 'twilio.send_sms', 'zendesk.reply_ticket'] as const;

/**
 * The same kind of work in different products, where a step that names none means whichever the org has:
 * "raise a ticket" is a Zendesk ticket in a helpdesk org and a Jira issue in one with only Jira.
 */
export const SAME_KIND: readonly (readonly string[])[] = [
  ['zendesk.create_ticket', 'jira.create_issue', 'github.create_issue'],
  // ("send the requester an acknowledgement", "reply to the customer" with no helpdesk: a message to them, by email)
  ['zendesk.reply_ticket', 'gmail.send_email'],
];

const ANSWER_REQUESTS =
  /\b(handle|answer|field|respond|reply|address|resolve|deal with|take care of)\b[\w\s'-]{0,40}\b(requests?|questions?|quer(y|ies)|inquir(y|ies)|enquir(y|ies)|messages?|dms?)\b/;

/** Something sent to an address of someone's system: "push the order json to the partner's url", "POST … to their webhook URL". */
const SENT_TO_AN_ADDRESS =
  /\b(?:push(?:es)?|posts?|sends?|forwards?)\b[^.;]{0,80}?\b(?:to|at)\s+(?:the\s+|their\s+|our\s+|its\s+|an?\s+)?(?:[\w'’-]+\s+){0,4}?(?:url|endpoint|webhook(?:\s+url)?|web address)\b/;

export const CAPABILITY_SENSES: Readonly<Record<string, Sense>> = {
  // the catalog's words, and the money said given back: "they get their deposit back", "give the customer their money back"
  'stripe.refund_payment': {
    verbs: [...(capabilityVocabulary['stripe.refund_payment']?.verbs ?? ['refund'])],
    objects: [...(capabilityVocabulary['stripe.refund_payment']?.objects ?? ['refund', 'payment']), 'deposit'],
    phrases: [
      /\b(?:get|gets|give|gives|send|sends|pay|pays)\s+(?:(?:them|him|her|the (?:customer|client|buyer|guest))\s+)?(?:their|the|his|her|its)\s+(?:deposit|money|payment|fee|booking fee)s?\s+back\b/,
      // "issue the refund in Stripe", "process a full refund": a refund made, not an invoice issued
      /\b(?:issue|issues|process|processes|make|makes|give|gives|do|action|approve|approves)\s+(?:(?:them|him|her|the (?:customer|client|buyer|guest))\s+)?(?:a|an|the|their|his|her|its)?\s*(?:full\s+|partial\s+)?refunds?\b(?!\s+(?:policy|form|request|details|link|status|information|info|terms|rules)\b)/,
    ],
  },
  'gmail.send_email': {
    verbs: [...MESSAGE_VERBS, 'write', 'draft', 'introduce', 'deliver', 'invite'],
    keyVerbs: ['email', 'e-mail', 'mail'],
    objects: ['email', 'e-mail', 'mail', 'newsletter', 'letter', 'intro', 'introduction', 'email digest', 'cover letter'],
    generic: [...MESSAGE_GENERIC, 'exercise', 'invoice copy', 'welcome pack', 'schedule', 'offer letter'],
    phrases: [
      ANSWER_REQUESTS,
      /\bby (e-?)?mail\b/,
      /\b(an? |the )?(e-?)?mail (to|with)\b/,
      // "write to the volunteer with the date of the next induction": a letter to someone outside
      /^write (?:back )?to (?:them|him|her|(?:the|each|every|their|that|this|any|our) (?:[\w-]+ )?(?:volunteer|customer|client|member|parent|guest|applicant|candidate|supplier|tenant|patient|owner|buyer|donor|student|person|sender|family|families|visitor|vendor|contractor|landlord|school)s?)\b(?!\s+(?:record|row|page|profile|file|entry|field|sheet|database|list|table|card)s?\b)/,
    ],
  },
  'google-calendar.create_event': {
    verbs: [
      'book',
      'schedule',
      'set up',
      'arrange',
      'organise',
      'organize',
      'plan',
      'create',
      'add',
      'put',
      'send',
      'hold',
      'block',
    ],
    // "book it in the member's name": what is booked goes on a calendar
    keyVerbs: ['book'],
    objects: [
      'meeting',
      'call',
      'demo',
      'kickoff',
      'kick-off',
      'event',
      'invite',
      'invitation',
      'appointment',
      'calendar invite',
      'session',
      'sync',
      'standup',
      'stand-up',
      '1:1',
      'one-on-one',
      'check-in',
      'walkthrough',
      'webinar',
      'workshop',
      'lunch',
      'time',
      'slot',
    ],
    generic: ['interview', 'screen', 'phone screen', 'review', 'onboarding', 'training', 'catch-up'],
    phrases: [
      /\b(book|schedule|set up|arrange|organi[sz]e|invite)\b[\w\s'-]{0,40}(?<![\w-])(meeting|call|demo|kick-?off|appointment|session|sync|1:1|check-in|walkthrough|webinar|workshop)s?\b/,
      /\b(add|put) (it |them |this )?(on|to|in) (the |her |his |their |our |a |my )?calendar\b/,
      // "put the order on the 'Cake orders' calendar", "add each booking to our Studio calendar"
      /\b(?:add|put|place|enter)\b[\w\s'-]{0,40}?\b(?:on|to|in|into) (?:the |her |his |their |our |a |my )?(?:['"‘“][^'"’”]{1,40}['"’”] |[\w-]+ ){0,4}calendar\b/,
      /\bsend (an? |the )?(calendar )?(invite|invitation)\b/,
    ],
  },
  'slack.post_message': {
    verbs: [
      ...MESSAGE_VERBS,
      'post',
      'broadcast',
      'publish',
      'share',
      'drop',
      'raise',
      'flag',
      'page',
      'report',
      'write',
      'highlight',
      'celebrate',
      'shout out',
      // ("tag @Gareth in the post": a person tagged, said as a mention)
      'mention',
    ],
    keyVerbs: ['post', 'ping', 'slack', 'dm'],
    objects: ['slack message', 'channel', 'thread', 'dm', 'direct message', 'shout-out', 'shoutout'],
    generic: [
      ...MESSAGE_GENERIC,
      'thank-you note',
      'win',
      'celebration',
      'change',
      'question',
      'approval',
      'request',
      'incident',
    ],
    phrases: [ANSWER_REQUESTS, /\b(in|to|on|into) #[\w-]+/, /\b(in|to|on) (the |our |a )?([\w-]+ )?(slack )?channel\b/],
  },
  'slack.invite_user': {
    // ("spin up a channel, pull in the account lead and the PM": who is brought into what was just made)
    verbs: ['invite', 'add', 'bring', 'include', 'join', 'pull in', 'bring in'],
    objects: [
      'user',
      'member',
      'person',
      'people',
      'hire',
      'starter',
      'joiner',
      'employee',
      'teammate',
      'engineer',
      'commander',
      'responder',
      'stakeholder',
      'colleague',
    ],
    phrases: [/\b(invite|add|bring)\b[\w\s'-]{0,30}\b(to|into) (the |our |a |their )?(#[\w-]+|[\w-]+ (slack )?channels?|slack)/],
  },
  'hubspot.update_contact': {
    // the catalog's vocabulary, and: what is put on a contact the work already has is an update of it
    verbs: ['update', 'enrich', 'edit', 'change', 'set', 'note', 'log', 'record', 'tag', 'mark'],
    objects: ['contact', 'note', 'property', 'record', 'lifecycle stage', 'lead status', 'activity', 'timeline', 'crm'],
    phrases: [
      /\b(?:on|to|in|against) (?:their|the|his|her|its|that|this|each|the customer's|the member's) (?:hubspot |crm )?(?:contact|record|profile)\b/,
    ],
  },
  'hubspot.create_task': {
    verbs: ['create', 'add', 'assign', 'set', 'log', 'open', 'make'],
    objects: ['task', 'follow-up task', 'to-do', 'todo', 'action item'],
    generic: ['follow-up', 'reminder'],
  },
  'zendesk.reply_ticket': {
    verbs: [...MESSAGE_VERBS],
    keyVerbs: [],
    objects: ['ticket reply', 'public reply', 'public comment'],
    generic: [...MESSAGE_GENERIC],
    phrases: [ANSWER_REQUESTS],
  },
  'zendesk.update_ticket': {
    verbs: [
      'update',
      'triage',
      'tag',
      'assign',
      'reassign',
      'prioritise',
      'prioritize',
      'route',
      'categorise',
      'categorize',
      'link',
      'close',
      'solve',
      'resolve',
      'mark',
      'set',
      'escalate',
      'merge',
      'add',
      'note',
      'reopen',
    ],
    keyVerbs: ['triage', 'prioritise', 'prioritize'],
    // "set to urgent", "mark the ticket as pending": a ticket's priority or status ("set it to high priority" may
    // be any tool's item: the workflow's product decides that one)
    phrases: [
      /^(?:set|mark|make|flag|bump|move)\s+(?:(?:the\s+|each\s+)?tickets?\s+)?(?:as\s+|to\s+|up\s+to\s+)(?:urgent|high|low|normal)(?:\s+priority)?\b|^(?:set|mark|move)\s+(?:(?:the\s+|each\s+)?tickets?\s+)?(?:as\s+|to\s+)(?:pending|solved|on[ -]hold)\b/,
      // "put the Jira key as an internal note on the ticket", "leave a private note"
      /\b(?:as|in|into) (?:an? )?(?:internal|private) note\b|^(?:put|leave|write|drop|post)\s+an? (?:internal|private) note\b/,
    ],
    objects: [
      'ticket',
      'ticket status',
      'priority',
      // "mark it urgent" after the ticket is made: its priority
      'urgent',
      'internal note',
      'private note',
      'tag',
      'assignee',
      'urgency',
      'status',
      'group',
    ],
    generic: ['note', 'label'],
  },
  // the catalog's words, and a calendar looked at for room: "check that room's calendar. free -> book it"
  'google-calendar.find_free_slot': {
    verbs: [...(capabilityVocabulary['google-calendar.find_free_slot']?.verbs ?? ['find'])],
    objects: [...(capabilityVocabulary['google-calendar.find_free_slot']?.objects ?? ['slot'])],
    phrases: [
      // (not a calendar looked through for something else: "check the Returns calendar for cars more than 2 hours overdue")
      /^(?:check|look at|look in|see)\s+(?:the|that|this|their|its|our|his|her|[\w'’-]+['’]s)\s+(?:[\w'’-]+\s+)?calendars?\b(?=\s*(?:$|[.,;:!)]|and\b|to see if\b|for (?:a |an )?(?:free|open|slot|gap|space|availability|room)\b))/,
    ],
  },
  // "copy the comment onto the Jira issue", "mirror each new comment to the linked issue": a comment carried over
  'jira.comment_issue': {
    verbs: [...(capabilityVocabulary['jira.comment_issue']?.verbs ?? ['comment'])],
    objects: [...(capabilityVocabulary['jira.comment_issue']?.objects ?? ['comment'])],
    phrases: [
      /\b(?:copy|copies|mirror|mirrors|sync|syncs|forward|forwards|carry|carries|pass|passes)\s+(?:the|their|each|every|that|this|any|a)\s+(?:new\s+)?comments?\s+(?:(?:on|in|in)to|across to|over to|to|onto)\s+(?:the\s+|its\s+|their\s+|that\s+)?(?:linked\s+|matching\s+|related\s+)?(?:jira\s+)?(?:issue|ticket|bug|story)\b/,
    ],
  },
  'jira.create_issue': {
    verbs: [
      'open',
      'create',
      // "make a jira ticket on the REPAIR board"
      'make',
      'file',
      'log',
      'raise',
      'report',
      'submit',
      'add',
      'record',
      'track',
      'escalate',
      'route',
      'hand off',
    ],
    objects: ['issue', 'jira issue', 'bug', 'bug report', 'story', 'epic', 'defect', 'jira ticket', 'task'],
    generic: ['queue', 'backlog', 'board'],
    phrases: [/\b(file|log|raise|report|open)\b[\w\s'-]{0,20}\b(bugs?|defects?)\b/],
  },
  'stripe.create_invoice': {
    verbs: ['create', 'send', 'issue', 'raise', 'generate', 'bill', 'prepare', 'draw up', 'charge', 'make'],
    keyVerbs: ['invoice', 'bill'],
    objects: ['invoice', 'bill', 'billing statement'],
  },
  'google-drive.share_file': {
    verbs: ['share', 'give', 'grant', 'send'],
    keyVerbs: ['share'],
    objects: ['file', 'folder', 'document', 'doc', 'link', 'drive', 'spreadsheet', 'deck'],
    phrases: [/\b(share|give|grant)\b[\w\s'-]{0,20}\b(folder|file|doc|document|drive|spreadsheet|deck)s?\b/],
  },
  'twilio.send_sms': {
    verbs: [...MESSAGE_VERBS, 'page'],
    keyVerbs: ['text', 'sms'],
    objects: ['sms', 'text', 'text message', 'sms message'],
    generic: [...MESSAGE_GENERIC],
    phrases: [/\bby (sms|text( message)?|phone)\b/, /\b(via|over|through) (sms|text)\b/, /\bsms\b/],
  },
  // "push the order json to the fulfilment partner's url", "POST their details to the door system's webhook URL"
  'webhook.send': {
    verbs: ['post', 'push', 'send', 'forward', 'notify', 'ping'],
    objects: ['json', 'payload', 'event', 'webhook', 'url', 'endpoint', 'web address'],
    phrases: [SENT_TO_AN_ADDRESS],
  },
  'http.request': {
    verbs: ['call', 'hit', 'invoke', 'request', 'query', 'fetch', 'post', 'ping', 'trigger', 'notify'],
    objects: ['api', 'endpoint', 'url', 'http', 'rest api', 'admin api', 'service', 'webhook url'],
    phrases: [
      /\b(api|endpoint|http request|rest call)\b/,
      SENT_TO_AN_ADDRESS,
      // an address called, not one a message carries: "comment with the review checklist link (https://…)"
      /(?<![([]\s*)(?<!\blinks?\b[^.;]{0,40})\bhttps?:\/\//,
    ],
  },
};

/** Capabilities whose verbs are a message to a person: recipients decide the channel when no cue does. */
export const REPLY_VERBS = [
  'reply',
  'respond',
  'answer',
  'acknowledge',
  'confirm',
  'follow up',
  'handle',
  'field',
  'address',
  'resolve',
] as const;

/** How a trigger is described: the thing that happens (subjects) and what happens to it (events). */
export type TriggerSense = {
  subjects: readonly string[];
  /** subjects that point here only weakly ("a bug" may be a Jira issue or a message about one) */
  weakSubjects?: readonly string[];
  events: readonly string[];
  phrases?: readonly RegExp[];
  /** phrases that say the item and what happens to it at once ("the day before the fitting"): a subject and a phrase */
  sayings?: readonly RegExp[];
  /** fires on something new appearing; a bare "new <subject>" is enough */
  creation?: boolean;
};

/** "gets added to our CRM", "is created in the CRM": a new record of the CRM the org has, unnamed. */
const ADDED_TO_CRM = /\b(?:added|created|entered|put|logged)\s+(?:to|in|into)\s+(?:our|the)\s+crm\b(?!\s*\()/;

/** An invoice of a customer's (not a supplier's, a utility's or one "we" owe), as a regular expression. */
// ("one of our invoices goes overdue": ours to a client; "our supplier's invoice" is not)
const CUSTOMER_INVOICE = String.raw`(?<!\b(?:supplier|vendor|contractor|utility|we)(?:['’]s)?\s+|(?<!\bof\s)\bour\s+)\binvoices?\b`;

/** Someone who writes in, as a trigger's subject: "someone", "a crew member", "the parent" (a regular expression). */
const ONE_WHO_WRITES = String.raw`someone|somebody|anyone|they|she|he|(?:a|an|the|any|each|every) (?:[\w-]+ )?(?!bot\b|assistant\b|agent\b|employee\b)[\w-]+`;

export const TRIGGER_SENSES: Readonly<Record<string, TriggerSense>> = {
  'gmail.new_email': {
    subjects: ['email', 'e-mail', 'mail', 'inbox', 'mailbox'],
    weakSubjects: ['message', 'reply', 'receipt', 'attachment'],
    events: [
      'email',
      'e-mail',
      'mail',
      'arrive',
      'receive',
      'come in',
      'land',
      'reply',
      'forward',
      'write',
      'send back',
      'send in',
      'send',
      'respond',
      'get',
    ],
    phrases: [
      /\b(emails?|e-mails?|writes?) (us|in|to (us|our|her|him|them|[\w.]+@[\w.]+))\b/,
      new RegExp(String.raw`\b(?:${ONE_WHO_WRITES}) (?:emails|e-mails|writes)\b(?! (?:them|him|her)\b)`),
      /[\w.+-]+@[\w-]+\.[\w.]+/,
      // a mailbox of ours named without its domain: "email their orders to orders@"
      /\b[\w.+-]+@(?=[\s,.;:)]|$)/,
      /\bforwards?\b/,
      /\b(they|she|he|the (lead|customer|client|prospect|candidate)) repl(y|ies)\b/,
      // arrival by email: "arrives by email", "lands in the billing mailbox", "comes in via e-mail", "hits the shared inbox"
      /\b(arriv(es?|ing)|lands?|landing|comes?(?: in(?:to)?)?|came(?: in(?:to)?)?|coming(?: in(?:to)?)?|reach(es)?|hits?|shows? up|turns? up|drops? into)\b[^,;.]{0,30}?\b((by|via|over|through) e-?mail|((in|into|to|at) )?(the|our|my|a|an|its|their|her|his) ([\w-]+ ){0,2}(inbox|mailbox))\b/,
      // "when a case email comes": an email that comes is one that arrives
      /\be-?mails? (?:comes?|came)\b/,
      // "emailed to us", "e-mailed in to the team", "we get an email about …"
      /\be-?mailed (in )?to (us|me|the team|our [\w-]+|[\w.+-]+@[\w-]+\.[\w.]+)\b/,
      /\b(we|i|the team|you) (get|gets|receive|receives) an? (e-?mail|mail)\b/,
      // "we get berth enquiries by email", "we receive most orders through e-mail": what reaches us, by email
      /\b(?:we|i) (?:[\w-]+ly |also |often |still )?(?:get|receive) (?:[\w'’-]+ ){1,6}?(?:by|via|over|through|in) e-?mails?\b/,
      // people, in the plural, who email someone of ours: "tenants email the front desk", "suppliers write to us"
      /^(?:(?:when(?:ever)?|if|once) )?(?:the |our |a |an )?(?:[\w-]+ )?[\w-]+s (e-?mail|write to) (us|me|the|our)\b/,
    ],
    // "group enquiries arriving at groups@oldcustomshouse.ie", "orders coming into orders@": what reaches a mailbox of ours
    sayings: [
      /\b(?:arriv(?:es?|ing)|com(?:es?|ing)(?: in)?|land(?:s|ing)?|addressed|forwarded|e-?mailed)\s+(?:in\s+)?(?:at|to|into|in)\s+[\w.+-]+@/,
      // "when one lands from the council's planning portal (always from planning@, …)": what comes from a mailbox
      /\b(?:arriv(?:es?|ing)|com(?:es?|ing)(?: in)?|land(?:s|ing)?)\b[^.;]{0,60}?\bfrom\s+[\w.+-]+@/,
      // "homeowners send architectural requests to board@hoa.example": what people send to a mailbox of ours
      /\b(?:send|sends|submit|submits|forward|forwards)\s+(?:[\w'’-]+\s+){0,4}?(?:to|at)\s+[\w.+-]+@/,
    ],
    creation: true,
  },
  'google-calendar.event_starting': {
    // whatever has a time on a calendar: a lesson, a viewing, a shift as much as a meeting
    subjects: [...CALENDAR_ITEMS],
    events: ['start', 'begin', 'approach', 'come up'],
    phrases: [
      new RegExp(String.raw`\b(?:before|ahead of|prior to) ${CALENDAR_ITEM}`),
      new RegExp(String.raw`\bthe (?:morning|day) of ${CALENDAR_ITEM}`),
    ],
    // "the day before the fitting", "the evening before I come": a time ahead of something with a time of its own
    sayings: [
      new RegExp(
        String.raw`\b(?:minutes?|mins?|hours?|hrs?|days?|nights?|evenings?|afternoons?|mornings?|weeks?) (?:before|ahead of|prior to) ${DATED_ITEM}`,
      ),
      // "an hour before each one (Birthday parties … are in the "Groups" Google calendar)": the items just said to be on it
      // (or someone's own one: "an hour before theirs (Conferences are booked on the … calendar)")
      /\b(?:before|ahead of|prior to) (?:(?:each|every|any) (?:one|of them)|theirs|yours|hers|his)\b[^()]*\([^()]*\bcalendars?\b[^()]*\)/,
      // "an event on the "Bookings" calendar is 48 hours away", "a lesson starts in 30 minutes": how near it is
      new RegExp(
        String.raw`\b${CALENDAR_ITEM}\b[^.;:!?]{0,60}?\b(?:is|are)\s+(?:\d+|an?|one|two|three|half an)\s+(?:minutes?|mins?|hours?|hrs?|days?|weeks?)\s+away\b`,
      ),
    ],
  },
  'slack.new_message': {
    subjects: ['message', 'question', 'request', 'slack message', 'post', 'dm', 'direct message', 'thread'],
    events: ['post', 'ask', 'send', 'arrive', 'come in', 'request', 'share', 'drop', 'report', 'raise', 'message', 'write'],
    phrases: [/\b(in|on|from|to) #[\w-]+/, /\b(from|in|on|via|through|over|as) (a |an )?slack\b/],
    creation: true,
  },
  'twilio.sms_received': {
    subjects: ['sms', 'text', 'text message', 'sms message'],
    events: ['text', 'receive', 'arrive', 'come in', 'reply', 'answer', 'respond'],
    phrases: [
      // someone writing in by text: "a crew member texts it that …", "if the parent answers with ABSAGE (by SMS)"
      new RegExp(
        String.raw`\b(?:${ONE_WHO_WRITES}) (?:texts?|sms(?:es)?)\b(?! (?:them|him|her|the (?:customer|client|patient|parent|tenant|driver)s?)\b)`,
      ),
      /\b(?:texts? (?:us|in|back)|(?:repl(?:y|ies)|answers?|responds?|writes? back|confirms?|cancels?|says? yes|says? no) by (?:sms|text)|by text message)\b/,
      // "when we get a text from a patient", "tenants message us on our text line": a text reaching us
      /\b(?:we|i|you|the (?:office|shop|team|desk|clinic|practice)|our (?:number|line|office|team))\s+(?:get|gets|receive|receives|got)\s+(?:a|an|any)\s+(?:new\s+)?(?:text|sms|text message)s?\b/,
      /\b(?:on|to|via|through|at) (?:our|the|their) (?:text|sms|texting)(?: message)? (?:line|number)\b/,
      /\b(?:sms(?:es)?|texts?|text messages?)\b(?: (?:that|which))? (?:comes?|came|arrives?|lands?) (?:in|into|to|at|on)\b/,
      // an answer to a text we sent: "when I reply "yes" to one of your texts", "replies to the reminder text"
      /\b(?:repl(?:y|ies)|answers?|responds?)\b[^,;.]{0,30}?\bto (?:one of )?(?:your|our|the|my|that|this|those|these|a) (?:[\w-]+ )?(?:texts?|sms(?:es)?|text messages?)\b/,
    ],
    creation: true,
  },
  'greenhouse.candidate_applied': {
    subjects: ['candidate', 'applicant', 'application', 'cv', 'resume'],
    events: ['apply', 'submit', 'come in', 'arrive'],
    // applying for work is a recruiting event whoever applies: "when someone applies to one of our openings"
    phrases: [
      /\b(?:appl(?:y|ies|ied)|submits? an application) (?:to|for) (?:\w+ ){0,6}?(?:jobs?|roles?|positions?|openings?|vacanc(?:y|ies)|postings?|reqs?|requisitions?|internships?)\b/,
    ],
    creation: true,
  },
  'slack.mention': {
    subjects: ['mention'],
    events: ['mention', 'tag', 'at-mention', '@-mention', 'ping'],
    // (not what a thing says: "a ticket that mentions a refund")
    phrases: [
      // (nor what a thing said before does too: "if a new ticket is urgent, or mentions a water leak")
      /(?<!\b(?:that|which|who|it|they|tickets?|e-?mails?|messages?|texts?|forms?|requests?|notes?|replies|reply|if (?:it|the [\w-]+)) )(?:(?<!\b(?:a|an|the|any|each|every)\s+(?:new\s+)?(?:[\w-]+\s+)?(?:tickets?|e-?mails?|messages?|texts?|forms?|requests?|notes?|issues?|replies|reply|reviews?|comments?)\b[^.;]{0,60}\b(?:or|and) )\bmentions?\b|\bmentions?\b(?=\s+(?:me|us|you|@|the (?:bot|assistant)|our (?:bot|assistant))))|@[a-z][\w-]*/,
    ],
    // someone @-ing a handle, the handle said as the verb: "people will @labbot in #lab-general", "if someone @labbot's";
    // or people tagging, mentioning or pinging a handle: "bands and artists tag @studiobot in #bookings"
    sayings: [
      /\b(?:someone|somebody|anyone|anybody|people|users|folks|they|(?:a|an|the|any) [\w-]+) (?:will |can |may |just )?@[a-z][\w-]*(?:['’]?s)?(?= |$|[,.:;])/,
      /\b(?:someone|somebody|anyone|anybody|everyone|people|folks|they|[a-z]+s(?: and [a-z]+s)?|(?:a|an|the|any) [\w-]+) (?:will |can |may |just |often |usually )?(?:tags?|mentions?|pings?|@-?mentions?)(?: the bot)? @[a-z][\w-]*/,
      // "when someone @'s the bot in #new-jobs", "people @ the assistant": the at sign said as the verb, of the bot
      /\b(?:someone|somebody|anyone|anybody|everyone|people|folks|they|(?:a|an|the|any) [\w-]+) (?:will |can |may |just )?@(?:['’]?s)? (?:the )?(?:bot|assistant|helper|agent)\b/,
    ],
  },
  // a deposit, a balance or a bill that gets paid is an invoice paid, however it is named
  'stripe.invoice_paid': {
    subjects: ['invoice', 'deposit', 'balance', 'fee', 'payment', 'instalment', 'installment'],
    events: ['pay', 'settle', 'clear', 'receive', 'come through', 'go through', 'arrive', 'land'],
    phrases: [
      // "successful payments", "once the charge goes through", "after checkout is completed", "an order is paid for"
      /\bsuccessful (?:payments?|charges?|checkouts?)\b|\b(?:payments?|charges?)\s+(?:is |are |was )?(?:successful|succeeds?|succeeded|goes through|go through|went through)\b/,
      /\bcheckouts?\b[^.;,]{0,20}?\b(?:is |are |gets? )?(?:completed?|done|finished|succeeds?)\b|\bcompletes? (?:the |a |their )?checkout\b/,
      /\b(?:orders?|bookings?|purchases?|subscriptions?|memberships?)\s+(?:is |are |has been |have been |gets? |got )?paid(?: for)?\b(?!(?:\s+for)?\s+(?:by|through|via|with|in|on|using) (?!stripe\b)[a-z])/,
      // "when a deposit comes in", "once the payment comes in"
      /\b(?:deposits?|payments?|instalments?|installments?)\s+(?:comes?|came)\s+in\b/,
      /\b(?:deposit|balance|invoice|fees?|instalment|installment)s? (?:is |are |has been |have been |gets? )?(?:paid|settled|cleared)\b/,
      // "when someone buys a class pack through Stripe": a purchase paid through Stripe
      /\b(?:buys?|bought|purchases?|purchased)\b[^.;,]{0,40}?\b(?:through|on|via|with|in|using) stripe\b/,
      // "a big order comes in (anything over $2k paid through stripe)": something paid by way of Stripe
      /(?<!\b(?:who|that|which)\b[^.;,]{0,40})\bpaid\s+(?:for\s+)?(?:through|via|with|using|by|on|in)\s+stripe\b/,
      // "a hirer pays their deposit", "once the client has paid the balance", "when a customer pays"
      /(?<!\b(?:must|should|to|will|would|can|could|may|not|never|n't|doesn't|don't|didn't|hasn't|haven't|won't)\s)\b(?:pays?|paid|settles?|settled) (?:one of\s+)?(?:(?:the|their|his|her|its|an?|full|in full|those|these|our)\s+)*(?:[\w-]+\s+)?(?:deposit|balance|invoice|fee|instalment|installment)s?\b/,
      /\b(?:someone|somebody|they|he|she|(?:a|an|the|each|every|any) (?!office\b|company\b|team\b|business\b)[\w-]+) (?:(?:actually|finally|eventually|then|just|already|really) )?(?:pays|has paid|have paid)\b(?!\s+(?:for|attention|out|back|the (?:[\w-]+ )?bill)\b)/,
    ],
  },
  // someone signing what was sent them: "once the client has signed the appointment letter", "once they've signed
  // everything", "when the tenant signs the lease" — the catalog's one e-signature event
  'docusign.envelope_completed': {
    subjects: [...(triggerVocabulary['docusign.envelope_completed']?.objects ?? [])],
    events: [...(triggerVocabulary['docusign.envelope_completed']?.verbs ?? [])],
    sayings: [
      /\b(?:they|he|she|both|both (?:of them|parties|partners|sides)|all parties|everyone|(?:the|a|an|each|every|our|their) (?!bot\b|assistant\b|agent\b|employee\b|manager\b)[\w-]+)(?:(?:'ve| have| has| had)(?: (?:all|both|finally|fully))?)? (?:signs?|signed|countersigns?|countersigned|e-?signs?|e-?signed)(?=\s*(?:$|[,.;:!]|(?:and|then)\b|(?:everything|it|them|(?:the|their|our|his|her|its|an?) (?:[\w-]+ ){0,3}?(?:contract|agreement|letter|lease|nda|form|document|paperwork|offer|quote|proposal|waiver|consent|envelope|terms|copy|application|mandate|authori[sz]ation|estimate|declaration)s?)\b))/,
      // ("Order form fully signed → mark the opp Closed Won", "contract comes back signed": the paper signed, said of it)
      /\b(?:contract|agreement|order form|form|document|paperwork|offer letter|offer|nda|lease|envelope|proposal|quote|waiver|engagement letter|letter)s?\s+(?:is\s+|are\s+|gets?\s+|comes?\s+back\s+|has\s+been\s+|have\s+been\s+)?(?:fully\s+|all\s+)?(?:signed|countersigned|e-?signed)\b/,
    ],
  },
  // a customer's invoice that passes its due date unpaid, however it is said: "is overdue", "goes unpaid past its due
  // date", "is not paid after the due date", "is still outstanding 10 days after it was due", "hasn't been paid on time"
  'quickbooks.invoice_overdue': {
    subjects: [...(triggerVocabulary['quickbooks.invoice_overdue']?.objects ?? [])],
    events: [...(triggerVocabulary['quickbooks.invoice_overdue']?.verbs ?? [])],
    sayings: [
      new RegExp(String.raw`${CUSTOMER_INVOICE}[^.;,:]{0,40}?\b(?:overdue|past due|past (?:its|their|the) due date)\b`),
      new RegExp(
        String.raw`${CUSTOMER_INVOICE}[^.;,:]{0,40}?\b(?:unpaid|outstanding|not (?:been )?paid|isn'?t paid|hasn'?t been paid|still open)\b[^.;,:]{0,30}?\b(?:(?:after|past|by|beyond|on|at) (?:the |its |their )?(?:due date|deadline)|(?:after|past) (?:it was|they were|it's|it is) due|on time|in time|when (?:it'?s |it is )?due|\d+ days? (?:after|past))`,
      ),
    ],
  },
  'stripe.payment_failed': {
    subjects: ['payment', 'charge', 'card', 'card payment', 'subscription payment'],
    events: ['fail', 'decline', 'bounce', 'reject', 'error'],
    phrases: [/\b(failed|declined|bounced) (payment|charge|card)s?\b/, /\bpayments? (fails?|failed|is declined|bounces?)\b/],
  },
  // "someone gets added to our CRM as a customer": a record added to "our CRM" (the connected one scores above the
  // other; "our CRM (Pipedrive)" names another product)
  'hubspot.new_contact': {
    subjects: [...(triggerVocabulary['hubspot.new_contact']?.objects ?? [])],
    events: [...(triggerVocabulary['hubspot.new_contact']?.verbs ?? [])],
    phrases: [ADDED_TO_CRM],
    creation: true,
  },
  'salesforce.new_lead': {
    subjects: [...(triggerVocabulary['salesforce.new_lead']?.objects ?? [])],
    events: [...(triggerVocabulary['salesforce.new_lead']?.verbs ?? [])],
    phrases: [ADDED_TO_CRM],
    creation: true,
  },
  // "everything guests email … ends up as a ticket in Zendesk": what becomes a ticket arrives as one
  'zendesk.new_ticket': {
    subjects: [...(triggerVocabulary['zendesk.new_ticket']?.objects ?? [])],
    events: [...(triggerVocabulary['zendesk.new_ticket']?.verbs ?? [])],
    phrases: [
      /\b(?:ends? up|lands?|arrives?|comes? in|shows? up|turns? up|is logged|gets? logged|is created|gets? created)\s+as\s+(?:an?\s+)?(?:new\s+)?(?:zendesk\s+)?ticket\b/,
      /\b(?:becomes?|turns? into)\s+(?:an?\s+)?(?:new\s+)?(?:zendesk\s+)?ticket\b/,
    ],
    creation: true,
  },
  // "when an agent adds the tag "confirmed-bug" to a ticket", "a ticket is tagged vip": someone changing a ticket
  // "when someone new starts", "a new starter joins": a person joining is a new hire
  'bamboohr.new_hire': {
    subjects: [...(triggerVocabulary['bamboohr.new_hire']?.objects ?? [])],
    events: [...(triggerVocabulary['bamboohr.new_hire']?.verbs ?? [])],
    phrases: [
      /\b(?:someone|somebody|anyone|a new (?:person|employee|hire|starter|colleague|team member|joiner|recruit))\s+(?:new\s+)?(?:starts|joins)(?=\s*(?:[,.;:(]|$)|\s+(?:the (?:company|team|business|firm|practice|school|office)|us|our (?:team|company|business|firm|practice|school|office)|work|as\b|on (?:monday|their first day)))/,
    ],
    creation: true,
  },
  // "when a GitHub issue is labelled 'customer'": an issue as it is labelled is the issue opened with that label
  'github.issue_opened': {
    subjects: [...(triggerVocabulary['github.issue_opened']?.objects ?? [])],
    events: [...(triggerVocabulary['github.issue_opened']?.verbs ?? [])],
    // (said of GitHub's issues: "a Jira issue is labelled urgent" is not one)
    phrases: [
      /\bgithub\s+issues?\s+(?:is|are|gets?|got)\s+(?:labell?ed|tagged)\b|\bissues?\s+(?:on|in)\s+(?:our|the)\s+(?:[\w-]+\s+)?repo(?:sitory)?\s+(?:is|are|gets?|got)\s+(?:labell?ed|tagged)\b/,
    ],
    creation: true,
  },
  // "when a file lands in the Inbox folder": a file in a folder is Drive's, whatever the folder is called
  'google-drive.file_added': {
    subjects: [...(triggerVocabulary['google-drive.file_added']?.objects ?? [])],
    events: [...(triggerVocabulary['google-drive.file_added']?.verbs ?? [])],
    phrases: [
      /\b(?:files?|documents?|pdfs?|docs?|spreadsheets?|csvs?|photos?|scans?)\b[^.;]{0,40}?\b(?:in|into|to)\s+(?:the|our|a|their)\s+(?:["'“‘][^"'”’]{1,40}["'”’]\s+|[\w-]+\s+){0,3}folder\b/,
    ],
    creation: true,
  },
  'zendesk.ticket_updated': {
    subjects: [...(triggerVocabulary['zendesk.ticket_updated']?.objects ?? [])],
    events: [...(triggerVocabulary['zendesk.ticket_updated']?.verbs ?? [])],
    sayings: [
      /\b(?:adds?|added|puts?|applies|applied|sets?)\s+(?:the\s+|a\s+)?(?:tag|label|priority|status)\b[^.;,]{0,40}?\s+(?:to|on)\s+(?:a|an|the|any)\s+(?:zendesk\s+|support\s+)?ticket\b/,
      // (not a new one's: "if a new ticket is tagged "schools"" is the new ticket, as it comes)
      /(?<!\bnew\s+(?:zendesk\s+|support\s+)?)\b(?:zendesk\s+|support\s+)?tickets?\s+(?:is|are|gets?|got)\s+(?:tagged|re-?tagged|labell?ed|escalated|reassigned)\b/,
      // "when the customer adds a new comment on a ticket", "a requester comments on their ticket": a ticket's new comment
      /\b(?:customer|client|requester|user|caller|tenant|guest|member|they|someone|anyone)\s+(?:adds?|leaves?|posts?|writes?|makes?)\s+(?:a\s+)?(?:new\s+|further\s+|follow-up\s+)?(?:comment|reply|update)\b[^.;]{0,20}?\s+(?:on|to|in)\s+(?:a|an|the|their|that|this|any)\s+(?:[\w-]+\s+){0,3}?ticket\b/,
      /\b(?:customer|client|requester|user|tenant|guest|member|they|someone|anyone)\s+(?:comments?|repl(?:y|ies)|responds?|writes? back)\s+(?:on|in|to)\s+(?:a|an|the|their|that|this|any|his|her)\s+(?:[\w-]+\s+){0,3}?ticket\b/,
      // "when a ticket's priority is raised to urgent", "a ticket's status changes to pending"
      /\btickets?['’]s?\s+(?:priority|status|assignee|tags?|group)\s+(?:is\s+|gets\s+|was\s+)?(?:raised|changed|set|bumped|escalated|lowered|moved|switched|updated|changes|goes|moves)\b/,
      // "when one of us sets a refund ticket to solved", "an agent tags a ticket `bug`": someone changing a ticket
      /\b(?:sets?|marks?|moves?|changes?|switch(?:es)?|puts?)\s+(?:a|an|the|any|that|this|their)\s+(?!jira\b)(?:[\w-]+\s+){0,2}?ticket\s+(?:to|as|into)\b/,
      /\b(?:tags?|labels?|re-?tags?)\s+(?:a|an|the|any|that|this|their)\s+(?!jira\b)(?:[\w-]+\s+)?ticket\b/,
    ],
  },
  // "once a job card is moved to Complete in Notion": a board's card or a tracker's item changing is the page updated
  'notion.page_updated': {
    subjects: [...(triggerVocabulary['notion.page_updated']?.objects ?? []), 'card', 'item', 'record', 'board'],
    events: [...(triggerVocabulary['notion.page_updated']?.verbs ?? []), 'move', 'drag', 'mark'],
    // ("is set to Delivered", "marked Published", "sets a film's status to Selected": not "set it up"; an item "moved
    // to" a column is the moving, its subject saying whose: a Jira issue's, a deal's, a Notion card's)
    phrases: [
      /\b(?:is|are|gets?|got|been|being) (?:set|marked|switched|ticked) (?:to|as|off)\b|\bmarked (?:as )?["'‘“]?[A-Z]/,
      /\bsets? (?:(?:a|an|the|its|their|his|her|[\w'-]+'s?) )*(?:status|stage|state) (?:to|as)\b/,
    ],
  },
  // "when the PT task is moved to 'Report Delivered'": a task is an issue too
  'jira.issue_transitioned': {
    subjects: [...(triggerVocabulary['jira.issue_transitioned']?.objects ?? []), 'task', 'epic'],
    events: [...(triggerVocabulary['jira.issue_transitioned']?.verbs ?? [])],
  },
  'webhook.incoming_webhook': {
    subjects: ['webhook', 'form', 'form submission', 'submission', 'callback', 'alert', 'signup', 'sign-up'],
    events: [
      'call',
      'post',
      'submit',
      'send',
      'arrive',
      'come in',
      'fire',
      'hit',
      'fill',
      'fill in',
      'fill out',
      'complete',
      'sign up',
      'register',
    ],
    phrases: [
      /\b(through|via|from|by|to|on) (a |the |our )?(?:(?:contact|booking|enquiry|inquiry|signup|sign-up|registration|order|intake|lead|web|online) )?(web ?hook|form|website|endpoint)\b/,
      // "when someone signs up on our site", "registers on the landing page": people arriving through our site
      /\b(?:signs? up|registers?|enrolls?|enrols?|books?|orders?|applies|subscribes?)\b[^.;,]{0,20}?\b(?:on|through|via|at|from) (?:our|the) (?:site|web ?site|landing page|web page|booking page|online shop|web shop)\b/,
      /\bweb ?hooks?\b/,
      /\b(fills?|filled) (in|out)\b|\b(submits?|completes?)\b[\w\s'-]{0,30}\bform\b/,
      /\bform (on|from|of|in) (our|the) (site|website|web|web ?page|page|landing page)\b/,
    ],
    sayings: [
      // "our website notifies us when someone cancels", "the booking system calls us": a system of ours that tells us
      /\b(?:our|the) (?:[\w-]+ ){0,2}?(?:web ?site|site|booking (?:system|page|site)|portal|web app|system|tool|app|software|platform|shop|store|pos|till)\s+(?:will |can |already |also )?(?:notif(?:y|ies)|tells?|pings?|calls?|alerts?|posts? to|sends? us|sends? you)\s+(?:us|you|the bot|the assistant|a web ?hook|a notification)\b/,
      // "the nurse-call system can now send alerts to a web address": a system of ours that calls an address of ours
      /\b(?:sends?|posts?|pushes|push)\s+(?:[\w-]+\s+){0,3}?(?:to|at)\s+(?:a|an|our|the|your)\s+(?:web address|web link|url|link)\b/,
    ],
    creation: true,
  },
};

/** A trigger whose event is a thing arriving ("gmail.new_email", "jira.issue_created"), by its id. */
export const isArrivalTrigger = (id: string): boolean => /\.(?:new_|.*_(?:created|opened|applied|added|received)$)/.test(id);

/** How every built-in trigger is described: the hand senses above, else the catalog's vocabulary. */
export const ALL_TRIGGER_SENSES: Readonly<Record<string, TriggerSense>> = {
  ...Object.fromEntries(
    Object.entries(triggerVocabulary)
      .filter(([id]) => id !== 'schedule.cron')
      .map(([id, v]) => [id, { subjects: v.objects, events: v.verbs, creation: isArrivalTrigger(id) }]),
  ),
  ...TRIGGER_SENSES,
};

/** Verbs that describe thinking rather than a tool call: a step, but no capability. */
export const COGNITIVE_VERBS = [
  'check',
  'verify',
  'review',
  'decide',
  'determine',
  'assess',
  'evaluate',
  'analyse',
  'analyze',
  'read',
  'look at',
  'understand',
  'consider',
  'identify',
  'classify',
  'figure out',
  'make sure',
  'ensure',
  'validate',
  'compare',
  'calculate',
  'estimate',
  'summarise',
  'summarize',
  'research',
  'investigate',
  'diagnose',
  'match',
  'wait',
  'watch',
  'monitor',
  'look up',
  'find out',
  'work out',
  'confirm that',
  'gather',
  'collect',
  'prepare',
  'compile',
  'draft',
  'translate',
  'walk through',
  'explain',
  'train',
  'learn',
  'study',
  'approve',
  'grant',
  'revoke',
  'remove',
  'deactivate',
  'provision',
] as const;

/** Verbs that say a job exists but not what to do: an underspecified task when they stand alone. */
export const VAGUE_VERBS = [
  'handle',
  'manage',
  'deal with',
  'take care of',
  'look after',
  'own',
  'oversee',
  'support',
  'help',
  'help with',
  'coordinate',
  'process',
  'keep',
  'stay on top of',
  'work on',
  'sort out',
  'be responsible for',
  'take charge of',
  'run',
  'assist',
  'maintain',
  'follow up',
  'improve',
  'optimise',
  'optimize',
  'organise',
  'organize',
  'administer',
  'facilitate',
  'drive',
  'champion',
  'liaise',
  'work',
] as const;

/** Nouns and phrases that leave the work itself undefined. */
export const VAGUE_OBJECTS = [
  /\bfollow[- ]ups\b/,
  /\bstuff\b/,
  /\bthings\b/,
  /\betc\.?/,
  /\band so on\b/,
  /\bas (needed|necessary|required|appropriate)\b/,
  /\bwhere (needed|necessary|appropriate)\b/,
  /\bif (needed|necessary)\b/,
  /\bvarious\b/,
  /\bmisc(ellaneous)?\b/,
  /\bany(thing)? (else|other)\b/,
  /\bwhatever\b/,
];

/** Phrases that lean on knowledge only the organisation has. */
/**
 * Titles that name one person of the organisation by role, beyond the managers and leads: who is "the
 * principal", "the CFO", "the class teacher"? (a regular expression's alternatives)
 */
export const PERSON_TITLES = [
  'principal',
  'teacher',
  'tutor',
  'supervisor',
  'controller',
  'accountant',
  'bookkeeper',
  'treasurer',
  'auditor',
  'cfo',
  'ceo',
  'coo',
  'cto',
  'ciso',
  'founders?',
  'administrator',
  'registrar',
  'dean',
  'receptionist',
  'dispatcher',
  'foreman',
  'superintendent',
  'concierge',
  'paralegal',
  'attorney',
  'lawyer',
  'counsel',
  'advisor',
  'adviser',
  'mentor',
  'approver',
  'recruiter',
  'nurse',
  'doctor',
  'physician',
  'dentist',
  'therapist',
  'landlord',
  'caretaker',
  'janitor',
  'secretary',
] as const;

export const ORG_CONTEXT = [
  /\bthe (right|appropriate|relevant|responsible|correct|proper|usual|designated|assigned) (team|person|people|owner|channel|group|manager|stakeholders?|department|folks|contact|approver|queue|project|category|account|cost cent(er|re)|code|level|price|template)\b/,
  /\b(our|the company'?s?|internal|company|house|team'?s?) ([\w-]+ ){0,3}(polic(y|ies)|guidelines?|process(es)?|procedures?|playbooks?|sops?|rules|criteria|templates?|slas?|standards?|tone of voice|brand voice|pricing|approval matrix|escalation (path|policy|matrix)|handbook|runbooks?|checklist)\b/,
  /\bpre-?approved\b/,
  /\bapproved (vendors?|suppliers?|list|tools?)\b/,
  /\b(as usual|the usual way|the usual)\b/,
  /\bper (our|the) [\w-]+\b/,
  /\baccording to (our|the) [\w-]+\b/,
  /\bwho(ever)? (is|'s) on[- ]call\b/,
  // whoever holds a rota: "the engineer on call", "the on-call engineer", "the duty nurse"
  /\b(the|our) (on[- ]call|duty) [a-z-]+\b|\b(the|our) [a-z-]+ on[- ]call\b/,
  // a person named by a title only: who is "the principal", "the CFO", "the class teacher"?
  new RegExp(
    String.raw`\b(the|our) ((?!account|deal|ticket|page|project|customer|client)[a-z-]+ )?(${PERSON_TITLES.join('|')})\b(?! (of|for) (each|the|every|their|that|this)\b)(?! (and interest|amount|balance|payments?|sum|due)\b)`,
  ),
  // a size or standing the organisation has not defined: "large refunds", "big orders", "important clients"
  /\b(large|big|huge|high[- ]value|expensive|major|significant|sizable|sizeable|important|key|strategic|vip|top[- ]tier|priority) (refunds?|orders?|deals?|expenses?|payments?|invoices?|purchases?|amounts?|transactions?|claims?|donations?|donors?|discounts?|bills?|accounts?|customers?|clients?|guests?|partners?|vendors?|suppliers?|tenants?|members?)\b/,
  // a person named by role only: who is "the office manager", "our team leader"?
  /\b(the|our) ((?!account|deal|lead|ticket|page|project)[a-z-]+ ){1,2}(manager|leader|lead|head|director|vp|coordinator)\b(?! (of|for) (each|the|every|their|that|this)\b)/,
  /\b(the|our) ([\w-]+ ){0,2}(budgets?|spending limits?|approval limits?|thresholds?|price list|rate card)\b/,
];

/** Leads that say when a workflow starts. */
/** Event leads followed by a thing, not by something happening: "on each submission", "upon a new order". */
export const NOUN_EVENT_LEADS = [
  'upon',
  'on receipt of',
  'on arrival of',
  // "On each submission, …", "On every new order …": each time one comes
  'on each',
  'on every',
  'on any new',
  'on a new',
  'with each new',
  'with every new',
] as const;

export const EVENT_LEADS = [
  'whenever',
  'when',
  'as soon as',
  'each time',
  'every time',
  'any time',
  'anytime',
  'after',
  'once',
  ...NOUN_EVENT_LEADS,
] as const;
export const CONDITION_LEADS = ['if', 'in case', 'unless', 'for each', 'for every', 'for all', 'where', 'should'] as const;
export const WATCH_LEADS = [
  'watch for',
  'watch',
  'monitor',
  'listen for',
  'keep an eye on',
  'look out for',
  'triage incoming',
  'track',
] as const;
export const MANUAL_LEADS = [
  'on request',
  'on demand',
  'when asked',
  'if asked',
  'when requested',
  'if requested',
  'upon request',
  'as needed',
  'ad hoc',
  'when someone asks you to',
  'when told',
] as const;

/** Adverbs and lead-ins to skip before a clause's verb. */
export const LEAD_INS = [
  'you will',
  "you'll",
  'you should',
  'you must',
  'you need to',
  'you can',
  'you may',
  'we need you to',
  'we want you to',
  'i need you to',
  'i want you to',
  'your job is to',
  'your role is to',
  'your task is to',
  'the employee should',
  'the assistant should',
  'it should',
  'also',
  // ("From now on raise an invoice …": when the duty begins, no start of its own)
  'from now on',
  'going forward',
  'moving forward',
  'in future',
  'in the future',
  'from today',
  'starting today',
  // ("Instead create a follow-up task …": the duty in place of the one just stopped)
  'instead',
  // ("Whoever owns it moves the deal to "Engaged". At that point the letter should go out …": the moment just said)
  'at that point',
  'at this point',
  'at that stage',
  'at this stage',
  'at which point',
  'from there',
  'then',
  'and then',
  'and',
  'first',
  'next',
  'finally',
  'immediately',
  'automatically',
  'directly',
  'promptly',
  'politely',
  'quickly',
  'always',
  'just',
  'simply',
  'please',
  'otherwise',
  'additionally',
  'in addition',
  'afterwards',
  'afterward',
  'later',
  'make sure to',
  'make sure you',
  'be sure to',
  'remember to',
  'try to',
  'help',
  'will',
  'should',
  'must',
  'to',
] as const;

/** Words that end a direct object: what follows is where, how, when or why. */
export const PREPOSITIONS = new Set([
  'to',
  'of',
  'as',
  'in',
  'on',
  'for',
  'with',
  'from',
  'into',
  'onto',
  'through',
  'via',
  'by',
  'at',
  'about',
  'using',
  'within',
  'under',
  'over',
  'after',
  'before',
  'when',
  'if',
  'once',
  'unless',
  'because',
  'that',
  'which',
  'who',
  'whose',
  'where',
  'until',
  'across',
  'against',
  'per',
  'between',
  'during',
  'including',
  'such',
  'like',
  'whether',
  'while',
  'asking',
  'telling',
  'saying',
  'listing',
  'showing',
]);

export const DETERMINERS = new Set([
  'a',
  'an',
  'the',
  'this',
  'that',
  'these',
  'those',
  'each',
  'every',
  'all',
  'any',
  'some',
  'its',
  'their',
  'his',
  'her',
  'our',
  'my',
  'your',
  'them',
  'it',
  'him',
  'they',
  'us',
  'me',
  'one',
  'new',
  'short',
  'quick',
  'brief',
  'polite',
  'friendly',
  'personalised',
  'personalized',
  'main',
  'same',
  'other',
  'relevant',
]);

export const PRONOUNS = new Set([
  'it',
  'them',
  'they',
  'him',
  'her',
  'he',
  'she',
  'this',
  'that',
  'these',
  'those',
  'one',
  'each one',
  'us',
  'me',
  'you',
]);

/** People on the other side of the company: a message to them goes by email unless a cue says otherwise. */
export const EXTERNAL_PEOPLE = [
  'customer',
  'client',
  'candidate',
  'applicant',
  'lead',
  'prospect',
  'vendor',
  'supplier',
  'patient',
  'requester',
  'partner',
  'buyer',
  'guest',
  'attendee',
  'contact',
  'user',
  'subscriber',
  'member',
  'tenant',
  'student',
  'parent',
  'donor',
  'new hire',
  'hire',
  'joiner',
  'starter',
] as const;

/** People inside the company: a message to them goes to chat unless a cue says otherwise. */
export const INTERNAL_PEOPLE = [
  'team',
  'manager',
  'engineer',
  'on-call',
  'oncall',
  'colleague',
  'owner',
  'account owner',
  'lead owner',
  'rep',
  'ae',
  'sdr',
  'cfo',
  'ceo',
  'cto',
  'coo',
  'vp',
  'head',
  'director',
  'approver',
  'staff',
  'department',
  'everyone',
  'stakeholder',
  'finance',
  'sales',
  'support',
  'hr',
  'it',
  'ops',
  'legal',
  'marketing',
  'engineering',
  'recruiter',
  'hiring manager',
  'interviewer',
  'panel',
  'agent',
  'supervisor',
  'boss',
  'channel',
] as const;

export const NUMBER_WORDS: Readonly<Record<string, number>> = {
  a: 1,
  an: 1,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  fourteen: 14,
  fifteen: 15,
  twenty: 20,
  thirty: 30,
  forty: 40,
  'forty-five': 45,
  fifty: 50,
  sixty: 60,
  ninety: 90,
  half: 0.5,
};

/** Imperative verbs a job description uses that no capability needs to list. */
const OTHER_VERBS = [
  'be',
  'go',
  'do',
  'make',
  'give',
  'get',
  'walk',
  'let',
  'onboard',
  'greet',
  'collect',
  'reject',
  'approve',
  'look',
  'find',
  'keep',
  'attend',
  'join',
  'prepare',
  'use',
  'wait',
  'escalate',
  'route',
  'include',
  'attach',
  'cc',
  'bcc',
  'chase',
  'count',
  'sign',
  'reconcile',
  'pay',
  'charge',
  'cancel',
  'delete',
  'remove',
  'close',
  'fix',
  'test',
  'deploy',
  'release',
  'build',
  'ship',
  'tell',
] as const;

/** Every verb the analyst recognises at the start of a clause (first word of phrasal verbs). */
export const KNOWN_VERBS: ReadonlySet<string> = new Set(
  [
    ...Object.values(CAPABILITY_SENSES).flatMap((s) => [...s.verbs, ...(s.keyVerbs ?? [])]),
    // the catalog's own vocabulary: a capability added with its verbs is recognised at a clause's start
    ...Object.values(capabilityVocabulary).flatMap((v) => v.verbs),
    ...COGNITIVE_VERBS,
    ...VAGUE_VERBS,
    ...MESSAGE_VERBS,
    ...OTHER_VERBS,
  ].map((v) => v.split(' ')[0] ?? v),
);

/** How long, as said: "a day", "24 hours", "two weeks", "those two weeks", "48h". */
const SPAN = String.raw`(?:(?:those|these|the)\s+)?(?:a|an|one|\d+|two|three|four|five|six|seven|ten|fourteen|twenty-four|forty-eight|a few|a couple of)\s*(?:(?:full|whole|working|business)\s+)?(?:h|hrs?|hours?|d|days?|wks?|weeks?)\b`;

/**
 * Time passing with nothing done, said of a thing: "a ticket sits for a day with no agent reply", "still hasn't been
 * collected after those two weeks", "no response in 48 hours", "has been open for 3 days". No product reports an
 * absence as it happens (an overdue invoice aside), so it is found by looking, at a time: a check on a schedule.
 */
const LAPSE_SAID = new RegExp(
  [
    String.raw`\b(?:sits?|sat|stays|stayed|remains?|remained|lingers?|has been (?:open|sitting|waiting|pending|unassigned|unanswered|idle|untouched|in [\w"'“”‘’ -]{1,30}?)|is (?:left )?(?:open|waiting|pending|unassigned|unanswered|idle|untouched))(?:\s+(?:open|idle|untouched|unanswered|unassigned|unread|unpaid|pending|there|in [\w"'“”‘’ -]{1,30}?))?\s+(?:for|over|more than|longer than|past)\s+(${SPAN})`,
    String.raw`\bstill\b[^.;]{0,60}?\b(?:after|for|past|beyond)\s+(${SPAN})`,
    String.raw`\b(?:no|without (?:a|an|any))\s+(?:[\w-]+\s+)?(?:reply|replies|response|answer|update|activity|action)\s+(?:for|in|after|within|over)\s+(${SPAN})`,
    String.raw`\b(?:hasn['’]t|haven['’]t|has not|have not|hadn['’]t|had not)\b[^.;]{0,60}?\b(?:after|for|in|within)\s+(${SPAN})`,
    String.raw`\bno\s+(?:[\w-]+\s+){1,2}?(?:has|have)\s+(?:come in|arrived|been (?:paid|received|made|sent|booked|signed))\s+(?:(?:within|after|in|for|by)\s+)?(${SPAN})`,
    String.raw`\b(?:nobody|no one|noone)\s+(?:has\s+|have\s+)?(?:replied|responded|answered|called|picked (?:it|them) up|looked at (?:it|them))\b[^.;]{0,40}?\b(?:within|after|in|for)\s+(${SPAN})`,
  ].join('|'),
  'i',
);

/**
 * Time passing with nothing done, said of the thing the work starts from — not of someone or something a relative
 * clause describes ("a Jira issue that has been pending for 3 days is moved to Done" is the move), nor a time before
 * a dated thing ("still hasn't come in 2 days before the event"). The span said is in the match.
 */
export function lapseIn(text: string): RegExpExecArray | null {
  if (/\bbefore\s+(?:the|each|every|their|his|her|its|an?|our)\b/i.test(text)) return null;
  return LAPSE_SAID.exec(text.replace(/\b(?:who|that|which)\b[^,;]*/gi, ''));
}
