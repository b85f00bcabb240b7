import { Limits } from '@hireloop/schemas';

/**
 * What a chat line asks of hireloop: create a digital employee from a job description, or a short
 * reply that says what hireloop does and how to ask. Pure: the same text always routes the same way.
 */
export type Route = { action: 'create_graph'; jobDescription: string; name?: string } | { action: 'reply'; text: string };

// ---- vocabulary -------------------------------------------------------------------------------

/** Words that name a worker without saying what kind: "an agent", "someone". Never a name alone. */
const GENERIC_WORKERS = [
  'ai',
  'agent',
  'agents',
  'assistant',
  'assistants',
  'bot',
  'bots',
  'chatbot',
  'employee',
  'employees',
  'helper',
  'person',
  'people',
  'someone',
  'somebody',
  'teammate',
  'worker',
  'workers',
  'role',
  'va',
];

/** Job titles' head nouns: "a recruiting coordinator", "Customer Onboarding Specialist". */
const ROLE_NOUNS = [
  'accountant',
  'administrator',
  'admin',
  'advisor',
  'analyst',
  'associate',
  'bdr',
  'bookkeeper',
  'clerk',
  'concierge',
  'consultant',
  'coordinator',
  'curator',
  'director',
  'dispatcher',
  'executive',
  'expert',
  'liaison',
  'manager',
  'marketer',
  'moderator',
  'officer',
  'operator',
  'planner',
  'receptionist',
  'recruiter',
  'rep',
  'representative',
  'researcher',
  'scheduler',
  'sdr',
  'secretary',
  'specialist',
  'strategist',
  'triager',
  'writer',
];

/** Verbs of the work an employee does; their count tells a job description from a one-off request. */
const ACTION_VERBS = [
  'add',
  'alert',
  'answer',
  'approve',
  'archive',
  'assign',
  'bill',
  'book',
  'categori[sz]e',
  'chase',
  'check',
  'close',
  'collect',
  'comment',
  'compile',
  'coordinate',
  'create',
  'draft',
  'email',
  'enrich',
  'escalate',
  'file',
  'flag',
  'follow up',
  'forward',
  'generate',
  'greet',
  'handle',
  'invite',
  'invoice',
  'label',
  'log',
  'manage',
  'merge',
  'message',
  'monitor',
  'move',
  'notif(?:y|ie)',
  'onboard',
  'open',
  'organi[sz]e',
  'pay',
  'ping',
  'post',
  'prepare',
  'priorit[iy][sz]e',
  'process',
  'publish',
  'qualif(?:y|ie)',
  'reconcile',
  'record',
  'refund',
  'remind',
  'repl(?:y|ie)',
  'report',
  'respond',
  'review',
  'route',
  'schedule',
  'screen',
  'send',
  'share',
  'summari[sz]e',
  'sync',
  'tag',
  'text',
  'track',
  'triage',
  'update',
  'upload',
  'verif(?:y|ie)',
  'welcome',
];

const words = (list: readonly string[]) => list.join('|');
/** A verb in any common form: send, sends, sending, sent is not needed (job descriptions say what to do). */
const ACTION = new RegExp(`\\b(?:${words(ACTION_VERBS)})(?:e?s|ing|ed|d)?\\b`, 'g');
const WORKER = new RegExp(`\\b(?:${words([...GENERIC_WORKERS, ...ROLE_NOUNS])})s?\\b`);
/** What else one asks hireloop to build: "a workflow that …", "an automation for …". */
const BUILDABLE = new RegExp(
  `\\b(?:${words([...GENERIC_WORKERS, ...ROLE_NOUNS, 'workflow', 'automation', 'integration', 'pipeline', 'something', 'anything'])})s?\\b`,
);
/** "automate our invoicing": what hireloop is for, even without naming a worker. */
const AUTOMATE = /\bautomat(?:e|ing)\b(?: (?:our|my|the|all|this|these|away))? \w{3,}/;
const ROLE = new RegExp(`\\b(?:${words(ROLE_NOUNS)})s?\\b`);
/** Only a generic worker and filler: "an agent", "set up an agent". */
const GENERIC_ONLY = new RegExp(
  `^(?:(?:set ?up|get|create|make|add|build|need|want|a|an|the|new|one|some|ai)\\s+)*(?:${words(GENERIC_WORKERS)})s?$`,
);

/** The user asks for something to be made or found: "I need", "can you set up", "hire a". */
const REQUEST = [
  /\b(?:i|we)(?:'d| would)? (?:really |also |just )?(?:need|want|like|would like|require)\b/,
  /\b(?:i|we)(?:'m| am|'re| are) (?:looking|searching|hoping) for\b/,
  // "Our clinic wants an assistant to …", "the team needs someone who …"
  /\b(?:our|my|the) [\w-]+(?: [\w-]+)? (?:needs|wants|would like|requires)\b/,
  /\b(?:i|we) (?:search|seek|am seeking|are seeking) (?:a|an|some|someone|somebody)\b/,
  /\blooking for\b/,
  /\b(?:can|could|would|will) you\b/,
  /^(?:please |pls |ok,? |okay,? |so,? )?(?:need|want|hire|create|build|make|set ?up|spin up|add|get|give|design|draft|generate|find|recruit|onboard)\b/,
  /\b(?:hire|create|build|make|set ?up|spin up|recruit|design|generate)(?: me| us)? (?:a|an|the|some|my|our|another|one)\b/,
  /\b(?:let's|lets|help me|i'd love|we'd love)\b/,
];

/** The shape of a job description: responsibilities, duties, "when X happens, do Y". */
const JOB_DESCRIPTION = [
  /\bresponsib(?:le|ilities)\b/,
  /\bduties\b/,
  /\byou(?:'ll| will) (?:be )?\w+/,
  /\b(?:your|their|its|the) (?:job|role|task|mission) (?:is|will be)\b/,
  /\bjob description\b/,
  /\bin charge of\b/,
  /\btasks? (?:include|are)\b/,
  /\bwill be (?:handling|managing|responsible|in charge|taking care)\b/,
];

/** When the work happens: events and schedules. */
const AUTOMATION =
  /\b(?:when(?:ever)?|every|each|daily|weekly|monthly|hourly|nightly|automatically|as soon as|once (?:a|per)|on (?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b/;

const GREETING =
  /^(?:hi+|hello+|hey+|hiya|howdy|yo|greetings|good (?:morning|afternoon|evening|day)|what'?s up|sup|hola|bonjour|hallo)\b/;
const SMALL_TALK = /\bhow are (?:you|things)\b|\bhow'?s it going\b|\bnice to meet you\b/;
const THANKS = /\b(?:thanks?|thank you|thx|ty|cheers|much appreciated|appreciate it|great,? thanks)\b/;
const CAPABILITIES =
  /\bwhat (?:can|do|else can) you do\b|\bwhat are you\b|\bwho are you\b|\bhow (?:does|do) (?:this|it|you|hireloop) work\b|\bhelp\b|\bwhat is hireloop\b|\bhow do i (?:start|begin|use)\b|\bwhat should i (?:say|do|ask)\b|\bget(?:ting)? started\b|\bhow (?:do|can|would|should) (?:i|we) (?:automate|create|build|hire|make|set ?up|get)\b/;
/** Asking about something rather than asking for it: "what is an employee?", "tell me about agents". */
const ASKING_ABOUT = [
  /^(?:what|what's|whats|who|who's|why|where|which|how|is|are|does|do|did|was|were)\b/,
  // ("tell me what you'd need from me" asks what to give, after a request: not a question about hireloop)
  /\b(?:tell|remind) me (?:about|what|how|more|why)\b(?!\s+(?:you(?:'d| would| will)?|else you(?:'d| would)?) need\b)/,
  /\bexplain\b/,
  /\bdifference between\b/,
  /^(?:(?:hi|hey|hello|ok|so),? )?(?:can|could|would) you (?:tell|explain|describe|show) me\b/,
];
/** Verbs of work a terse request may open with, besides ACTION_VERBS: "Wish people happy birthday in #general". */
const MORE_WORK_VERBS = [
  'answer',
  'celebrate',
  'chase',
  'clean',
  'congratulate',
  'keep',
  'maintain',
  'monitor',
  'nudge',
  'sort',
  'tidy',
  'watch',
  'wish',
  'be',
];
/** "Handle IT requests from Slack.", "Triage Jira bugs.": an order of work in the imperative. */
const IMPERATIVE_WORK = new RegExp(
  `^(?:please |pls |just |also )?(?:${words([...ACTION_VERBS, ...MORE_WORK_VERBS.filter((w) => w !== 'be')])})\\b(?! (?:me|us) (?:a|an|the) (?:joke|story|poem|song)\\b)`,
);
/** "Be our SDR", "act as my scheduler": a role to take on. */
const TAKE_ROLE = new RegExp(
  `^(?:please )?(?:be|act as|work as|become|serve as)\\s+(?:our|my|the|a|an)\\s+(?:[\\w&/-]+\\s+){0,3}(?:${words([...ROLE_NOUNS, ...GENERIC_WORKERS])})s?\\b`,
);
/** Duties named as nouns: "IT helpdesk for the office", "refunds", "our invoicing". */
const DUTY =
  /\b(?:help ?desk|service ?desk|front desk|support|triage|onboarding|offboarding|invoic(?:es|ing)|billing|bookkeeping|payroll|recruiting|hiring|scheduling|reception|collections|refunds|expenses|procurement|requests|tickets|follow[- ]?ups?|reporting|standups?|approvals|renewals|reminders)\b/;
/** Tools a request may name: a duty in a tool is work ("our Jira bugs", "HubSpot hygiene"). */
const TOOLS =
  /\b(?:gmail|e-?mail|calendar|slack|hubspot|salesforce|zendesk|jira|github|notion|stripe|docusign|drive|twilio|sms|quickbooks|greenhouse|bamboohr|crm|inbox)\b/;

/** Work said in words no verb list above holds: "store the signed form", "tell the front desk", "make sure …". */
const MORE_DUTY_VERBS =
  /\b(?:store|save|tell(?! (?:me|us)\b)|nag|nudge|chase|keep track of|keep an eye on|stay on top of|make sure|ensure|look after|take care of|put|set up|let (?:me|us|them|the [\w-]+) know|ask|notify|warn|confirm|cancel|book|remind)\b/;
/** An address work arrives at or goes to: "#support", "orders@shop.example". */
const PLACE = /#[\w-]{2,}|\b[\w.+-]+@[\w-]+\.[\w.]+/;
/** Standing work, said as what should never or always happen: "so we never miss one again". */
const STANDING = /\b(?:never|always|every time|whenever|each time|any time|from now on|going forward|ongoing|keep track)\b/;
/** A worker, or something, and what it is for, as the whole request: "Someone to keep an eye on our customers". */
const WORKER_FOR = new RegExp(
  `^(?:(?:i |we )?(?:need|want) )?(?:a |an |some |one )?(?:[\\w&/-]+ ){0,3}?(?:${words([...GENERIC_WORKERS, ...ROLE_NOUNS, 'something'])})s? (?:who|that|which|to|for)\\b`,
);
/** Someone or something named by the work it does: "tracker", "chaser", "router", "notifier". */
const agentNoun = (verb: string): string =>
  verb.endsWith('(?:y|ie)')
    ? `${verb.slice(0, -'(?:y|ie)'.length)}ier`
    : verb.endsWith('e')
      ? `${verb}r`
      : `${verb}${/[bdgmnpt]$/.test(verb) && !/[aeiou]{2}[a-z]$/.test(verb) ? `${verb.slice(-1)}?` : ''}er`;
const AGENT_NOUNS = [...ACTION_VERBS, ...MORE_WORK_VERBS.filter((w) => w !== 'be')]
  .filter((v) => !v.includes(' '))
  .map(agentNoun);
/** A worker named with what kind it is, alone: "an ops person for a small marketing agency", "Receptionist for our clinic". */
const QUALIFIED_WORKER = new RegExp(
  `^(?:a |an |our |my |one )?(?:[\\w&/-]+ ){0,3}?(?:${words([...GENERIC_WORKERS, ...ROLE_NOUNS, ...AGENT_NOUNS])})s?(?: (?:for|at|in|of|on) (?:[\\w&/'-]+ ?){1,5})?$`,
);
/** A verb of work as a gerund: "route" → routing, "notif(?:y|ie)" → notifying, "tag" → tagging. */
const gerund = (verb: string): string =>
  verb.endsWith('(?:y|ie)')
    ? `${verb.slice(0, -'(?:y|ie)'.length)}ying`
    : verb.endsWith('e')
      ? `${verb.slice(0, -1)}ing`
      : `${verb}${/[bdgmnpt]$/.test(verb) ? `${verb.slice(-1)}?` : ''}ing`;
/** A duty said as what the job is, in the gerund: "Routing inbound leads to the right rep", "Monitoring brand mentions". */
const GERUND_DUTY = new RegExp(
  `^(?:${[...ACTION_VERBS, ...MORE_WORK_VERBS.filter((w) => w !== 'be')].map(gerund).join('|')})\\b`,
);
/** Something to be built for a purpose: "Let's build a lead router for inbound demo requests". */
const BUILD_A_THING =
  /\b(?:build|create|make|set ?up|spin up|design)(?: me| us)? (?:a|an) (?:[\w&/-]+ ){0,3}[\w&/-]+ (?:for|that|which|to|who)\b/;
/** One more like an employee already made: "could you build one that does the same for our Austin office?" */
const ANOTHER_ONE =
  /\b(?:build|create|make|set ?up|spin up|do|need|want)(?: me| us)? (?:another(?: one)?|one more|one (?:that|which|who|for|like))\b/;
/** Work handed over, asked as a question: "Can we hand that off?", "could you take this over?" */
const HAND_OFF =
  /\b(?:can|could|would) (?:we|you|hireloop|it|an? (?:agent|employee|bot)) (?:hand (?:that|this|it|them) off|take (?:that|this|it|them) over|do (?:that|this|it) for (?:us|me)|automate (?:that|this|it|them)|handle (?:that|this|it|them))\b/;
/** One particular thing, not standing work: "order #4821", "Karen's last email", "the Globex deal", "my wife". */
const ONE_THING =
  /#\d+|\b(?!(?:Let|It|That|What|Here|There|He|She|Who|Where|How)'s)[A-Z][a-z]+'s\b|\bthe [\w-]+ (?:bug|deal|invoice|ticket|order|email|file|doc|deck|issue|meeting|report)\b|\bmy (?:wife|husband|partner|mom|mum|dad|boss|friend|son|daughter)\b|\blast (?:email|message|invoice)\b/;
/**
 * One particular thing, said as its amount or by the address of one person as what the work is done to:
 * "refund the $42 charge …", "add maria@acme.com to the #design channel", "invite bob@x.io to …".
 */
const ONE_BY_AMOUNT_OR_ADDRESS =
  /(?<!\b(?:over|above|under|below|than|exceeding)\s+)\bthe [$€£]\d[\d,.]*(?!\s*(?:limit|threshold|mark|cap|line|ceiling|floor)\b)|^(?:please )?(?:add|invite|refund|remove|email|message|call|text|ping|cc|unsubscribe|ban|block) [\w.+-]+@[\w-]+\.[\w.]+/i;
/** One thing made with its own name or its content after a colon: "make a new Google Doc called Q4 planning", "create a Jira ticket: login page …". */
const ONE_MADE =
  /^(?:please )?(?:create|make|open|start|set up|add|file|log|raise|write) (?:a|an) (?:new )?(?:[\w-]+ ){0,3}?(?:[\w-]+ (?:called|named|titled)\b|(?:ticket|issue|bug|task|card|note|doc|page|event|channel|folder|document|spreadsheet|sheet)\s*:)/i;
/** One particular thing, by name ("the Globex deal"), or as ONE_THING says it; a tool's name is no particular thing ("the Zendesk queue"). */
const namesOneThing = (text: string): boolean =>
  ONE_THING.test(text) ||
  ONE_BY_AMOUNT_OR_ADDRESS.test(text) ||
  [...text.matchAll(/\bthe ([A-Z][a-z]+)\b/g)].some((m) => !TOOLS.test((m[1] ?? '').toLowerCase()));
/** What the work recurs over: new or incoming items, every one, all of them. */
const RECURS = /\b(?:new|incoming|every|each|all|any|when|whenever|always|daily|weekly|monthly|recurring)\b/;
/** About an employee hireloop already made: "the invoice chaser you built keeps …", "pause the recruiting coordinator". */
const EXISTING_EMPLOYEE = new RegExp(
  `^(?:(?:please )?(?:show|give|send) me|where (?:are|is|can i see)) (?:the )?(?:logs?|runs?|history|status|results?)\\b|\\b(?:(?:the|that|this|my|our) (?:[\\w&/-]+ ){0,4}you (?:built|made|created|set up)|(?:keeps|kept) (?:sending|posting|failing|doing|emailing))\\b|^(?:please )?(?:pause|resume|stop|disable|enable|turn (?:off|on)|deactivate|activate|delete|remove|rename|restart) (?:the|my|our) (?:[\\w&/-]+ ){0,3}(?:${words([...GENERIC_WORKERS, ...ROLE_NOUNS])})s?\\b`,
);

/** A problem with work in a tool, said as a pain: "we keep missing renewal dates in Salesforce", "bugs sit unassigned". */
const PAIN =
  /\b(?:keep (?:missing|forgetting|losing|dropping)|sits?|sitting|nobody|no one|never gets?|forget|forgets|fall(?:s|ing)? through|slip(?:s|ping)?|piling up|pile up|killing us|drowning|behind on|too slow|takes? (?:us|me) (?:hours|days|forever))\b/;
/** Work on a schedule or for every item, not a question of when: "every Friday at 3", "whenever a form comes in". */
const SCHEDULED = /\b(?:every|each|daily|weekly|monthly|hourly|nightly|whenever)\b/;
/** Not sure yet what to ask for: "not sure what yet. any ideas?" */
const UNDECIDED =
  /\b(?:not sure (?:what|where|how|yet)|any ideas\b|no idea (?:what|where)|don'?t know (?:what|where) (?:to|yet))/;
/** What an employee already made did wrong: "the support bot answered a customer in the wrong language again". */
const EMPLOYEE_DID =
  /\b(?:the|that|my|our) (?:[\w&/-]+ ){0,3}(?:bot|agent|assistant|employee|helper|chatbot) (?:\w+ed|sent|wrote|did|made|went|got|gave|told|forgot|kept|keeps|stopped|didn't|did not|hasn't|has not|is still|was)\b.*\b(?:again|wrong|twice|instead)\b/;
/** What went wrong with hireloop itself: not work to take on. */
const FAULT = /\b(?:broken|won't|doesn't|does not|isn't|is not working|not working|error|crash|bug in|failed|fails)\b/;
/** A wish for work done: "it'd be great if new Zendesk tickets got tagged". */
const WISH = /\b(?:it'd|it would|would) be (?:great|nice|awesome|good|amazing|helpful|cool|ideal) if\b|\bi wish\b/;
/** A request asked as whether it can be done: "is it possible to have new leads added to HubSpot automatically?" */
const POSSIBLE =
  /\b(?:is it possible|would it be possible|could (?:something|someone|you|hireloop)|can (?:something|someone|hireloop)|how (?:would|could|can|do) (?:i|we) get (?:something|someone|an? [\w-]+)|do you think (?:you|we|it|hireloop) (?:could|can|would|might))\b/;
/** Work on a schedule, listed without verbs: "Weekly: churn-risk list. Monthly: board metrics from Stripe." */
const SCHEDULE_LIST = /\b(?:daily|weekly|monthly|quarterly|every (?:day|week|month|morning|monday|friday))\s*:/;
/** A particular text to work on once: "summarise this email for me: …", "Translate 'we are closed' into French". */
const ONE_TEXT =
  /^(?:(?:can|could|would) you (?:please )?)?(?:summari[sz]e|translate|draft|rewrite|proofread|reword|fix|post|send|forward|share) (?:this|that|the following|['"“])|(?<![a-z0-9])['"“][^'"”]{12,}['"”](?![a-z0-9])\s*(?:into|to|for)? ?\w*[.?!]?$/;
/** Someone looking around, not asking: "I'm the Salesforce admin here, just poking around". */
const JUST_LOOKING =
  /\bjust (?:poking around|looking(?: around)?|browsing|testing|checking (?:it|this|things) out|having a look)\b/;
/** Feedback on what hireloop made: "great work on the onboarding bot". */
const PRAISE = /^(?:great|nice|good|awesome|amazing|excellent|brilliant) (?:work|job)\b/;

/** "Help the PTA stay organised": help given to a group, not a question ("help me understand …"). */
const HELP_A_GROUP = /^(?:please )?help (?:the|our|my) [\w-]+/;

/** A one-off errand rather than standing work: "send the invoice to Bob today". */
const ONE_OFF_WORDS =
  /\b(?:today|tonight|tomorrow|right now|asap|yesterday|this (?:morning|afternoon|evening|week))\b|(?<!\bfor )\bnow[.!]*$/;
/** "every night", "each morning", "daily": the work recurs. */
const RECURRING = /\b(?:every|each|daily|nightly|weekly|monthly|weekdays?)\b/;
/**
 * Work for once ("email the rota to the team tomorrow"), not a standing duty. A day said of what a recurring duty
 * reads ("email me tomorrow's jobs every night at 8") is no one-off; said of a duty done once ("email tomorrow's rota
 * to the team") it still is. Pure.
 */
const oneOff = (lower: string): boolean => {
  const said = (RECURRING.test(lower) ? lower.replace(/\b(?:today|tonight|tomorrow|yesterday)['’]s\b/g, 'that day’s') : lower)
    // ("\"Last paid\" = today", "set the date to today": a value written, the day the work runs)
    .replace(/(?:=|\bto|\bas)\s*(?:today|now)\b/g, ' that day');
  // ("new ticket comes in → … ping #cx-returns so Jess sees it asap": how soon, in work that comes round; so are rules
  // written as arrows, one a line)
  const standing = STANDING_EVENT.test(lower) || (lower.match(/(?:→|->)/g)?.length ?? 0) >= 2;
  return ONE_OFF_WORDS.test(standing ? said.replace(/\b(?:asap|right now)\b/g, ' ') : said);
};
/** Work that comes round with what arrives: "new ticket comes in", "if a customer reopens a ticket", "whenever …". */
const STANDING_EVENT =
  /\b(?:new \w+ (?:comes? in|arrives?|lands?|is (?:created|opened|added|submitted))|(?:when(?:ever)?|if|once|as soon as) (?:a|an|any|someone|somebody|anyone|a new) \w+ (?:(?!(?:has|is|was|does)\b)\w+s|comes? in|is \w+ed)\b)/;

const ROLE_KEYS = /^(?:role|title|job title|position|job|employee name|name)\s*[:\-–—]\s*(.+)$/i;
const NOT_TITLES = new Set([
  'note',
  'notes',
  'hi',
  'hello',
  'hey',
  'summary',
  'overview',
  'responsibilities',
  'duties',
  'requirements',
  'context',
  'job description',
  'description',
  'about',
  'ps',
  'example',
  'e.g',
  'update',
  'question',
  'fyi',
  'important',
]);

const SMALL_WORDS = new Set(['of', 'and', 'for', 'the', 'to', 'in', 'on', 'at', 'a', 'an', '&', 'or', 'with']);
const ACRONYMS = new Set([
  'ai',
  'hr',
  'it',
  'sdr',
  'bdr',
  'crm',
  'qa',
  'ops',
  'ar',
  'ap',
  'cs',
  'pr',
  'seo',
  'ceo',
  'cfo',
  'cto',
  'va',
]);
/** Qualifiers that say nothing about the job: "an AI agent", "a new assistant". */
const EMPTY_QUALIFIERS = new Set([
  'ai',
  'digital',
  'virtual',
  'new',
  'good',
  'smart',
  'simple',
  'little',
  'small',
  'automated',
  'quick',
  'helpful',
  'dedicated',
  'full-time',
  'part-time',
  'some',
  'another',
  'great',
  'reliable',
]);

// ---- replies ----------------------------------------------------------------------------------

const EXAMPLE =
  '“Hire a support triage agent: when a Zendesk ticket arrives, tag it by urgency and post urgent ones to #support in Slack.”';

type ReplyKind =
  | 'greeting'
  | 'thanks'
  | 'capabilities'
  | 'definition'
  | 'vague_request'
  | 'one_off_task'
  | 'off_topic'
  | 'existing_employee';

function replyText(kind: ReplyKind): string {
  switch (kind) {
    case 'greeting':
      return `Hi! I'm hireloop: I turn a job description into a digital employee that works in your tools (Gmail, Slack, HubSpot, Zendesk, Jira and more). Describe the job and I'll design it with you — for example: ${EXAMPLE}`;
    case 'thanks':
      return `You're welcome! Whenever you want another digital employee, just describe the job — what starts the work, what it should do, and in which tools.`;
    case 'capabilities':
      return `I create digital employees from a job description. Tell me what the job is — what starts the work (a new email, a ticket, every Monday…), what to do, and in which tools — and I'll break it into workflows, match them to your integrations and ask only what I must. For example: ${EXAMPLE}`;
    case 'definition':
      return `A digital employee is a worker hireloop builds from a job description: it runs workflows across your connected tools when its triggers fire (a new ticket, a closed deal, every Monday…) and asks for approval before risky steps. To create one, describe the job — for example: ${EXAMPLE}`;
    case 'vague_request':
      return `Happy to set that up — what should it do? Describe the job in a sentence or two: what starts the work, what it does, and in which tools. For example: ${EXAMPLE}`;
    case 'one_off_task':
      return `I don't do one-off tasks myself, but I can create a digital employee that does this kind of work every time it comes up. Describe the job — what starts it, what to do, and in which tools — for example: ${EXAMPLE}`;
    case 'existing_employee':
      return `To pause, activate or change an employee you already have, open Employees: each one shows its runs and can be activated or deactivated there. To change what it does, describe the job again and I'll design a new version.`;
    case 'off_topic':
      return `I can't help with that — I build digital employees. Describe a job you'd like done in your tools and I'll design an employee for it, for example: ${EXAMPLE}`;
    default: {
      const unhandled: never = kind;
      throw new Error(`unhandled reply ${String(unhandled)}`);
    }
  }
}

const reply = (kind: ReplyKind): Route => ({ action: 'reply', text: replyText(kind) });

// ---- names ------------------------------------------------------------------------------------

function titleCase(phrase: string): string {
  return phrase
    .split(/\s+/)
    .map((word, i) => {
      const lower = word.toLowerCase();
      if (ACRONYMS.has(lower)) return lower.toUpperCase();
      if (/[A-Z]/.test(word)) return word; // the user's own casing: "HubSpot", "QA"
      if (i > 0 && SMALL_WORDS.has(lower)) return lower;
      return lower.charAt(0).toUpperCase() + lower.slice(1);
    })
    .join(' ');
}

const clean = (phrase: string): string => phrase.replace(/^[\s"'“”‘’*#>•-]+|[\s"'“”‘’*:.,;!?]+$/g, '').replace(/\s+/g, ' ');

/** A phrase that reads as a job title: 1–7 words, ending in a role noun or Title Cased, not a sentence. */
function asTitle(raw: string): string | undefined {
  const phrase = clean(raw);
  const list = phrase.split(' ').filter(Boolean);
  if (list.length === 0 || list.length > 7 || phrase.length > 80) return undefined;
  const lower = phrase.toLowerCase();
  if (NOT_TITLES.has(lower) || /[?!]/.test(phrase) || /\b(?:i|we|you|my|our|please)\b/.test(lower)) return undefined;
  const last = list.at(-1)?.toLowerCase() ?? '';
  if (list.length === 1 && GENERIC_WORKERS.includes(lower)) return undefined;
  if (!ROLE.test(last) && !WORKER.test(last)) {
    // "Support Triage: …" is a title; "Every Monday: …", "Slack: …" and "Send Reports: …" are not.
    const titleCased = list.every((w) => /^[A-Z0-9&]/.test(w) || SMALL_WORDS.has(w.toLowerCase()));
    const first = list[0]?.toLowerCase() ?? '';
    if (!titleCased || list.length < 2 || AUTOMATION.test(lower) || /^(?:if|after|before|on|at|for)$/.test(first))
      return undefined;
    if (new RegExp(`^(?:${words(ACTION_VERBS)})(?:e?s|ing|ed|d)?$`).test(first)) return undefined;
  }
  return titleCase(phrase).slice(0, Limits.name);
}

/** "Role: Customer Success Manager" or "Name: Ada" on any line: the name the user gave. */
function keyedName(text: string): string | undefined {
  for (const line of text.split('\n')) {
    const value = ROLE_KEYS.exec(line.trim())?.[1];
    if (!value) continue;
    const phrase = clean(value.split(/[.;,(]/, 1)[0] ?? '');
    if (phrase.length > 0 && phrase.length <= 80 && phrase.split(' ').length <= 7) return titleCase(phrase).slice(0, Limits.name);
  }
  return undefined;
}

/** "… call it Ada", "hire Zara, a recruiting coordinator …": a name the user gave the employee. */
function givenName(text: string): string | undefined {
  const named =
    /\b(?:named|called|call (?:it|her|him|them)|name (?:it|her|him|them))\s+["“']?([A-Z][\w-]*(?: [A-Z][\w-]*){0,3})/.exec(
      text,
    ) ?? /\b[Hh]ire\s+([A-Z][a-z]+)\s*,\s*(?:a|an|our|the|as)\b/.exec(text);
  return named?.[1]?.slice(0, Limits.name);
}

/** "Customer Onboarding Specialist: when a deal closes…" (or "… Specialist. When …"), or a first line of its own. */
function leadingTitle(text: string): string | undefined {
  const keyed = givenName(text) ?? keyedName(text);
  if (keyed) return keyed;
  const head = /^([^:\n.!?]{2,80}?)\s*(?::|\.\s|\s[-–—]\s|\n)\s*\S/.exec(text);
  return head?.[1] ? asTitle(head[1]) : undefined;
}

const REQUEST_OBJECT =
  /\b(?:hire|need|want|like|create|build|make|set ?up|spin up|get|find|recruit|design|add|looking for|searching for)(?: me| us| for me| for us)? (?:a|an|one|another|some|our|my)\s+((?:[\w&/-]+\s+){0,4}?[\w&/-]+?)(?=\s+(?:who|that|which|to|for|with|in|at|on|so|and|able|responsible|whose)\b|\s*[,.;:!?(]|\s*$)/i;

/** "hire a recruiting coordinator who …" → "Recruiting Coordinator"; "a bot that …" has no name. */
function requestedTitle(text: string): string | undefined {
  const match = REQUEST_OBJECT.exec(text);
  const phrase = match?.[1];
  if (!phrase) return undefined;
  const list = phrase.split(/\s+/);
  const last = list.at(-1)?.toLowerCase() ?? '';
  if (!ROLE.test(last) && !WORKER.test(last)) return undefined;
  const qualifiers = list.slice(0, -1).filter((w) => !EMPTY_QUALIFIERS.has(w.toLowerCase()));
  const generic = GENERIC_WORKERS.includes(last.replace(/s$/, '')) || GENERIC_WORKERS.includes(last);
  if (generic && qualifiers.length === 0) return undefined;
  const kept = list.filter(
    (w, i) => i === list.length - 1 || !EMPTY_QUALIFIERS.has(w.toLowerCase()) || ACRONYMS.has(w.toLowerCase()),
  );
  return titleCase(kept.join(' ')).slice(0, Limits.name);
}

// ---- routing ----------------------------------------------------------------------------------

/**
 * The text without the markup a pasted description starts its lines with: headings, list markers,
 * quotes, numbering and emphasis ("**Role:** …", "- answer tickets", "# Support bot", "1. Reply …").
 * Pure; only the routing decision reads it (the analyst reads headings and lists itself).
 */
export function withoutMarkup(text: string): string {
  return text
    .split('\n')
    .map((line) =>
      line
        .replace(/(\*\*|__)(.+?)\1/g, '$2')
        .replace(/^\s*(?:#{1,6}\s+|>\s*|[-*+•]\s+|\d{1,2}[.)]\s+)+/, '')
        .trimEnd(),
    )
    .join('\n')
    .trim();
}

/** How often a duty is done, at the start of a line: "Regularly check …", "Always reply …". */
const FREQUENCY =
  /^(?:regularly|periodically|routinely|always|usually|continuously|constantly|frequently|daily|weekly|monthly|often)\s*,?\s+/;

/** Chat shorthand, spelled out: "can u", "ur", "pls", "ppl", "txt the customer", "msg me on slack". */
const SHORTHAND: Readonly<Record<string, string>> = {
  u: 'you',
  ur: 'your',
  pls: 'please',
  plz: 'please',
  ppl: 'people',
  thx: 'thanks',
  smth: 'something',
  sth: 'something',
  txt: 'text',
  txts: 'texts',
  msg: 'message',
  msgs: 'messages',
  b4: 'before',
};

function normalise(text: string): string {
  return (
    text
      .toLowerCase()
      .replace(/[’‘]/g, "'")
      .replace(/[“”]/g, '"')
      .replace(/\s+/g, ' ')
      .replace(/\b(?:u|ur|pls|plz|ppl|thx|smth|sth|txts?|msgs?|b4)\b/g, (w) => SHORTHAND[w] ?? w)
      // emoji and symbols say nothing about the request: "🚀 need an SDR …"
      .replace(/\p{Extended_Pictographic}|\u{FE0F}|\u{200D}/gu, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

function distinctActions(lower: string): number {
  return new Set([...lower.matchAll(ACTION)].map((m) => m[0].replace(/(?:e?s|ing|ed|d)$/, ''))).size;
}

/** Content after the worker noun: "someone to handle refunds", "an agent that triages tickets". */
function hasTask(lower: string): boolean {
  const worker = BUILDABLE.exec(lower);
  if (!worker) return false;
  const after = lower.slice(worker.index + worker[0].length);
  return /^\s*(?:who|that|which|to|for|with|responsible|in charge|able|whose|handling|managing|doing|taking care)\b\s*\S+/.test(
    after,
  );
}

/**
 * Routes one chat line. create_graph when it asks for an employee (agent, assistant, bot, someone,
 * a role) with something for it to do, or reads as a job description (a title followed by
 * responsibilities, "responsible for…", "when X happens, do Y; every Monday…", several duties);
 * otherwise a reply that fits what was said and shows how to ask — never silence.
 */
/**
 * A terse request for a duty in a sentence of its own, after who is asking: "We're a four-person bookkeeping
 * practice. Tax season is coming up and we'd love a hand with client follow-ups." Pure.
 */
const dutyAskedFor = (lower: string): boolean =>
  lower
    .split(/(?<=[.!?])\s+/)
    .some((sentence) => sentence.split(' ').length <= 14 && REQUEST.some((r) => r.test(sentence)) && DUTY.test(sentence));

export function routeMessage(text: string): Route {
  // decided on the text without its markup; the job description handed on is the text as written
  const written = text.trim();
  const original = withoutMarkup(text);
  const lower = normalise(original);
  if (lower.replace(/[^\p{L}\p{N}]/gu, '').length === 0) return reply('capabilities');

  const count = lower.split(' ').length;
  const actions = distinctActions(lower);
  const title = leadingTitle(original);
  const requested = REQUEST.some((r) => r.test(lower));
  const worker = WORKER.test(lower);
  const buildable = BUILDABLE.test(lower);
  const asking = ASKING_ABOUT.some((r) => r.test(lower));
  const question = lower.endsWith('?');
  const automation = AUTOMATION.test(lower);

  const create = (): Route => {
    const name = title ?? requestedTitle(original);
    return { action: 'create_graph', jobDescription: written.slice(0, Limits.text), ...(name ? { name } : {}) };
  };

  // A job description: a title with work under it, responsibilities, automated actions, or duties.
  const describesJob =
    (title !== undefined && actions >= 1 && count >= 5) ||
    (JOB_DESCRIPTION.some((r) => r.test(lower)) && (actions >= 1 || worker) && count >= 5) ||
    (automation && actions >= 2 && count >= 6 && (!question || actions >= 3)) ||
    // "Every Monday at 9, email the sales team a summary of new HubSpot deals": when, one duty, and where
    (automation &&
      actions >= 1 &&
      count >= 6 &&
      !question &&
      !asking &&
      !oneOff(lower) &&
      (TOOLS.test(lower) || /#[\w-]/.test(lower))) ||
    (actions >= 3 && count >= 8 && !question && !oneOff(lower));
  // about an employee already made, or one particular thing to do once: not a new job
  if (count <= 30 && (EXISTING_EMPLOYEE.test(lower) || (EMPLOYEE_DID.test(lower) && !requested && !describesJob)))
    return reply('existing_employee');
  if (UNDECIDED.test(lower) && actions === 0 && count <= 30) return reply('capabilities');
  if (count <= 20 && ONE_MADE.test(lower) && !BUILDABLE.test(lower) && !AUTOMATION.test(lower) && !STANDING.test(lower))
    return reply('one_off_task');
  if (PRAISE.test(lower) && count <= 12) return reply('thanks');
  if (JUST_LOOKING.test(lower) && count <= 20) return reply('greeting');
  // the text to work on may itself say "on Monday": only the words around it say whether the work recurs
  // a quote opens and closes outside a word: "that's the engineers' job" quotes nothing
  const unquoted = lower.replace(/(?<![a-z0-9])['"“][^'"”]*['"”](?![a-z0-9])/g, ' ');
  if (ONE_TEXT.test(lower) && !AUTOMATION.test(unquoted) && !RECURS.test(unquoted)) return reply('one_off_task');
  if (describesJob && !(asking && actions < 3)) return create();
  if (count <= 15 && !automation && !RECURS.test(lower) && namesOneThing(original)) return reply('one_off_task');

  // A request for a worker: with something to do, or a role that says what it is.
  if (!asking && AUTOMATE.test(lower)) return create();
  // "could you build one that does the same thing for our Austin office too?"
  if (requested && ANOTHER_ONE.test(lower) && !asking) return create();
  if (requested && buildable && !asking) {
    if (hasTask(lower) || actions >= 1 || requestedTitle(original) || ROLE.test(lower) || dutyAskedFor(lower)) return create();
    return reply('vague_request');
  }

  // A role the user keyed ("Role: Office assistant") is a request for that worker.
  if (!asking && !question && ROLE_KEYS.test(original.split('\n')[0] ?? '') && title) return create();

  // Terse and vague requests for work start a creation that asks what is meant (a role, a duty, a tool, a verb of work);
  // how often it is done ("regularly", "always") does not change what it is
  const bare = lower
    .replace(/[^\p{L}\p{N}\s&/-]+/gu, '')
    .replace(FREQUENCY, '')
    .trim();
  if (!asking && !question && !oneOff(lower) && !GENERIC_ONLY.test(bare)) {
    if (TAKE_ROLE.test(bare) || (IMPERATIVE_WORK.test(bare) && count >= 2)) return create();
    const roleTitle = asTitle(original);
    if (roleTitle && ROLE.test(lower) && count <= 7)
      return { action: 'create_graph', jobDescription: written.slice(0, Limits.text), name: roleTitle };
    if (count <= 12 && !GREETING.test(lower) && !THANKS.test(lower) && (DUTY.test(bare) || (TOOLS.test(bare) && actions >= 1)))
      return create();
  }

  // Work in words the lists above miss, in a tool or at an address, or said as standing work, or under a
  // title: "Once DocuSign reports …, store the form in Drive and tell the front desk on Slack",
  // "can you keep track of our grant deadlines and nag people on slack so we never miss one again",
  // "Office manager. Keep things running smoothly …", "Help the PTA stay organised and keep parents in the loop."
  const work = actions >= 1 || MORE_DUTY_VERBS.test(lower);
  const where = TOOLS.test(lower) || PLACE.test(lower);
  // "… paralegals chase the unsigned ones by hand. Can we hand that off?": work described, then handed over
  if (HAND_OFF.test(lower) && work && count >= 8) return create();
  // wished, asked as whether it can be done, listed by schedule, or told as a pain with the tool it is in
  if (WISH.test(lower) && (work || where || automation) && count >= 6) return create();
  if (
    POSSIBLE.test(lower) &&
    (automation || /\bautomatic(?:ally)?\b/.test(lower) || (RECURS.test(lower) && where && work)) &&
    count >= 8
  )
    return create();
  // asked whether work in a tool can happen on its own, in any language: "… automatisch in Salesforce anlegt?"
  if (question && where && /\bautomati/.test(lower) && count >= 8 && !FAULT.test(lower)) return create();
  // "can you remind our team every Friday at 3 to submit their timesheets in Slack?": a request for standing work
  if (requested && question && !asking && SCHEDULED.test(lower) && work && !oneOff(lower) && count >= 6) return create();
  if (SCHEDULE_LIST.test(lower) && (where || work)) return create();
  if (!asking && !FAULT.test(lower) && PAIN.test(lower) && where && count >= 6) return create();
  const chatter = (GREETING.test(lower) || THANKS.test(lower)) && count < 6;
  if (!asking && !question && !oneOff(lower) && !chatter) {
    const sentences = lower
      .split(/(?<=[.!?;:])\s+|\s+[-–—]\s+/)
      .map((sentence) => sentence.replace(/[^\p{L}\p{N}\s&/-]+/gu, '').trim());
    const firstDuty = sentences.some((sentence) => IMPERATIVE_WORK.test(sentence.replace(FREQUENCY, '')));
    if (work && count >= 6 && (where || STANDING.test(lower) || automation)) return create();
    if (title !== undefined && firstDuty) return create();
    if (HELP_A_GROUP.test(bare) && count >= 5) return create();
    // "Routing inbound leads to the right rep", "Someone to keep an eye on our customers", "an ops person for a marketing agency"
    if (sentences.some((sentence) => GERUND_DUTY.test(sentence))) return create();
    // "no-shows are killing us. text patients 48h before their appointments": a duty in any sentence
    if (count >= 6 && !namesOneThing(original) && sentences.slice(1).some((sentence) => IMPERATIVE_WORK.test(sentence)))
      return create();
    // in any language, work in the tools it names: "Necesito un asistente que responda los tickets de Zendesk …"
    if (count >= 8 && where && !FAULT.test(lower) && !namesOneThing(original)) return create();
    if (
      BUILD_A_THING.test(lower) ||
      WORKER_FOR.test(bare) ||
      (count <= 10 && QUALIFIED_WORKER.test(bare) && !GENERIC_ONLY.test(bare))
    )
      return create();
  }

  if (THANKS.test(lower)) return reply('thanks');
  if (GREETING.test(lower) || SMALL_TALK.test(lower)) return reply('greeting');
  if (CAPABILITIES.test(lower)) return reply('capabilities');
  if (worker && (asking || question)) return reply('definition');
  if (requested && actions >= 1) return reply('one_off_task');
  if (asking || question) return reply('off_topic');
  if (worker) return reply('vague_request');
  return reply('capabilities');
}
