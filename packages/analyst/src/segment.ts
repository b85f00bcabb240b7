import { builtInCatalog, firstUnits } from '@hireloop/schemas';
import {
  ALL_TRIGGER_SENSES,
  COGNITIVE_VERBS,
  CONDITION_LEADS,
  EVENT_LEADS,
  KNOWN_VERBS,
  lapseIn,
  MANUAL_LEADS,
  NOUN_EVENT_LEADS,
  PROVIDER_CUES,
  VAGUE_VERBS,
  WATCH_LEADS,
} from './lexicon';
import { describesEvent } from './match';
import {
  ANY_DAY,
  beforeMeeting,
  CLOCK_FIRST,
  dayName,
  findSchedule,
  HOURS_FIRST,
  isDayOfYear,
  MORE_MONTH_DAYS,
  PART_OF_DAY_RIGHT_AFTER,
  parseSchedule,
  scheduleSaid,
  toNumber,
} from './schedule';
import {
  articleFor,
  baseOfGerund,
  channelsIn,
  contentWords,
  contextOf,
  escapeRegExp,
  hasTerm,
  headingAsEvent,
  IRREGULAR_PARTICIPLES,
  isKnownVerb,
  isPhrasal,
  lemmas,
  NOW_SAID,
  namesAction,
  nounStem,
  parseClause,
  placesNamed,
  providersIn,
  rewriteRouting,
  type Sentence,
  sentences,
  startsWithVerb,
  stripLeadIns,
  THE_ASSISTANT,
  tokenize,
  unknownProductsIn,
  withContext,
  withPlaceKept,
} from './text';
import type { DraftStep, DraftWorkflow, JobAnalysis, TriggerKind } from './types';
import { saidUnconnected, type UnconnectedProduct } from './unconnected';

// Job description → responsibilities → workflows: what starts each one and its ordered steps.

const TAIL_CLOCK = String.raw`\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?`;
/** More times of a list: " and 3pm", ", 12:00 and at 15:00". */
const MORE_CLOCKS = String.raw`(?:\s*(?:,\s*)?(?:and|&)\s+(?:at\s+)?${TAIL_CLOCK}|\s*,\s*(?:at\s+)?\d{1,2}(?::\d\d|\s*[ap]\.?m\.?))*`;
/** What may follow a schedule as part of it: its time of day (or times), its part of the day, days, period. */
const SCHEDULE_TAIL = new RegExp(
  String.raw`^(?:,?\s+(?:at|by|around|from|before|after)\s+(?:${TAIL_CLOCK}${MORE_CLOCKS}|noon|midnight|midday)(?:\s*\(?[A-Z]{2,4}\)?(?![a-z]))?(?:\s*\([^)]{0,80}\))?` +
    String.raw`|\s+(?:in the\s+)?(?:morning|afternoon|evening|night)s?` +
    String.raw`|,?\s+(?:on\s+)?(?:(?:[Mm]on|[Tt]ues|[Ww]ednes|[Tt]hurs|[Ff]ri|[Ss]atur|[Ss]un)days?|[Ww]eekdays|[Ww]eekends)(?![\w'’])` +
    String.raw`|\s+of\s+(?:the|each|every)\s+(?:week|month|quarter|year)` +
    // ("Every Friday, 4 PM, post …": a time of day after a comma, said with am/pm or as hh:mm)
    String.raw`|,\s*\d{1,2}(?::\d\d\s*(?:[apAP]\.?[mM]\.?)?|\s*[apAP]\.?[mM]\.?)(?![\w:])` +
    // the hours it runs between: "every hour from 8 to 4", "hourly 6am–10pm"
    String.raw`|,?\s+(?:(?:from|between)\s+)?\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\.?)?\s*(?:-|–|—|to|till|until|and)\s*\d{1,2}(?::\d\d)?\s*(?:[ap]\.?m\.?)?(?=[\s,;.)]|$)(?<=(?:from|between)\s.*|[ap]\.?m\.?))*`,
);

type LeadKind = 'event' | 'schedule' | 'condition' | 'manual';
type Lead = { kind: LeadKind; text: string; body: string };

type Draft = {
  block: number;
  /** the block it was opened in (`block` follows the paragraphs that carry it on) */
  opened: number;
  kind: TriggerKind;
  hint: string;
  sentences: string[];
  /** where in the description's sentences those it holds are (its `sentences` are their words as rewritten) */
  read: number[];
  clauses: string[];
  constraints: string[];
  /** opened by a "Trigger:" label: the numbered or bulleted steps after it are its own */
  labelled?: boolean;
  /** an arrival said with no duty of its own: the items after it, until one with its own start, are its steps */
  gathers?: boolean;
  /** opened by a start whose only duty is one not to do: no workflow unless a duty follows it */
  ruled?: boolean;
  /** its ways in said as such ("Enquiries come in two ways: …"): "and" between them lists alternatives */
  ways?: boolean;
  /** work the person keeps, said after its duties ("I send the contract through DocuSign myself"): what "it" may be next */
  kept?: string;
  /** work the person keeps, said before this draft and after every other */
  keptBefore?: string;
};

const startsWithPhrase = (lower: string, phrases: readonly string[]): string | undefined =>
  phrases.find((p) => lower === p || lower.startsWith(`${p} `) || lower.startsWith(`${p},`));

/**
 * Verbs and event words the served catalog adds to the built-in lexicon: the first words of its
 * capabilities' and triggers' vocabulary (the Connect Hub serves it, migration 0012), so a capability
 * added with a new verb starts a clause and a trigger with a new event word opens a workflow.
 */
export interface SegmentWords {
  verbs: ReadonlySet<string>;
  events: ReadonlySet<string>;
}
export const NO_SERVED_WORDS: SegmentWords = { verbs: new Set(), events: new Set() };

type Said = { vocabulary?: { verbs: readonly string[] } };
/** The words a served catalog adds (pure): first words of its vocabulary's verbs, lower case. */
export function servedWords(catalog?: { capabilities: readonly Said[]; triggers: readonly Said[] }): SegmentWords {
  if (!catalog) return NO_SERVED_WORDS;
  const first = (items: readonly Said[]) =>
    new Set(
      items
        .flatMap((i) => i.vocabulary?.verbs ?? [])
        .map((v) => v.trim().toLowerCase().split(/\s+/)[0] ?? '')
        .filter((v) => /^[a-z][a-z-]+$/.test(v)),
    );
  return { verbs: first(catalog.capabilities), events: first(catalog.triggers) };
}

const knownVerb = (word: string, w: SegmentWords): boolean => KNOWN_VERBS.has(word) || w.verbs.has(word);
/** Whether a clause starts with a verb: the built-in lexicon and compromise, or a verb the served catalog adds. */
const startsWithVerbIn = (text: string, w: SegmentWords): boolean => {
  if (startsWithVerb(text)) return true;
  if (w.verbs.size === 0) return false;
  const [first, second] = tokenize(stripLeadIns(text));
  // (nor is a plural before what no verb takes: "Requests under the FOI Act are received at foi@…"; "Texts the
  // on-call engineer …", "Posts in #ops …" are duties in the third person)
  const plural =
    !!first &&
    /[^s]s$/.test(first.lower) &&
    !w.verbs.has(first.lower) &&
    !OBJECT_START.test(second?.lower ?? '') &&
    !/^[\w-]+s\s+(?:in|to|on|into)\s+#/i.test(stripLeadIns(text));
  // (a past participle is what the thing is, not a duty: "…, tagged "absence"")
  return (
    !!first &&
    !plural &&
    !(/ed$/.test(first.lower) && !w.verbs.has(first.lower)) &&
    lemmas(first.lower).some((l) => w.verbs.has(l))
  );
};

const isBaseVerb = (word: string, w: SegmentWords = NO_SERVED_WORDS): boolean => knownVerb(word.toLowerCase(), w);
const AUX =
  /^(is|are|was|were|be|been|gets?|got|has|have|had|does|do|did|can|cannot|can't|will|won't|(?:is|are|was|were|does|do|did|has|have|had)n['’]t)$/;
const verbish = (word: string, w: SegmentWords): boolean => AUX.test(word) || /(s|ed)$/.test(word) || isBaseVerb(word, w);

/** Where a lead clause ends and the action begins: at a comma followed by a verb, else at the next verb. */
/**
 * An event said of a place its label names ("Our GitHub repo acme/feedback: when a new issue is opened there, …"):
 * the label goes with it, so that the product the event happens in is known. Only when the event names no product.
 */
const withPlace = (event: string, label: string | undefined): string =>
  label && providersIn(label).length > 0 && providersIn(event).length === 0 ? `${event} (${label})` : event;

/** A word after which a verb-like word is a noun: "a deal", "the lead", "each update". */
const DETERMINER_BEFORE = /^(?:a|an|the|each|every|any|our|their|its|this|that|these|those|new|my|your|his|her)$/;

/** The first word of a verb's object: a determiner or a pronoun. */
const OBJECT_START = /^(?:a|an|the|their|them|him|her|it|its|our|his|this|that|these|those|every|all|us|me)$/;

/** Event leads followed by a thing, not by something happening: "on each submission", "upon a new order". */
const NOUN_LEADS: ReadonlySet<string> = new Set(NOUN_EVENT_LEADS);

/** Whether `index` of `text` is inside brackets or double quotes opened before it. */
function enclosed(text: string, index: number): boolean {
  const before = text.slice(0, index);
  const open = (before.match(/\(/g)?.length ?? 0) - (before.match(/\)/g)?.length ?? 0);
  return open > 0 || (before.match(/"/g)?.length ?? 0) % 2 === 1;
}

function splitLead(
  text: string,
  skipWords: number,
  needOwnVerb: boolean,
  verbRightAfter = false,
  w: SegmentWords = NO_SERVED_WORDS,
): { lead: string; body: string } {
  // "When a booking comes through I want you to put the arrival on …": a wish of the employee starts the duty
  const wish =
    /(?:^|[\s,;:—–-])((?:i|we)(?:['’]d| would)?\s+(?:also\s+)?(?:want|like|need|expect)\s+(?:you|it)\s+to\s+)(?=\S)/i.exec(text);
  if (wish && (tokenize(text)[skipWords]?.start ?? 0) < wish.index) {
    const at = wish.index + wish[0].length - (wish[1]?.length ?? 0);
    const body = text.slice(wish.index + wish[0].length).trim();
    if (startsWithDuty(body.slice(0, 200), w))
      return {
        lead: text
          .slice(0, at)
          .replace(/[\s,;:—–-]+$/, '')
          .trim(),
        body,
      };
  }
  // "On the first day of each quarter at 9 it should email every member …": who does it and its modal start the duty
  const said = tokenize(text);
  for (let i = skipWords; i < said.length - 1; i++) {
    const t = said[i];
    // the employee as the subject, with a modal of duty ("so they can review …" is a purpose, not the duty)
    if (!t || !/^(it|you)$/.test(t.lower) || /^(so|that|if|when|until|because)$/.test(said[i - 1]?.lower ?? '')) continue;
    // ("when a QuickBooks invoice is 21 days overdue it can email the landlord a reminder": what it can do is asked of it)
    if (!/^(should|must|will|shall|needs|has|need|have|can)$/.test(said[i + 1]?.lower ?? '')) continue;
    const body = text.slice(t.start).trim();
    // the first such subject decides, by its first words (a long text is not read again for each "it will")
    if (startsWithDuty(body.slice(0, 200), w))
      return {
        lead: text
          .slice(0, t.start)
          .replace(/[\s,]+$/, '')
          .trim(),
        body,
      };
    break;
  }
  // "IF a customer texts back STOP THEN never text them again": a rule's "then", before any comma, ends its lead
  // ("If a lead books then cancels, …": a second event, not the duty; "reaches Then Contract stage": a name)
  const then = needOwnVerb ? /(?<!\b(?:and|or|but))\s+(?:then|THEN)\s+(?=\S)/.exec(text) : null;
  const ruled = then && text.slice(then.index + then[0].length).trim();
  if (
    then &&
    ruled &&
    ((startsWithVerbIn(ruled, w) && imperative(ruled, w) === ruled && !/^[a-z]+s\b/i.test(ruled)) || NOT_TO_DO.test(ruled)) &&
    then.index > (said[skipWords]?.start ?? 0) &&
    !text.slice(0, then.index).includes(',') &&
    !enclosed(text, then.index)
  )
    return { lead: text.slice(0, then.index).trim(), body: ruled };
  // the first comma before a duty ends the lead; a later one only when no verb of work comes before it
  // ("Every Monday post the plan to #ops, and email it to Bob": the lead ends before "post")
  let comma: { lead: string; body: string; at: number } | undefined;
  for (const m of text.matchAll(/,\s*/g)) {
    const at = (m.index ?? 0) + m[0].length;
    const rest = text.slice(at);
    // a comma of a list in brackets or quotes ("(child name, class, reason, date)") ends no lead
    if (enclosed(text, m.index ?? 0)) continue;
    // ("When we scan the forms, they land in the Scans folder": what they do, said of them, is no duty)
    // ("…, he'll open it himself": what someone else does themselves ends no lead either)
    // ("just the file name, NOT the donor's name": a contrast of what is said, no rule of its own)
    if (THEY_DO.test(rest) || THEMSELVES.test(rest) || /^not\s+(?:the|a|an|any|their|his|her|its|our|my|your)\b/i.test(rest))
      continue;
    if (startsWithDuty(rest, w)) {
      comma = { lead: text.slice(0, m.index ?? 0).trim(), body: rest.trim(), at: m.index ?? 0 };
      break;
    }
    // ("When the deal is moved to "Quote accepted", the agreement is sent to the customer through DocuSign": the duty
    // said in the passive)
    // (or a routing: "When she moves an artist's deal to Selected, the consignment agreement goes to the artist …")
    const passive = /^(?:the|each|every|their|its|that|this)\s/i.test(rest)
      ? (passiveDuties(rest.trim(), w) ?? rewriteRouting(rest.trim()))
      : null;
    if (passive) {
      comma = { lead: text.slice(0, m.index ?? 0).trim(), body: passive, at: m.index ?? 0 };
      break;
    }
  }
  // a lead with no verb of its own (a schedule, "on each submission") may be followed at once by the duty, before
  // any comma: "Every Monday post the plan to #ops, and email it to Bob" — a verb there, not the comma, ends it
  const near = needOwnVerb ? -1 : skipWords + (verbRightAfter ? 0 : 3);
  const tokens = tokenize(text);
  // a word inside a product's name is no verb ("the folder in Google Drive please share them …")
  const named = providersIn(text).map((m) => [m.index, m.index + m.name.length] as const);
  const inName = (at: number): boolean => named.some(([from, to]) => at > from && at < to);
  let seenVerb = !needOwnVerb;
  let ownVerb = false;
  for (let i = skipWords; i < tokens.length; i++) {
    const t = tokens[i];
    const prev = tokens[i - 1]?.lower ?? '';
    if (!t) continue;
    if (comma && t.start >= comma.at) break;
    // "lands in leave@": a mailbox's name, not a verb
    if (text[t.end] === '@') continue;
    // "when a parent signs the form (we send it out through DocuSign) save …": an aside holds no duty
    if (t.start < 300 && /[)"]/.test(text.slice(t.start, 400)) && enclosed(text, t.start)) continue;
    // before a comma, an event's duty shows by its object, once the event has its own verb: "When a deal closes
    // create an invoice …, and email it" (not "When customers email us or fill in the form, …")
    // (or right after an aside: "each quarter (on the first business day, 9am Central) create a page …")
    const early =
      i <= near || (ownVerb && OBJECT_START.test(tokens[i + 1]?.lower ?? '')) || /\)\s*$/.test(text.slice(0, t.start));
    if (
      (!comma || early) &&
      seenVerb &&
      (i > skipWords || verbRightAfter) &&
      isBaseVerb(t.lower, w) &&
      !inName(t.start) &&
      // "if someone texts back …", "when a patient calls back": the verb's particle, not another verb
      !isPhrasal(prev, t.lower) &&
      // (or after a product's name: "their Stripe invoice", "each Zendesk ticket")
      !(
        providersIn(prev).some((p) => p.name === prev) &&
        /^(?:a|an|the|their|his|her|its|our|your|my|each|every|any|new)$/.test(tokens[i - 2]?.lower ?? '') &&
        /^\s+$/.test(text.slice(tokens[i - 1]?.end ?? 0, t.start))
      ) &&
      // after a determiner or "new" the word is a noun ("as a new contact"), not the action
      !/^(to|a|an|the|will|can|should|must|may|of|for|not|new|each|every|any|our|their|its|this|that|these|those|your|my|on|at|with|from|into|via|through)$/.test(
        prev,
      ) &&
      // (so after someone's: "when a couple's deal moves to 'Booked'")
      !(
        /^[a-z]+['’]s$/.test(prev) &&
        !/^(?:it|that|there|what|he|she|who|here|where|everything|everyone|nobody|somebody|someone|nothing)['’]s$/.test(prev)
      ) &&
      // "… that they can't make it": a verb after a modal of theirs is what they say, not the duty
      !/^(?:can['’]?t|cannot|won['’]?t|don['’]?t|doesn['’]?t|didn['’]?t|couldn['’]?t|wouldn['’]?t|would|could|might)$/.test(
        prev,
      ) &&
      // "… into the "Job Sheets" folder in Drive": a name where something is, not a verb
      !(/^(?:in|on|into|onto)$/.test(prev) && /^[A-Z]/.test(t.text)) &&
      // (nor a capital word after a name or a quoted one: "the "DBS Certificates" Drive folder")
      !(/^[A-Z]/.test(t.text) && (/^[A-Z]/.test(tokens[i - 1]?.text ?? '') || /["”]\s*$/.test(text.slice(0, t.start)))) &&
      // "when we scan the forms they land in …": a verb of theirs, said of them
      // (not a question's: "could they be emailed a thank-you")
      !(
        prev === 'they' &&
        THEY_DO.test(text.slice(tokens[i - 1]?.start ?? 0)) &&
        !/^(?:could|would|can|should|will|shall|may|might|must|do|does|did)$/.test(tokens[i - 2]?.lower ?? '')
      )
    ) {
      return {
        lead: text
          .slice(0, t.start)
          .replace(/[\s,]+(and|then|please|pls|kindly)?\s*$/i, '')
          .trim(),
        body: text.slice(t.start).trim(),
      };
    }
    if (verbish(t.lower, w)) seenVerb = true;
    if (!DETERMINER_BEFORE.test(prev) && lemmas(t.lower).some((l) => knownVerb(l, w) || EVENT_VERBS.has(l) || w.events.has(l)))
      ownVerb = true;
  }
  if (comma) return comma;
  return { lead: text.trim(), body: '' };
}

/** A noun without its plural: "enquiries" → enquiry, "boxes" → box, "invoices" → invoice. */
const GENERIC = new Set(['their', 'them', 'they', 'it', 'its', 'one', 'someone', 'anyone', 'thing', 'something']);

/**
 * The draft of this block a condition speaks of: the current one when its start shares a noun with the
 * condition, else the latest that does ("If their email mentions a recall" → the workflow started by "a
 * customer emails …"), else the current one. Pure.
 */
/** A work item both texts name (an email, an order, a request), not a person both speak of ("the customer"). */
function sharesWorkItem(a: string, b: string): boolean {
  const said = new Set(contentWords(a.replace(/^(if|when|whenever|unless|should|in case)\s+/i, '')).map(nounStem));
  return contentWords(b).some((w) => !GENERIC.has(w) && said.has(nounStem(w)) && WORK_ITEMS.test(w));
}

function speaksOf(drafts: readonly Draft[], current: Draft, condition: string): Draft {
  const shares = (d: Draft) => sharesWorkItem(condition, d.hint);
  if (shares(current)) return current;
  return [...drafts].reverse().find((d) => d.block === current.block && d.kind === 'event' && shares(d)) ?? current;
}

/** Some of the work, told apart by a kind or an amount, and the message it receives. */
const SUBSET_RECEIVES =
  /^((?:ordinary|other|normal|regular|standard|remaining|smaller|larger|all other|the other|the remaining)\b[^,;]{1,60}?|[^,;]{2,60}?\b(?:under|over|above|below|less than|more than|at least|at most|up to)\s+[$€£]?\d[^,;]{0,20}?)\s+(?:just\s+|only\s+|also\s+|then\s+|simply\s+)?(?:get|gets|receive|receives)\s+(?:a|an|the)\s+(?:[\w'-]+\s+){0,3}?(e-?mail|message|text|sms|dm|reply|note|reminder|acknowledge?ment|confirmation|response|answer|notification)(?:\s+(e-?mail|text|sms|message))?\b(.*)$/i;

/**
 * Someone or something told by what they do or are, then what they receive: "Anyone who emails to cancel gets a refund",
 * "Candidates who apply through Greenhouse should get an acknowledgement email".
 */
/** What others send already, or is not wanted: "… automatically from our app, so skip that", "… from Stripe already". */
const SENT_BY_OTHERS =
  /\b(?:automatically|already|so skip|no need)\b|\bfrom (?:our|the|their) (?:app|system|website|site|shop|store|platform|tool)\b/i;
/** New ones, and the message each gets: "New hires should get a welcome email", "new leads get a text from us". */
const NEW_ONES_RECEIVE =
  /^((?:all\s+|any\s+)?new\s+(?:[A-Z][\w-]*\s+)?[\w-]+s)\s+(?:should\s+|must\s+|will\s+|need to\s+|always\s+|also\s+)*(?:get|receive)\s+((?:a|an|one|the|their|our)\s+(?:[\w'-]+\s+){0,3}?(?:e-?mail|message|text|sms|dm|note|reminder|invite|invitation|welcome|confirmation|pack|link|call))\b(.*)$/i;
const WHO_RECEIVES =
  /^((?:anyone|anybody|everyone|everybody|any|every|each|all|(?:new\s+)?[A-Za-z][\w-]*[^s\W]s(?=[^,;]{0,40}?\s(?:who|that|which)\s+(?!(?:don['’]t|do not|didn['’]t|did not|never|already)\b|(?:have|has|had)\s+(?![a-z]+ed\b|(?:paid|signed|sent|made|done|won|lost|left|given|bought|written|taken|applied)\b))))\b[^,;]{0,40}?\s(?:who|that|which)(?:['’]s|['’]re)?\s[^,;]{2,100}?)\s+(?:just\s+|only\s+|also\s+|then\s+|automatically\s+|should\s+|will\s+)?(?:gets?|receives?)\s+(?:a|an|one|the|their)\s+(?:[\w'-]+\s+){0,3}?(e-?mail|message|text|sms|dm|reply|note|reminder|acknowledge?ment|confirmation|response|answer|notification|refund)(?:\s+(e-?mail|text|sms|message))?\b(.*)$/i;
/** "A week after an invoice is due", "10 days past the invoice due date": how late an invoice is. */
/** How many days or weeks late, as the chase says it: "14", "a", "two", "thirty". */
const LATE_BY = String.raw`(\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|fourteen|fifteen|twenty|thirty|sixty|ninety)\s+(days?|weeks?)`;
const INVOICE_LATE = new RegExp(
  String.raw`^${LATE_BY}\s+(?:after|past)\s+(?:an?|the|their|its|each|every|our)\s+(?:(?!supplier|vendor|contractor|utility|bill)[\w-]+\s+)?invoice(?:['’]s)?\s+(?:(?:is\s+|was\s+|falls\s+|becomes\s+|goes\s+)?(?:over)?due(?:\s+date)?|passes\s+its\s+due\s+date|goes\s+past\s+its\s+due\s+date)\b`,
  'i',
);
/** Some of the work by an amount, with no lead word: "anything over £800", "orders under $20", "refunds above 500". */
const AMOUNT_CASE =
  /^((?:anything|everything|any [\w-]+|all [\w-]+|[\w-]+s)\s+(?:over|above|under|below|more than|less than|worth|at least|up to)\s+[$€£]?\d[\d,.]*k?)\s*,?\s+(?=[a-z])/i;
const AMOUNT_STATEMENT =
  /^(?:go|goes|come|comes|need|needs|require|requires|get|gets|are|is|have|has|stay|stays|sit|sits|land|lands|take|takes|must|should|will|can|may|always|never|usually)\b/i;
/** How many days "three days", "a week", "2 weeks" are. */
const daysOf = (count: string, unit: string): number => {
  const n = /^(?:a|an|one)$/i.test(count) ? 1 : toNumber(count);
  return /^w/i.test(unit) ? n * 7 : n;
};
/** "At 14 days overdue, send a firmer email": the next step of a chase, how late said with no noun. */
const AT_DAYS_OVERDUE = new RegExp(String.raw`^(?:at|after|once|when|on)\s+${LATE_BY}\s+(?:overdue|past due)\b,?\s*`, 'i');

const WEEKDAY_AT = new RegExp(
  // ("mon & thurs 7:15am msg the lads": days said together, then the time)
  String.raw`^(?:on )?(${ANY_DAY})s?\.?((?:\s*(?:,|and|&)\s*(?:${ANY_DAY})s?\.?)*),? (?:at |by |around )?(\d{1,2}(?::\d\d)?\s*(?:am|pm)|(?:[01]?\d|2[0-3])[:h][0-5]\d|noon)\b[,:]?\s*`,
  'i',
);

/**
 * "On Monday, send …", "On Friday afternoon, post …", "On the 1st and 15th, email …": one weekday or days of the month
 * said first, then a comma and an order — every such day (a day the sentence only tells of, "On Monday, the new hire
 * meets the team", is none).
 */
const DAY_FIRST = new RegExp(
  String.raw`^on\s+(?:(${ANY_DAY})|(the\s+\d{1,2}(?:st|nd|rd|th)${MORE_MONTH_DAYS}*)(?:\s+of\s+(?:the|each|every)\s+month)?)(\s+(?:morning|afternoon|evening|night))?\s*,\s*`,
  'i',
);

/**
 * The schedule a duty's sentence says: as `findSchedule`, but a day of the year counts only when a duty follows it
 * ("On 14 February, the shop is busiest; every hour that day post …" is run every hour, not each 14 February).
 */
function dutySchedule(text: string, w: SegmentWords): ReturnType<typeof findSchedule> {
  const found = findSchedule(text);
  // ("email them a welcome letter with what to bring on their first day": the day is the letter's, not the email's)
  if (found?.relative && CONTENT_BEFORE.test(text.slice(0, found.index))) return null;
  // ("Book a one-hour welcome lunch at 12:30 on their first day": the day is the entry's, not when the booking is made)
  if (found?.relative && BOOKS_ENTRY.test(text.slice(0, found.index))) return null;
  // ("label the email so we can count them at the end of the month": a time of the purpose, not of the duty)
  if (found && PURPOSE_BEFORE.test(text.slice(0, found.index))) return null;
  // ("reply with the procedure (collect from the pier office, Mon-Sat 8-4)": a time in brackets is what is said)
  if (found && enclosed(text, found.index)) return null;
  // ("Every week the suppliers send me the invoice on email": how often others send us things, no time of ours)
  if (found && OTHERS_SEND_US.test(text.slice(found.index))) return null;
  // ("Send the weekly newsletter every Friday": a thing's kind said by how often it comes, before when it is sent)
  if (found && /^(?:daily|weekly|monthly|nightly|quarterly|yearly|annual|fortnightly)$/i.test(found.text.trim())) {
    const rest = text.slice(found.index + found.text.length);
    const later = /^\s+[a-z][\w-]*/i.test(rest) ? findSchedule(rest) : null;
    if (later) return { ...later, index: later.index + found.index + found.text.length };
  }
  if (!found || !isDayOfYear(found.text)) return found;
  const after = text.slice(found.index + found.text.length);
  const duty = after.replace(/^\s*(?:[,:]|\s(?:each|every)\s+year\b[\s,]*|\s(?:then|THEN)\s)\s*/, '');
  if (startsWithDuty(duty, w)) return found;
  const later = findSchedule(after);
  return later && !isDayOfYear(later.text) ? { ...later, index: later.index + found.index + found.text.length } : null;
}

/** Others who send us things, right after how often: "Every week the suppliers send me …", "Each month our landlord emails us". */
const OTHERS_SEND_US =
  /^(?:\S+\s+){1,4}?,?\s*(?:the|our|my|all|most|some|many|several)\s+(?:[\w'’-]+\s+){0,2}?(?:[\w-]+s\s+(?:usually\s+|always\s+|also\s+|just\s+)?(?:send|e-?mail|text|forward|submit|bring|deliver)|[\w-]+\s+(?:usually\s+|always\s+|also\s+|just\s+)?(?:sends|e-?mails|texts|forwards|submits|brings|delivers))\s+(?:me|us)\b/i;

/** A duty that puts an entry in a calendar, said before its time: "book a welcome lunch at 12:30", "schedule a call". */
const BOOKS_ENTRY =
  /^(?:(?:please|also|then|and)\s+)*(?:book|schedule|arrange|organi[sz]e|set up|put in|pencil in|block(?: out)?)\s+(?:(?:a|an|the|their|his|her|them a|them an)\s+)?(?:[\w-]+\s+){0,3}?(?:lunch|breakfast|dinner|coffee|meeting|call|session|slot|event|induction|intro|introduction|welcome|walkthrough|tour|check-?in|catch-?up|1:1|one-to-one|chat|appointment|visit|training)s?\b/i;

/** Why it is done, said right before a time: "so we can count them", "so that the team knows", "in order to". */
const PURPOSE_BEFORE =
  /(?:\bso (?:that )?(?:we|i|they|you|he|she|it|(?:the|our|their|my|your) [\w-]+|everyone|everybody|nobody)\s+(?:can|could|will|would|may|might|have|has|know|knows|see|sees|get|gets|need|needs|don['’]?t|doesn['’]?t|do not)\b|\bin order to\b)[^.;:]*$/i;
/** What a message tells, right before a date of a record: "what to bring", "where to go", "how to prepare". */
const CONTENT_BEFORE = /\b(?:what|where|when|how|who)\s+to\s+[a-z]+(?:\s+(?:and|or)\s+[a-z]+)?\s*$/i;

/** A time of the org's own, then when it is in brackets: "At the start of each term (first Monday of September, …)". */
const NAMED_TIME_THEN_WHEN =
  /^((?:at|on|by|for)\s+(?:the\s+)?(?:start|end|beginning|close|first day|last day)\s+of\s+(?:each|every|the)\s+[\w-]+(?:\s+[\w-]+)?)\s*\(([^()]{3,120})\)\s*,?\s*/i;

/** An item that arrives, then what it should do: "Any GitHub issue opened with the label "security" should create …". */
const ITEM_SHOULD =
  /^((?:every|each|any|all)\s[^,;:]{3,160}?)\s(?:should|must|shall|will|needs? to|has to|have to)\s+(?:also\s+)?(?=(?:create|open|raise|file|log|post|send|notify|ping|alert|trigger)\b)/i;

/** A clause at the start of a sentence that says when the work happens: "When …,", "Every Monday …", "If …,". */
export function detectLead(sentence: string, w: SegmentWords = NO_SERVED_WORDS): Lead | null {
  // "Also …", "First, when …", "Secondly, every Friday …": a word that orders the duties is no part of the lead
  const text = sentence
    .replace(
      /^(?:(?:first|second|third|fourth|fifth|last|next)(?:ly)?|lastly|besides|plus|on top of that|separately|in addition|apart from that|aside from that|further|furthermore|moreover|what is more|likewise|similarly|equally),\s*/i,
      '',
    )
    .replace(/^(also|then|and|but|additionally|finally|instead)[,\s]+/i, '')
    // "Only when an invoice is more than 45 days overdue, …": the start, said as the only one
    .replace(/^only\s+(?=(?:when|whenever|once|after|every|each)\b)/i, '')
    // "Immediately after a payment fails, …", "Straight after someone books, …": how soon is no part of the start
    .replace(
      /^(?:immediately|straight|right|directly|just|shortly|soon|promptly)\s+(?=(?:after|when|once|as soon as|upon|on)\b)/i,
      '',
    )
    // "First thing every Monday, …": early on the day it names
    .replace(/^first thing\s+(?=(?:every|each|on)\b)/i, '')
    // ("First thing Monday (7am), post …": a routine's day, each week)
    .replace(/^first thing\s+(?:on\s+)?((?:mon|tues|wednes|thurs|fri|satur|sun)day)s?\b/i, 'every $1')
    // "So basically the main thing is when …", "The other thing, when …": how a spoken note introduces a duty
    .replace(
      /^(?:(?:ok|okay|so|basically|right|yeah|anyway|oh)[,\s]+)*(?:and[,\s]+)?(?:the (?:main|other|first|second|next|last) thing(?: is)?[,:\s]+)?/i,
      '',
    )
    // "ok so this is for the hockey club and basically what I need is when someone …": who it is for and what is
    // needed, said before the start
    .replace(
      /^(?:[^.;:]{0,100}?\s)?(?:basically\s+|really\s+|so\s+)?(?:what|all)\s+(?:i|we)\s+(?:really\s+)?(?:need|want|would like|'d like)\s+(?:(?:you|it|the (?:assistant|bot|agent))\s+to\s+do\s+)?is\s+(?:that\s+|for you to\s+)?(?=(?:when|whenever|if|every|each|once|as soon as|any ?time)\b)/i,
      '',
    )
    // "pick up the form when it comes in, add the parent …": taking in what arrives is its arrival, no duty
    .replace(
      /^(?:pick up|grab|catch|take in|receive|watch for|look out for|keep an eye out for)\s+((?:the|each|every|any|a|an|new)\s+[^,;()]{1,40}?)\s+(?:when|whenever|as soon as|as)\s+(?:it|they|one)\s+(?=(?:comes?|arrives?|lands?)\b|(?:gets?|is|are)\s+(?:sent|submitted|received|uploaded|assigned|tagged|created|made|added|filed|signed|booked|placed)\b)/i,
      'When $1 ',
    )
    // "during the season, every hour …": the part of the year it runs in qualifies the start, it is none
    .replace(
      /^(?:during|in|throughout|over)\s+(?:the\s+)?(?:(?:ski|summer|winter|high|low|busy|peak|holiday|school|academic)\s+)?(?:season|summer|winter|term|school year|holidays|months)\s*,\s*/i,
      '',
    )
    .trim();
  const lower = text.toLowerCase();
  const manual = startsWithPhrase(lower, MANUAL_LEADS);
  if (manual) {
    const { lead, body } = splitLead(text, manual.split(' ').length, false, false, w);
    return { kind: 'manual', text: lead, body };
  }
  // "Any GitHub issue opened with the label "security" should create a Jira issue …": what each item that arrives should
  // do is what is done for it (not "… should be tagged", "should go to Sam": said of the item)
  const itemShould = ITEM_SHOULD.exec(text);
  if (itemShould?.[1] && !enclosed(text, itemShould[1].length)) {
    const body = text.slice(itemShould[0].length).trim();
    const item = itemShould[1].trim();
    if (startsWithVerbIn(body, w) && imperative(body, w) === body && (isEventSentence(item, w) || describesEvent(item)))
      return { kind: 'event', text: item, body };
  }
  // "The day before each appointment, text the patient …": a time relative to what is on a calendar
  const meeting = beforeMeeting(text);
  // ("About two hours before each appointment, …", "roughly a day before": how near, said first, belongs to the lead)
  const near = /^(?:about|around|roughly|approximately|approx\.?|some|at least|no (?:less|more) than|ca\.?)\s+/i.exec(text);
  if (meeting && (meeting.index <= 4 || meeting.index === near?.[0].length)) {
    // "15 min before a booking starts, …": the item's own start belongs to the lead
    // ("2 hrs before every performance on the Shows calendar post …": the calendar it is on belongs to the lead too)
    const held =
      /^(?:\s*(?:on|in|from) (?:the|our|my|its|their) (?:[\w'’"‘“”-]+ ){0,3}calendar\b)?(?:\s+(?:starts|begins|is due|kicks off)\b)?/i.exec(
        text.slice(meeting.index + meeting.phrase.length),
      );
    const end = meeting.index + meeting.phrase.length + (held?.[0].length ?? 0);
    const body = text.slice(end).replace(/^\s*,?\s*/, '');
    if (body) return { kind: 'event', text: text.slice(0, end).trim(), body };
  }
  // "A week after an invoice is due, send …": an invoice that many days overdue (a record's date, not a calendar's)
  const late = INVOICE_LATE.exec(text);
  const count = late?.[1];
  const unit = late?.[2];
  if (late && count && unit) {
    const days = daysOf(count, unit);
    const body = text.slice(late[0].length).replace(/^\s*,?\s*/, '');
    if (body) return { kind: 'event', text: `When an invoice is ${days} days overdue`, body };
  }
  // "friday 2pm text our driver the route list": a weekday and a time, then the duty — every such day
  const weekday = WEEKDAY_AT.exec(text);
  if (weekday?.[1] && weekday[3]) {
    const body = text.slice(weekday[0].length).trim();
    const days = [weekday[1], ...(weekday[2] ?? '').split(/\s*(?:,|\band\b|&)\s*/)]
      .map((d) => d.replace(/s?\.?$/, '').trim())
      .filter(Boolean)
      .map(dayName);
    const said = days.length > 1 ? `${days.slice(0, -1).join(', ')} and ${days.at(-1)}` : days[0];
    // an order, as written ("text our driver"), not a statement ("Friday at 2pm works for the call")
    if (body && startsWithVerbIn(body, w) && imperative(body, w) === body)
      return { kind: 'schedule', text: `every ${said} at ${weekday[3]}`, body };
  }
  const dayFirst = DAY_FIRST.exec(text);
  if (dayFirst) {
    const body = text.slice(dayFirst[0].length).trim();
    const part = dayFirst[3] ?? '';
    if (body && startsWithVerbIn(body, w) && imperative(body, w) === body)
      return {
        kind: 'schedule',
        text: dayFirst[1] ? `every ${dayName(dayFirst[1])}${part}` : `on ${dayFirst[2]} of each month${part}`,
        body,
      };
  }
  // "Business hours only (Mon–Fri 8:00–18:00), every 30 min: …": the hours it keeps belong to its lead
  // ("At 7:30 every evening, …", "9am every Monday: …": the time of day said first belongs to it too)
  const keeps = HOURS_FIRST.exec(text)?.[0].length ?? CLOCK_FIRST.exec(text)?.[0].length ?? 0;
  const found = dutySchedule(text.slice(keeps), w);
  const sched = found && { ...found, index: found.index + keeps };
  if (sched && sched.index <= keeps + 3) {
    // "Every weekday at 9:30 CET, DM each engineer …": the lead is the schedule and its time of day
    const after = text.slice(sched.index + sched.text.length);
    const time = after.match(SCHEDULE_TAIL);
    const end = sched.index + sched.text.length + (time?.[0].length ?? 0);
    const rest = text.slice(end).replace(/^\s*,?\s*/, '');
    // "Every evening around 6 our dispatch software can ping a web address with tomorrow's runs": when another system
    // calls in is no schedule of ours; its call is the start (the sentence is read as an arrival)
    // ("every morning we ping the URL …": a call of ours is a duty)
    if (!startsWithVerbIn(rest, w) && othersCallIn(rest)) return null;
    // "The day before drop-off, so 24 hours before the calendar event starts, text …": a time said of a calendar's item
    const kind = (said: string): LeadKind => (sched.relative && beforeMeeting(said) ? 'event' : 'schedule');
    if (/^,/.test(text.slice(end).trim()) && rest)
      return { kind: kind(text.slice(0, end)), text: text.slice(0, end).trim(), body: rest };
    // a schedule needs no subject: the word right after it may be the action ("every sunday evening email …")
    const { lead, body } = splitLead(text, tokenize(text.slice(0, end)).length, false, true, w);
    // "every 30 min: GET …": the colon that introduces the duty is no part of the lead
    return { kind: kind(lead), text: lead.replace(/\s*:$/, ''), body };
  }
  // "At the start of each term (first Monday of September, January and April, 8am), email …": a time of the org's
  // year, then when that is, in brackets
  const named = NAMED_TIME_THEN_WHEN.exec(text);
  if (named?.[2] && findSchedule(named[2])?.index === 0) {
    const body = text.slice(named[0].length).trim();
    if (body && startsWithDuty(body, w)) return { kind: 'schedule', text: named[0].replace(/[\s,]+$/, ''), body };
  }
  const watch = startsWithPhrase(lower, WATCH_LEADS);
  if (watch) {
    const { lead, body } = splitLead(text, watch.split(' ').length + 1, false, false, w);
    // "Watch for people tagging @benchbot in #equipment on Slack.": what to watch for, its duties in the sentences after
    if (body || describesEvent(lead.slice(watch.length).trim())) return { kind: 'event', text: lead, body };
  }
  // "Failed payments under $100 just get a short email asking …": some of the work, and what it receives
  // — a workflow of their own: the one they would join may filter them out ("over $100")
  const subset = /^(when|whenever|if|once|after|as soon as|every|each|any|for)\b/i.test(text) ? null : SUBSET_RECEIVES.exec(text);
  const told = subset?.[2] ? RECEIVED[subset[2].toLowerCase()] : undefined;
  if (subset?.[1] && told) {
    const by = subset[3] ? ` by ${subset[3].toLowerCase()}` : '';
    return { kind: 'event', text: `${subset[1].trim()} arrive`, body: `${told} them${by}${subset[4] ?? ''}` };
  }
  // "Anyone who emails … asking to cancel gets a full refund", "Any invoice that's 14 days overdue gets one polite
  // reminder email": who or what it happens to, said by what it does or is, and what it receives
  // "New hires should get a welcome email": new things, or people, and what each is sent
  const newOnes = SENT_BY_OTHERS.test(text) ? null : NEW_ONES_RECEIVE.exec(text);
  if (newOnes?.[1] && newOnes[2])
    return { kind: 'event', text: newOnes[1].trim(), body: `send them ${newOnes[2]}${newOnes[3] ?? ''}` };
  const who = SENT_BY_OTHERS.test(text) ? null : WHO_RECEIVES.exec(text);
  const given = who?.[2] ? RECEIVED[who[2].toLowerCase()] : undefined;
  if (who?.[1] && given) {
    const by = who[3] ? ` by ${who[3].toLowerCase()}` : '';
    return { kind: 'event', text: who[1].trim(), body: `${given} them${by}${who[4] ?? ''}` };
  }
  const cond = startsWithPhrase(lower, CONDITION_LEADS);
  if (cond) {
    const { lead, body } = splitLead(
      text,
      cond.split(' ').length,
      cond.startsWith('if') || cond === 'unless' || cond === 'in case',
      false,
      w,
    );
    return { kind: 'condition', text: lead, body };
  }
  // "anything over £800 ask Tom in #brewhouse first": some of the work, by an amount, then its duty
  const amount = AMOUNT_CASE.exec(text);
  if (amount?.[1]) {
    const body = text.slice(amount[0].length).trim();
    // (not a statement of them: "Orders over £2,500 go to Marco for a yes", "Anything over £500 must be approved")
    if (body && !AMOUNT_STATEMENT.test(body) && startsWithDuty(body, w) && imperative(body, w) === body)
      return { kind: 'condition', text: `If ${amount[1]}`, body };
  }
  // "For the big claims, also flag it in #claims-leads": the items a duty is for, before a comma
  const forWhich = /^for\s+[^,]{1,80},\s*/i.exec(text);
  if (forWhich) {
    const body = text.slice(forWhich[0].length).trim();
    if (body && startsWithDuty(body.replace(/^(also|then|and|just)\s+/i, ''), w))
      return { kind: 'condition', text: forWhich[0].replace(/,\s*$/, '').trim(), body };
  }
  // "For everything else add an internal note …": the rest of the work, and its duty, with no comma between
  const rest = /^for\s+(?:everything|anything|all the|all other|the rest|the others|others|every other|any other)\b/i.exec(text);
  if (rest) {
    const words = tokenize(text);
    for (const t of words.slice(2, 8)) {
      const body = text.slice(t.start);
      if (startsWithDuty(body, w) && !/^(?:else|other|others|ones?|of)$/i.test(t.lower))
        return { kind: 'condition', text: text.slice(0, t.start).trim(), body };
    }
  }
  // "When that happens add them …": an event said before, named again; the duty follows at once
  const again =
    /^(?:(?:when|whenever|once|after|as soon as|each time|every time)\s+(?:that|this|it|they|one)\s+(?:happens|happen|does|do|comes in|come in|arrives|arrive|lands|land|is done|are done)|(?:up)?on (?:receipt|arrival)(?: of (?:it|them|each one|one))?(?=\s*,))\b,?\s*/i.exec(
      text,
    );
  if (again && text.length > again[0].length)
    return { kind: 'event', text: again[0].replace(/,?\s*$/, ''), body: text.slice(again[0].length).trim() };
  const event = startsWithPhrase(lower, EVENT_LEADS);
  if (event) {
    // "On each new order email …": a lead that names the thing, not what happens to it, needs no verb of its own
    const { lead, body } = splitLead(text, event.split(' ').length, !NOUN_LEADS.has(event), false, w);
    // "Once, not every ten minutes please", "Every time, no exceptions.": a lead word alone says when nothing happens
    if (
      lead.trim().split(/\s+/).length === 1 ||
      /^[\s,:;.!-]*(?:(?:no exceptions?|without (?:fail|exception)|please|always|thanks?)[\s,:;.!-]*)*$/i.test(
        text.slice(event.length),
      )
    )
      return null;
    return { kind: 'event', text: lead, body };
  }
  return null;
}

const ROLE_TITLE =
  /^(?:(?!(?:the|a|an|our|your|their|his|her|them|it|this|each|every)\b)[\w'()-]+\s+){0,5}(assistant|helper|specialist|coordinator|agent|manager|rep|representative|clerk|analyst|desk|bot|generalist|officer|partner|recruiter|administrator|admin|concierge|operator|associate|sdr|bdr|controller|accountant|bookkeeper|buddy|scheduler|dispatcher|advocate|strategist|marketer|lead|triager|ops|control|support|reception)s?\b(?:\s+(?:for|to|of|at|in|on)\b.*)?(?:\s*,\s*(?:(?:RUNBOOK|SOP|SPEC|DRAFT|[Vv]\d|version\b|draft\b|rev\b)[\w. -]{0,20}|[A-Z][\w&'. -]{0,40}(?:\s*\([^()]{0,80}\))?))?$/i;
/** A first line that says who writes: "Support team at a B2B SaaS (~15 agents)", "Ops crew of 6, mostly remote". */
const TEAM_INTRO =
  /^(?:(?!(?:the|a|an|our|my|your|this|that|their|his|her)\b)[\w&'’-]+\s+){1,3}(?:team|department|dept|group|crew|squad|desk)\b(?:\s+(?:at|of|for|in|with|here)\b|\s*\(|\s*\.?$)(?![^.]*\b(?:when|whenever|every|each|if)\b)/i;
/** "If their card is declined" is an outside event; "If the ticket describes a defect" is a condition. */
const isCatalogEvent = (text: string): boolean =>
  !/^(for each|for every|for all)\b/i.test(text) &&
  // "If it's a bug report", "if this is a refund request": what the item at hand is, not something that happens
  !/^(?:if|unless)\s+(?:it's|it is|this is|that's|that is|they're|they are|these are|it was)\b/i.test(text) &&
  describesEvent(text);

/** "if a driver replies", "when they write back": someone answering what was sent them */
const SOMEONE_REPLIES =
  /^(?:if|when|whenever|once|should)\s+(?:(?:they|he|she|someone|anyone)\s+(?:repl(?:y|ies)|responds?|writes? back|texts? back|answers? (?:with|by|back))|(?:(?:the|a|an|any|each|every)\s+)?(?:[\w-]+\s+)?[\w-]+\s+(?:replies|responds|writes back|texts back|(?:answer|reply|respond)s? (?:with|by|back|to say)))\b/i;
/** A condition that is something arriving from outside: "if their card is declined", "if a parent answers with …". */
const conditionArrives = (text: string): boolean =>
  isCatalogEvent(text) ||
  // "IF a new Zendesk ticket is tagged "leak" …": something new of a product, whatever else it says of it
  (/^(?:if|when|whenever|should)\s+(?:a|an|any)\s+new\s+[A-Z][\w-]*\s+[\w-]+\s+(?:(?:is|gets|was)\s+(?:tagged|labell?ed|marked|created|added|opened|assigned|raised|logged|submitted|posted|filed)\b|(?:comes? in|arrives?|lands?)\b)/i.test(
    text,
  ) &&
    providersIn(text).length > 0) ||
  SOMEONE_REPLIES.test(text) ||
  (bringsWork(text.replace(/^(?:if|when|whenever|should)\s+/i, '')) && CHANNEL_ARRIVAL.test(text));

const GUIDELINE =
  /^(always|never|don't|do not|be|stay|remain|avoid|ignore|disregard|(?:read|follow) (?:this |these |the following |them |everything |all of this |(?:these|the|our) (?:rules|steps|instructions) )?(?:carefully|closely|exactly|to the letter|first|(?:all )?the way through)(?=\s*(?:[,.;:!]|$))|keep (a|your|the) [\w-]+ tone|use (a|an) [\w-]+ tone|remember that|note that|keep (?:it|them|(?:every|each|all|your|the|our) (?:[\w-]+ )?(?:messages?|replies|reply|emails?|texts?|answers?|posts?|notes?|tone)|messages|replies|emails|texts|answers) (?:short|brief|simple|plain|friendly|polite|concise|clear|formal|casual|professional|warm|light|kind|gentle|positive|upbeat|calm|respectful|personal)\b)\b|\bat all times\b/i;
/** What to do when unsure, as a rule: "If in doubt, do nothing and ask Helen", "When unsure, leave it and check with me". */
const IN_DOUBT =
  /^(?:(?:and|but|so|oh|also)[\s,]+)?(?:if|when|whenever) (?:in (?:any )?doubt|unsure|(?:you'?re|you are) (?:not sure|unsure|in doubt)),?\s+(?:please\s+|just\s+)?(?:do nothing|leave it|hold off|ask|check with)\b/i;
/**
 * Work the person keeps or forbids: "refunds I'll handle myself", "once they've decided, I send the contract through
 * DocuSign myself", "stay out of billing", "leave pricing to us".
 */
const HANDS_OFF =
  /^(?:(?:[^.;,]{0,80},\s*)?(?:i|we) (?:usually |always |still |then |just )?(?!want\b|need\b|like\b|would\b|['’]d\b)[a-z]+\b[^.;]{0,80}?\b(?:myself|ourselves)\b|(?:[\w-]+ ){0,5}(?:i|we)(?:'ll| will| am going to| are going to| want to| prefer to| would rather)? (?:handle|do|take care of|deal with|manage|answer|process|own)\b[^.;]{0,80}?\b(?:myself|ourselves|personally)\b|(?:please )?(?:stay|keep) out of\b|(?:please )?leave (?:those|these|that|them|it|(?:the |all )?[\w-]+(?: [\w-]+){0,3}) to (?:me|us)\b)/i;
/** What someone of the org does not want done, as a rule: "Dee does not want anything posted in Slack about new hires". */
const NOT_WANTED =
  /^(?:(?:but|and|also|oh and)\s+)?(?:[A-Z][a-z]+|he|she|they|we|i|(?:the|our|my) [\w-]+(?: [\w-]+)?)\s+(?:does not|doesn['’]t|do not|don['’]t|never)\s+(?:want|wants|like|likes)\s+(?:anything|any|anyone|(?:[A-Z][\w-]*\s+)?(?:pings?|messages?|notifications?|alerts?|e-?mails?|texts?|dms?|updates?|reminders?|calls?)\b|(?:it|them|that|this)\b(?=\s+(?:to be\s+)?[a-z]+ed\b)|(?:the|our|their|these|those)\s+[\w-]+(?:\s+[\w-]+)?\s+(?:to be\s+)?[a-z]+ed\b)/i;
/** A rule of what is not wanted, when the sentence says no work after it ("…, so when a form comes in, text Jane"). */
const notWanted = (text: string): boolean => {
  const m = NOT_WANTED.exec(text);
  return (
    m !== null &&
    !/,\s*(?:and\s+)?(?:so|but)\b|[:;—–]|\s-\s|\b(?:when|whenever|every|each|once|if)\b|,\s*[a-z]+\s+(?:the|a|an|it|them|their|our)\b/i.test(
      text.slice(m[0].length),
    )
  );
};
/** Things kept out of a place, as a rule: "Medical details stay out of Notion — just put "illness"". */
const KEPT_OUT =
  /^(?:[\w'-]+ ){1,4}(?<!\b(?:the|a|an|their|his|her|its|our|my|your|each|every|this|that|any) )(?:stays?|must stay|should stay|are kept|is kept|must be kept|should be kept|must never go|never goes?) (?:out of|into|in)\b(?![^.;]*\b(?:when|whenever|if|once)\b)/i;
/** What the employee must not do, said of it: "The assistant must never merge …", "It should not reply to …". */
const SAID_OF_IT_NEVER =
  /^(?:(?:please\s+)?(?:make sure|ensure|be sure)(?: that)?\s+)?(?:the (?:assistant|bot|employee|agent|helper|ai|automation)|it|you) (?:(?:must|should|shall|may|can|will)(?: ?not|n't| never)|never)\b/i;
/** Someone else doing it themselves: "She approves those herself", "Dana signs them off himself". */
const THEMSELVES =
  /^(?:(?:[Hh]e|[Ss]he|[Tt]hey)(?:'ll|'d)?\s+[a-z]+|(?:[A-Z][a-z]+|(?:[Oo]ur|[Tt]he|[Mm]y)\s+[a-z]+(?:\s+[a-z]+)?)\s+(?:[a-z]+s|will|does|deals|takes))\b[^.;]{0,80}?\b(?:himself|herself|themselves)\b/;
/** A label over how the work is done today: "How it works now", "Old way", "Current process", "As is". */
const NOW_LABEL =
  /^(?:how (?:it|this|things) (?:works?|is done|gets? done|goes) (?:now|today|at the moment|currently)|old way|the old way|current(?:ly| process| setup| state| way)?|as[- ]is|(?:what happens|the process|our process) (?:now|today))$/i;
const OVERVIEW_LABEL =
  /^(about|overview|summary|the role|role|who we are|our company|company|context|background|mission|about us|about the role)$/i;
/** When the org is open, said as such: "Open Mon-Sat 9:00-17:30", "We're open seven days, 8 till 6". */
const OPENING_HOURS =
  /^(?:(?:we|the (?:shop|office|studio|clinic|practice|salon|centre|center|store|cafe|café))(?:['’]re|['’]s| are| is)\s+)?open(?:ing hours(?: are)?:?)?\s+(?:(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|every day|daily|7 days|seven days|weekdays|from \d)[^.;!?]{0,60}$/i;
/** A label over a workflow's name: "workflow: rate con signed", "automation name: …". */
const NAME_LABEL = /^(?:workflow|flow|automation|zap|recipe|playbook)(?:\s+(?:name|title))?$|^(?:name|title)$/i;
/** "Trigger:", "Starts when:", "Runs on:", "Fires when:", "Kicks off when:", "on:" (a hand-written config's key) */
const START_LABEL =
  /^(?:triggers?|triggered (?:by|when|on)|when|(?:it )?(?:starts?|runs?|fires?|kicks? off|happens|begins?)(?: (?:when|on|at|whenever|if))?|on|event|schedule|how often|frequency)$/i;
/** "Restrictions: the assistant must not book, move or cancel …", "What you won't do: issue store credit, …" */
const LIMITS_LABEL =
  /^(?:restrictions?|guardrails?|boundaries|limits|limitations|red lines|hard rules|(?:explicitly |strictly |definitely )?(?:out|out of scope|not in scope|off the table|excluded|not included)|no[- ]gos?|not for (?:the (?:assistant|bot)|you|it)|(?:a few |some )?things (?:i|we)(?:'ll| will| am going to| are going to)? (?:keep|still) (?:doing|do|handle|handling)(?: (?:myself|ourselves))?|(?:what|things) (?:you|it|(?:the|this) (?:assistant|bot|employee|agent|helper|role|job|position)) (?:won'?t|will not|must not|mustn'?t|must never|should not|shouldn'?t|should never|can'?t|cannot|may not|does not|doesn'?t|is not to|never) (?:do|cover|include|handle|touch)|not allowed|never|don['’]?ts|prohibited|forbidden|off[- ]limits)$/i;
/** A job ad's particulars: "KPIs:", "Reports to:", "Salary:", "Location:", "Success measures:". */
const PARTICULARS_LABEL =
  /^(?:kpis?|key performance indicators|success (?:measures|metrics|criteria|looks like)|okrs?|salary|pay range|salary range|compensation|location|reports? to|reporting (?:line|to)|line manager|closing date|job title|role title|grade|band)$/i;
/** A label over what a workflow is limited to: "Condition: workshop invoices only, not online shop orders". */
const CONDITION_LABEL = /^(?:conditions?|only if|only when|filters?|criteria)$/i;
const DESCRIPTIVE_START = /^(you|we|i|our|this|the role|about|as a|as an|in this role|it|there|they|he|she)\b/i;
const EVENT_VERBS = new Set(
  [
    ...Object.values(ALL_TRIGGER_SENSES).flatMap((s) => s.events),
    'arrive',
    'come',
    'ask',
    'request',
    'submit',
    'send',
    'email',
    'open',
    'apply',
    'reply',
    'fail',
    'pay',
    'report',
    'call',
    'text',
    'fill',
    'land',
    // "People reserve a place with the form on our website": someone booking is work arriving
    'reserve',
    'book',
    'enquire',
    'inquire',
    'enrol',
    'enroll',
  ].map((v) => v.split(' ')[0] ?? v),
);
const EVENT_CUES =
  /#[\w-]+|@[\w-]+|\b(?:moves?|changes?|sets?|marks?|drags?|puts?)\s+(?:their|the|a|an|its|that|this|his|her|your|our)\s+(?:[\w-]+\s+)?(?:deal|opportunity|opp|ticket|issue|card|row|page|lead|candidate|application)'?s?(?:\s+(?:status|stage))?\s+(?:to|into|as)\s+(?!(?:the|a|an|me|us|him|her|them)\b)|\b(web ?hook|form|website|inbox|mailbox|mail box|portal|queue|number|phone line|ticket|channel|calendar|help ?desk|service desk|support desk|crm|folder)s?\b|[\w.+-]+@(?:[\w-]+\.[\w.]+)?|\b(?:comes?|arrives?|lands?|(?:get|gets|are|is) sent)\s+(?:in\s+)?(?:(?:from|to)\s+(?:[\w'-]+\s+){1,3}?)?(?:by|via|over|through) (?:e-?mail|text|sms|whatsapp)\b|\b(?:by|via) (?:e-?mail|text|sms|whatsapp) to (?:our|the|my)\b/i;

/** People, in the plural, who email someone of ours: "Tenants email the front desk when …", "suppliers write to us". */
const PEOPLE_EMAIL_US =
  /^(?:the |our |a |an )?(?:[\w-]+ )?(?:[\w-]+s|staff|people|everyone|everybody|folks) (?:e-?mail|write to|(?:forward|send) (?:[\w-]+ ){0,3}?to) (?:us\b|me\b|the\b|our\b|[\w.+-]+@)/i;

/** Who brings work to an organisation, said as the subject of a sentence (a regular expression's alternatives). */
const PEOPLE =
  'staff|people|everyone|everybody|folks|someone|anyone|customers|clients|users|parents|patients|tenants|guests|students|candidates|applicants|vendors|suppliers|members|donors|partners|employees|colleagues|teammates|managers|engineers|developers|reps|agents|policyholders|shoppers|buyers|attendees|volunteers|residents|drivers|contractors|prospects|subscribers|visitors|hires|teachers|nurses|doctors|landlords|sellers|merchants|riders|passengers|travell?ers|callers|leads|supervisors|technicians|coaches|instructors|owners|families|couples|solicitors|carers|crews|reporters|editors|players|artists|bands|farmers|growers|practices|schools';
/**
 * People who bring work, then what they do to bring it: "Staff report problems by posting in #facilities",
 * "Patients text the clinic", "Someone fills in the form". A sentence that also names a schedule is not one.
 */
/** What may stand before the people who bring work: "the", "our", "new" (a regular expression's alternatives). */
const PEOPLE_DETERMINERS = 'the|our|a|an|new|some|many|most|each|every|any';
/** One of them: "a parent", "the customer", "a crew member" (a regular expression's alternatives). */
const PERSON = PEOPLE.split('|')
  .filter((p) => /[^s]s$/.test(p))
  .map((p) => p.slice(0, -1))
  .join('|');
const PEOPLE_BRING_WORK = new RegExp(
  String.raw`^(?:(?:${PEOPLE_DETERMINERS}) )?(?:[\w-]+ )?(?:${PEOPLE}|${PERSON}) (?:often |usually |sometimes |normally |typically |will |can |may |also |just |regularly |then )?(?:e-?mail|write|forward|send|post|report|submit|raise|file|ask|request|text|message|fill|open|tag|ping|mention|book|register|sign up|apply|call|upload|drop|share|reach out|contact|dm|complete|log|create|add|reply|respond|answer)(?:s|es)?\b(?! (?:is|are|was|were|has|have|will|should|must|can)\b)`,
  'i',
);
/** Ways of bringing work that are themselves a channel's message: "a crew member texts", "a parent replies". */
const CHANNEL_ARRIVAL =
  /\b(?:e-?mails?|texts?|messages?|posts?|dms?|calls?|replies|reply|responds?|answers?|submits?|fills? (?:in|out))\b/i;
const DETERMINER_OR_PEOPLE = new RegExp(`^(?:${PEOPLE_DETERMINERS}|${PEOPLE})$`, 'i');
const bringsWork = (text: string): boolean => {
  const people = PEOPLE_BRING_WORK.exec(text) ?? PEOPLE_EMAIL_US.exec(text);
  if (!people || findSchedule(text)) return false;
  // "Ensure vendors submit invoices …", "Have candidates book …": an instruction about them, not their arrival
  const first = people[0].split(/\s+/)[0]?.toLowerCase() ?? '';
  return !(AUX.test(first) || (!DETERMINER_OR_PEOPLE.test(first) && isKnownVerb(first)));
};

/** A sentence that says what not to do: "Oh and don't book anything …", "Never email …", "please do not …". */
/** Clauses that only say what not to do ("never text them again"), with nothing to do instead. */
const ruleOnly = (clauses: readonly string[]): boolean =>
  clauses.length > 0 && clauses.every((c) => NOT_TO_DO.test(c) && !ALTERNATIVE.test(c) && !DUTY_SAID_NEGATIVELY.test(c));
/** A duty said with a negative: "don't forget to email them", "never fail to reply", "don't hesitate to call". */
const DUTY_SAID_NEGATIVELY = /\b(?:don'?t|do not|never)\s+(?:forget|hesitate|fail|wait|neglect|omit)\b/i;
/** What to do instead, said after what not to: "don't book it — email me instead", "never refund, but tell …". */
const ALTERNATIVE = /\b(?:instead|but|rather|otherwise|just|only)\b|[—–;]|\s-\s/i;
const NOT_TO_DO = /^(?:(?:oh|ok|okay|and|also|but|so|please|just)[\s,]+)*(?:don'?t|do not|never|no need to)\b/i;

/** A system that calls in: "calls a webhook for every order", "can notify an external URL", "posts to our endpoint". */
const CALLS_IN =
  /\b(?:calls?|sends?|posts?|fires?|hits?|pings?|notif(?:y|ies)|pushes)\s+(?:(?:it|them|this|that|the data|everything|data|alerts?|notifications?|us|you)\s+)?(?:(?:to|into|through)\s+)?(?:(?:a|an|our|the|any|your|its)\s+)?(?:[\w-]+(?:['’]s)?\s+)?(?:web ?hook|url|endpoint|web address)s?\b|^(?:our|the)\s+(?:[\w-]+\s+){0,2}?(?:system|tool|app|software|platform|site|website|shop|store|pos|till|portal|crm|form)\s+(?:will\s+|can\s+|also\s+)?(?:pings?|notif(?:y|ies)|tells?|alerts?)\s+(?:you|us|the (?:assistant|bot))\b(?=[^.;]*\b(?:when|whenever|every time|each time|as soon as|of (?:every|each|any))\b)(?![^.;]*\b(?:already|no need|don['’]t need|do not need|don['’]t worry|so you|but)\b)/i;
/** Ourselves, or the assistant, as the subject: "we can ping the URL", "the bot should call the endpoint". */
const OURS_DOING = /^(?:we|i|you|the (?:assistant|bot|agent))\b/i;
/** A condition, or a call that does not come: "if the POS never calls our webhook", "when it fails to post". */
const NOT_A_CALL = /^(?:if|when|whenever|unless|once|after|before|as soon as)\b|\b(?:never|not|n't|fails? to|stops?)\b/i;
/** More said after the call: another clause (";", ", then …", "and we text …"), not what the call carries. */
const MORE_AFTER = /[;]|,\s*(?!with\b)\S|\b(?:then|and)\s+(?!(?:the|a|an|its|their|our|his|her)\b)[a-z]+/i;

/** "… and the form is sending the data to your webhook": what comes in, passed on to a hook of ours */
const PASSES_TO_HOOK =
  /\b(?:sends?|sending|posts?|posting|pushes|pushing|forwards?|forwarding|passes|passing)\s+(?:the|its|their|all|each)\s+(?:[\w-]+\s+)?(?:data|details|submissions?|entries|answers|results?|payload)\s+(?:on\s+)?to\s+(?:a|an|our|the|any|your|its)\s+(?:[\w-]+\s+)?(?:web ?hook|url|endpoint)s?\b/i;

/**
 * Another system's call of our webhook, and nothing more, said after a time: "our dispatch software, DispatchTrack,
 * can ping a web address with tomorrow's runs" — not ours ("we ping the URL"), not a condition ("if the POS never
 * calls our webhook"), not followed by a duty of its own ("…, then post a summary"). Pure.
 */
function othersCallIn(text: string): boolean {
  const call = CALLS_IN.exec(text) ?? PASSES_TO_HOOK.exec(text);
  if (!call || OURS_DOING.test(text)) return false;
  const before = text.slice(0, call.index);
  return !NOT_A_CALL.test(before) && !before.includes(';') && !MORE_AFTER.test(text.slice(call.index + call[0].length));
}

/** Where the clause of a call ends: the next clause of its own ("…, and if the reason is …", "; then …"), not a list of what it carries. */
const CALL_CLAUSE_END =
  /\s*(?:[;.](?:\s|$)|,\s*(?:(?:and|then|so)\s+)*(?=(?:if|when|whenever|once|after|unless|you|we|please|just|then)\b)|,?\s+(?:and|then)\s+(?!(?:the|a|an|its|their|our|his|her|payment|order)\b)(?=[a-z]+\s+(?:the|a|an|it|them|their|our|to|in)\b))/i;

/**
 * A start whose subject goes on to call our webhook: "When our dispatch system marks a job as failed it'll | send a
 * webhook to you with the job number, …, and if …" — the call that brings the event, said first in what follows the
 * lead (by the system, not by us). The call's clause, or null. Pure.
 */
function callSaidFirst(lead: Lead): string | null {
  // (its subject said at the end of the lead, "… marks a job as failed it'll", or first in what follows it)
  const subject = /^(?:it|they|that|this)(?:['’]ll|\s+will)\s+/i.exec(lead.body)?.[0] ?? '';
  if (!subject && !/\b(?:it|they|that|this|which)(?:['’]ll|\s+will)\s*$/i.test(lead.text)) return null;
  const body = lead.body.slice(subject.length);
  const call = CALLS_IN.exec(body) ?? PASSES_TO_HOOK.exec(body);
  if (!call || call.index !== 0) return null;
  const after = body.slice(call[0].length);
  const end = CALL_CLAUSE_END.exec(after);
  const said = `${subject}${call[0]}${end ? after.slice(0, end.index) : after}`.replace(/[\s,.;]+$/, '');
  // (a call of ours to someone else's endpoint is a step: only one that reaches us is the start)
  return /\b(?:you|your|us|our)\b/i.test(said) ? said : null;
}

const SENT_TO_OURS =
  /^(?!(?:we|i|you)\b)[\w'’ -]{2,60}?\b(?:texts|e-?mails|sends|forwards|faxes|messages|(?<=\b(?:they|people|clients|customers|users|members|staff|suppliers|vendors)\s+(?:also\s+|usually\s+|often\s+|just\s+)?)(?:text|e-?mail|send|forward|fax|message))\s+[^.;]{0,120}?\b(?:to|into)\s+(?:(?:our|my)\s+(?:[\w-]+\s+){0,2}?(?:number|inbox|mailbox|address|line|phone|e-?mail)\b|(?:receipts?|invoices?|bills?|ap|ar|accounts|accounts-payable|payables|billing|finance|support|help|helpdesk|info|hello|contact|enquiries|inquiries|enquiry|bookings?|reservations?|orders?|sales|jobs|careers|hiring|recruitment|applications|hr|claims|requests?|intake|admin|office|team|reception|front-?desk|service|returns|tickets?|calls|repairs|reports|contracts|quotes|estimates|events|press|media|membership|members|donations|volunteers|admissions|registrations?|feedback|complaints|studio|hire|rentals|lettings|maintenance|it|photos|documents|docs|submissions)@[\w-]+(?:\.[\w-]+)*|[\w.-]+@(?![\w-]))/i;

/** What reaches us, and by which way in: "We get berth enquiries by email", "we receive bookings via the website form". */
const WE_GET_BY =
  /^(?:(?:and|also|so|but)\s+)?(?:we|i)\s+(?:[\w-]+ly\s+|also\s+|often\s+|still\s+)?(?:get|receive)\s+(?!paid\b)(?:[\w'’-]+\s+){1,6}?(?:by|via|over|through|in|from)\s+(?:e-?mails?|texts?|sms|whatsapp|(?:the|our)\s+(?:[\w-]+\s+)?(?:web ?form|form|website|contact form|booking form|web ?hook))\b/i;
/** Others sending work in: to a mailbox or number of ours, to our webhook ("They forward receipts to receipts@…"). */
const arrivesByOthers = (text: string): boolean => SENT_TO_OURS.test(text) || PASSES_TO_HOOK.test(text) || CALLS_IN.test(text);

/** What an arrival carries, said of it: "The payload contains …", "Each submission includes …", "The email has …". */
const CARRIES =
  /^(?:(?:the|its|their|each|every|this|that)\s+)(?:[\w-]+\s+)?(?:payload|body|request|call|webhook|message|e-?mail|data|form|submission|notification|event|json|post)s?\s+(?:always\s+|also\s+|usually\s+)?(?:contains?|includes?|has|have|carr(?:y|ies)|gives?|lists?|holds?|comes? with)\b/i;

/** A sentence that describes how work arrives rather than what to do: "New leads arrive through a webhook." */
function isEventSentence(text: string, w: SegmentWords = NO_SERVED_WORDS): boolean {
  // "Oh and don't book anything in my calendar": something not to do arrives from nowhere
  if (NOT_TO_DO.test(text)) return false;
  // "The payload contains the zone code, … (priority customers are flagged)": what the arrival carries, no arrival
  if (CARRIES.test(text)) return false;
  // "Only share that Drive folder with the family if they ask": a limit on a duty, no arrival
  const only = /^only\s+/i.exec(text);
  if (only && startsWithVerbIn(text.slice(only[0].length), w)) return false;
  // "Turns every signup from the form into a HubSpot contact" (a job advert's list): a duty in the third person
  if (dutyInThirdPerson(text, w)) return false;
  // "Patient names are not to be posted in Slack; …": a ban, said in the passive, is nothing arriving
  if (PASSIVE_BAN.test(text.split(';')[0] ?? '')) return false;
  // "Our ticketing platform calls a webhook for every order": a system of ours that calls in is how work arrives
  if (CALLS_IN.test(text) || PASSES_TO_HOOK.test(text)) return true;
  // "Our answering service texts first-call details to our Twilio number": something sent in to a place of ours
  if (SENT_TO_OURS.test(text)) return true;
  // "We get berth enquiries by email", "we receive most bookings through the form": what reaches us, and how
  if (WE_GET_BY.test(text)) return true;
  if (DESCRIPTIVE_START.test(text) || stackOnly(text)) return false;
  const hasCue = EVENT_CUES.test(text) || providersIn(text).length > 0;
  return (hasEventVerb(text, w) && hasCue) || bringsWork(text);
}

/**
 * A duty said in the third person, with no subject: "Turns every signup into a contact", "Raises the invoice …" —
 * a verb in -s, then what it acts on ("Bookings come from the widget" is a noun and its own verb). Pure.
 */
function dutyInThirdPerson(text: string, w: SegmentWords): boolean {
  const [first, second] = tokenize(text.trim());
  if (!first || !second || !/[^s]s$/.test(first.lower) || !/^[A-Z]/.test(first.text) || AUX.test(first.lower)) return false;
  if (/\?\s*$/.test(text)) return false;
  if (!OBJECT_START.test(second.lower) && !/^(?:every|each|any)$/.test(second.lower)) return false;
  // "Emails a client sends to support@ should be logged …", "Texts a patient sends … get a reply": a noun, then
  // who sends it and what becomes of it — no duty of the employee's
  const clause = text.split(/[,;:]/)[0] ?? text;
  if (
    THEN_ITS_VERB.test(clause) ||
    /\b(?:should|must|will|would|can|could|gets?|go|goes|becomes?|are|is|need|needs)\b/i.test(clause)
  )
    return false;
  const base = lemmas(first.lower)
    .slice(1)
    .filter((l) => knownVerb(l, w));
  // ("Reads every new ticket and replies …": reading is no step of its own)
  return base.length > 0 && !base.some((l) => (COGNITIVE_VERBS as readonly string[]).includes(l));
}
/** A noun, then someone and their verb: "Emails a client sends", "Requests the tenants send". */
const THEN_ITS_VERB =
  /^[\w-]+s (?:a|an|the|our|their|each|every|any) [\w-]+ (?:[\w-]+ )?(?:sends?|writes?|fills?|submits?|forwards?|makes?|raises?|posts?|texts?|e-?mails?)\b/i;

/** "receipts she forwards", "bugs reported in #bugs", "requests from Slack", "every new hire": work that arrives. */
/** A place looked after as a duty: "Look after the trade@ inbox", "monitor #support", "work the Zendesk queue". */
const WATCHED_PLACE =
  /\b(?:look after|looks after|watch|watches|monitor|monitors|keep an eye on|keeps an eye on|handle|handles|manage|manages|triage|triages|work|works|go through|goes through|answer|answers|clear|clears)\s+(?:the |our |my |their )?((?:[\w@.&-]+ ){0,2}?)(inbox|mailbox|queue|channel|#[\w-]+)(?![\w-])/i;

/** What arrives at a place looked after, as an event: "new emails in the trade@ inbox", "new messages in #support". */
export function watchedPlace(text: string): string | null {
  const m = WATCHED_PLACE.exec(text);
  if (!m) return null;
  const place = `${m[1] ?? ''}${m[2] ?? ''}`.trim();
  const what = /inbox|mailbox/i.test(m[2] ?? '') ? 'emails' : /queue/i.test(m[2] ?? '') ? 'tickets' : 'messages';
  return `new ${what} in ${place.startsWith('#') ? place : `the ${place}`}`;
}

/** A verb that sends, right before what it sends: "drop a ", "post the ", "send them a ". */
const SENT_BEFORE =
  /\b(?:post|send|write|share|drop|leave|put|publish|announce|email|message|reply|respond|answer)(?:s|ed|ing)?\s+(?:(?:a|an|the|it|them|this|that|our|their|him|her)\s+){0,2}(?:[\w-]+\s+)?$/;

/**
 * A duty that answers items which come in, with no start of its own: "Answer visitors' Zendesk questions about …",
 * "reply to customer emails", "respond to new tickets in #help". The items and where they are, up to what they are about.
 */
const ANSWERS_ITEMS = new RegExp(
  String.raw`^(?:answer|reply to|respond to|field|deal with)\s+((?:(?:all|any|every|each|the|our|incoming|new)\s+)*` +
    String.raw`(?:(?!(?:and|or|then|to)\b)[\w'’#.-]+\s+){0,3}?(?:questions|emails|e-mails|messages|tickets|enquiries|inquiries|requests|dms|chats)` +
    String.raw`(?:\s+(?:in|on|from|via|through|at|to)\s+(?:the\s+|our\s+)?[#\w.@-]+(?:\s+(?:channel|inbox|queue|form|portal|page))?)?)\b`,
);

/**
 * The arrival a sentence with no start of its own implies, if any. `weak`: only the items a duty answers
 * ("answer customer emails"), which after another workflow's start may be that workflow's work.
 */
function implicitEvent(text: string): { kind: TriggerKind; text: string; weak?: true } | null {
  const t = text.toLowerCase();
  const watched = watchedPlace(t);
  if (watched) return { kind: 'event', text: watched };
  const tail = String.raw`(?:\s+(?:in|to|on|from|via|through|by|into|at|as)\s+[^,;]{1,40}?)?(?=\s+(?:and|as|then|into|with|using|so)\b|[,;.]|$)`;
  // [pattern, kind, whether the phrase may just be where the employee itself posts]
  const patterns: ReadonlyArray<readonly [RegExp, TriggerKind, boolean]> = [
    [
      /\b([\w-]+s?) (i|we|she|he|they|customers|clients|users|people|employees|vendors|someone|candidates|the team) (forwards?|sends?|shares?|submits?|posts?|raises?|reports?|uploads?|emails?|drops?)\b/,
      'event',
      false,
    ],
    [
      new RegExp(
        String.raw`\b([\w-]+s) (that|which|who) (come in|arrive|land|are (sent|posted|reported|submitted|forwarded|received|shared|assigned|created|added|opened|raised|filed|flagged|uploaded))\b${tail}`,
      ),
      'event',
      false,
    ],
    [
      new RegExp(
        String.raw`\b([\w-]+s) (reported|posted|sent|submitted|forwarded|received|shared|raised|filed|flagged|uploaded|created|opened|coming in|arriving)${tail}`,
      ),
      'event',
      false,
    ],
    [
      /\b([\w-]+ )?(requests?|questions?|messages?|tickets?|emails?|enquiries|inquiries|leads) (from|in|on) (slack|#[\w-]+|email|zendesk|the [\w-]+ (form|channel|inbox))\b/,
      'event',
      true,
    ],
    [
      // "Post new Zendesk tickets to #support": new items, plural, are work that arrives
      // "new leads from HubSpot": where they come from, when said, is part of the event
      /\bnew (?:[\w-]+ ){0,2}?[\w-]+(?<!s)s(?:\s+(?:from|in|on|via) (?:the )?[#\w-]+(?=[\s,;.]|$))?(?=\s+(?:to|in|into|from|on|as|with|by|and|a|an|our|the|their)\b|[,;.]|$)/,
      'event',
      false,
    ],
    [
      new RegExp(
        String.raw`\b(?:every|each|any) (?:[\w-]+ ){0,2}?[\w-]+ (sent|reported|posted|submitted|forwarded|received|shared|raised|filed|uploaded|created|opened)${tail}`,
      ),
      'event',
      false,
    ],
    [
      // "Create a Jira issue for every Zendesk ticket tagged bug": each thing of a kind, told by its tag (where it goes
      // after is the duty's: "post every ticket tagged urgent to #oncall")
      /\b(?:every|each|any) (?:[\w-]+ ){0,2}?[\w-]+ (?:tagged|labell?ed)\s+(?:as\s+)?["'“‘`]?[\w-]+["'”’`]?(?=\s+(?:to|in|into|and|as|then|with|on|so)\b|[,;.]|$)/,
      'event',
      false,
    ],
    [
      // (or before what is sent them: "email every new HubSpot contact a welcome note")
      /\b(every|each|all) new [\w-]+(?: [\w-]+){0,2}?(?=\s+(?:with|in|to|from|and|on|as|for|that|which|into|by|within|a|an|our|the|their)\b|[,;.]|$)/,
      'event',
      false,
    ],
    [
      // "every receipt that gets emailed to receipts@…", "invoices that get forwarded to us"
      new RegExp(
        String.raw`\b(?:(?:every|each|any|all) (?:[\w-]{1,40} ){0,2}?[\w-]{1,40}|[\w-]{1,40}s) (?:that|which) (?:(?:gets?|is|are) (?:e-?mailed|sent|forwarded|posted|submitted|uploaded|shared|received|reported|filed|raised|texted|dropped)|comes in|arrives|lands)${tail}`,
      ),
      'event',
      false,
    ],
    [
      // "every event that local organisers email to events@…", "each form parents send us": what others send in
      /\b(?:every|each|any|all) (?:[\w-]{1,40} ){0,2}?[\w-]{1,40} (?:(?:that|which) )?(?:(?!(?:we|i|you|and|or|then)\b)[\w'-]{1,40} ){1,3}?(?:e-?mails?|sends?|forwards?|submits?|texts?|uploads?) (?:(?:to|into|in) (?:us|our|[\w.+-]+@[\w-]+\.[\w.]+)|us)\b(?:[^,;]{0,40}?@[\w-]+\.[a-z]+)?/,
      'event',
      false,
    ],
    [
      // "every trade signup from the wholesale form on our website": each thing that comes from a way in of ours
      /\b(?:every|each|any) (?:[\w-]+ ){0,2}?[\w-]+ (?:from|through|via|off) (?:the|our|a) (?:[\w-]+ ){0,2}?(?:form|widget|portal|web ?hook|endpoint|landing page|booking page)\b(?: on (?:the|our) (?:website|site))?/,
      'event',
      false,
    ],
    [/\b([\w-]+s) (that|which) (have|are|get|meet|need|match|sit|remain|stay|haven't|have not)\b[^,;]{0,60}/, 'unknown', false],
  ];
  // what the employee itself posts ("post a message in #general") is a destination, not an arrival
  const sends = /^(post|send|write|share|drop|leave|put|publish|announce|email|message|reply|respond|answer)\b/.test(
    stripLeadIns(t),
  );
  for (const [re, kind, destination] of patterns) {
    if (sends && destination) continue;
    const m = t.match(re);
    // "…, and drop a message in #vip-desk": a destination after a verb that sends, wherever it is in the sentence
    if (m && destination && SENT_BEFORE.test(t.slice(0, m.index ?? 0))) continue;
    // "… on their HubSpot contact so the reps don't take new orders": what a purpose says comes about is no arrival
    if (m && PURPOSE_BEFORE.test(t.slice(0, m.index ?? 0))) continue;
    if (m) return { kind, text: m[0].trim() };
  }
  const answered = ANSWERS_ITEMS.exec(stripLeadIns(t));
  if (answered?.[1]) return { kind: 'event', text: `${answered[1].trim()} come in`, weak: true };
  return null;
}

/**
 * "Call sheets are the bane of my life", "moves are all on our calendar": a plural noun that reads as a verb, then "are";
 * or then how they reach us ("Refund requests land in returns@…", "Order updates arrive by webhook"); or a part of the
 * business said with where it runs ("Support runs through Gmail + Zendesk", "Billing lives in Stripe").
 */
const STACK_SAID =
  /^(?:[\w-]+ )?[\w-]+ (?:runs|lives|sits|happens|is (?:handled|done|managed|run|kept)) (?:through|in|on|via|out of)\b/i;
/** Only that, with no duty said after it ("Billing runs through Stripe — issue refunds there when …" says one). */
const stackOnly = (text: string): boolean =>
  STACK_SAID.test(text) &&
  !/[—–;]|\s-\s|\b(?:when|whenever|every|each|if|once|please|should|must|want|wants|need|needs|issue|post|send|email|add|create)\b/i.test(
    text,
  );
const PLURAL_SUBJECT =
  /^(?!(?:make|ensure|check|confirm|verify|see|ask|tell|let|remind|warn|note|double-check)\b)(?:[\w-]+ )?[\w-]+s (?:are|were|(?:usually |normally |always |all |mostly |often )?(?:land|arrive|come in|come through|end up|turn up|show up|get (?:sent|emailed|forwarded)))\b/i;

/** "The assistant should …", "you add …", "bot must …": who does it, said before the verb. */
const SUBJECT_MODAL =
  /^(?:(?:ok|okay|so|and|then|also|but)\s+)*(?:(?:you|it|he|she|they|(?:the|our|this|my|a)\s+(?:assistant|bot|agent|employee|teammate|helper|ai|worker)|bot|assistant|agent)\s+(?:(?:also|then|just|always|really|still)\s+(?=(?:should|must|will|would|can|could|shall|has|have|need|needs|is)\b))?(?:(?:should|must|will|would|can|could|shall|has to|have to|need to|needs to|is to|are to|must to|is going to)\s+)?|we\s+(?:should|must|will|would|can|could|shall|have to|need to|are to|are going to)\s+|(?:somebody|someone|one of us)\s+(?:(?:always|then|also|still)\s+)?(?:has to|needs to|should|must|will have to|ought to)\s+(?![^.;]*\b(?:by hand|manually|themselves|ourselves|myself)\b))(?:(?:also|then|just|always|immediately|automatically|first|itself)\s+)?(?:to\s+)?/i;
const PASSIVE_DUTY =
  /^(?:and\s+|then\s+)?(those|they|these|it|each one|all of them|each of them)\s+(?:(?:should|must|will|need to|needs to|have to|has to|are to|is to)\s+(?:also\s+)?be|(?:also\s+)?gets?)\s+([a-z]+ed)\b(.*)$/i;
/** "turn each of those into a ticket in Jira", "convert it into an issue": the thing made is created from them. */
const TURN_INTO = /^(?:turns?|converts?|makes?|transforms?|changes?)\s+(?!sure\b)(.{1,80}?)\s+into\s+(an?|the|new)\s+(.+)$/i;
const BECOME =
  /^(?:(?:should|must|will|needs? to|has to|have to)\s+)?(?:become|turn into|be turned into|be made into|be converted into|be logged as|be filed as|(?:land|end up|come in|go in|arrive|show up|be added|be entered|be saved) as(?= (?:an?|new)\s|\s*(?:leads?|contacts?|tickets?|tasks?|issues?|deals?|cards?|rows?|entries|entry|records?|pages?|events?|bookings?|orders?|candidates?)\b))\s+/i;

/** What someone says before the job itself: "Could you set up something that, …", "what I need is …". */
const PREAMBLE =
  /^(?:(?:ok|okay|so|hey|hi|hello|basically)\b[\s,!.]*)*(?:(?:what (?:i|we)(?:'d| would)? (?:need|want|like|would like)(?: (?:you|it|the (?:assistant|bot|agent)) to do)? is:?|(?:could|can|would|will) you (?:please )?(?:set up|create|build|make|add|get)|(?:i|we)(?:'d| would) like|(?:i|we) (?:need|want)|please (?:set up|create|build|make|add))\s+(?:(?:something|someone|you|a bot|an? (?:assistant|agent|bot|workflow|automation|helper))\s+(?:that|which|who|to)\b\s*,?\s*)?)/i;

/** Asking for help, and nothing more: "Looking for help with two things:", "I'm after a hand with bookings." */
const ASKS_FOR_HELP =
  /^(?:(?:hi|hello|hey)[\s,!]+)?(?:(?:i['’]?m|we['’]?re|i am|we are|i|we)\s+)?(?:(?:really|just|mainly)\s+)?(?:looking for|after|in need of|need(?:ing)?|want(?:ing)?|could (?:do with|use))\s+(?:some\s+|a\s+(?:bit of\s+|little\s+)?)?(?:help|a hand|hand|assistance|support)\b(?:\s+with\s+[^.:;!?]{0,60})?\s*[.:!]?\s*$/i;

/** Saying what is being set up, and nothing more: "Setting up a digital assistant for guest messages at …". */
const SETTING_UP =
  /^(?:(?:hi|hello|hey)[\s,!]+)?(?:(?:i['’]?m|we['’]?re|i am|we are)\s+)?(?:setting up|building|creating|hiring|making|looking to (?:set up|hire|build|create))\s+(?:a|an|our|my|the)\s+(?:(?:new|first|digital|virtual|ai|little)\s+)*(?:assistant|employee|bot|helper|agent|worker|teammate|hire)\b[^.:;!?]{0,120}[.:!]?\s*$/i;

/** Saying where the note comes from, and nothing more: "@Priya asked me to write this up for the new assistant so here goes". */
const ABOUT_THE_NOTE =
  /^(?:(?:hi|hello|hey|ok|so)\b[\s,!]*)*(?:(?:@?[\w.-]+|my (?:boss|manager)|the [\w-]+)\s+(?:asked|told|wanted) (?:me|us) to (?:write|put|jot|type|set|send) (?:this|it|these|that|something)\b[^.;]{0,120}|(?:so )?here (?:goes|it is|we go)\b[^.;]{0,40}|(?:(?:please|do|kindly)\s+)?(?:read|go through|look at)\s+(?:all of\s+|the whole of\s+)?(?:this|these|the following|the notes?(?: below)?|everything below)(?:\s+(?:carefully|closely|first|properly|through|in full|before you start))*)[.:!]?\s*$/i;

/** A start that points back at what was said before it: "when one arrives", "once they sign", "if it's urgent". */
const POINTS_BACK_LEAD =
  /^(?:(?:when|whenever|once|if|as soon as|each time|every time)\s+(?:one|ones|it|its|they|their|those|these|that|this|he|she)\b|(?:after|before|until|from|by)\s+\d)/i;

/** A duty announced as one more: "One more thing and I don't know if it's possible:", "Oh, and one last thing -". */
const ANOTHER_THING =
  /^(?:(?:oh|and|also|ok|okay|so)[\s,]+)*(?:one|another|a|the) (?:more|last|final|other|small|little|extra) (?:thing|request|ask|job)(?![\w-])[^:.;!?—–]{0,60}?(?:\s*[:—–-]\s*|,\s*(?=[a-z]))/i;

/** The duty a statement leads to: ", so text them …", ", so please find …" (not "so that", "so we can"). */
const SO_THEN_DUTY =
  /,\s*(?:and\s+)?(?:so|just)\s+(?:please\s+|could you\s+|can you\s+)?(?!(?:that|we|they|i|you|it|do|does|did|is|are|was|were|has|have|will|can|should|would|much|many|far)\b)/i;
/** A word of sequence before the duty: "At that point, email the customer …", "After that, …", "In that case, …". */
const TRANSITION =
  /^(?:at (?:that|this) (?:point|stage|moment|time)|after that|after this|afterwards|from there|in (?:that|this|which) case|with that done|once (?:that|this)(?:['’]s| is) done|right after(?: that)?|straight after(?: that)?)\s*,\s*(?=[a-z])/i;

/** A duty may start with a third-person verb ("creates a page") or a subject ("the bot must tag it"). */
export const startsWithDuty = (text: string, w: SegmentWords = NO_SERVED_WORDS): boolean =>
  startsWithVerbIn(text, w) || startsWithVerbIn(imperative(text, w), w);

/** What is sent to someone, as the verb that sends it: "gets an email" → email, "gets a comment" → comment on. */
const RECEIVED: Record<string, string> = {
  email: 'email',
  'e-mail': 'email',
  message: 'message',
  text: 'text',
  sms: 'text',
  dm: 'dm',
  comment: 'comment on',
  reply: 'reply to',
  notification: 'notify',
  ping: 'ping',
  reminder: 'remind',
  acknowledgement: 'acknowledge',
  acknowledgment: 'acknowledge',
  confirmation: 'confirm to',
  response: 'reply to',
  answer: 'reply to',
  invoice: 'invoice',
  refund: 'refund',
};
const RECEIVES =
  /^(?:and\s+|then\s+)?((?:the|our|each|every|their|its|whoever|all|any)\b[^,;]{1,60}?|[A-Z][\w-]*(?:\s[\w-]+){0,6}?)\s+(?:should\s+|must\s+|will\s+|also\s+|then\s+)*(?:get|gets|receive|receives)\s+(?:also\s+)?(?:a|an)\s+(?:short\s+|quick\s+|polite\s+|new\s+|welcome\s+|friendly\s+|personal\s+|confirmation\s+|follow-up\s+|thank-you\s+)*(e-?mail|message|text|sms|dm|comment|reply|notification|ping|reminder|invoice)\b(.*)$/i;

/** "the engineer on call should get an email with the link" → "email the engineer on call with the link". */
export function receives(clause: string): string | null {
  const m = clause.trim().match(RECEIVES);
  // "every new Zendesk ticket gets a reply": the items arriving are the event, not a person (see productSubject)
  if (!m?.[1] || !m[2] || holdsWorkItems(m[1].trim())) return null;
  const verb = RECEIVED[m[2].toLowerCase()];
  // ("The customer should get …" at a sentence's start: the determiner in the duty's own case)
  // ("…, and to receive a confirmation email from …": the one wished for before, received again)
  const who = /^to$/i.test(m[1].trim())
    ? 'them'
    : m[1].trim().replace(/^(?:The|Our|Each|Every|All|Any|Their|Its)\b/, (d) => d.toLowerCase());
  return verb ? `${verb} ${who}${m[3] ?? ''}` : null;
}

/** "I'd like them added to HubSpot", "we want each one logged": a wish for a thing done, as the duty that does it. */
const WISH_DONE =
  /\b(?:(?:i|we)(?:'d| would)? (?:also )?(?:like|want|need|love|prefer)(?: for)?|(?:the|our|each|every) [\w-]+ (?:needs|wants|should get|must get)) (them|it|him|her|those|these|(?:that|this)(?= (?:sent|emailed|posted|texted|filed|saved|uploaded|shared|logged|added|created|forwarded|booked|scheduled|(?:turned|converted) into|raised)\b)|each one|each of them|every one|(?:the|our|their|his|her|those|these) [\w-]+(?: (?:of )?[\w-]+){0,2}|(?:a|an) [\w-]+(?: (?:for|of) (?:that|this|the|each|every|their|our) [\w-]+)?|(?:every|each|all|any) (?:new )?[\w-]+(?: (?:that|which|who) (?:comes? in|arrives?|lands?))?) (?:to (?:be|get) )?([a-z]+ed|put|set|sent|kept|made|built|written(?: up)?|read|shared|added|forwarded|split|cut)(?: out| up)?\b/gi;
/**
 * A wish for a thing, however long its name, put somewhere: "I want a list of ITSD tickets that have been open for more
 * than 5 working days posted in #it-team every Monday" → "post a list of … in #it-team every Monday".
 */
const WISH_PLACED =
  /\b(?:i|we)(?:'d| would)? (?:also )?(?:like|want|need|love|prefer) ((?:a|an|the|our|my) [^,;]{2,120}?) (posted|sent|emailed|dropped|shared|added|put|saved|uploaded|filed) ((?:in|to|on|into) (?:#[\w-]+|(?:the|our|my|their) [\w-]+))/gi;
/** "…, and a matter folder created in Google Drive": one more thing wished done, its object first. */
const OBJECT_DONE =
  /(\band|,) (an?|the|our|their) ((?:[\w-]+ ){0,2}[\w-]+) ([a-z]+ed|made|built|set up|sent|written|put) (in|on|into|for|to|with|under|named|called|as)\b/gi;
/** "…, and logged as a page in Notion": one more thing wished done, after a wish in the same sentence. */
const ALSO_DONE =
  /\band (?:then )?(?:also )?([a-z]+ed|put|sent|written(?: up)?|shared|forwarded) (as|in|on|into|to|with|under)\b/gi;
/** One more thing wished done to them, in a list: ", sent a welcome email", ", and booked into a call", "and to be booked onto". */
const LIST_DONE =
  /(,\s*(?:and\s+)?|\s+and\s+)(?:(?:also|then)\s+)?(?:to (?:be|get)\s+)?([a-z]+ed|sent|put|made|given|written)(?=\s+(?:an?|the|their|our|into|onto|in|on|to|with|for)\s)/gi;
const baseOf = (participle: string, w: SegmentWords): string | undefined => {
  const [word = '', particle] = participle.toLowerCase().split(' ');
  const base =
    IRREGULAR_PARTICIPLES[word] ??
    (['put', 'set', 'read', 'split', 'cut'].includes(word) ? word : lemmas(word).find((l) => l !== word && knownVerb(l, w)));
  return base && particle ? `${base} ${particle}` : base;
};
/**
 * A wish said as what would help: "it would help if their text was posted to #front-desk", "it would be lovely if the
 * matching card got its Paid box ticked" — (what came before, the thing, what of it, what is done to it, the rest).
 */
const WOULD_HELP_IF =
  /^(.*?)\b(?:it(?:['’]d| would) (?:really |also |just |so )?(?:help|be (?:great|lovely|nice|good|useful|handy|ideal|brilliant|amazing|helpful|fab|fantastic|perfect|cool|awesome|a help))|(?:i|we)(?:['’]d| would) (?:love|like) it) if\s+(.{3,100}?)\s+(?:was|were|got|could be|could get|gets|is|are)\s+(?:(?:its|their|his|her)\s+(.{2,60}?)\s+)?([a-z]+ed|sent|put|set|kept|made|shared|written)\b(.*)$/i;

/** "it would help if their text was posted to #front-desk" → "post their text to #front-desk". Pure. */
function wouldHelpIf(text: string, w: SegmentWords): string {
  const m = WOULD_HELP_IF.exec(text);
  if (!m?.[2] || !m[4]) return text;
  const base = baseOf(m[4], w);
  if (!base) return text;
  // ("… got its Paid box ticked": what of the thing is done to)
  const thing = m[3] ? `the ${m[3]} of ${m[2]}` : m[2];
  const before = (m[1] ?? '').replace(/[\s,]*(?:but|and|so)?\s*$/i, '');
  return `${before}${before ? ', ' : ''}${base} ${thing}${m[5] ?? ''}`;
}

/** "we want them to get a welcome email from us", "we'd like volunteers to get a text": a message wished received, as the duty that sends it. */
const WISH_RECEIVED =
  /\b(?:i|we)(?:'d| would)? (?:also )?(?:like|want|need|love) (them|him|her|those|these|each one|each of them|every one|the [\w-]+(?: (?:on|of|in|from|at|behind) (?:the|their|that|this|each) (?:[\w-]+ ){0,2}[\w-]+| [\w-]+)?|(?:all |our |all our )?(?!(?:us|this|its|was|has|is|as)\b)[a-z][\w-]*[a-rt-z]s) to (?:get|receive) (an? (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|dm|note|reminder|reply|response))\b/gi;
const RECEIVES_WISHED = new RegExp(WISH_RECEIVED.source, 'i');
/** "I'd like a text to my phone", "we want an email": a message the writer wants, as the duty that sends it to them. */
const WISH_TOLD =
  /\b(?:i|we)(?:'d| would)? (?:like|want|need|love) (an? (?:[\w'-]+ ){0,2}?(?:e-?mail|message|text|sms|dm|ping|heads-up|alert|notification))(?=( (?:to|on|at|in)\b)| (?:so|when|whenever|if|every|each)\b| by (?:\d|noon|midnight|the end|end of|close|mon|tue|wed|thu|fri|sat|sun)| from (?:you|it|the (?:bot|assistant|employee|agent))\b| (?:\d+|a|an|one|two|three|four|five|six|seven|ten|fourteen|thirty) (?:minutes?|hours?|days?|weeks?|months?) (?:before|after|ahead)\b| the (?:day|night|morning|evening|week) before\b|[\s,.;(]*$)/gi;
/** "and an email sent to them", "a note posted in #ops": a message said done, as the duty that sends it. */
const MESSAGE_DONE =
  /\band (an?|the) (e-?mail|message|note|text|sms|reminder|reply|summary|dm) (sent|posted|written|dropped) (to|in|on|into)\b/gi;
/** "…, and a quick post in #dev": one more thing wished, a message in a channel, named only. */
const POST_WISHED =
  /\band (an?) ((?:quick|short|brief|little) )?(post|message|note|heads-up|shout-out|ping) (in|to|on|into) (?=#[\w-]|the [\w-]+ channel\b|slack\b)/gi;

/**
 * A wish for each item of a kind, said with the event that brings it: "I want every applicant in Greenhouse who
 * applies without a portfolio to get an email asking for one", "we'd like every new hire added in BambooHR to be
 * invited to #studio", "every message posted in #bugs to become a GitHub issue" — (each, the kind, where, "who …"
 * or a participle and where, then what is done, received, or made for it).
 */
const WISH_EACH =
  /\b(?:i|we)(?:'d| would)? (?:also )?(?:like|want|need|love|prefer) (?:for )?(?:(?:every|each|any|all) |(?=new ))((?:new )?[\w-]+(?: (?!(?:added|created|opened|booked|submitted|received|sent|posted|filed|raised|logged|signed|hired|registered|moved|marked|tagged|assigned|who|that|which|to|in|on|from|via|through)\b)[\w-]+)?)((?: (?:in|on|from|via|through) (?:[A-Z#@][\w#@.-]*|[\w.-]+\/[\w.-]+|(?:the|our) [\w-]+(?: form| page| site| inbox| channel| repo)?))?) (?:(?:who|that|which) ((?!(?:is|are|was|were|had|did|does|do)\b|(?:has|have)\s+(?!no\b|not\b|an?\b|any\b))[^,;]{3,80}?) |(added|created|opened|booked|submitted|received|sent|posted|filed|raised|logged|signed|hired|registered|moved|marked|tagged|assigned)((?: (?:in|on|to|into|via|through|as|with) [^,;]{1,40}?)?) )?to (?:(?:also )?be ([a-z]+ed|sent|put|set|kept|made|built|written|shared)|(?:get|receive) (an? (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|dm|note|reminder|invite|invitation|comment|reply))|(become|turn into|be turned into|be made into)(?= (?:an?|one) )|(create|open|raise|file|log|add|make)(?= (?:an?|one|the) ))\b/i;
/** "…, and have a 45-minute interview scheduled with me": one more thing the wish has done, its object first. */
const AND_HAVE_DONE = /\band (?:also )?have ((?:an?|the|their|its) [^,;]{1,60}?) ([a-z]+ed|sent|set up|made|booked)\b/gi;
/** "…, and have an interview scheduled with me" → "…, and schedule an interview with me". Pure. */
const andHaveDone = (rest: string, w: SegmentWords): string =>
  rest.replace(AND_HAVE_DONE, (all, object: string, had: string) => {
    const verb = baseOf(had, w);
    return verb ? `and ${verb} ${object}` : all;
  });
/** "…, and emailed a welcome note": one more thing the wish has done to them, its object after. */
const AND_DONE_TO_THEM = /(,?) and (?:also )?([a-z]+ed) (?=(?:an?|the|their|our) )/gi;

/** "I want applicants who did attach a portfolio to be moved to …": a wish for things of a kind done, as the duty. */
const WISH_KIND_DONE =
  /\b(?:i|we)(?:'d| would)? (?:also )?(?:like|want|need|love|prefer) ((?!(?:us|this|its|was|has|is|as)\b)[a-z][\w-]*[a-rt-z]s(?: (?:who|that|which) [^,;]{1,60}?)?) to (?:also )?be ([a-z]+ed|sent|put|set|kept|made|built|written|shared)\b/i;

/** A wish for each item, as the event and the duty: "When an applicant … applies …, send them an email …". Pure. */
function wishedForEach(text: string, w: SegmentWords): string {
  const m = WISH_EACH.exec(text);
  if (!m) return text;
  const [whole, kind = '', where = '', clause, participle, into = '', done, message, becomes, makes] = m;
  const singular = kind.replace(/(?<=\w{3})s$/, '');
  // ("every new lead from the website form": new items come in; "every customer" alone is no event)
  if (!clause && !participle && !/^new\s/i.test(kind)) return text;
  const event = clause
    ? `When ${articleFor(singular)} ${singular}${where} ${clause.trim()}`
    : participle
      ? `When ${articleFor(singular)} ${singular} is ${participle}${into}${where}`
      : `When ${articleFor(singular)} ${singular} comes in${where}`;
  const base = done ? baseOf(done, w) : undefined;
  // (a comment or a reply goes on the item itself: "every new pull request … to get a comment asking …")
  const onIt =
    message && /\b(?:comment|reply)$/i.test(message) ? `${/comment$/i.test(message) ? 'comment on' : 'reply to'} it` : undefined;
  // ("every message posted in #bugs to become a GitHub issue", "… to create a Jira issue": what is made for each)
  // (only for items that arrive, said with how: "every new starter … to open a ticket" is the starter's own doing)
  if ((becomes || makes) && !participle) return text;
  const made = becomes ? 'create' : makes?.toLowerCase();
  const duty = onIt ?? made ?? (message ? `send them ${message}` : base ? `${base} them` : undefined);
  if (!duty) return text;
  const rest = andHaveDone(text.slice((m.index ?? 0) + whole.length), w).replace(
    AND_DONE_TO_THEM,
    (all, comma: string, had: string) => {
      const verb = baseOf(had, w);
      return verb ? `${comma} and ${verb} them ` : all;
    },
  );
  return `${text.slice(0, m.index)}${event}, ${duty}${rest}`;
}

/**
 * A sentence's wishes for things done ("I'd like them added …, and an email sent to them", "we want them
 * to get a welcome email") as the duties that do them.
 */
/**
 * Some of the work said done to it, as the duty that does it: "Foot passengers under £40 get refunded in Stripe
 * automatically" → "refund foot passengers under £40 in Stripe automatically". Only an act a tool does, said as
 * what should happen ("get", "should be", "need to be"), with nobody named doing it ("… by the support team").
 */
const DONE_TO_SOME =
  /^((?:(?:the|all|any|every|each|our|new)\s+)?[\w'£$€-]+(?:\s+[\w'"£$€.,()-]+){0,11}?)\s+(get|gets|should get|must get|(?:should|must) (?:also |always |then |additionally )?be|needs? to be|are to be|is to be|shall be|shall (?:also|additionally|then|then also) be)\s+(refunded|invoiced|charged|billed|credited|emailed|texted|notified|reminded|chased|followed up|announced|tagged|labelled|labeled|archived|escalated|logged|filed|cancelled|canceled|closed|added|posted|forwarded|entered|booked|sent|saved|recorded|scheduled|invited|shared|uploaded|updated|assigned|moved|created|marked|flagged|answered|acknowledged|prioriti[sz]ed|routed)\b(?!\s+by\b(?!\s+(?:e-?mail|text|sms|phone|post|slack|whatsapp)\b))(.*)$/i;

/** Done by the writer: "(by me)", "by myself". */
const BY_ME = /\bby\s+(?:me|myself)\b/i;
/** Done by people through a page the org puts out: "through my Calendly link", "via our booking page". */
const THROUGH_OURS =
  /^\s*(?:\w+\s+)?(?:through|via)\s+(?:my|our)\s+(?:[\w-]+\s+){0,2}(?:link|page|booking page|form|site|website|portal|app|widget)s?\b/i;
/** What people do through such a page: a thing comes in by it ("booked", "added"), not a duty's act. */
const ARRIVES_THROUGH = /^(?:booked|scheduled|added|created|entered|uploaded)$/i;
/** Someone or something named as the doer: "by Shopify", "by our office manager" (not "by email", "by EOD"). */
const AGENT_BY =
  /\bby\s+(?:(?:the|our|their|a|an)\s+)?(?:[\w-]+\s+)?(?:[A-Z][\w-]*|[\w-]*(?:er|or|ist|ant|team|staff|manager|office|system|app|bot|tool|department|finance|reception|accounts|sync|form|integration|website))\b/;

/**
 * Work said to want doing, British style: "they need adding to BambooHR … and inviting to #crew", "overdue invoices
 * need chasing", "new starters need setting up in Slack" — (who or what, the verb's -ing, the rest).
 */
const NEEDS_DOING =
  /^((?:(?:the|all|any|every|each|our|their|new)\s+)?[\w'-]+(?:\s+[\w'-]+){0,7}?)\s+(?:also\s+)?(?:need|needs|want|wants|require|requires)\s+(?:also\s+)?([a-z]+ing)(\s+(?:up|out|off)\b)?(.*)$/i;
/** "… and inviting to #crew-2025": one more thing the same subject needs doing. */
const AND_DOING =
  /\b(and|or|then)\s+(?:also\s+)?([a-z]+ing)(\s+(?:up|out|off)\b)?(?=\s+(?:to|in|into|on|onto|with|from|for|as|about|the|a|an|their|his|her|our|its)\b)/gi;
/** "…, their date blocked out on the calendar, and their deal in HubSpot moved to Booked": more things done, said as done. */
const AND_DONE =
  /(,\s*(?:and\s+)?|\s+and\s+)((?:their|the|his|her|its)\s+(?:[\w'’-]+\s+){0,3}?)([a-z]+ed)(\s+(?:up|out|off)\b)?/gi;
const OBJECT_OF: Record<string, string> = { they: 'them', he: 'him', she: 'her', it: 'it', this: 'this', that: 'that' };

/** "they need adding to BambooHR and inviting to #crew" → "add them to BambooHR and invite them to #crew". Pure. */
function needsDoing(text: string, w: SegmentWords): string {
  const m = NEEDS_DOING.exec(text);
  const [, subject = '', gerund = '', particle = '', rest = ''] = m ?? [];
  if (!m || /^(?:if|when|whenever|once|after|before|unless|we|i|you|there|what|who|which|how)\b/i.test(subject)) return text;
  if (/\b(?:that|which|who)\b|,/i.test(subject) || startsWithVerbIn(subject, w) || findSchedule(subject)) return text;
  // ("customers want booking confirmations", "they need onboarding and a welcome email": a noun, not a duty)
  if (
    !/^(?:\s*$|\s*[,.;:!?(]|\s+(?:to|in|into|on|onto|with|for|from|by|as|about|at|every|each|whenever|when|once|after|before|within|straight|asap|immediately|today|tomorrow|weekly|daily|first|again|them|it|up|out|off|or\s+\w+ing|and\s+(?!(?:a|an|the|some)\b)\w+ing|(?:a|an|one|two|three|\d+)\s+(?:weeks?|days?|hours?|months?|minutes?))\b)/i.test(
      particle ? '' : rest,
    )
  )
    return text;
  const base = baseOfGerund(gerund, (l) => knownVerb(l, w));
  if (!base) return text;
  const lower = subject.toLowerCase();
  const object = OBJECT_OF[lower] ?? `${subject.charAt(0).toLowerCase()}${subject.slice(1)}`;
  const pronoun = OBJECT_OF[lower] ?? (/s$/i.test(subject) ? 'them' : 'it');
  const more = rest
    .replace(AND_DOING, (whole, joiner: string, next: string, up = '') => {
      const verb = baseOfGerund(next, (l) => knownVerb(l, w));
      return verb ? `${joiner} ${verb}${up} ${pronoun}` : whole;
    })
    .replace(AND_DONE, (whole, joiner: string, thing: string, done: string, up = '') => {
      const verb = lemmas(done.toLowerCase()).find((l) => l !== done.toLowerCase() && knownVerb(l, w));
      return verb ? `${joiner}${verb}${up} ${thing.trim()}` : whole;
    });
  return `${base}${particle} ${object}${more}`;
}

/**
 * "Each one needs a Zendesk ticket and an email back to the listener", "Those need a reply the same day": items just
 * said, and what each needs — a message sent to them, or a record made for them. Only after a word that points back
 * at the items (a subject of its own, "Refunds need a manager's approval", is a rule, not this).
 */
const NEEDS_THING =
  /^(each one|each of them|every one|those|these|they|each (?:[\w-]+)|all of them)\s+(?:also\s+)?(?:needs?|gets?|should get|must get|deserves?)\s+((?:an?|one)\s.+)$/i;
/** What is sent, as the verb that sends it. */
const SENT_THING: Record<string, string> = {
  reply: 'reply to',
  response: 'reply to',
  answer: 'reply to',
  email: 'email',
  'e-mail': 'email',
  text: 'text',
  sms: 'text',
  message: 'message',
  acknowledgement: 'acknowledge',
  acknowledgment: 'acknowledge',
  confirmation: 'send a confirmation to',
  call: 'call',
  'thank-you': 'thank',
};

/** "Each one needs a Zendesk ticket and an email back to the listener" → "create a Zendesk ticket for each one, and email back the listener". Pure. */
function needsThings(text: string): string {
  const m = NEEDS_THING.exec(text.trim().replace(/[.!]+$/, ''));
  if (!m?.[1] || !m[2]) return text;
  // ("They also get an email from Stripe if the card fails", "Each one gets a ticket number automatically": what
  // happens already, sent by someone else or by itself, is no duty)
  if (/\b(?:from|automatically|by itself|themselves|already)\b/i.test(m[2])) return text;
  // (said back as a pronoun, "them" to send to, "it" or "them" to make for: "for each sponsor" would read as an
  // arrival of its own)
  const made = /^(?:each|every)\b/i.test(m[1]) ? 'it' : 'them';
  const things = m[2].split(/\s+and\s+(?=(?:an?|one)\s)(?![^(]*\))/i);
  const duties: string[] = [];
  for (const thing of things) {
    const words = thing.trim().split(/\s+/);
    // the thing's head among its first words ("a warm welcome email", "a Zendesk ticket"): what is sent or made
    const at = words.slice(1, 4).findIndex((word) => SENT_THING[word.toLowerCase()] || RECORD_THING.test(word));
    const head = at < 0 ? undefined : (words[at + 1] as string).toLowerCase();
    const after = at < 0 ? '' : ` ${words.slice(at + 2).join(' ')}`.replace(/\s+$/, '');
    const sent = head ? SENT_THING[head] : undefined;
    if (sent === 'reply to') duties.push(`reply to them${after}`);
    else if (sent) {
      // "an email back to the listener": the one it goes to is said; else it goes to the items themselves
      const to = /^\s+(back\s+)?to\s+(.+)$/i.exec(after);
      duties.push(to?.[2] && !sent.includes(' ') ? `${sent}${to[1] ? ' back' : ''} ${to[2]}` : `send them ${thing.trim()}`);
    } else if (head || providersIn(thing).length > 0) duties.push(`create ${thing.trim()} for ${made}`);
    else return text;
  }
  return duties.join(', and ');
}
const RECORD_THING = /^(?:ticket|issue|task|contact|row|page|card|record|entry|lead|deal|folder|event|invoice|note)s?$/i;

/** A wish said before its start, as some writers say it: "I want that when this email arrive, the PDF go in …". */
const WISH_THEN_START = /^(?:i|we)\s+(?:want|would like|wish)\s+that\s+((?:when|whenever|if|once)\b[^,]{3,100}),\s*(.+)$/i;
/** A place things are kept in a tool: "the 'Invoices' folder", "our tracker sheet". */
const TOOL_PLACE =
  /\b(?:folder|drive|sheet|spreadsheet|calendar|crm|board|tracker|database|base|table|list|inbox|channel|workspace)s?\b/i;
/** A thing wished, or said it should, to go somewhere: (what, in/into/on, where and the rest), twice over. */
const GOES_INTO =
  /(?<=^|,\s*|\bthen\s+)(?:(?:i|we)\s+(?:(?:really\s+)?(?:want|need|would like)|['’]d like)\s+(?:that\s+)?)((?:the|those|these|each|every|all|any|our|my|their|its|them)\b(?:\s+[\w'’-]+){0,4}?)\s+(?:to\s+)?(?:go|be\s+put)\s+(in|into|on|onto)\s+((?:(?:my|our|the|their|a)\s+|(?=[A-Z])).+)$|(?<=^|,\s*|\bthen\s+)((?:the|those|these|each|every|all|any|our|my|their|its)\b(?:\s+[\w'’-]+){0,4}?)\s+(?:should|must|needs?\s+to|ha(?:s|ve)\s+to)\s+(?:also\s+)?(?:go|be\s+put)\s+(in|into|on|onto)\s+((?:(?:my|our|the|their|a)\s+|(?=[A-Z])).+)$/i;

/** Said done with "get", these read as what happens ("when an opportunity gets moved to Closed Won"), not a duty. */
const HAPPENS_WHEN_GOT = new Set([
  'entered',
  'booked',
  'sent',
  'saved',
  'recorded',
  'scheduled',
  'invited',
  'shared',
  'uploaded',
  'updated',
  'assigned',
  'moved',
  'created',
]);

export function passiveAsDuty(text: string, w: SegmentWords = NO_SERVED_WORDS, sentence = false): string {
  // ("and a comment should be added to the issue": the joining word is no part of the duty)
  const joined = /^(?:and|then|also)\s+(?=\S)/i.exec(text)?.[0] ?? '';
  if (joined) {
    const rest = passiveAsDuty(text.slice(joined.length), w, sentence);
    return rest === text.slice(joined.length) ? text : rest;
  }
  const found = DONE_TO_SOME.exec(text);
  // (a whole sentence that opens so says what is done: "Scan files attached to the email get saved to Drive")
  if (!sentence && found && /^gets?$/i.test(found[2] ?? '') && HAPPENS_WHEN_GOT.has((found[3] ?? '').toLowerCase())) return text;
  // (the subject, what is done, the rest)
  const m = found && ([found[0], found[1], found[3], found[4]] as const);
  // (a ban is no duty: "No messages should be sent after 8pm", "Nothing should be sent without my approval")
  if (
    !m?.[1] ||
    !m[2] ||
    /^(?:if|when|whenever|once|after|before|unless|we|i|you|they|it|this|that|there|no|nothing|none|never|neither)\b/i.test(m[1])
  )
    return text;
  // "Applicants who require a visa shall be sent the letter": the people it is for, as a condition of the duty
  const some = /^(?:(?:the|all|any|our)\s+)?([\w-]+s) who ((?!(?:is|are|was|were)\b)[^,]{3,80})$/i.exec(m[1]);
  const someBase = some ? baseOf(m[2], w) : undefined;
  if (some?.[1] && some[2] && someBase && !AGENT_BY.test(m[3] ?? ''))
    return `If ${some[1]} ${some[2]}, ${someBase} them${(m[3] ?? '').replace(/^\s*(?:also|additionally)\b/i, '')}`;
  // "Log every receipt that gets emailed to …": a duty already, its object said done to on the way in; "Every
  // Monday at 4pm, overdue invoices get emailed …": a lead first, which the rewrite would bury
  // (a relative clause in the subject says which; "that week's enrolments" points at a time, it is none)
  // (a list in brackets only names them: "Our three corporate clients (Hartwell Dental, Pike Architects) get invoiced …")
  if (
    /\b(?:which|who)\b|\bthat\b(?!\s+(?:[\w-]+'s|week|day|month|year|morning|afternoon|evening|night)\b)|,/i.test(
      m[1].replace(/\s*\([^()]*\)/g, ''),
    )
  )
    return text;
  if (startsWithVerbIn(m[1], w) || findSchedule(m[1])) return text;
  // "… get notified automatically by Shopify when …": somebody else does it
  // ("private sessions get booked through my Calendly link", "New hire gets added in BambooHR (by me, …)": done by
  // others through a page of ours, or by the writer — how the work comes, not a duty)
  if (AGENT_BY.test(m[3] ?? '') || BY_ME.test(m[3] ?? '') || (THROUGH_OURS.test(m[3] ?? '') && ARRIVES_THROUGH.test(m[2])))
    return text;
  // "Jira tickets should be posted in Slack": a product's items as the subject are the arrival (`productSubject`)
  if (providersIn(m[1]).length > 0) return text;
  const base = baseOf(m[2], w);
  // "Signed contracts should be saved to Drive", "Overdue invoices should be chased by email": what befell the things
  // is when the duty is done, said as a whole sentence
  // (not people: "Late payers should be reminded" says who, not what befell a thing)
  const befell =
    sentence &&
    !findSchedule(text) &&
    /^[\w-]+\s+[\w-]+s$/.test(m[1]) &&
    !/^(?:new|incoming)\b|\b(?:payers|customers|clients|members|users|people|parents|students|tenants|patients|candidates|applicants|employees|volunteers|donors|guests|drivers|contractors|suppliers|vendors|partners|owners|buyers|sellers|subscribers|renters|borrowers|debtors|accounts)$/i.test(
      m[1],
    )
      ? headingAsEvent(m[1])
      : null;
  if (base && befell) return `When ${befell}, ${base} them${m[3] ?? ''}`;
  return base ? `${base} ${m[1].charAt(0).toLowerCase()}${m[1].slice(1)}${m[3] ?? ''}` : text;
}

/**
 * Work routed to someone: "Anything over €5,000 goes straight to Luís in Slack", "Billing questions go to Sam on
 * Slack", "Urgent tickets go to me by text" — (the items, the person, how and the rest).
 */
const ROUTED =
  /^((?:anything|everything|all|those|these|the rest|(?!(?:the|a|an|this|that|its|their|when|whenever|if|once|for|as|after|before|every|each)\b)(?:[\w'-]+\s+){0,3}[\w'-]+s)(?:\s+(?:over|above|under|below|more than|less than|worth|from|about|with|that|which|marked|tagged)\b(?:[^,;]|,(?=\d)){0,40}?)?)\s+(?:go|goes|should go|must go|can go|could go|get sent|gets sent|are sent|is sent|can be sent)\s+(?:straight\s+|directly\s+|right\s+)?to\s+(me|us|(?!(?:Resolved|Done|Closed|Won|Lost|Approved|Shipped|Completed?|Archived?|Review|Pending|Paid|Live|Production|Staging|Backlog)\b)[A-Z][\p{L}'-]+(?!\s+[A-Z])|(?:the|our|their|my)\s+(?:(?!(?:in|on|by|via|over|through)\b)[\w-]+\s+){0,2}(?:manager|owner|lead|team|boss|director|supervisor|rep|accountant|bookkeeper|office|partner|vet|doctor|chef|foreman|head|handyman|engineer|technician|coordinator|admin|desk|nurse|receptionist)s?|#[\w-]+)((?:\s+(?:in|on|by|via|over|through)\s+(?:[\w#-]+\s*){1,3})?.*)$/u;

/** How routed work is sent: "in Slack", "on Slack", "by email", "by text", "in #billing". */
const ROUTE_CHANNEL =
  /^\s+(?:in|on|by|via|over|through)\s+(?:slack|e-?mail|text|sms|phone|whatsapp|teams|dm|direct message|#[\w-]+)\b/i;
/** Some of the work at hand, said by a quantity or a kind of it: "anything over €5,000", "those", "orders under £20". */
const SOME_OF_IT =
  /^(?:anything|everything|all|those|these|the rest)\b|\s(?:over|above|under|below|more than|less than|worth|marked|tagged)\s/i;

const ASKS_APPROVAL =
  /\bfor (?:a yes|approval|(?:a |the )?sign-?off|an ok|the ok|(?:a |the )?go-ahead|review)\b|\bto (?:approve|sign (?:it |them )?off|ok)\b/i;

export function wishesAsDuties(text: string, w: SegmentWords = NO_SERVED_WORDS): string {
  // "I want those to go into HubSpot as a contact", "the PDF should go in my Google Drive", "I want that the PDF go in
  // …": a thing wished to go somewhere is put there
  // ("I want that when this email arrive, the PDF go in …": the start first, then the wish)
  const first = WISH_THEN_START.exec(text);
  if (first?.[1] && first[2]) return wishesAsDuties(`${cap(first[1])}, I want that ${first[2]}`, w);
  const goes = GOES_INTO.exec(text);
  const [what, into, where] = goes?.[1] ? goes.slice(1, 4) : (goes?.slice(4, 7) ?? []);
  // (a place of a tool: a product, or a folder, sheet, board … — not "Those should go in the bin")
  if (goes && what && into && where && (providersIn(where).length > 0 || TOOL_PLACE.test(where)))
    return `${text.slice(0, goes.index)}${goes.index > 0 ? 'put' : 'Put'} ${what} ${into} ${where}`;
  const helped = wouldHelpIf(text, w);
  if (helped !== text) return helped;
  const needed = needsThings(text);
  if (needed !== text) return needed;
  // "Anything over €5,000 goes straight to Luís in Slack": for those items, send them on to that person
  // (an approval asked of them is a rule of the work: "Orders over £2,500 go to Marco for a yes first")
  const routed = ASKS_APPROVAL.test(text) ? null : ROUTED.exec(text.replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase()));
  const [, items, who, how] = routed ?? [];
  // (a name only with the way it is sent: "Luís in Slack", "Martina by email" — not "Stripe", "Room 4", "Leeds on Mondays")
  const named = who !== undefined && /^[A-Z]/.test(who);
  if (
    items &&
    who &&
    !/^(?:it|they|he|she|we|i|you|this|that|one|someone|people)$/i.test(items) &&
    (!named || (ROUTE_CHANNEL.test(how ?? '') && providersIn(who).length === 0))
  ) {
    // some of the work at hand ("Anything over €5,000", "Those") is sent on within it; work of a kind
    // ("Complaints go to Martina by email") is work of its own that arrives
    return SOME_OF_IT.test(items)
      ? `For ${items}, send them to ${who}${how ?? ''}`
      : `When ${items} come in, send them to ${who}${how ?? ''}`;
  }
  const each = wishedForEach(text, w);
  // (not a message wished received: "I want the customer on the linked ticket to get a reply" — "linked" is no wish)
  const kind = each === text && !RECEIVES_WISHED.test(text) ? WISH_KIND_DONE.exec(text) : null;
  // ("leads to be contacted by the sales team, not you": someone else's work)
  if (kind && /^\s+by\b/i.test(text.slice((kind.index ?? 0) + kind[0].length))) return text;
  const kindBase = kind?.[2] ? baseOf(kind[2], w) : undefined;
  const kindDone =
    kind?.[1] && kindBase
      ? `${text.slice(0, kind.index)}${kindBase} ${kind[1]}${andHaveDone(text.slice((kind.index ?? 0) + kind[0].length), w)}`
      : text;
  let wished = each !== text || kindDone !== text;
  let receiver: string | undefined;
  const duties = (each !== text ? each : kindDone)
    .replace(WISH_RECEIVED, (whole, who: string, message: string) => {
      // ("we need invoices to get a reminder": things are no one to send to)
      // (the one named, not where they are: "the customer on the linked Zendesk ticket")
      const head = who.split(/\s+(?:on|of|in|from|at|behind)\s+/)[0] ?? who;
      if (WORK_ITEMS.test(head.split(/\s+/).at(-1) ?? '')) return whole;
      wished = true;
      return `send ${who} ${message}`;
    })
    .replace(WISH_TOLD, (_whole, message: string, place?: string) => {
      wished = true;
      // ("a message in #conf-staff", "a text to my phone": where it goes is said; else it goes to the writer)
      return place ? `send ${message}` : `send me ${message}`;
    })
    .replace(WISH_PLACED, (whole, object: string, participle: string, place: string) => {
      const base = baseOf(participle, w);
      if (!base) return whole;
      wished = true;
      return `${base} ${object} ${place}`;
    })
    .replace(WISH_DONE, (whole, object: string, participle: string) => {
      const base = baseOf(participle, w);
      if (base) {
        wished = true;
        if (/^(?:them|him|her|each one|each of them|every one)$/i.test(object)) receiver = object;
      }
      return base ? `${base} ${object}` : whole;
    })
    // "I'd like them added to Notion, sent a welcome email, and booked into an intro call": each thing wished done to
    // the same people, one after the other
    .replace(LIST_DONE, (whole, joiner: string, participle: string) => {
      const base = receiver ? baseOf(participle, w) : undefined;
      return base ? `${joiner}${base} ${receiver}` : whole;
    });
  // "…, and an email sent to them": a message said done, only as one more wish of the same sentence
  if (!wished) return wishedAtLast(text, w);
  return duties
    .replace(
      MESSAGE_DONE,
      (_whole, article: string, message: string, done: string, where: string) =>
        `and ${done.toLowerCase() === 'posted' ? 'post' : 'send'} ${article} ${message} ${where}`,
    )
    .replace(POST_WISHED, (_whole, article: string, how: string | undefined, message: string, where: string) =>
      message.toLowerCase() === 'post' ? `and post ${where} ` : `and post ${article} ${how ?? ''}${message} ${where} `,
    )
    .replace(ALSO_DONE, (whole, participle: string, where: string) => {
      const base = baseOf(participle, w);
      return base ? `and ${base} it ${where}` : whole;
    })
    .replace(OBJECT_DONE, (whole, joiner: string, article: string, object: string, participle: string, where: string) => {
      const base = participle === 'put' ? 'put' : baseOf(participle.replace(/ up$/, ''), w);
      return base
        ? `${joiner === ',' ? ',' : 'and'} ${base}${participle.endsWith(' up') ? ' up' : ''} ${article} ${object} ${where}`
        : whole;
    });
}

const WISH = String.raw`\b(?:i|we)(?:['’]d| would)? (?:also |really |just )?(?:like|want|need|love|prefer) (?:for )?`;
/** "I want everyone who fills in the form to be added to HubSpot": anyone doing something, then what is done to them. */
const WISH_ANYONE = new RegExp(
  `${WISH}(?:everyone|everybody|anyone|anybody|each person|every person|people) (?:who|that) ([^,;]{3,100}?) to (?:also )?(?:be|get) ([a-z]+ed|sent|put|set|made|given|written|shared)\\b`,
  'i',
);
/** A wish for a thing or a person, its object first: "I want a 20-minute intro call … booked into …". */
const WISH_OBJECT = new RegExp(`${WISH}((?:a|an|the|our|my|their|every|each|all|any) [^.;]{1,100})`, 'i');
/** After the participle of a wish: where, to whom or what (not "a signed contract", an adjective before its noun). */
const AFTER_PARTICIPLE =
  /^(?:\s+(?:out|up|off|back))?(?:\s+(?:to|in|on|into|onto|as|with|for|by|at|from|under|the|a|an|their|his|her|them|him|its|our)\b|\s*[,.;]|\s*$)/i;
/** A message wished for, with no verb: "I want a welcome email within the hour", "a short round-up in #volunteers". */
const WISH_MESSAGE = new RegExp(
  `${WISH}((?:a|an) (?:[\\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|dm|note|reminder|summary|round-?up|digest|report|list|update|recap|heads-up|alert|notification)s?)\\b(?!\\s+from\\s+(?!(?:you|it|the (?:bot|assistant|employee|agent))\\b))(?!\\s+(?:page|doc|document|sheet|spreadsheet|file|row|entry|card|ticket|issue|task|record|database))`,
  'i',
);
/** A record wished for in a product: "I'd like a short summary page in Notion", "we want a ticket in Jira for each". */
const WISH_RECORD = new RegExp(
  `${WISH}((?:a|an|one) (?:[\\w'-]+ ){0,3}?(?:page|row|entry|ticket|issue|task|card|record|folder|doc|document|contact|lead)) (?=(?:in|on|into) (?:[A-Z]|the [\\w-]+ (?:database|board|project|folder)))`,
  'i',
);
/**
 * The wishes no reading above knows, as the duties they ask for: "I want a 20-minute intro call with each new volunteer
 * booked into a time when I'm free" → "book a 20-minute intro call with each new volunteer into a time when I'm free";
 * "I want everyone who fills in the form to be added to HubSpot" → "When someone fills in the form, add them to HubSpot";
 * "I want a short round-up in #volunteers every other Friday" → "post a short round-up in #volunteers every other Friday".
 * Pure.
 */
function wishedAtLast(text: string, w: SegmentWords): string {
  const anyone = WISH_ANYONE.exec(text);
  const anyoneBase = anyone?.[2] ? baseOf(anyone[2], w) : undefined;
  if (anyone && anyoneBase)
    return `${text.slice(0, anyone.index)}When someone ${anyone[1]}, ${anyoneBase} them${text.slice(anyone.index + anyone[0].length)}`;
  // ("a list in #eng-support every weekday of the Jira bugs filed from Zendesk": a message to a channel, whatever it lists)
  const message = WISH_MESSAGE.exec(text);
  const messageRest = message ? text.slice(message.index + message[0].length) : '';
  if (message?.[1] && /^\s+(?:in|to|into|on)\s+#[\w-]/.test(messageRest))
    return `${text.slice(0, message.index)}post ${message[1]}${messageRest}`;
  // ("Fridays at 5pm I'd like a short summary page in Notion": a record wished for where it is kept, made there)
  const record = WISH_RECORD.exec(text);
  if (record?.[1]) return `${text.slice(0, record.index)}create ${record[1]} ${text.slice(record.index + record[0].length)}`;
  const object = WISH_OBJECT.exec(text);
  if (object?.[1] && !/\b(?:who|that|which)\b/i.test(object[1].split(/\s+to be\s+/)[0] ?? '')) {
    const said = object[1];
    const words = [...said.matchAll(/(?:\bto (?:also )?(?:be|get) )?\b([a-z]+ed|sent|made|built|written|given|put|set up)\b/gi)];
    for (const m of words) {
      const at = m.index ?? 0;
      const after = said.slice(at + m[0].length);
      if (at === 0 || !AFTER_PARTICIPLE.test(after)) continue;
      const base = baseOf((m[1] ?? '').replace(/ up$/, ''), w);
      if (!base) continue;
      const before = text.slice(0, object.index);
      return `${before}${base}${m[1]?.endsWith(' up') ? ' up' : ''} ${said.slice(0, at).trim()}${after}`;
    }
  }
  if (message?.[1]) {
    const before = text.slice(0, message.index);
    return /^[^.;]*#[\w-]/.test(messageRest)
      ? `${before}post ${message[1]}${messageRest}`
      : `${before}send me ${message[1]}${messageRest}`;
  }
  return text;
}

/** A clause said of someone into the imperative: "the bot must read it" → "read it", "creates a page" → "create a page". */
/** "Each email = one Jira issue", "every order -> a row": what each item becomes, written as an equation. */
const EACH_MAKES = /^(?:each|every|one)\s+[\w-]+\s*(?:=|→|->)\s*(?:one|a|an|1)\s+/i;

/**
 * A ban said in the passive, ending its clause: "Requests for Sunday slots are not to be accepted", "Patient names
 * are not to be posted in Slack". Not one that says when it may be done ("… must not be issued without Dana's
 * approval" is an approval rule), nor one followed by more ("Urgent tickets must never be ignored, so when …") but
 * another ban (", and the assistant must not post …").
 */
const PASSIVE_BAN =
  /^(?:and\s+|but\s+)?([A-Za-z][\w'’ -]{1,80}?)\s+(?:(?:are|is)\s+(?:not|never)\s+to|(?:must|should|may|shall)\s+(?:not|never)|mustn't|shouldn't)\s+be\s+([a-z]+ed|sent|made|given|paid|done|taken|shown|told|written)\b(?![^:();,]*\b(?:without|unless|until|before|except|other than)\b)([^:();,]*(?:,\s*(?:and|or)\s[^:();,]*\b(?:not|never)\b[^:();,]*)?)$/i;

/** What may be left as it is, said of it: "Passes can be left alone", "Refunds under £5 can wait". */
const LEFT_AS_IT_IS =
  /^(?:and\s+|but\s+)?([A-Za-z][\w'’ -]{1,80}?)\s+(?:can|could|may|might)\s+(?:(?:just|safely|simply)\s+)?(?:be\s+(?:left(?:\s+(?:alone|as (?:it is|they are)))?|ignored|skipped)|wait)\b[^:();,]*$/i;

export function imperative(clause: string, w: SegmentWords = NO_SERVED_WORDS): string {
  // "Passes can be left alone" → "do not act on passes": a rule, no duty
  const left = LEFT_AS_IT_IS.exec(clause.trim());
  if (left?.[1] && !/^(?:it|they|this|that|these|those|he|she|you|we|i)$/i.test(left[1]) && !startsWithVerbIn(left[1], w))
    return `do not act on ${left[1].replace(/^(?:the|any|all)\s+/i, '').toLowerCase()}`;
  // "Requests for Sunday slots are not to be accepted" → "do not accept requests for Sunday slots": a rule, no duty
  const ban = PASSIVE_BAN.exec(clause.trim());
  const participle = ban?.[2]?.toLowerCase() ?? '';
  const banned =
    lemmas(participle).find((l) => knownVerb(l, w)) ?? (participle.endsWith('ed') ? participle.slice(0, -2) : participle);
  if (ban?.[1] && banned && !/^(?:it|they|this|that|these|those|he|she)$/i.test(ban[1]) && !startsWithVerbIn(ban[1], w))
    return `do not ${banned} ${ban[1].replace(/^(?:the|any|all)\s+/i, '').toLowerCase()}${ban[3] ?? ''}`;
  const needed = needsDoing(clause, w);
  if (needed !== clause) return needed;
  // "Each email = one Jira issue in project CASE": one thing made for each that comes
  const made = EACH_MAKES.exec(clause.trim());
  if (made) return `create a ${clause.trim().slice(made[0].length)}`;
  const received = receives(clause);
  if (received) return received;
  const passive = clause.trim().match(PASSIVE_DUTY);
  // ("it gets created in HubSpot by the form", "they get added automatically": done by something else)
  const onItsOwn =
    passive !== null &&
    /\bgets?\b/i.test(passive[0].slice(0, 40)) &&
    /\b(?:automatically|itself|themselves|overnight|by)\b/i.test(passive[3] ?? '');
  if (passive?.[1] && passive[2] && passive[3] !== undefined && !AGENT_BY.test(passive[3]) && !onItsOwn) {
    // "those should be saved into the folder" → "save them into the folder"; "it gets saved in the folder" → "save it …"
    const base = lemmas(passive[2].toLowerCase()).find((l) => knownVerb(l, w));
    const them = passive[1].toLowerCase() === 'it' ? 'it' : 'them';
    // ("they are to be logged as late and forwarded to the clerk": the second thing done to them, a duty too)
    const rest = passive[3].replace(/\band (?:also |then )?([a-z]+ed)\b/i, (whole, done: string) => {
      const verb = lemmas(done.toLowerCase()).find((l) => knownVerb(l, w));
      return verb ? `and ${verb} ${them}` : whole;
    });
    if (base) return `${base} ${them}${rest}`;
  }
  // "the applicant shall be entered as a new record": said done to it, after a lead ("Upon receipt, …")
  const done = passiveAsDuty(clause.trim(), w);
  if (done !== clause.trim()) return done;
  // "could you text them", "can you please reply": the asking is no part of the duty
  // ("switch to texts once we've sorted it": sending by that channel from then on)
  let t = clause
    .trim()
    .replace(/^(?:(?:could|can|would|will) you\s+(?:please\s+|kindly\s+)?|please\s+|kindly\s+)(?=[a-z])/i, '')
    .replace(/^(?:switch|move|change|go over)\s+to\s+(?=(?:texts?|sms|text messages?|e-?mails?)\b)/i, 'send ')
    .replace(SUBJECT_MODAL, '');
  const first = tokenize(t)[0];
  if (first && !knownVerb(first.lower, w)) {
    const base = lemmas(first.lower)
      .slice(1)
      .find((l) => knownVerb(l, w));
    // "creates", "books", "answers": a third-person verb of a duty ("Requests for Sunday slots are …" is a subject)
    if (base && /s$/.test(first.lower) && !/^[\w-]+s\b[^,;]{0,60}?\s(?:are|were)\b/i.test(t)) t = `${base}${t.slice(first.end)}`;
  }
  return t;
}

/**
 * A sentence that says how work arrives and then what to do with it, with no lead word:
 * "Clients often email us asking …; the assistant should find a time, put it on the calendar and reply".
 * The event is the part before the first clause that reads as a duty; null when no clause does.
 */
export function splitEventSentence(text: string, w: SegmentWords = NO_SERVED_WORDS): { lead: string; body: string } | null {
  // "Text replies from parents go into #office on Slack": the things coming in, posted where they are said to go
  const goes = GOES_TO_CHANNEL.exec(text);
  if (goes?.[1] && goes[2]) return { lead: `${goes[1]} come in`, body: `post them in ${goes[2]}` };
  // "Each text should become a Zendesk ticket": the event, then what it turns into
  const become = text.match(
    /^(.+?)\s+(?:should|must|will|needs? to|has to|have to)\s+(?:become|turn into|be turned into|be logged as|be filed as|(?:land|end up|come in|go in|arrive|show up|be added|be entered|be saved) as(?= (?:an?|new)\s|\s*(?:leads?|contacts?|tickets?|tasks?|issues?|deals?|cards?|rows?|entries|entry|records?|pages?|events?|bookings?|orders?|candidates?)\b))\s+(.+)$/i,
  );
  if (become?.[1] && become[2]) return { lead: become[1].trim(), body: `create ${become[2]}` };
  // "every new top-level message in #it-help becomes a ticket in the ITSD Jira project": a rule for each, said as
  // what happens to it — the event, then what it turns into
  const becomes = text.match(
    /^((?:every|each|any|all|anything|everything)\s.+?)\s+(?:becomes|turns into|is turned into|gets turned into|is logged as|gets logged as|is filed as|gets filed as)\s+((?:an?|a new|one)\s.+)$/i,
  );
  if (becomes?.[1] && becomes[2]) return { lead: becomes[1].trim(), body: `create ${becomes[2]}` };
  // "Jira tickets tagged urgent should be announced in #eng …": the product's items are the event, what is
  // done to them the duty ("announce them in #eng …")
  const subject = productSubject(text);
  if (subject) return subject;
  const cuts: { at: number; end: number }[] = [];
  for (const m of text.matchAll(CLAUSE_BREAK)) cuts.push({ at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  // "We receive repair requests through email - please reply to each …": a dash before the duty
  for (const m of text.matchAll(/\s[-–—]+\s+(?:(?:please|pls|kindly)\s+)?(?=[a-z])/gi))
    if (!enclosed(text, m.index ?? 0)) cuts.push({ at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  // "… on the website you add them to hubspot": a subject and a verb of work inside the first piece
  const inner = /\s(?=(?:you|the assistant|the bot|it)\s+(?:should\s+|must\s+|will\s+)?[a-z]+\b)/gi;
  for (const m of text.matchAll(inner)) cuts.push({ at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  // "… come in by email and what I want is for something to send them an invoice": what is wanted is the duty
  const wanted =
    /[\s,;—-]+(?:and |so )?what (?:i|we) (?:really )?(?:want|need|'d like|would like) is (?:for (?:something|someone|you|it|the bot|the assistant|an? [\w-]+) )?(?:to )?/gi;
  for (const m of text.matchAll(wanted)) cuts.push({ at: m.index ?? 0, end: (m.index ?? 0) + m[0].length });
  cuts.sort((a, b) => a.at - b.at);
  // ("Supervisors photograph every find and upload the photos to the folder": people said doing one thing and, with no
  // comma, another — both their own, the way the work arrives)
  // (after where or when they do it: "On site, supervisors …")
  const setting = /^(?:on|at|in|from|during|after|before|every|each)\b[^,]{0,30},\s*/i.exec(text)?.[0].length ?? 0;
  const theirs = bringsWork(text.slice(setting));
  for (const cut of cuts) {
    if (theirs && /^\s+and\s+$/i.test(text.slice(cut.at, cut.end)) && !text.slice(setting, cut.at).includes(',')) continue;
    // "… when they spot a swarm, and I'd love those texts forwarded to my mobile": a wish after the event is its duty
    // ("…, for those find the next open slot, book it": the items the duty is for, pointed back at, are the event's)
    const rest = wishesAsDuties(text.slice(cut.end).replace(FOR_THOSE, ''), w);
    // "crew leads answer by SMS; if the answer reports a problem, open …": the event ends at the semicolon
    // before a condition of what is done
    if (cut.at > 0 && text.slice(cut.at, cut.end).includes(';') && CONDITION_START.test(rest))
      return { lead: text.slice(0, cut.at).trim(), body: rest };
    // ("… by email all year and they pile up in summer": what they do, said of them, is no duty)
    if (THEY_DO.test(rest)) continue;
    // ("… posts to your webhook with the school name, contact email, number of pupils …": an item of what it carries)
    if (text.slice(cut.at, cut.end).startsWith(',') && listGoesOn(text.slice(0, cut.at), text.slice(cut.end))) continue;
    const piece = rest.split(/[,;]|\s(?:and|then)\s/)[0] ?? '';
    const duty = imperative(piece, w);
    const verb = tokenize(duty)[0]?.lower ?? '';
    const named = duty !== piece.trim() || knownVerb(verb, w);
    if (cut.at > 0 && named && startsWithVerbIn(duty, w) && !/^(is|are|was|were|be|get|gets|have|has)$/.test(verb)) {
      const body = rest;
      return {
        lead: text
          .slice(0, cut.at)
          .replace(/[\s,;]+(and|then)?\s*$/i, '')
          .trim(),
        body,
      };
    }
  }
  return null;
}

/** What they do, said of them with no modal of duty: "they pile up in summer", "they come in all year". */
const THEY_DO =
  /^they\s+(?!(?:should|must|will|would|can|could|shall|has|have|need|needs|is|are|get|gets|also|then|just|always|all)\b)[a-z]+\b/i;

/** The items just said, pointed back at before their duty: "for those", "for each of them", "for all of these". */
const FOR_THOSE =
  /^for (?:those|these|them|each (?:one|of (?:them|those|these))|every one|all (?:of )?(?:them|those|these))\s*,?\s*(?=[a-z])/i;

/** The thing a passive duty is done to: "each enquiry", "the first free one-hour slot in the next five working days". */
const PASSIVE_THING = String.raw`(?:each|every|the|that|this|its|their|an?)\s+(?:(?!(?:is|are|was|were|if|when|whenever|once|that|which|who|and|or|but|so)\b)[\w'’-]+\s+){0,12}?[\w-]+`;
/** How it is said done, before the participle: "is then", "are automatically". */
const PASSIVE_IS = String.raw`(?:is|are)\s+(?:then\s+|also\s+|immediately\s+|always\s+|automatically\s+)?`;
const PASSIVE_PARTICIPLE = String.raw`[a-z]+ed|sent|made|put|set|written|given|kept|found|told|shown|taken|paid`;
/** One passive duty: "each enquiry is answered by email", "a Slack message is posted to #front-desk". */
const PASSIVE_DONE = new RegExp(String.raw`^(?:then\s+)?(${PASSIVE_THING})\s+${PASSIVE_IS}(${PASSIVE_PARTICIPLE})\b(.*)$`, 'i');
/** Where one passive duty ends and the next begins: "…, and a home survey is booked …: the first free slot is found …". */
const PASSIVE_NEXT = new RegExp(
  String.raw`(?:,?\s+and\s+|,\s+|:\s+|;\s+)(?=(?:then\s+)?${PASSIVE_THING}\s+${PASSIVE_IS}(?:${PASSIVE_PARTICIPLE})\b)`,
  'i',
);
/** What a thing had done to it next, in the same clause: "is raised in QuickBooks and sent to the customer". */
const AND_DONE_NEXT =
  /\s+and\s+(?:then\s+)?(?=(?:[a-z]+ed|sent|made|put|set|written|given)\s+(?:to|in|on|into|by|with|for|as|via)\b)/i;

/**
 * A sentence of duties said in the passive, after an arrival ("Each enquiry is answered by email within the hour and a
 * Slack message is posted to #front-desk"), as the duties in the imperative; null when any part is not such a duty
 * (by someone: "each enquiry is answered by Sam"). Pure.
 */
export function passiveDuties(text: string, w: SegmentWords = NO_SERVED_WORDS): string | null {
  const parts = text.split(PASSIVE_NEXT);
  // (a thing of a kind set or moved, said first, is something happening: "An ILL request is set to 'Arrived' in Notion")
  if (/^an?\s/i.test(parts[0] ?? '')) return null;
  const duties: string[] = [];
  for (const part of parts) {
    // ("the deposit invoice (25% of the quoted amount) is raised …": an aside after the thing goes after the duty)
    const aside =
      /^((?:then\s+)?(?:each|every|the|that|this|its|their|an?)\s+[^()]{1,60}?)\s*(\([^()]{1,120}\))\s+((?:is|are)\s.*)$/i.exec(
        part.trim(),
      );
    const said = aside ? `${aside[1]} ${aside[3]}` : part.trim();
    const m = PASSIVE_DONE.exec(said);
    if (!m?.[1] || !m[2]) return null;
    const [first = '', ...more] = (m[3] ?? '').split(AND_DONE_NEXT);
    for (const [participle, rest] of [
      [m[2], first] as const,
      ...more.map((x) => [x.split(/\s/)[0] ?? '', x.slice(x.indexOf(' '))] as const),
    ]) {
      if (/^\s*by\s+(?!e-?mail|text|sms|phone|post|hand|slack)\S/i.test(rest)) return null;
      // ("the order number is used instead", "the link is included": how things are, no act)
      if (
        /^(?:used|needed|required|known|called|named|based|located|included|shown|stored|kept|given|allowed|expected|prepared|done)$/i.test(
          participle,
        )
      )
        return null;
      const base = baseOf(participle.toLowerCase(), w);
      if (!base || !knownVerb(base.split(' ')[0] ?? base, w)) return null;
      const object =
        participle === m[2] ? m[1].replace(/^(?:then\s+)?/i, '').replace(/^[A-Z](?=[a-z])/, (c) => c.toLowerCase()) : 'it';
      duties.push(`${base} ${object}${rest}${participle === m[2] && aside ? ` ${aside[2]}` : ''}`.trim());
    }
  }
  return duties.length > 0 ? duties.join(', and ') : null;
}

/** How work is said to come to the org: "submitted", "received", "placed", "sent in". */
const ARRIVING =
  /^(?:submitted|received|placed|made|filled|lodged|booked|raised|opened|emailed|texted|sent|posted|uploaded|dropped)$/i;

/** Things a product holds that arrive as work: "Jira tickets", "HubSpot deals", "Zendesk requests". */
const WORK_ITEMS =
  /^(tickets?|issues?|bugs?|requests?|deals?|leads?|contacts?|orders?|invoices?|payments?|messages?|emails?|mails?|events?|meetings?|candidates?|applications?|applicants?|hires?|pull requests?|prs?|files?|documents?|envelopes?|pages?|signups?|sign-ups?|submissions?|forms?|refunds?|charges?|subscriptions?|tasks?|cards?|records?|entries|entry|rows?|texts?|sms|enquir(?:y|ies)|inquir(?:y|ies)|bookings?|claims?|complaints?|reservations?)$/i;

/**
 * A sentence whose subject is a product's items and whose verb says what happens to them:
 * "Jira tickets tagged urgent should be announced in #eng-oncall" → lead "Jira tickets tagged urgent
 * arrive", body "announce them in #eng-oncall". The product is a catalog product at the very start
 * (in any case: "jira tickets …"), or a capitalised name followed by the items it holds.
 */
/**
 * What befell the things a label names, where a label says so ("Failed payments (cards)", "Overdue invoices",
 * "Paid invoices"), not a kind of thing named by a state ("Late fees", "Paid members", "Paid plans", "Paid ads").
 */
const labelBefell = (label: string): string | null =>
  /^late\b/i.test(label.trim()) ||
  (/^paid\b/i.test(label.trim()) && !/^paid\s+(?:invoices|orders|bookings|deposits|bills|balances)\b/i.test(label.trim()))
    ? null
    : headingAsEvent(label);

/** A label that names a kind of things that come in: "Refund requests", "New enquiries", "Support tickets". */
const ITEMS_LABEL =
  /^(?!(?:confirmation|reminder|marketing|outgoing|thank-you|thank you|reply|welcome|invoice|follow-up|follow up|receipt|booking confirmation|sales)\b)(?:(?:(?:new|incoming|inbound)\s+)?(?:[\w-]+\s+){0,2}?(?:requests|enquiries|inquiries|complaints|applications|tickets|leads|sign-?ups|submissions|questions|returns|claims|referrals)|(?:new|incoming|inbound)\s+(?:[\w-]+\s+)?(?:e-?mails|messages|texts|bookings))$/i;

/** Things that come in, said to go to a channel: "Text replies from parents go into #office on Slack". */
const GOES_TO_CHANNEL =
  /^((?:(?:all|any|every|each|new|incoming)\s+)?(?:[\w-]+\s+){0,3}?(?:texts?|sms(?:es)?|e-?mails?|messages?|replies|requests?|enquiries|inquiries|tickets?|leads?|orders?|submissions?|bookings?|applications?|complaints?|questions?)(?:\s+(?:from|by|about|to|for)\s+[^,;#]{1,40}?)?)(?<=\b(?:from|by|to|for|new|incoming|inbound|texts?|sms(?:es)?|e-?mails?)\b.*)\s+(?:should\s+|must\s+|always\s+|all\s+)?(?:go|goes|get posted|gets posted|are posted|is posted|get sent|are sent|get forwarded|are forwarded)\s+(?:in|into|to|on)\s+((?:the\s+)?#[\w-]+(?![^.;]*\b(?:not|never|rather than|instead of)\b).*)$/i;

/** Things said with how they reach us: "any SMS that comes into our number", "every email that lands in ops@". */
const ARRIVING_SUBJECT =
  /^(?:(?:any|every|each|all|all the|the)\s+)?(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:that|which)\s+(?:comes?|came|arrives?|lands?|gets?\s+sent|is\s+sent|are\s+sent|turns?\s+up|shows?\s+up)\b/i;

export function productSubject(text: string): { lead: string; body: string } | null {
  const got = text.match(RECEIVES);
  if (got?.[1] && got[2] && holdsWorkItems(got[1].trim())) {
    const subjectText = got[1].trim();
    const verb = RECEIVED[got[2].toLowerCase()];
    if (!verb) return null;
    const lead = /\b(that|which|who)\b/i.test(subjectText) ? subjectText : `${subjectText} arrives`;
    return { lead, body: `${verb} them${got[3] ?? ''}` };
  }
  const m = text.match(
    /^(.{3,80}?)\s+(should|must|will|need to|needs to|have to|has to|are to|get|are)\s+(?:also\s+|always\s+|automatically\s+|immediately\s+)?(?:be\s+|get\s+)?([a-z]+ed)\b(.*)$/i,
  );
  if (!m?.[1] || !m[3]) return null;
  const subjectText = m[1].trim();
  // ("Any SMS that comes into our number should be posted in #inbox": things said with how they arrive, whatever they are)
  const arriving =
    ARRIVING_SUBJECT.test(subjectText) && /^(?:should|must|will|need to|needs to|have to|has to|are to)$/i.test(m[2] ?? '');
  // ("Signed contracts should be saved to Drive", "Overdue invoices should be chased by email": things said by what
  // befell them, which is the start)
  const befell =
    /^(?:should|must|will|need to|needs to|have to|has to|are to)$/i.test(m[2] ?? '') &&
    /^[\w-]+\s+[\w-]+s$/.test(subjectText) &&
    !/^(?:new|incoming|inbound)\b/i.test(subjectText)
      ? headingAsEvent(subjectText)
      : null;
  if (!holdsWorkItems(subjectText) && !arriving && !befell) return null;
  // "New-patient enquiries are submitted through the form on our website": how they come, said as it is, is their
  // arrival (not what must be done to them: "… should be logged in Notion")
  if (/^(?:are|get)$/i.test(m[2] ?? '') && ARRIVING.test(m[3]) && !/^\s*by\s+(?:you|the assistant|the bot)\b/i.test(m[4] ?? ''))
    return { lead: text, body: '' };
  const base = lemmas(m[3].toLowerCase()).find((l) => KNOWN_VERBS.has(l));
  if (!base) return null;
  if (arriving) return { lead: subjectText, body: `${base} it${m[4] ?? ''}` };
  if (befell) return { lead: befell, body: `${base} them${m[4] ?? ''}` };
  return { lead: `${subjectText} are created`, body: `${base} them${m[4] ?? ''}` };
}

/** Whether a subject is a product's items: a catalog product at its start, or a capitalised name, then what it holds. */
function holdsWorkItems(said: string): boolean {
  const subject = said.replace(/^(?:(?:every|each|all|any|the|a|an|new|incoming)\s+)+/i, '');
  const named = providersIn(subject).find((p) => p.index === 0);
  const words = subject.split(/\s+/);
  const items = named
    ? subject.slice(named.name.length).trim().split(/\s+/)[0]
    : /^[A-Z][\w.-]+$/.test(words[0] ?? '')
      ? words[1]
      : undefined;
  return !!items && WORK_ITEMS.test(items);
}

/** He, she or they doing something, with no modal of duty: "she approves those herself", "so they know …". */
const SOMEONE_ELSE =
  /^(?:so\s+|and\s+|because\s+|as\s+)?(?:(?:he|she)\s+(?!(?:also|then|just|always|does|has|was|is)\b)[a-z]+[^s\s]s|they\s+(?!(?:should|must|will|would|can|could|shall|has to|have to|need to|needs to|is to|are to|also|then|just|always)\b)[a-z]+)\b/i;
/** A message's content said as a "that" clause after a verb of telling: "reminding PIs that the report …". */
const TOLD_THAT = /\b(?:remind|tell|inform|say|confirm|explain|mention|let [\w-]+ know)\w*\b[^,;]*?\bthat\s[^,;]*$/i;

const CLAUSE_BREAK =
  /,\s*(?:and then|and|or|then|but|plus)?\s*|;\s*(?:and |then |otherwise,? )?|\s+(?:and then|and|then|as well as|plus|but)\s+|:\s+(?=[a-z])|\s+(?:→|->|=>)\s+(?=[a-z])/gi;
const CONDITION_START = /^(when|whenever|if|once|unless|otherwise|after|before|in case)\b/i;
/** A clause that sends a message: "text the guest …", "email them …", "let the team know …". */
const MESSAGE_FIRST =
  /^(?:(?:also|then|and)\s+)?(?:(?:just|simply)\s+)?(?:text|sms|email|e-mail|message|dm|reply|respond|answer|write|tell|notify|remind|ping|let\s+[\w'-]+(?:\s+[\w'-]+)?\s+know|send\s+(?:[\w'-]+\s+){0,4}?(?:sms|text|e-?mail|message|note|reply))\b/i;
/** A list of what something carries, its last phrase: "posts to your webhook with the school name". */
const LISTING =
  /\b(?:with|including|containing|listing|quoting|showing|giving)\s+(?:(?:the|their|its|a|an|each|every|his|her)\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}$/i;
/**
 * An item of such a list that starts with a word that could be a verb: "…with the school name, contact email, number
 * of pupils" — a verb and a bare noun, then the list goes on (not "…with the details, email the client").
 */
const listGoesOn = (before: string, rest: string): boolean =>
  LISTING.test(before.replace(/\s*\([^()]*\)\s*$/, '')) &&
  (/^[a-z][\w-]*\s+(?!(?:the|a|an|them|him|her|it|us|me|our|their|his|its|this|that|these|those|each|every|all|any|some|to|in|on|at|for|with|by)\b)[a-z][\w'-]*(?:\s+of\s+[\w'-]+)?\s*(?:,|\s+and\s+[a-z][\w'-]*(?:\s+[\w'-]+){0,3}\s*(?:[.;]|$))/i.test(
    rest,
  ) ||
    // (a word alone, then the list goes on: "…with the client's name, email, language, level")
    /^[a-z][\w-]*\s*,\s*[a-z]/i.test(rest));
/** A duty said as an order, its verb first ("ping #front-desk"), not a statement of it ("gets an email", "goes in #shop-floor"). */
const ordersDuty = (text: string, w: SegmentWords): boolean => startsWithVerbIn(text, w) && imperative(text, w) === text;
/** The rest of the work, said before its own duty: "anything else ping #front-desk", "for everything else, forward it". */
const ELSE_CASE =
  /^(?:(?:and|but|or)\s+)?(?:for\s+)?(?:(?:anything|everything|all|anyone|everyone) else|the rest|(?:any|all|every) other(?: [\w-]+)?)\b[,:]?\s*/i;

/** Splits an action body into clauses, one per verb: "create a folder and share it, send an email" → 3. */
/** Words that introduce the duties after a colon: "do this", "do the following", "do three things". */
const LIST_INTRO = /^(?:(?:please|then|and)\s+)*do\s+(?:this|these|the following|(?:two|three|four|five|a few|\d+)\s+things)$/i;

export function splitClauses(body: string, w: SegmentWords = NO_SERVED_WORDS): { clauses: string[]; conditions: string[] } {
  const clauses: string[] = [];
  const conditions: string[] = [];
  let start = 0;
  const pieces: string[] = [];
  for (const m of body.matchAll(CLAUSE_BREAK)) {
    const at = (m.index ?? 0) + m[0].length;
    const rest = body.slice(at);
    // a list in brackets or quotes is part of its clause: "(child name, class, reason, date)", "\"thanks, noted\"";
    // so is the wording of a message, quoted after a comma: "text the patient a reminder, \"reply C to cancel\""
    if (enclosed(body, m.index ?? 0) || /^["«“]/.test(rest)) continue;
    // "go through what came in overnight: save every attachment …" is two duties; "text them: reply STOP to …" is one
    // message and its words
    // (nor a colon before details, "…: pages × $4.25", or before what something else does, "…: it POSTs the part number")
    if (
      /^:/.test(m[0]) &&
      (MESSAGE_FIRST.test(body.slice(start, m.index ?? 0).trim()) ||
        // ("create a HubSpot task for whoever's on quote duty: call back within 2 hrs": what the task says)
        /^(?:(?:also|then|and)\s+)?(?:create|add|leave|open|make|set)\s+(?:(?:a|an|the)\s+)?(?:[\w-]+\s+)?(?:task|note|comment|reminder|to-?do)\b/i.test(
          body.slice(start, m.index ?? 0).trim(),
        ) ||
        !/^[a-z'’]+\s+\S/.test(rest) ||
        /^(?:[a-z]*[^s]s|it|they|he|she|we|this|that|these|those|if|when|whenever|unless|once|or|and)\b/.test(rest))
    )
      continue;
    // "with the customer's name, device, fault and branch": a list's last word, not a duty of its own
    // (or of what a message carries: "reply in the thread with the ticket key and link")
    if (
      /^\s+and\s+$/i.test(m[0]) &&
      /^[\w'-]+\s*(?:[.,;]|$)/.test(rest) &&
      (body.slice(start, m.index ?? 0).includes(',') ||
        /\b(?:with|including|containing|listing|quoting|showing|giving)\b/i.test(body.slice(start, m.index ?? 0)))
    )
      continue;
    if (/^,/.test(m[0]) && listGoesOn(body.slice(start, m.index ?? 0), rest)) continue;
    // ("text the patient the date and time from the clinic number": two nouns said as a pair, "time" no verb)
    if (
      /^\s+and\s+$/i.test(m[0]) &&
      /\b(?:date|day|name|place|venue|address|location|start)\s*$/i.test(body.slice(start, m.index ?? 0)) &&
      /^(?:time|times|date|place|location|address|venue)\b/i.test(rest)
    )
      continue;
    // ("email the couple a reminder … and copy in Jess", "polite chase email to the customer, cc accounts@…": who else
    // the message goes to)
    if (/^(?:cc|bcc)(?::|\s)\s*\S|^(?:copy|copying|cc['’]?ing)\s+in\b/i.test(rest)) continue;
    // ("text the coach the pitch, kick-off time and referee details": a noun made of a verb and its particle, no duty)
    if (/^,/.test(m[0]) && /^[a-z]+-(?:off|up|in|out|over|on|down|back)\b/i.test(rest)) continue;
    // ("create a QuickBooks invoice for the shipper, net 30, send it to them": the invoice's terms, no duty)
    if (/^,/.test(m[0]) && /^net[\s-]?\d{1,3}\b/i.test(rest)) continue;
    // ("…, due in 2 business days, to follow up personally": why, after a comma, not a duty of its own)
    if (/^,\s*$/.test(m[0]) && /^to\s+(?!do\b|be\b)[a-z]+/i.test(rest) && start < (m.index ?? 0)) continue;
    // "text the guest to let them know it's sorted and ask if there's anything else": one message, two things said
    // (or ends with thanks: "send one more SMS to the resident that the pickup is done and thank you")
    if (
      (/^ask\s+(?:if|whether)\b/i.test(rest) ||
        /^thank(?:s| you)(?:\s+(?:them|him|her|you))?\s*[.!]*$/i.test(rest) ||
        // ("text the owner to say their dog is ready and remind them we close at 5:30": more of what one message says,
        // to the same people, by no other channel)
        (/^(?:remind|tell|ask|let)s?\s+(?:them|him|her(?!\s+[a-z]+(?:['’]s)?\s+(?:to|that|about|if|whether)\b))\b/i.test(rest) &&
          !/#[\w-]|\b(?:by|via|on|over|in)\s+(?:e-?mail|text|sms|slack|teams|phone|whatsapp)\b/i.test(rest) &&
          // (a time or a case of its own is a message of its own: "… and remind them the day before"; not what they are
          // asked or told: "ask them to ring us if they can't make it")
          !/\b(?:before|after|later|again|next|tomorrow|within|once|every|each|on (?:mon|tue|wed|thu|fri|sat|sun)|in \d|a (?:day|week|month))\b/i.test(
            rest,
          ) &&
          (/^(?:asks?\s+\w+\s+to|tells?\s+\w+\s+(?:to|that|they|it|we))\b/i.test(rest) ||
            !/\b(?:if|unless|until|when)\b/i.test(rest)) &&
          providersIn(rest).length === 0) ||
        // ("just tell them and suggest they pick another date": what the message says, after it names only whom)
        (/^(?:suggest|offer|explain|say)\b/i.test(rest) &&
          providersIn(rest).length === 0 &&
          !/\bcalendar\b/i.test(rest) &&
          /^(?:(?:just|simply)\s+)?(?:tell|text|email|message|let)\s+(?:them|him|her|the\s+[\w'-]+)(?:\s+know)?\s*$/i.test(
            body.slice(start, m.index ?? 0).trim(),
          ))) &&
      MESSAGE_FIRST.test(body.slice(start, m.index ?? 0).trim())
    )
      continue;
    // "assign it to Claire, she approves those herself", "…, so they know who to expect": someone else acting,
    // said inside the sentence with no modal of duty, is no duty of the employee's
    if (SOMEONE_ELSE.test(rest)) continue;
    // "reminding PIs that the usage report and recharge statements are available": what is told, not a duty
    if (
      TOLD_THAT.test(body.slice(start, m.index ?? 0)) &&
      /^(?:[\w'-]+\s+){1,3}(?:are|is|were|was|will be|have been|has been)\b/i.test(rest)
    )
      continue;
    if (
      startsWithDuty(rest, w) ||
      // "…, moves are all on our Google calendar": a statement spliced on is no part of the duty before it
      (/^\s*,/.test(m[0]) && PLURAL_SUBJECT.test(rest)) ||
      CONDITION_START.test(rest) ||
      (ELSE_CASE.test(rest) && ordersDuty(rest.replace(ELSE_CASE, ''), w)) ||
      m[0].trim().startsWith(';') ||
      rewriteRouting(rest.split(/[,;]/)[0] ?? '')
    ) {
      // ("do this: save the PDF …", "do three things: …": what introduces the duties is none)
      if (!/^:/.test(m[0]) || !LIST_INTRO.test(body.slice(start, m.index ?? 0).trim()))
        pieces.push(body.slice(start, m.index ?? 0));
      start = at;
    }
  }
  pieces.push(body.slice(start));
  pieces.forEach((raw, i) => {
    let piece = raw.trim();
    if (!piece) return;
    // ("…, anything else ping #front-desk": what is not the case before it, then its own duty)
    const rest = ELSE_CASE.exec(piece);
    if (i > 0 && rest && ordersDuty(piece.slice(rest[0].length), w)) {
      conditions.push(rest[0].replace(/[\s,:]+$/, ''));
      piece = piece.slice(rest[0].length).trim();
    }
    if (CONDITION_START.test(piece)) {
      // "when you cannot answer, create a ticket": the condition guards what follows the comma
      // (or a closing parenthesis: "if the answer reports a problem (no access, …) open a Jira issue")
      const comma = [...piece.matchAll(/,\s*|(?<=\))\s+/g)].find((m) =>
        startsWithVerbIn(piece.slice((m.index ?? 0) + m[0].length), w),
      );
      // ("once they pick one put it in the calendar": no comma, the condition ends where the duty's verb starts)
      const led = comma ? null : detectLead(piece, w);
      if (comma) {
        conditions.push(piece.slice(0, comma.index ?? 0).trim());
        piece = piece.slice((comma.index ?? 0) + comma[0].length).trim();
      } else if (led?.body && led.kind !== 'schedule' && !led.text.includes(',') && startsWithVerbIn(led.body, w)) {
        conditions.push(led.text);
        piece = led.body;
      } else if (/^otherwise\b/i.test(piece)) {
        piece = piece.replace(/^otherwise,?\s*/i, '');
      } else if (i < pieces.length - 1) {
        // ", and when it comes back signed, upload it": the condition guards the next clause
        conditions.push(piece);
        return;
      } else {
        // a trailing condition of the previous clause
        const prev = clauses.pop();
        clauses.push(prev ? `${prev}, ${piece}` : piece);
        return;
      }
    }
    clauses.push(startsWithVerbIn(piece, w) ? piece : (rewriteRouting(piece) ?? piece));
  });
  return { clauses, conditions };
}

const cap = (s: string): string => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
const clip = (s: string, n: number): string => (s.length <= n ? s : `${firstUnits(s, n - 1).replace(/\s+\S*$/, '')}…`);

/** Why a duty is done, said after it: ", so that I stop chasing them by hand". */
const PURPOSE = /,?\s+so that\s(?![^(]*\))(?![^"“”]*["”]).*$/i;

/** "…, and the ticket to be solved": one more thing wished done, its object first. */
const AND_TO_BE_DONE =
  /(,?\s+and\s+)((?:the|their|its|that|this|his|her) [\w-]+(?: [\w-]+)?) to (?:also )?be ([a-z]+ed|sent|made|put|set)\b/gi;

function addClauses(draft: Draft, body: string, w: SegmentWords, saidIfFree = false): void {
  // ("On the 3rd and 17th, the bins are collected, so post a reminder in #office": why, then the duty, after a start)
  const said = dutyAfterWhy(body, w).replace(AND_TO_BE_DONE, (whole, and: string, object: string, participle: string) => {
    const base = baseOf(participle, w);
    return base ? `${and}${base} ${object}` : whole;
  });
  // "(so 24h before it starts) text the patient …": an aside before the duty is no part of it
  // ("they need adding to BambooHR and inviting to #crew": said as duties first, so the second splits off)
  const { clauses, conditions } = splitClauses(needsDoing(said.replace(/^\s*\([^()]{0,120}\)\s*,?\s*/, ''), w), w);
  // ("Check that room's calendar. If it's free, book it": the condition of the sentence after the look)
  const ifFree = saidIfFree || conditions.some((c) => IF_FREE.test(c));
  let first = true;
  // (a duty said after work the person keeps is the last thing said again)
  if (clauses.length > 0) draft.kept = undefined;
  for (const raw of clauses) {
    const c = imperative(raw, w)
      // "…, so that good people don't wait": why it is done, no part of what is done
      .replace(PURPOSE, '')
      .replace(BECOME, 'create ')
      .replace(
        TURN_INTO,
        (_whole, what: string, article: string, made: string) =>
          `create ${article} ${made} from ${what.replace(/\s*\([^()]*\)/g, '')}`,
      );
    // "can you take this over?": the whole job handed over, said of it — no duty of its own
    // ("if a customer texts back, like asking a question or whatever, …": an example of the event, no duty)
    if (HAND_OVER.test(c) || /^(?:like|say|e\.g\.?|such as)\s+[a-z]+ing\b/i.test(c)) continue;
    const parsed = parseClause(c);
    // "so leave QuickBooks alone": hands off, said as an order ("Otherwise post nothing", "do nothing": no act at all)
    if (parsed.negated || LEAVE_ALONE.test(c) || DO_NOTHING.test(c)) draft.constraints.push(c);
    else if (startsWithVerbIn(c, w)) {
      // "look at my calendar, find a free 3-hour block": the look is the finding, said twice
      const last = draft.clauses.length - 1;
      if (/^find\b/i.test(c) && FREE_TIME.test(c) && BARE_LOOK.test(draft.clauses[last] ?? '')) draft.clauses.pop();
      // "check the instrument's calendar, book it if it's free": the look before was for a free time
      if (
        (IF_FREE.test(c) || (ifFree && first)) &&
        LOOKS_AT_CALENDAR.test(draft.clauses[last] ?? '') &&
        !/^find\b/i.test(draft.clauses[last] ?? '')
      )
        draft.clauses[last] = `find a free slot: ${draft.clauses[last]}`;
      first = false;
      // ("create a ticket in Zendesk with the text, tag "sperrmuell", …": the tag of the ticket just made)
      const tag = BARE_TAG.exec(c);
      if (tag && MAKES_TICKET.test(draft.clauses[last] ?? '')) {
        draft.clauses[last] = `${draft.clauses[last]}, tagged ${tag[1]}`;
        continue;
      }
      for (const one of alsoMade(c)) draft.clauses.push(...freeTimeFirst(oneNamed(one, draft.clauses.at(-1)), draft.clauses));
    }
  }
}

/** A tag named and nothing more: "tag "sperrmuell"", "tag it `urgent`". */
const BARE_TAG = /^tag\s+(?:it\s+|them\s+)?(["'“`][^"'”`]{1,40}["'”`])$/i;
/** A duty that makes a ticket or an issue: "create a ticket in Zendesk with …", "open a Jira issue …". */
const MAKES_TICKET = /^(?:create|open|raise|log|file|make|add)\b[^,;]*\b(?:ticket|issue|case|bug)\b/i;

/** No act at all, said as one: "do nothing", "post nothing", "otherwise say nothing", "nothing". */
const DO_NOTHING =
  /^(?:(?:otherwise|then|just|simply)\s+)*(?:(?:(?:do|post|send|say|reply|text|email|write)\s+)?nothing\b(?!\s+(?:but|except|other than|else than)\b)|wait(?:\s+for\s+(?:her|him|them|it|a reply|an answer|approval|the ok|their ok))?\s*$)/i;

/** Hands off, said as an order: "leave QuickBooks alone", "just leave those ones alone". */
const LEAVE_ALONE = /^(?:please\s+)?(?:just\s+)?leave\s+[^,;]{1,60}?\s+alone\b/i;

/** A look at a calendar and nothing more: "look at my calendar", "check the Jobs diary" (not "check it for double bookings"). */
const BARE_LOOK =
  /^(?:look|check|see)\s+(?:at\s+|in\s+)?(?:my|our|the|their|his|her)?\s*(?:[\w'’-]+\s+){0,2}?(?:calendar|diary|agenda)s?$/i;

/** A duty done only if a time is free: "book it if it's free", "if the date is still available". */
const IF_FREE =
  /\bif (?:it(?:'s|’s| is)|they(?:'re|’re| are)|(?:the|that) (?:[\w-]+ ){0,2}?(?:is|are)) (?:still )?(?:free|available|open|not (?:taken|booked))\b/i;

/** "create a HubSpot contact, plus a follow-up task for the rep": a second thing made by the same verb. */
const PLUS_THING =
  /^(create|add|open|make|set up|log)\s+([^()]+?),?\s+(?:plus|as well as|along with)\s+((?:an?|one)\s+(?![£$€\d])[^()]+)$/i;
/** What a product of the catalog makes, as the second thing of "plus": "a follow-up task", "a Jira ticket". */
const MADE_THING =
  /^(?:an?|one)\s+(?:[\w-]+\s+){0,2}?(?:task|card|contact|invoice|ticket|issue|row|page|deal|lead|folder|event|customer|note|record|entry|channel|opportunity)s?\b/i;

/**
 * A duty that makes one thing "plus" another, as two duties of the same verb: "create a HubSpot contact, plus a
 * follow-up task for the rep" → "create a HubSpot contact", "create a follow-up task for the rep". Pure.
 */
export function alsoMade(clause: string): string[] {
  const m = PLUS_THING.exec(clause);
  if (!m?.[1] || !m[2] || !m[3] || !MADE_THING.test(m[3])) return [clause];
  return [`${m[1]} ${m[2]}`, `${m[1]} ${m[3]}`];
}

const UNDONE = /^(?:cancel|delete|remove|close|archive|replace|drop|call off|decline)\b/i;
const MADE = /^(?:create|book|add|make|schedule|set up|open|put|start|send out|raise|log)\b/i;
/** Words that tell one of a kind from another, not the kind: "the old calendar event", "the new one". */
const WHICH_ONE =
  /^(?:the|a|an|their|his|her|our|my|your|its|this|that|old|new|existing|current|previous|original|same|other|first|second|next|last|updated|replacement)$/i;

/**
 * "cancel the old calendar event and create the new one": "one" is the kind the duty before named (→ "create the
 * new calendar event"); unchanged when the duty before names no object. Pure.
 */
export function oneNamed(clause: string, before: string | undefined): string {
  const one = /\b((?:the|a)\s+(?:new|replacement|updated|fresh)|another)\s+one\b/i.exec(clause);
  // (only an old one undone and a new one made: "refund the old order and ship a new one" sends a new kettle)
  if (!one || !before || !UNDONE.test(before) || !MADE.test(clause)) return clause;
  // (only where the duty before says which one went: "the old calendar event", "their existing booking")
  const object = parseClause(before).object;
  if (!/\b(?:old|existing|current|previous|original)\b/i.test(object)) return clause;
  const kind = object.split(/\s+/).filter((x) => x && !WHICH_ONE.test(x));
  if (kind.length === 0 || kind.length > 3 || kind.some((x) => !/^[\w-]+$/.test(x))) return clause;
  return `${clause.slice(0, one.index)}${one[1]} ${kind.join(' ')}${clause.slice(one.index + one[0].length)}`;
}

/** A time that must be free: "my next two free slots", "when the crew lead is free", "the first available". */
const FREE_TIME =
  /\b(?:(?:has|have|with)\s+(?:an?|one|two|three|\d+)\s+(?:[\w-]+\s+)?(?:hours?|slots?|minutes?|mins?|gaps?|spots?)\s+free\b|[Ff]ree (?!(?:up|the|that|this|their|its|his|her|our|my)\b)(?:[\w-]+ ){0,2}?(?:slots?|times?|spots?|windows?|blocks?|gaps?)\b|[Ff]ree half[- ]hours?(?![- ](?:consultation|session|call|trial|lesson|class|demo|meeting))|(?:next|first|earliest) (?:available|open|free) (?:[\w-]+ )?(?:slots?|times?|dates?|days?|appointments?|openings?|windows?|hours?)\b|[Ww]hen (?:[Ii]|we|he|she|they|(?:the|our|my|his|her|a|an) (?:[\w-]+ ){0,4}?[\w-]+|[A-Z][a-z]+(?: [A-Z][a-z]+)?) (?:am|is|are|'m|'s|'re)\s+(?:both\s+|all\s+)?free\b|[Ww]hen (?:[Ii]|we|he|she|they|[A-Z][a-z]+) (?:am|is|are|'m|'s|'re)\s+available\b|\b(?:at )?a time (?:when |that )?(?:[Ii]|we|he|she|they|[A-Z][a-z]+)(?:'m|'re|'s| am| are| is) (?:actually |really |genuinely )?(?:free|available)\b)/;
/** Looking at a calendar for a free time: "check availability in the calendar", "see when Dana is available". */
const LOOKS_FOR_TIME =
  /\b(?:calendar|diary|agenda|schedule|slots?|free|when (?:i|we|he|she|they|[A-Z][a-z]+) (?:am|is|are) available)\b/i;
/** Looking for the time itself: "look in my agenda when I am free", "check availability in the calendar". */
const LOOKS = /^(?:look|check|see|search|scan|go through|find)\b/i;
const LOOKS_AT_CALENDAR = /^(?:look|check|see|search|scan|go through|find)\b.*\b(?:calendar|diary|agenda|availability|free)\b/i;

/**
 * A duty that uses a free time ("reply offering my next two free slots", "book a site measure when the crew
 * lead is free") first finds one: the calendar is looked at, then the time is offered or booked — unless a
 * duty before it looks at the calendar already. A duty that only looks ("look in my agenda when I am free",
 * "check availability") is the finding itself. Pure.
 */
export function freeTimeFirst(clause: string, before: readonly string[] = []): string[] {
  const looks = LOOKS.test(clause);
  const availability =
    /\b(?:availab(?:ility|le)|free)\b/i.test(clause) &&
    (LOOKS_FOR_TIME.test(clause) ||
      /\b(?:team|staff|people|everyone|their|his|her|my|our)(?:['’]s)? availability\b/i.test(clause));
  if (!(FREE_TIME.test(clause) || (looks && availability))) return [clause];
  // ("find an hour next week when the lead and the PM are both free": a length of time found is a free slot of it)
  const length =
    /^find\s+((?:an?|one|two|three|\d+)\s+(?:hours?|half[- ]hours?|minutes?|mins?|mornings?|afternoons?))\b(?!\s+(?:slots?|windows?|blocks?|gaps?|and|or|that|which|free)\b)\s*/i.exec(
      clause,
    );
  if (length?.[1]) return [`find a free slot of ${length[1]} ${clause.slice(length[0].length)}`.trim()];
  if (looks) return /^find\b/i.test(clause) ? [clause] : [`find a free slot: ${clause}`];
  // "get them into an orientation: find a free 30-minute slot …": the finding said inside the duty
  if (/\b(?:find|look for|search for)\b/i.test(clause)) return [clause];
  if (before.some((c) => LOOKS_AT_CALENDAR.test(c))) return [clause];
  return ['find a free slot in the calendar', clause];
}

/** A request to take the work over, as a clause: "take this over", "take it off my plate", "take over from me". */
const HAND_OVER =
  /^(?:please\s+)?(?:take\s+(?:(?:this|it|that|them|these|all (?:of )?this)\s+(?:over|off (?:my|our) (?:plate|hands))|over(?:\s+(?:this|it|that|from (?:me|us)))?)|(?:keep|carry on|continue)\s+doing\s+(?:(?:both|all)\s+(?:of\s+)?)?(?:this|that|these|those|them|it)(?:\s+(?:things?|bits?|jobs?|tasks?|steps?))?|do\s+(?:both|all)\s+(?:of\s+)?(?:these|those|them)(?:\s+(?:things?|bits?|jobs?|tasks?|steps?))?(?:\s+(?:too|as well|also|from now on|for me|for us|instead))*)\b[\s?!.]*(?:please|pls|for (?:me|us))?[\s?!.]*$/i;

/** A rule that some of the work waits for a person's yes: "Refunds over $100 need a manager's approval first". */
const APPROVAL_RULE =
  /\b(?:needs?|requires?|must (?:get|have|be)|has to (?:get|have|be)|subject to|only (?:with|after)|goes? through)\b[^.;]{0,40}\b(?:approv\w*|sign[- ]?off|signed off|ok|okay)\b/i;

/**
 * Work handed over in general, before it is said: "We would like the assistant to take over some of the reminders I do
 * every week" — what follows says which.
 */
const HANDS_SOME_OVER =
  /\b(?:take over|take on|pick up|help (?:me |us )?with)\s+(?:some|most|a few|part|a couple)\s+of\s+(?:the|my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+\s+(?:that\s+|which\s+)?(?:i|we)\s+(?:do|send|handle|run|make|look after)\b/i;

/** A letter's greeting to the one it welcomes: "Welcome to the Learning team at …!", "Welcome aboard". */
const WELCOMED = /^[Ww]elcome (?:[Aa]board|on board|to (?:the|our|your)\b|to [A-Z][\w&'’-]*(?: [A-Z][\w&'’-]*){0,3}\s*[!.]*$)/;
/** A title that names the job by its kind of work: "Refund handling for Vico Group", "Credit control & supplier bills –". */
const TITLE_OF_JOB =
  /^(?:[\w&'’-]+\s+){0,3}(?:handling|management|automation|automations|processing|operations|admin|rules|playbook|procedure|desk)\b(?=\s+(?:for|at|of|in)\b|\s*[(:–—-]|\s*$)/i;
/** What a message carries, said after it: "Include the link to …", "Attach the invoice", "Mention the parking". */
const MESSAGE_CARRIES = /^(?:please\s+)?(?:include|attach|mention|add in|put in)\b/i;

/** Turns sentences into drafts: one per responsibility, with what starts it. */
const STATUS_QUO =
  /^(?:at the moment|currently|right now|at present|presently|these days|nowadays|today|until now|up to now|so far|for now|(?:how|the way) (?:it|this|things) (?:works?|is done|gets? done|goes|happens?) (?:now|today|at the moment|currently)(?: is)?|(?:what happens|the process|our process) (?:now|today|at the moment|currently)(?: is)?)\b[,:]?\s+([\w'-]+)/i;
/**
 * Said to be no work at all: "… both are already in everyone's calendar, nothing to do there", "That's Finance's
 * process and has nothing to do with this".
 */
const NOTHING_TO_DO =
  // ("When the opportunity goes to Closed Lost, nothing to do, the sales person writes the reason": a start with none)
  /^(?:when|whenever|if|once)\b[^,]{3,100},\s*(?:then\s+)?(?:there(?:'s|’s| is)\s+)?nothing (?:to do|needed|required)\b(?![^.]*\b(?:but|however|otherwise)\b)|\bnothing (?:for (?:you|it|the (?:assistant|bot|helper)) )?(?:to do (?:there|here|with (?:it|this|that|them|us|you))|(?<=for (?:you|it|the (?:assistant|bot|helper)) )(?:there|here|in (?:it|this|that)))\b/i;
/**
 * Work said not to be the employee's: "The weekly tonnage report we make in Excel, it is not your job", "quotes are
 * done by Ruth in Xero, not your business", "The shipping we organise ourself, by telephone, is not for you".
 */
const NOT_YOURS =
  /\b(?:(?:is|are|'s)\s+)?not\s+(?:for you|yours|your (?:job|business|concern|problem|department|responsibility|task|area|thing))\b|\bnone of your (?:business|concern)\b/i;
/** A product left behind: "FYI we moved off HubSpot last year", "we stopped using Greenhouse". */
const LEFT_BEHIND =
  /\b(?:we|i)\s+(?:have\s+)?(?:(?:moved|migrated|switched)\s+(?:off|away\s+from)|stopped\s+using|no\s+longer\s+use|don['’]?t\s+use|used\s+to\s+use)\b/i;
/**
 * Something said (work not the employee's, someone else's, a product left behind), and nothing to do in the same sentence
 * after it: "Invoicing is done by Ana in Xero; don't go near it" — but not "Refunds are handled by Sam, so post each one
 * in #refunds for him", whose duty stands.
 */
const saidOnly = (said: RegExp, text: string, w: SegmentWords): boolean => {
  const m = said.exec(text);
  if (!m) return false;
  return !text
    .slice((m.index ?? 0) + m[0].length)
    .split(/[,;.]|\s[-–—]\s/)
    .map((piece) => piece.trim().replace(/^(?:(?:so|and|then|but|please|just|instead)\s+)+/i, ''))
    .some((piece) => piece !== '' && !NOT_TO_DO.test(piece) && ordersDuty(piece, w));
};
/** Work someone else does, said as theirs: "Invoicing is done by Ana in Xero; don't go near it", "… are handled by marketing". */
const DONE_BY_SOMEONE =
  /\b(?:is|are) (?:done|handled|run|managed|sorted|dealt with|looked after|taken care of|owned) by (?!(?:you|it|the (?:assistant|bot|employee|agent|helper))\b)(?:[A-Z][a-z]+|(?:the|our) [\w-]+(?: team)?|marketing|finance|sales|support|hr|ops)\b/;
/** A name given, and nothing more: "Jira project is PAY", "The channel is #ops-alerts", "Our repo is `payments-api`". */
const NAMING =
  /^(?:(?:our|the|my)\s+)?(?:[\w-]+\s+){0,2}(?:project|board|space|workspace|repo|repository|channel|calendar|folder|inbox|account|team|org|key)\s+(?:is|are|=)\s+(?:called\s+|named\s+)?[`"'#@]?[A-Za-z0-9][\w.@/-]*[`"']?$/i;
/** Work said to be no part of the role: "…; they are outside the scope of this role", "that is not part of this SOP". */
const OUT_OF_SCOPE =
  /\b(?:(?:is|are|falls?|sits?) (?:outside|out of|beyond) (?:the |my |our |your |this )?(?:scope|remit)|(?:is|are) not (?:part of|in|within) (?:the |my |our |your |this )?(?:scope|remit|role|job|sop|process)\b|(?:is|are) out of scope)\b/i;
/** Work a system does by itself: "…, which creates the calendar events itself", "the form books it itself". */
const DONE_BY_ITSELF = /\b(?:which|that|it)\s+(?:already\s+)?[a-z]+s\b[^.;]{0,80}?\bitself\b/i;
/** A sentence that says how the work is done today, by someone: "Currently we copy …", "Right now the office types …". */
function isStatusQuo(text: string, w: SegmentWords): boolean {
  const next = STATUS_QUO.exec(text)?.[1]?.toLowerCase();
  if (!next) return false;
  return /^(?:we|i|they|he|she|it|someone|somebody|everyone|nobody|no one|people|a|an|the|our|my|their|one|two|three|each|every|all|most|some)$/.test(
    next,
  )
    ? true
    : !knownVerb(next, w);
}

/** A duty that goes through what came in: "go through that day's results emails", "review the week's invoices". */
const GOES_THROUGH =
  /^(?:go(?:es)? through|review|check|search|look (?:at|through|over)|scan|collect|gather|compile|summari[sz]e|count|list|read)\b/i;

/** A time before the items just said to be on a calendar: "(… are in the Groups calendar.) An hour before each one". */
const BEFORE_EACH_ONE = /\bbefore (?:each|every|any) (?:one|of them)\b|\bbefore (?:them|it) (?:starts?|begins?)\b/i;

/**
 * A schedule "an hour before each one" after a sentence of its block that says the items are on a calendar is the
 * time before each item of that calendar: an event, said with the sentence that names them. Pure.
 */
function ofCalendarSaid(lead: Lead | null, all: readonly Sentence[], index: number): Lead | null {
  if (lead?.kind !== 'schedule' || !BEFORE_EACH_ONE.test(lead.text)) return lead;
  const before = calendarSaidBefore(all, index);
  return before ? { ...lead, kind: 'event', text: withContext(lead.text, before.text.replace(/[.!]\s*$/, '')) } : lead;
}

/** The last sentence before this one, in its block, that says things are on a calendar. Pure. */
const calendarSaidBefore = (all: readonly Sentence[], index: number): Sentence | undefined =>
  all
    .slice(0, index)
    .reverse()
    .find((b) => b.block === all[index]?.block && /\bcalendars?\b/i.test(b.text));

/** The item a time inside a duty is before, pointed at: "an hour before theirs", "the day before each one". */
const ITEM_POINTED = /^\s+(theirs|yours|hers|his|(?:each|every) one|(?:each|every|any) of them|it|them)\b/i;

/**
 * A time said inside a duty before each of the items just said, in its block, to be on a calendar ("Conferences are
 * booked on the "Conferences" calendar. Text the parent an hour before theirs"): the start it is, with that sentence
 * as its context, and where the words of the start begin and end. Pure.
 */
function ofCalendarBefore(
  sched: { text: string; index: number; relative: boolean },
  text: string,
  all: readonly Sentence[],
  index: number,
): { lead: string; start: number; end: number } | null {
  if (!sched.relative || !/\bbefore$/i.test(sched.text)) return null;
  const pointed = ITEM_POINTED.exec(text.slice(sched.index + sched.text.length));
  const calendar = pointed ? calendarSaidBefore(all, index) : undefined;
  if (!pointed || !calendar) return null;
  return {
    lead: withContext(`${sched.text} ${pointed[1]}`, calendar.text.replace(/[.!]\s*$/, '')),
    start: sched.index,
    end: sched.index + sched.text.length + pointed[0].length,
  };
}

/** A thing pointed back at in a start: "marks someone as "Approved" in that register", "on the same board". */
const THING_POINTED_AT =
  /\b(?:that|the same|this|the said)\s+(register|database|board|sheet|spreadsheet|table|tracker|pipeline|folder|calendar|project|workspace|base|inbox|log|rota)\b/gi;

/**
 * A start in a place said before with its product ("add them to the volunteer register we keep in Notion. … when our
 * coordinator marks someone as "Approved" in that register"): the place, in that product — said with the start. Only
 * where the start names no product, and the earlier sentence names the thing then a product within eight words. Pure.
 */
function ofThingSaid(lead: Lead | null, all: readonly Sentence[], index: number): Lead | null {
  if (
    lead?.kind !== 'event' ||
    providersIn(lead.text).some((m) => !m.weak) ||
    /\b(?:e-?mails?|texts?|sms|calls?|forms?|slack)\b|#[\w-]+/i.test(lead.text)
  )
    return lead;
  for (const m of lead.text.matchAll(THING_POINTED_AT)) {
    const thing = (m[1] ?? '').toLowerCase();
    for (const before of all.slice(0, index).reverse()) {
      const said = new RegExp(
        `\\b${thing}s?\\b((?:\\s+[\\w'’-]+){0,8}?)\\s+(?:in|on|into|onto|inside)\\s+(?:our\\s+|the\\s+)?`,
        'i',
      ).exec(before.text);
      if (!said) continue;
      const at = (said.index ?? 0) + said[0].length;
      const product = providersIn(before.text).find((p) => !p.weak && p.index === at);
      if (product) return { ...lead, text: withContext(lead.text, `${thing} in ${product.name}`) };
    }
  }
  return lead;
}
/** A lead that points back at the arrival just said: "When that happens", "once this comes in", "after it arrives". */
const SAME_EVENT =
  /^(?:(?:when(?:ever)?|once|after|as soon as)\s+(?:that|this|it|they|one(?: of (?:them|those|these))?)\s+(?:happens?|comes? in|arrives?|lands?|is posted|is sent|occurs?)|(?:up)?on (?:receipt|arrival)(?: of (?:it|them|each one|one))?)$/i;

/** A start that is only a yes given: "Once approved", "Once it's signed off", "After approval". */
const APPROVED_LEAD =
  /^(?:once|after|when|as soon as|upon)\s+(?:(?:it|that|this|they|the [\w-]+)\s*(?:is|are|has been|have been|gets?|got|'s|’s)\s+)?(?:approved|signed off|okayed|ok'?d|approval|sign-?off)$/i;

/** Some of the work at hand, by its amount: "Anything over £1,500 I want to see first", "Those under $50: …". */
const AMOUNT_OF_IT =
  /^(?:(?:but|and|oh|also)[\s,]+)*(?:anything|everything|any|those|ones|invoices|orders|refunds|payments|amounts?)\s+(?:over|above|under|below|more than|less than|bigger than|larger than|smaller than)\s+[$£€]?\d(?![^.;]*\b(?:comes?|arrives?|(?:is|are) received)\b)/i;

/** Answering the one who wrote in, or a word pointing back at what came in: "txt the customer back", "tag it". */
const POINTS_BACK =
  /^(?:reply|respond|answer|acknowledge)\b(?!\s+to\s+(?!(?:them|him|her|it|the\s+(?:sender|customer|person|caller|client|requester))\b))|^[\w-]+\s+(?:[\w'-]+\s+){0,3}?back\b|^[\w-]+\s+(?:it|them|this|that)\b/i;

/**
 * Whether an item with no start of its own carries on the arrival of the item just before it ("- ppl text the
 * emergency number …, forward the txt to #callouts" then "- txt the customer back …"): it answers the one who
 * wrote in, points back at what came in, or names the same work item. Pure.
 */
function carriesOn(draft: Draft, s: Sentence, text: string, w: SegmentWords): boolean {
  return (
    draft.kind === 'event' &&
    s.first &&
    draft.block === s.block - 1 &&
    (POINTS_BACK.test(text) ||
      AMOUNT_OF_IT.test(s.text) ||
      sharesThing([draft.hint, ...draft.sentences].join(' '), text, w) ||
      // ("1. When a referral arrives, save the letter to Drive." ¶ "2. The assistant adds the patient to Notion.": the
      // next numbered step of the procedure its start opened, when it says a duty and no start of its own)
      (s.step === true &&
        draft.clauses.length > 0 &&
        SAID_OF_THE_EMPLOYEE.test(s.text) &&
        text.split(/\s+/).length >= 3 &&
        startsWithDuty(text, w)) ||
      // ("It also needs to request their DBS check as soon as they are added.": the arrival just said, pointed back at)
      (draft.clauses.length > 0 && SAME_ARRIVAL_AFTER.test(text) && startsWithDuty(text, w)))
  );
}

/** A step said of the employee: "The assistant adds …", "It labels …" (not a list of other duties: "Keep the sheet tidy"). */
const SAID_OF_THE_EMPLOYEE =
  /^(?:the (?:assistant|bot|agent|helper|ai|digital (?:assistant|employee))|it)\s+(?:then\s+|also\s+|will\s+|should\s+)?[a-z]+s?\b/i;

/** A duty's time said last as the arrival before it: "… as soon as they are added", "… once it is signed". */
const SAME_ARRIVAL_AFTER =
  /\b(?:as soon as|when|whenever|once|after)\s+(?:they|it|he|she|this|that)\s+(?:are|is|get|gets|have been|has been|come in|comes in|arrive|arrives)(?:\s+[a-z]+ed)?\s*[.!]?$/i;

/** A determiner and the word or two after it: "the sailing", "each new candidate". */
const POINTED_AT = /\b(?:the|that|this|its|their|each|every|any|all)\s+([\w'-]+)(?:\s+([\w-]+))?/gi;

/** People the work is for or by, whom many duties name without speaking of the same arrival. */
const PEOPLE_WORDS = /^(?:customers?|clients?|users?|people|persons?|team|staff|members?|managers?|owners?|everyone|anyone)$/i;

/**
 * A thing both texts name, the second pointing back at it ("a sailing" cancelled, then "the sailing is
 * cancelled"; not "Chase overdue invoices", some other invoices): no verb, no person. Pure.
 */
function sharesThing(a: string, b: string, w: SegmentWords): boolean {
  const said = new Set(contentWords(a).map(nounStem));
  // the words a determiner points at in b, right after it or after one word that qualifies them
  const pointed = new Set([...b.matchAll(POINTED_AT)].flatMap((m) => [m[1], m[2]]).flatMap((x) => (x ? [x.toLowerCase()] : [])));
  return contentWords(b).some(
    (x) =>
      x.length > 2 &&
      !GENERIC.has(x) &&
      !PEOPLE_WORDS.test(x) &&
      !knownVerb(x, w) &&
      said.has(nounStem(x)) &&
      pointed.has(x.replace(/[^\w-]/g, '').toLowerCase()),
  );
}

/** "At that point, email the customer …": a word of sequence before a duty goes (not "At that point, the customer calls"). */
function afterSequence(text: string, w: SegmentWords): string {
  const sequenced = text.replace(TRANSITION, '');
  return sequenced !== text && startsWithDuty(sequenced, w) ? sequenced : text;
}

/**
 * "At 14 days overdue, send a firmer email", said in an invoice's chase (`chasing`): the invoice that late. A library
 * book's chase says no invoice, and keeps its words.
 */
function invoiceChased(text: string, chasing: boolean, w: SegmentWords): string {
  const chased = AT_DAYS_OVERDUE.exec(text);
  const duty = chased ? text.slice(chased[0].length) : '';
  if (!chased || !chasing || !startsWithDuty(duty, w)) return text;
  return `When an invoice is ${daysOf(chased[1] ?? '1', chased[2] ?? 'days')} days overdue, ${duty}`;
}

/**
 * "A lot of our pickers don't read email, so text them the interview time as well": why, then the duty — the duty.
 * A style said so stays as it is ("most of them are over 70, so please keep every message short" is a guideline).
 */
function dutyAfterWhy(text: string, w: SegmentWords): string {
  const so = startsWithVerbIn(text, w) || detectLead(text, w) ? null : SO_THEN_DUTY.exec(text);
  // ("…, so what I'd like is: about two hours before each appointment, send …": the wish's words are no part of it)
  const duty = so
    ? text
        .slice(so.index + so[0].length)
        .replace(PREAMBLE, '')
        .trim()
    : '';
  // (a start after "so" only where what comes before is why, not how work arrives: "orders come in through the form,
  // so when one of those comes in …" keeps its arrival)
  // ("Urgent tickets must never be ignored, so when one arrives, …": a start that points back keeps what it points to)
  const started =
    so && !isEventSentence(text.slice(0, so.index), w) && !POINTS_BACK_LEAD.test(duty) ? detectLead(duty, w)?.kind : undefined;
  return so &&
    (startsWithDuty(duty, w) || started === 'event' || started === 'schedule') &&
    !GUIDELINE.test(duty) &&
    !STYLE_HEAD.test(stripLeadIns(duty))
    ? duty
    : text;
}

/** Thanks, as a sentence of its own that asks nothing done. Pure. */
const politeness = (text: string): boolean =>
  /^(?:thanks|thank you|thx|cheers|ty|many thanks|much appreciated|(?:i|we) (?:really )?appreciate (?:it|this|your help))\b(?!\s+to\b)/i.test(
    text.trim(),
  ) &&
  text.trim().split(/\s+/).length <= 25 &&
  // (asking anything done: "Cheers, and please also save every attachment to Dropbox")
  !/\b(?:please|send|email|post|text|reply|tell|book|add|create|make|forward|update|notify|remind|save|log|copy|archive|file|export|share|upload|move|put|invite|schedule|assign|tag|label|open|close|refund)\b/i.test(
    text.replace(/^\S+/, ''),
  );

/** An item's label that names a person: "Gareth", "Lou (volunteer rep)", "Priya Shah". */
// (a plural is a topic, "Reminders:", "Invoices:", not a person)
const PERSON_LABEL = /^[A-Z][a-z'’-]*[a-rt-z'’-](?:\s+[A-Z][a-z'’-]+)?(?:\s*\([^)]{1,40}\))?$/;
/** A label that names no one: "Trigger", "Notes", "Owner", "Date". */
const NOT_A_PERSON =
  /^(?:trigger|triggers|action|actions|note|notes|step|steps|when|then|if|do|task|tasks|rule|rules|goal|why|how|what|where|who|schedule|frequency|owner|example|context|background|summary|purpose|scope|tools?|systems?|date|present|apologies|agenda|decisions?|outcome|input|output|status|update|fyi|ps|re|subject|from|to|cc|owner|manager|boss|me|client|customer|founder|director|user|staff|team)\b/i;
/** What an assistant says back in a transcript: "Got it.", "Understood.", "Happy to.", "Will do." */
const SPOKEN_BACK =
  /^(?:got it|understood|sure|ok|okay|will do|happy to|noted|of course|sounds good|thanks|thank you|great|perfect|right|yes|no problem)\b/i;
/** A person's action in minutes: "Aisha to look at moving the donate page to Stripe". */
const PERSON_TO_DO = /^(?:[A-Z][a-z'’-]+)(?:\s+(?:and|&)\s+[A-Z][a-z'’-]+)?\s+to\s+(?!be\b)[a-z]+\b/;

function assemble(all: Sentence[], w: SegmentWords): { drafts: Draft[]; guidelines: string[]; openAt: Map<Sentence, Draft> } {
  const drafts: Draft[] = [];
  const guidelines: string[] = [];
  // the workflow being written when each sentence was read
  const openAt = new Map<Sentence, Draft>();
  let current: Draft | null = null;
  // the sentence at hand, with its label: where a draft opened by it says its ways in as such
  let saying = '';
  /** work the person keeps, said before any workflow opened */
  let keptAlone: string | undefined;
  const open = (block: number, kind: TriggerKind, hint: string): Draft => {
    const d: Draft = { block, opened: block, kind, hint, sentences: [], read: [], clauses: [], constraints: [] };
    if (SAID_AS_WAYS.test(saying)) d.ways = true;
    if (keptAlone) d.keptBefore = keptAlone;
    keptAlone = undefined;
    drafts.push(d);
    current = d;
    return d;
  };

  // an invoice's chase: one that names invoices, or "when one is 14 days overdue" where invoices are spoken of
  const invoicesSaid = all.some((s) => /\binvoices?\b/i.test(s.text));
  const chasesInvoices = (hint: string): boolean =>
    /\binvoice/i.test(hint) ||
    (invoicesSaid && /^(?:when|if|once)\s+(?:it|one|they)\s+(?:is|are|gets?)\s+\S+\s+(?:days?|weeks?)\s+overdue\b/i.test(hint));
  // the items of minutes or a list of actions name who does each: "Assistant: …", "Tom: …"
  // (items given to it, not a transcript's lines spoken by it: "Assistant: Happy to. Where do enquiries come from?")
  const itemsNamed = all.some(
    (s) =>
      s.label &&
      THE_ASSISTANT.test(s.label) &&
      !/\?\s*$/.test(s.text) &&
      !SPOKEN_BACK.test(s.text) &&
      s.text.split(/\s+/).length >= 4 &&
      (startsWithVerbIn(s.text, w) || detectLead(s.text, w) !== null),
  );
  all.forEach((s, index) => {
    if (current) openAt.set(s, current);
    saying = `${s.label ?? ''} ${s.text}`;
    // a wish first ("I want every order put on the board"), before the words that open a request go
    const wishes = wishesAsDuties(s.text, w);
    // (how it is done today is no duty, whatever its grammar: "At the moment, invoices get emailed by …")
    const wished = isStatusQuo(wishes, w) ? wishes : passiveAsDuty(wishes, w, true);
    const plain = wished.replace(ANOTHER_THING, '').replace(PREAMBLE, '').trim() || wished;
    const chase = current as Draft | null;
    const bare = dutyAfterWhy(invoiceChased(afterSequence(plain, w), chase !== null && chasesInvoices(chase.hint), w), w);
    const said = imperative(bare, w);
    // "The assistant must tag it" is a duty; "You will be …" is not
    // ("They forward receipts to receipts@…": others sending work to a mailbox of ours is how it arrives)
    const text =
      said !== bare && startsWithVerbIn(said, w) && !GUIDELINE.test(said) && index > 0 && !arrivesByOthers(bare) ? said : bare;
    if (s.label && OVERVIEW_LABEL.test(s.label)) return;
    // "workflow: delivered -> invoice": what a workflow is called does no work (its "trigger:" and "actions:" do)
    // (not the work said on the label's line: "Workflow: every Friday at 4pm, email the timesheet summary to Jo")
    if (
      s.label &&
      NAME_LABEL.test(s.label) &&
      s.text.split(/\s+/).length <= 6 &&
      !s.text.includes(',') &&
      !/^(?:when|whenever|if|once|every|each|after|on)\b/i.test(s.text)
    )
      return;
    // "How it works now: the designer drops …", "Old way: …": how it is done today, under a label that says so
    if (s.label && NOW_LABEL.test(s.label)) return;
    // "Gareth: sign the insurance renewal", "Aisha to look at moving the donate page": in minutes whose items name who
    // does them, another person's items are theirs
    if (
      itemsNamed &&
      (s.label
        ? PERSON_LABEL.test(s.label) &&
          !NOT_A_PERSON.test(s.label) &&
          !THE_ASSISTANT.test(s.label) &&
          // (a label of a topic over its own start is no one's name: "Invoices: every Friday at 4, email me …")
          detectLead(s.text, w) === null
        : PERSON_TO_DO.test(s.text))
    )
      return;
    // "Looking for help with two things:", "We need a hand with the admin.": asking for help is no duty of its own
    // ("Setting up a digital assistant for guest messages at …": what is being made, no duty of its own)
    // ("Open Mon-Sat 9:00-17:30.": when the org is open, which the work may keep to, starts nothing)
    if (ASKS_FOR_HELP.test(text) || SETTING_UP.test(text) || ABOUT_THE_NOTE.test(text) || OPENING_HOURS.test(s.text)) return;
    // "Welcome to the Learning team!": a letter's greeting to the assistant, no one welcomed
    if (WELCOMED.test(text)) return;
    // "Refund handling for Vico Group (…)": a title over the job, first, names it and does nothing
    // (not a duty that names one: "reply with the procedure (…)"; "Refund handling" is a noun of two words)
    if (
      index === 0 &&
      s.first &&
      !s.label &&
      TITLE_OF_JOB.test(s.text) &&
      (!startsWithVerbIn(s.text, w) ||
        /^[\w-]+\s+(?:handling|management|automations?|processing|operations|admin)\b/i.test(s.text))
    )
      return;
    // "… email the teacher to confirm the date. Include the link to the risk assessment pack and a reminder that we need
    // final pupil numbers a week before.": what the message just said carries, no duty of its own (nor its time a start)
    const message = current?.clauses.at(-1);
    if (
      current &&
      message &&
      !s.label &&
      MESSAGE_CARRIES.test(text) &&
      (SENDS_EMAIL.test(message) || SENDS_TEXT.test(message) || /^(?:post|reply)\b/i.test(message))
    ) {
      current.clauses[current.clauses.length - 1] = `${message} (${text.replace(/^(?:please\s+)?/i, '').replace(/[.!]+$/, '')})`;
      return;
    }
    // "KPIs: every applicant acknowledged within 1 hour", "Reports to: Head of People": a job ad's particulars, no work
    if (s.label && PARTICULARS_LABEL.test(s.label)) return;
    // what the employee must not do, said after a label of limits: every verb of it is a guideline, not a duty
    if (s.label && LIMITS_LABEL.test(s.label)) {
      guidelines.push(`${s.label}: ${text}`);
      return;
    }
    // a condition under its label limits the work it follows, and does none of its own
    if (s.label && CONDITION_LABEL.test(s.label) && !detectLead(text, w)) {
      if (current) current.constraints.push(`${s.label}: ${text}`);
      else guidelines.push(`${s.label}: ${text}`);
      return;
    }
    // "The assistant must never merge pull requests …": a rule of the employee's, said of it
    // "If in doubt, do nothing and ask Helen": what to do when unsure, a rule over all the work
    if (SAID_OF_IT_NEVER.test(text) || SAID_OF_IT_NEVER.test(s.text) || IN_DOUBT.test(text)) {
      guidelines.push(text);
      return;
    }
    if (HANDS_OFF.test(text) || THEMSELVES.test(bare) || KEPT_OUT.test(s.text) || notWanted(s.text)) {
      guidelines.push(text);
      if (current) current.kept = text;
      else keptAlone = text;
      return;
    }
    // "At the moment a secretary copies each enquiry into HubSpot by hand": how it is done today, why the job exists
    // "Lessons are booked through our website, which creates the calendar events itself": done by a system already
    if (
      isStatusQuo(text, w) ||
      (HANDS_SOME_OVER.test(text) && providersIn(text).length === 0 && channelsIn(text).length === 0) ||
      DONE_BY_ITSELF.test(text) ||
      OUT_OF_SCOPE.test(text) ||
      NOTHING_TO_DO.test(text) ||
      saidOnly(NOT_YOURS, text, w) ||
      saidOnly(LEFT_BEHIND, text, w) ||
      NAMING.test(text) ||
      saidOnly(DONE_BY_SOMEONE, text, w)
    )
      return;
    const lead = ofThingSaid(ofCalendarSaid(caseInLead(detectLead(text, w)), all, index), all, index);
    // "2. Delay exceptions (Zendesk)", "3. Weekly housekeeping" over their sub-items: a section's title names the work and
    // does none; it leads them only when it says an arrival ("1. Screening form submitted") or a start its first item
    // does not say
    if (s.title) {
      const next = all[index + 1];
      const said = lead
        ? lead.kind !== 'manual' && (lead.kind !== 'schedule' || !next || detectLead(next.text, w) === null)
        : isEventSentence(text, w) && !startsWithVerbIn(text, w);
      if (!said) return;
    }
    // "Calla sends the same webhook with status "no_show", just ignore those": what is to be ignored starts nothing
    // (or after what they send: "Calla sends the same webhook with status "no_show" — just ignore those")
    if (
      (lead?.body && /^(?:(?:just|simply|please|then)\s+)*(?:ignore|disregard)\b/i.test(lead.body)) ||
      /[,;]\s*(?:(?:so|and)\s+)?(?:if\b[^,;]{0,80}?\s+)?(?:(?:just|simply|please|then)\s+)*(?:ignore (?:those|them|these|it|that)|ignore (?:anything|everything|any|all)\b[^.;]*|leave (?:those|them|these|it|that)(?: [\w-]+)? alone)\s*$/i.test(
        text,
      )
    )
      return;
    // "Shopify orders should be logged in Notion": a product's items as the subject are the event
    const subject = lead ? null : productSubject(text);
    // "Staff forward their receipts to …": a subject that could be a verb, then how work arrives
    const verbFirst =
      !lead &&
      !subject &&
      (startsWithVerbIn(text, w) || dutyInThirdPerson(text, w)) &&
      !bringsWork(text) &&
      !PLURAL_SUBJECT.test(text) &&
      !stackOnly(text) &&
      !GOES_TO_CHANNEL.test(text);
    // "Trigger: an invoice is 15 days overdue", "When: every Monday" — a label that says what starts the work
    if (s.label && START_LABEL.test(s.label)) {
      // ("Trigger: Monday 08:00": under a label of starts, a day and a time alone are a schedule)
      // ("Trigger: 15 min before each booking on the Workshop calendar": a time before a dated item is its event)
      const sched = beforeMeeting(text)
        ? null
        : (findSchedule(text) ??
          (text.split(/\s+/).length <= 5 && parseSchedule(text) ? { text, index: 0, relative: false } : null));
      // (the hour said with it too: "Runs on: every weekday at 7am")
      const d = open(s.block, sched ? 'schedule' : 'event', sched ? scheduleSaid(text, sched) : text);
      d.sentences.push(text);
      d.read.push(index);
      d.labelled = true;
      return;
    }
    // "People register through the form on our website: add each of them …" — the event before the colon
    // ("Opportunity moves to "Contract Sent": send …", "Agreement fully signed: move …": a known event, no lead word)
    if (s.label && !lead && verbFirst && (isEventSentence(s.label, w) || describesEvent(s.label)))
      open(s.block, 'event', s.label);
    // "Look after the trade@ inbox for our mill: confirm each order by email" — what arrives at the place looked after
    else if (s.label && !lead && verbFirst && watchedPlace(s.label)) open(s.block, 'event', watchedPlace(s.label) ?? s.label);
    // "Triage every new Zendesk ticket: tag it …" — the new items the label names arrive
    // (a product's or a channel's: "For every request you must:" names no arrival of its own)
    else if (s.label && !lead && verbFirst && implicitEvent(s.label)?.kind === 'event' && KNOWN_TRIGGER_CUE(s.label))
      open(s.block, 'event', implicitEvent(s.label)?.text ?? s.label);
    // "Failed payments (subscription boxes): post them in #finance …" — a label that names what happened to things
    else if (s.label && !lead && verbFirst && labelBefell(s.label)) open(s.block, 'event', labelBefell(s.label) ?? s.label);
    // "Refund requests: reply with our refund policy" — a kind of things that come in, named by a label, where no start
    // of their block is open to be a case of
    // (nor where a start said before already brings them: "Parents report absences by email or by text" ¶ "- Absence texts: …")
    else if (
      s.label &&
      !lead &&
      verbFirst &&
      ITEMS_LABEL.test(s.label.trim()) &&
      (!current || current.block !== s.block) &&
      !drafts.some((d) => d.kind === 'event' && sharesWorkItem(s.label ?? '', d.hint))
    )
      open(s.block, 'event', `${s.label.trim()} come in`);
    // the first line naming the role ("Refunds Specialist", "Executive Assistant to our CEO", "Code review helper")
    if (
      index === 0 &&
      !lead &&
      (ROLE_TITLE.test(text) ||
        TEAM_INTRO.test(text) ||
        (!verbFirst && text.split(/\s+/).length <= 12 && !isEventSentence(text, w)))
    )
      return;
    // "Thanks!!", "Cheers": politeness, not a duty — however long, as written ("Thanks so much, really appreciate it!",
    // "Thanks for Thursday's call", "Thank you in advance, and do ask if anything is unclear"), when it asks nothing done
    if (politeness(s.text) || politeness(text)) return;
    if (!lead && GUIDELINE.test(stripLeadIns(text))) {
      guidelines.push(text);
      return;
    }
    // "Anything over $100 needs a manager's approval", "Refunds under $100 don't need approval": a rule on the work
    // around it, kept with it (a plural noun first is its subject, not a verb: "Refunds …")
    if (!lead && (!verbFirst || /^[\w-]+s\b/.test(bare)) && APPROVAL_RULE.test(bare) && current) {
      (current as Draft).constraints.push(bare);
      return;
    }
    // "New-patient enquiries are submitted through the form. Each enquiry is answered by email within the hour and a
    // Slack message is posted to #front-desk.": what is done to what arrived, said in the passive, is the duty
    const done = !lead && !verbFirst && !subject && current !== null ? passiveDuties(text, w) : null;
    if (done && current) {
      const draft: Draft = current;
      if (draft.kind === 'event' && draft.block === s.block) {
        draft.sentences.push(text);
        draft.read.push(index);
        addClauses(draft, done, w);
        return;
      }
    }
    if (!lead && !verbFirst) {
      if (subject || isEventSentence(text, w)) {
        // a system that calls in says no duty of its own: the sentence is the event
        // (unless a duty follows the hook: "…, it sends to a webhook my nephew set up, those can go straight to …")
        const hook = CALLS_IN.exec(text);
        const hookEnd = hook ? (hook.index ?? 0) + hook[0].length : 0;
        // (what follows the hook's own clause, when it is work: "…, those can go straight to the prayer team by email")
        const after = hook ? text.slice(hookEnd).match(/^[^,;]*[,;]\s*(.+)$/)?.[1] : undefined;
        const afterDuty = after ? wishesAsDuties(after, w) : undefined;
        const split =
          subject ??
          (CALLS_IN.test(text.replace(/\([^()]*\)/g, ''))
            ? after && afterDuty && afterDuty !== after && startsWithDuty(afterDuty.replace(/^for [^,]{1,40},\s*/i, ''), w)
              ? { lead: text.slice(0, text.length - after.length).replace(/[\s,;]+$/, ''), body: afterDuty }
              : null
            : splitEventSentence(text, w));
        // ("When a parent texts us, log it in Notion. Text replies from parents go into #office": the arrival already
        // started takes the posting)
        const same = GOES_TO_CHANNEL.test(text)
          ? drafts.find((d) => d.kind === 'event' && sharesWorkItem(text, d.hint))
          : undefined;
        const d = same ?? open(s.block, 'event', split?.lead ?? text);
        d.sentences.push(text);
        d.read.push(index);
        if (split) addClauses(d, split.body, w);
      }
      return;
    }

    // "If a customer texts back STOP, never text them again": a start whose only duty is one not to do is a rule
    // (and no workflow, unless a duty follows it: "A ticket asks for a refund within 48h: Don't refund. Reply …")
    const ruled = lead && lead.kind !== 'manual' && ruleOnly(splitClauses(lead.body, w).clauses);
    if (ruled) guidelines.push(text);
    let body = text;
    let gated = false;
    let draft: Draft | null = current;
    // (the call of ours said right after an event's start, if any: read once)
    const call = lead?.kind === 'event' ? callSaidFirst(lead) : null;
    if (lead) {
      body = ruled ? '' : lead.body;
      if (lead.kind === 'condition') {
        // "- if anyone posts about an incident in #site, open …": people bringing work, in an item of its own
        const arrives = bringsWork(lead.text.replace(/^(?:if|when|whenever|should)\s+/i, ''));
        // someone writing in by a channel ("If a crew member texts it …", "if the parent answers with …") is an arrival of its own
        // (and time passing with nothing done is looked for on a schedule, apart: "if a ticket sits for a day …")
        if (!draft || (arrives && draft.block !== s.block) || conditionArrives(lead.text) || lapseIn(lead.text) !== null)
          draft = open(s.block, 'event', lead.text);
        // "If their email mentions a recall, …" after another workflow: the one whose start it speaks of
        else draft = speaksOf(drafts, draft, lead.text);
      } else if (lead.kind === 'event' && draft?.kind === 'event' && draft.clauses.length > 0 && SAME_EVENT.test(lead.text)) {
        // "When that happens, call the booking system …": the arrival just said, and what to do about it
        draft.block = s.block;
      } else if (draft && draft.clauses.length > 0 && APPROVED_LEAD.test(lead.text.trim())) {
        // "It must not be sent until the supervisor approves. Once approved, text the customers": the steps of the work
        // at hand that wait for that yes, each said so (a step behind an approval is asked for at run time)
        gated = true;
      } else if (
        lead.kind === 'event' &&
        SAME_EVENT.test(lead.text) &&
        CALLS_IN.test(lead.body) &&
        !startsWithDuty(lead.body, w)
      ) {
        // "When that happens, our booking system (SeaTix) calls your webhook with …": how it arrives is the event
        draft = open(s.block, 'event', lead.body);
        body = '';
      } else if (call) {
        // "when our dispatch system marks a job as failed it'll send a webhook to you with …, and if …": the call that
        // brings the event is part of its start, and what follows it is the duty
        draft = open(s.block, 'event', `${lead.text} ${call}`);
        body = lead.body.slice(call.length).replace(/^[\s,]+(?:and\s+)?/, '');
      } else
        draft = open(
          s.block,
          lead.kind,
          lead.kind === 'event'
            ? (watchedPlace(lead.text) ??
                withPlace(
                  lead.text.replace(/^(watch for|watch|monitor|listen for|keep an eye on|look out for)\s+/i, ''),
                  s.label,
                ))
            : lead.text,
        );
    } else {
      const sched = dutySchedule(text, w);
      const meeting = beforeMeeting(text);
      const implicit = implicitEvent(text);
      const carried = draft !== null && draft.block !== s.block && carriesOn(draft, s, text, w);
      const anew =
        !draft ||
        // an arrival said with no duty of its own ("- members @mention the bot asking for a machine") takes the items after it
        (draft.block !== s.block &&
          !draft.labelled &&
          !(draft.kind === 'event' && (draft.clauses.length === 0 || draft.gathers)) &&
          !carried);
      // "text me whenever a card payment fails": work of its own, its start said last — where the sentence opens
      // work anew; inside a paragraph's workflow only when said with "whenever" of a product or channel the
      // paragraph's start does not name, or after a schedule ("Every morning at 7, post …. Email me whenever …")
      const said = meeting || sched ? null : startSaidLast(text, w);
      const onCalendar =
        sched && !(sched.weak && draft?.kind === 'event' && draft.block === s.block)
          ? ofCalendarBefore(sched, text, all, index)
          : null;
      const last = said && (anew || draft?.kind === 'schedule' || (draft && anotherStart(said.lead, draft.hint))) ? said : null;
      if (last) {
        draft = open(s.block, 'event', last.lead);
        body = last.body;
      } else if (meeting) {
        draft = open(s.block, 'event', text.slice(meeting.index));
        body = text.slice(0, meeting.index).trim();
      } else if (onCalendar) {
        // ("Conferences are booked on the "Conferences" calendar. Text the parent an hour before theirs …": a time before
        // each of the items just said to be on a calendar, said inside the duty)
        draft = open(s.block, 'event', onCalendar.lead);
        body = `${text.slice(0, onCalendar.start)} ${text.slice(onCalendar.end)}`.replace(/\s+/g, ' ').trim();
      } else if (sched && !(sched.weak && draft?.kind === 'event' && draft.block === s.block)) {
        // (one weekday with a time, said in a paragraph that has a start already, is when that step happens:
        // "When a new hire signs, add them to BambooHR. Send them the welcome pack on Monday at 9am.")
        draft = open(s.block, 'schedule', scheduleSaid(text, sched));
        body = `${text.slice(0, sched.index)} ${text.slice(sched.index + sched.text.length).replace(PART_OF_DAY_RIGHT_AFTER, '')}`
          .replace(/\s+(at|by|around)\s+(\d{1,2}(:\d\d)?(\s*[ap]\.?m\.?)?|noon|midnight)\b/i, '')
          .replace(/\s+/g, ' ')
          .trim();
      } else if (
        implicit &&
        (!implicit.weak || !draft || draft.block !== s.block) &&
        // ("Every Monday at 8:30:" over "- post the open RFIs that are overdue …": the schedule's own first item)
        !(draft?.kind === 'schedule' && draft.block === s.block && draft.clauses.length === 0) &&
        (!draft || s.anew || implicit.kind === 'unknown' || !/^(each|every|all)\b/.test(implicit.text))
      ) {
        draft = open(s.block, implicit.kind, implicit.text);
      } else {
        if (anew) draft = open(s.block, implicit?.kind ?? 'unknown', implicit?.text ?? '');
        else if (carried && draft) draft.block = s.block;
      }
    }
    if (!draft) return;
    if (ruled && draft.sentences.length === 0) draft.ruled = true;
    // the arrival takes the items that follow it, one after the other, until one says when it starts
    if (draft.kind === 'event' && draft.clauses.length === 0 && draft.block !== s.block && !lead) draft.gathers = true;
    draft.sentences.push(text);
    draft.read.push(index);
    const before = draft.clauses.length;
    if (body)
      addClauses(
        draft,
        lead?.kind === 'condition' ? oneLacked(lead.text, body) : body,
        w,
        lead?.kind === 'condition' && IF_FREE.test(lead.text),
      );
    if (gated) draft.clauses = draft.clauses.map((c, i) => (i >= before ? `${c} once approved` : c));
  });
  return { drafts: drafts.filter((d) => !(d.ruled && d.clauses.length === 0)), guidelines, openAt };
}

/** "If there is no folder for that booking, create one": the thing the condition lacks is the one made. Pure. */
export function oneLacked(condition: string, body: string): string {
  const lacked =
    /\bthere\s+(?:is|'s|are)\s+no\s+((?:[\w-]+\s+)?[\w-]+?)(?=\s+(?:for|in|on|under|with|yet|at|of)\b|\s*$|\s*[,;])/i.exec(
      condition,
    )?.[1];
  if (!lacked) return body;
  return body.replace(
    /^((?:create|make|open|add|set up|start|raise)\s+)one\b/i,
    `$1${/^[aeiou]/i.test(lacked) ? 'an' : 'a'} ${lacked}`,
  );
}

const stepAction = (clause: string): string => {
  const p = parseClause(clause);
  const words = contentWords(p.object).slice(0, 4);
  return clip([p.verbPhrase ?? '', ...words].join(' ').trim(), 200);
};

const isVagueOnly = (d: Draft): boolean =>
  d.kind === 'unknown' &&
  d.clauses.every((c) => {
    const p = parseClause(c);
    const v = p.verbPhrase ?? '';
    // "process refund requests": a light verb, but its object says the work
    if ((VAGUE_VERBS as readonly string[]).includes(v) && namesAction(p.object)) return false;
    return (VAGUE_VERBS as readonly string[]).includes(v) || !KNOWN_VERBS.has(v.split(' ')[0] ?? '');
  }) &&
  providersIn(d.sentences.join(' ')).length === 0 &&
  channelsIn(d.sentences.join(' ')).length === 0;

function nameFor(d: Draft, steps: DraftStep[]): string {
  const first = steps[0]?.action ?? '';
  const hint = d.hint.replace(/^(when|whenever|as soon as|each time|every time|once|after|upon|if)\s+/i, '');
  if (d.kind === 'schedule') return clip(cap(`${first || 'run'} (${d.hint.toLowerCase()})`), 120);
  if (d.kind === 'event' && hint) return clip(cap(`${first || 'handle'} when ${hint.toLowerCase()}`), 120);
  return clip(cap(first || d.sentences[0] || 'responsibility'), 120);
}

const KNOWN_TRIGGER_CUE = (text: string): boolean =>
  providersIn(text).length > 0 ||
  channelsIn(text).length > 0 ||
  // (a cue is a word of its own: "reports" holds no "repo", "Cardiff" no "card", "information" no "form")
  Object.values(PROVIDER_CUES).some((cues) => cues.some((c) => hasTerm(text, c)));

/** "…, and every Thursday at 4pm post …", "… that issue also when a deal closes email …": a word that adds, then a start. */
const ANOTHER_START =
  /(?:;\s*(?:(?:and\s+also|and|also|plus)\s+,?\s*)?|(?:,\s*|\s+)(?:and\s+also|and\s+then\s+also|and\s+then|and|also|plus)\s+,?\s*)(?=(?:when|whenever|if|every|each|any ?time|as soon as|on\s+the\s+(?:first|last|\d+)|at\s+the\s+(?:end|start)\s+of)\b)/gi;
/** "and when they confirm, book it": the same work carried on, not another start */
const CARRIED_ON = /^(?:when|whenever|as soon as|any ?time)\s+(?:it|they|he|she|this|that|these|those|done|finished|ready|so)\b/i;

/**
 * Another responsibility said inside a sentence ("When a Jira ticket moves, open an issue, and every Thursday
 * at 4pm post a reminder in #releases"; or in text written without full stops) is a sentence of its own, as
 * it would be after a full stop: a word that adds ("and", "also", "plus"), then a schedule or an event with
 * a duty of its own.
 */
export function splitAtAnotherStart(sentence: Sentence, w: SegmentWords = NO_SERVED_WORDS): Sentence[] {
  const text = sentence.text;
  for (const m of text.matchAll(ANOTHER_START)) {
    const at = m.index ?? 0;
    const before = text.slice(0, at).trim();
    const rest = text.slice(at + m[0].length).trim();
    if (CARRIED_ON.test(rest) || before.split(/\s+/).length < 3) continue;
    const lead = detectLead(rest, w);
    // "…, and if they reply CANCEL, cancel it": a condition starts anew only when it is something arriving
    const starts =
      lead?.kind === 'schedule' || lead?.kind === 'event' || (lead?.kind === 'condition' && conditionArrives(lead.text));
    if (!lead || !starts || !lead.body || !startsWithDuty(lead.body, w)) continue;
    return [
      { ...sentence, text: before },
      ...splitAtAnotherStart({ ...sentence, text: rest, first: false, label: undefined }, w),
    ];
  }
  // "Answer visitors' Zendesk questions …, and add every event organisers email to events@… to the calendar":
  // two duties, each with work arriving its own way, are two workflows
  for (const m of text.matchAll(AND_DUTY)) {
    const at = m.index ?? 0;
    const before = text.slice(0, at).trim();
    const rest = text.slice(at + m[0].length).trim();
    if (!startsWithDuty(rest, w) || detectLead(before, w)) continue;
    const first = implicitEvent(before);
    const second = implicitEvent(rest);
    if (first?.kind !== 'event' || second?.kind !== 'event' || second.weak || sharesWorkItem(first.text, second.text)) continue;
    // "…, and post new orders in #orders": where the employee sends things is no arrival
    if (/^(?:post|send|share|forward|email|e-mail|message|publish|announce|drop|put)\b/i.test(rest)) continue;
    return [
      { ...sentence, text: before },
      { ...sentence, text: rest, first: false, label: undefined, anew: true },
    ];
  }
  return [sentence];
}

/** ", and " before another duty */
const AND_DUTY = /,\s*and\s+(?:also\s+)?(?=[a-z])/gi;

/** A duty, then the start said after it: "text me whenever a card payment fails", "… every time a deal closes". */
const START_SAID_LAST =
  /^(.{3,}?)(?:\s*,\s*|\s+)(whenever|every time|each time|any ?time|as soon as|when|if)\s+(?!(?:it|(?:this|that)(?!\s+(?!(?:is|are|was|happens|has|one)\b)[\w-]+(?:\s+[\w-]+)?\s+(?:is|are|gets?|was|comes?|arrives?|lands?)\b)|these|those|there|done|finished|ready|so|you|we|i|needed|necessary|possible|appropriate|relevant|asked|required|applicable|convenient|suitable)\b)([^,;:]{4,120}?)(?:\s*,\s*(or\s+[^,;:]{3,100}?))?(?:\s*,\s*(?:thanks|thank you|please|pls|thx|cheers|ta)|\s*[,;]\s*([^:]{3,200}?))?\s*[.!?]*$/i;
/** How a request is put before the duty: "please", "could you", "I need you to". */
const ASKED =
  /^(?:please\s+|pls\s+|(?:could|can|would|will) you\s+(?:please\s+)?|(?:i|we)(?:'d| would)? (?:need|want|like) (?:you|the (?:assistant|bot)) to\s+)/i;
/** "tell the client when a slot opens", "log when a ticket was opened": a "when" that says what to tell or note, not a start */
const TELLS_WHEN =
  /\b(?:tell|ask|let\s+[\w-]+\s+know|remind|inform|notify|confirm|check|find out|figure out|work out|know|decide|note|record|log|track|see|show|say|explain|estimate|predict)(?:\s+[\w'-]+){0,2}$/i;

/** How a writer's style is told, not a duty: "Use British spelling when …", "Sign off as Dr. Patel when …". */
const STYLE_HEAD =
  /^(?:use|sign(?: off)? as|sign off|speak|address (?:them|him|her|people|everyone) as|be|stay|sound|avoid|never|don'?t|do not|no|answer in|reply in|respond in|write in (?:a |an )?(?:formal|friendly|casual|polite|plain|simple|british|american|english|spanish|french|german|dutch|italian|portuguese)\b)\b/i;

/**
 * "text me on 0412 555 019 whenever a card payment fails" reads as "Whenever a card payment fails, text me
 * on 0412 555 019": a duty with no start before it, and after it something arriving or happening. "When" alone
 * is taken only for an event (a verb of one), never what to tell or note ("tell them when the part arrives"),
 * and never a word pointing back ("when it's done") or a state ("when the amount is over $100"); nor a style
 * ("use British spelling when …") or what not to do. Only where the sentence opens work of its own (`assemble`):
 * inside a paragraph's workflow, "escalate to Sam when the customer mentions a refund" is a case of that work. Pure.
 */
export function startSaidLast(text: string, w: SegmentWords = NO_SERVED_WORDS): { lead: string; body: string } | null {
  const m = START_SAID_LAST.exec(text);
  if (!m?.[1] || !m[2] || !m[3]) return null;
  // ("Send a Slack alert to #ops if a Stripe payment fails": an "if" said last starts the work only where it is a
  // product's event, said with the product)
  if (m[2].toLowerCase() === 'if' && !(providersIn(m[3]).some((p) => !p.weak) && isCatalogEvent(`if ${m[3]}`))) return null;
  // (an alternative said after a comma is the start's: ", or says "urgent" in the subject"; what follows is the duty's:
  // "…, name, yard, number of horses")
  const duty = `${m[1].trim().replace(ASKED, '')}${m[5] ? `, ${m[5].trim()}` : ''}`;
  const said = `${m[2]} ${m[3].trim()}${m[4] ? `, ${m[4].trim()}` : ''}`;
  // "email candidates when they apply in Greenhouse": a person pointed back at arrives only where a product or channel is named
  if (/^(?:they|he|she)\b/i.test(m[3]) && providersIn(m[3]).length === 0 && channelsIn(m[3]).length === 0) return null;
  const plain = stripLeadIns(duty);
  if (STYLE_HEAD.test(plain) || NOT_TO_DO.test(duty) || GUIDELINE.test(plain)) return null;
  if (detectLead(text, w) || !startsWithDuty(duty, w) || (m[2].toLowerCase() === 'when' && TELLS_WHEN.test(duty))) return null;
  // "Keep parents informed when our buses run late": a summary of the job, the work said after it
  const verb = parseClause(imperative(duty, w)).verbPhrase ?? '';
  if (!knownVerb(verb.split(' ')[0] ?? '', w) || (VAGUE_VERBS as readonly string[]).includes(verb)) return null;
  const lead = detectLead(`${said}, ${duty}`, w);
  // ("… each time a customer leaves a review": a lead word that can only mean a start needs no known verb after it)
  const conditional = m[2].toLowerCase() === 'if';
  if (
    (lead?.kind !== 'event' && !(conditional && lead?.kind === 'condition')) ||
    (!happens(m[3], w) && !conditional && !/^(?:each time|every time|whenever|any ?time)$/i.test(m[2]))
  )
    return null;
  return { lead: `${said.charAt(0).toUpperCase()}${said.slice(1)}`, body: duty };
}

/** A start said with "whenever" (or "every time", "as soon as") that names a product or channel another start does not. */
function anotherStart(lead: string, hint: string): boolean {
  if (!/^(?:whenever|every time|each time|any ?time|as soon as)\b/i.test(lead)) return false;
  const named = [
    ...providersIn(lead)
      .filter((p) => !p.weak)
      .map((p) => p.providerId),
    ...channelsIn(lead),
  ];
  const before = new Set([...providersIn(hint).map((p) => p.providerId), ...channelsIn(hint)]);
  return named.length > 0 && named.every((n) => !before.has(n));
}

/** Whether a clause says something happening: a verb of an event after its subject, not "is"/"are" and a state. */
const happens = (clause: string, w: SegmentWords): boolean => hasEventVerb(clause, w) || bringsWork(clause);

/** A verb of an event after the first word: "a payment fails", "people reserve …" (the first word is its subject). */
function hasEventVerb(text: string, w: SegmentWords): boolean {
  return tokenize(text)
    .slice(1)
    .some((t) => lemmas(t.lower).some((l) => EVENT_VERBS.has(l) || w.events.has(l)));
}

/** A case said inside an event's lead, that an "otherwise" after it answers: "When a ticket arrives: if it is urgent, …". */
const CASE_IN_LEAD = /^(.{3,}?)\s*[,:;]\s*((?:if|unless)\s.+)$/i;
const OTHERWISE_SAID = /\b(?:otherwise|if not|or else)\b|(?:^|[;,.:]\s*)else\b/i;

/**
 * "When a new Zendesk ticket arrives: if its priority is urgent, post in #urgent; otherwise reply …": the case is
 * which of the duties is done, not which tickets start the work — the event is the arrival alone, and the case goes
 * back to the duties, where the "otherwise" answers it. A lead whose case has no "otherwise" keeps it (it narrows
 * what starts the work: "When a ticket arrives, if it is tagged vip, …"). Pure.
 */
export function caseInLead(lead: Lead | null): Lead | null {
  if (!lead || lead.kind !== 'event' || !OTHERWISE_SAID.test(lead.body)) return lead;
  const m = CASE_IN_LEAD.exec(lead.text);
  if (!m?.[1] || !m[2]) return lead;
  return { ...lead, text: m[1], body: `${m[2]}, ${lead.body}` };
}

/** Who someone is, said between commas after their name: "When Graham, our musical director, adds …". */
const APPOSITIVE = /\b([A-Z][a-z]+), (?:our|my|the|their|his|her) (?:[a-z][\w-]*\s){0,3}?[a-z][\w-]*, (?=[a-z])/g;

/** "When Graham, our musical director, adds new scores …" reads as "When Graham adds new scores …". Pure. */
export function withoutAppositive(sentence: Sentence): Sentence {
  const text = sentence.text.replace(APPOSITIVE, '$1 ');
  return text === sentence.text ? sentence : { ...sentence, text };
}

/**
 * A ban said in the passive, then what to do after a semicolon, as two sentences: "Requests for Sunday slots are not
 * to be accepted; these must be forwarded to the Manager", "Tickets must never be ignored; reply to every new one". Pure.
 */
export function banThenRest(sentence: Sentence): Sentence[] {
  const at = sentence.text.indexOf(';');
  if (at < 0 || !PASSIVE_BAN.test(sentence.text.slice(0, at))) return [sentence];
  const rest = sentence.text.slice(at + 1).trim();
  if (!rest) return [sentence];
  return [
    { ...sentence, text: `${sentence.text.slice(0, at).trim()}.` },
    { ...sentence, text: `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`, first: false, label: undefined },
  ];
}

/** Who we are, then how work comes, spliced by a comma: "We're a cider farm in Herefordshire, pubs email …". */
const INTRO = /^(?:(?:hi|hello|hey)[!,.]?\s+)?(?:we(?:'re| are)|i(?:'m| am)|this is|here at) [^,;()]{2,80}?,\s+(?=\S)/i;

/** A sentence that opens with who we are, comma-spliced onto something else, as two sentences. Pure. */
export function afterIntro(sentence: Sentence): Sentence[] {
  const m = INTRO.exec(sentence.text);
  if (!m) return [sentence];
  const rest = sentence.text.slice(m[0].length);
  // ("We're a small team, so please keep it short": a clause of the same thought stays whole)
  if (/^(?:so|and|but|which|who|that|because|as|where|with|though|although)\b/i.test(rest)) return [sentence];
  return [
    { ...sentence, text: m[0].replace(/,\s+$/, '.') },
    { ...sentence, text: `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`, first: false, label: undefined },
  ];
}

/** "…, so what I want is …": the wish itself said after the story of the problem, in the same sentence. */
const WISH_SAID_AFTER =
  /,\s*(?:(?:and|so|basically|anyway)[\s,]+)*(?=what (?:i|we)(?:['’]d| would)? (?:need|want|like|would like)(?: (?:you|it|the (?:assistant|bot|agent)) to do)? is\b)/i;

/**
 * A story of the problem comma-spliced onto the wish ("…, and it always gets forgotten, so what I want is when …"),
 * as two sentences: the story is context, the wish the duty. Pure.
 */
export function wishAfterStory(sentence: Sentence): Sentence[] {
  const m = WISH_SAID_AFTER.exec(sentence.text);
  if (!m || m.index === 0) return [sentence];
  const rest = sentence.text.slice(m.index + m[0].length);
  // (only a wish that says its own start: "what I want is for something to send them an invoice" is the story's duty)
  if (!detectLead(rest.replace(/^what [^,;]*? is[:,]?\s+/i, ''))) return [sentence];
  return [
    // (the story is how things are now, no start of its own: "When a cleaner cancels on us we owe them money back, …")
    { ...sentence, text: `${sentence.text.slice(0, m.index)}.`, label: NOW_SAID },
    { ...sentence, text: `${rest.charAt(0).toUpperCase()}${rest.slice(1)}`, first: false, label: undefined },
  ];
}

/**
 * Something made on a schedule, wished for as a thing with no verb: "a quick summary every Friday afternoon in
 * #ops-refunds of how much we refunded that week would be nice", "a digest of failed payments in #billing every
 * morning would really help", "A weekly digest to the board, please".
 */
const THING_WISHED =
  /^(?:(?:oh|ok|okay|and|also|plus|finally|lastly|p\.?s\.?)[\s,:]+)*((?:an?|one|the)\s+(?:[\w-]+\s+){0,3}?(?:summary|summaries|report|digest|recap|round-?up|rundown|overview|list|update|reminder|heads-?up|tally|breakdown|email|message|post|note))\b(.+?)[\s,]*(?:(?:would|'d|’d) be (?:really |very |so )?(?:nice|great|good|helpful|handy|ideal|lovely|brilliant|useful|amazing|appreciated|perfect)|(?:would|will) (?:really |also )?(?:help|be a help)|please|pls)[\s.!]*$/i;

/** A thing wished made, with when it is made: sent as a duty ("Send a quick summary every Friday afternoon …"). Pure. */
export function thingWished(sentence: Sentence): Sentence {
  const m = THING_WISHED.exec(sentence.text);
  // (one said with its start first is read as it is: "Also a weekly report in #finance …, please")
  if (!m?.[1] || !m[2] || !findSchedule(`${m[1]}${m[2]}`) || detectLead(sentence.text)?.body.trim()) return sentence;
  // (a statement of it is no wish: "The report every Friday goes to the board")
  if (/\b(?:goes|go|comes|come|is|are|was|were|gets|get|has|have|lands|arrives)\b/i.test(m[2])) return sentence;
  return { ...sentence, text: `Send ${m[1].toLowerCase()}${m[2].replace(/[\s,]+$/, '')}.` };
}

/** After a time, a thing made with no verb: "every other Monday, tasks for Jess in HubSpot to ring the accounts …". */
const THING_ON_SCHEDULE =
  /^([^,;]{3,80}),\s+((?:an?\s+|one\s+|the\s+)(?:[\w-]+\s+){0,2}?(task|ticket|issue|card|page|invoice|reminder|summary|report|digest|recap|round-?up|list|update|email|message|post|note|heads-?up)|(?:[\w-]+\s+){0,2}?(tasks|tickets|issues|cards|pages|invoices|reminders|summaries|reports|digests|recaps|round-?ups|lists|updates|emails|messages|posts|notes))\s+((?:for|to|in|into|of|on|with|about|listing)\b.*)$/i;
const MADE_THINGS = /^(?:tasks?|tickets?|issues?|cards?|pages?|invoices?)$/i;

/** A thing made on a schedule, said with no verb, as a duty: "every other Monday, create tasks for Jess …". Pure. */
export function thingOnSchedule(sentence: Sentence): Sentence {
  const m = THING_ON_SCHEDULE.exec(sentence.text);
  const thing = m?.[3] ?? m?.[4];
  const rest = m?.[5];
  const when = m?.[1] ? findSchedule(m[1].replace(/^(?:and|also|plus|oh|then)\s+/i, '')) : null;
  // (a time of its own, not one before an item: "15 mins before each booking, post in #kiln …" says a verb)
  if (!m?.[1] || !m[2] || !thing || !rest || when?.index !== 0 || when.relative) return sentence;
  // (a statement of them is no duty: "every Monday, reminders to tutors go out at 9")
  // (a relative clause says things of others: "… the clients who have not booked")
  const said = rest.replace(
    /\b(?:who|which|that)\s+(?:have|has|had|haven['’]t|hasn['’]t|are|is|was|were|did|do|does|don['’]t|didn['’]t)\b.*$/i,
    '',
  );
  if (
    /\b(?:go|goes|went|come|comes|is|are|was|were|gets?|got|has|have|lands?|arrives?|should|must|will|need|needs)\b/i.test(said)
  )
    return sentence;
  const made = MADE_THINGS.test(thing);
  // (made for someone to do something, "tasks for Jess in HubSpot to ring …"; sent somewhere, "a summary … in #sales":
  // not things said to be there, "tickets in Zendesk that are still open", "tickets in Zendesk pile up")
  if (
    made
      ? !/\bfor\s+(?:[A-Z][a-z]+|me|us|the\s+[\w-]+)\b/.test(rest) || !/\bto\s+[a-z]+/.test(rest)
      : !/#[\w-]+|\bto\s+(?:the\s+|our\s+|my\s+)?[A-Za-z][\w-]*|\bby (?:e-?mail|text)\b/.test(rest)
  )
    return sentence;
  if (/\b(?:that|which|who)\s+(?:are|is|were|was|have|has|had)\b/i.test(rest.split(/\bto\s+[a-z]/)[0] ?? '')) return sentence;
  const verb = made ? 'create' : 'send';
  return { ...sentence, text: `${m[1]}, ${verb} ${m[2]} ${rest}` };
}

/** "You will, when a booking is about to start, DM …": who does it, then the start set off by commas. */
const MODAL_THEN_LEAD =
  /^(?:you|it|the (?:assistant|bot|agent|employee))\s+(?:will|should|must|shall|need to|have to)\s*,\s*(?=(?:when|whenever|if|once|every|each|on|at|after|before|as soon as|twice|daily|weekly|monthly)\b)/i;

/** "You will, on the 1st of every month, create a page …" reads as "On the 1st of every month, create a page …". */
export function modalBeforeLead(sentence: Sentence): Sentence {
  const m = MODAL_THEN_LEAD.exec(sentence.text);
  if (!m) return sentence;
  const rest = sentence.text.slice(m[0].length);
  return { ...sentence, text: `${rest.charAt(0).toUpperCase()}${rest.slice(1)}` };
}

/**
 * Someone doing something, said as a case: "customer emails specialorders@", "a tech sets the ticket to solved",
 * "`photogrammetry-01` reports `done`" (a name in code quotes).
 */
const SOMEONE_ACTS =
  /^(?:(?:a|an|the|any|each|every|our|some)\s+)?(?:[\w'`"’.-]+\s+){0,2}?(?:changes|sets|moves|marks|posts|e-?mails|texts|sends|submits|books|asks|adds|creates|opens|closes|signs|pays|cancels|uploads|drops|tags|mentions|replies|calls|fills|forwards|shares|reports|raises|files|comments|reviews|approves|rejects|updates|assigns|bumps|escalates|reopens|resolves|drags)\b(?=\s+\S)/i;

/** A product's items in a state that befalls them: "Overdue QuickBooks invoices", "failed payments" (the state; the item). */
const ITEM_STATES = 'overdue|failed|unpaid|late|signed|completed|cancell?ed|declined|bounced|refunded|disputed';
const ITEMS_IN_STATE = new RegExp(String.raw`^(${ITEM_STATES})\s+((?:[A-Z][\w-]*\s+)?[\w-]+?)s$`, 'i');
/** The same at the start of more words: "Failed Stripe payments over $50". */
const ITEMS_IN_STATE_FIRST = new RegExp(String.raw`^(?:${ITEM_STATES})\s+(?:[A-Z][\w-]*\s+)?[\w-]+s\b`, 'i');

/** A record that moves through stages: "opportunity", "HubSpot deal", "ticket", "card". */
const MOVES_THROUGH_STAGES =
  /^(?:(?:a|an|the|any)\s+)?(?:[A-Z][\w-]*\s+)?(?:opportunity|deal|ticket|issue|card|lead|candidate|application|applicant|task|order)$/i;

/** "1-2★ → Jira bug in MOB, post the link in #app-reviews": a case, an arrow, and what it gets. */
const ARROW_CASE = /^([^→]{1,100}?)\s*(?:→|->|=>)\s*(.+)$/;

/** The side before an arrow that starts work of its own: what comes in by a channel, lands somewhere, a time passed. */
const ARROW_START =
  /\b(?:by|via|through|over)\s+(?:e-?mail|text|sms|whatsapp|the (?:web ?)?form|phone)\b|\b(?:lands?|arrives?|comes? in|gets? uploaded|is uploaded|are uploaded)\b|\b(?:after|past|over)\s+\d+\s*(?:h|hrs?|hours?|d|days?|wks?|weeks?)\b/i;

/**
 * A case and what it gets, written with an arrow ("1-2★ → Jira bug in MOB …", "over $500 → ask Dana"), as
 * the condition and the duty it guards: "if 1-2★, create a Jira bug in MOB …". What the arrow points to may
 * name the thing made instead of the verb that makes it. Not a case that already says when ("When … →").
 */
export function arrowAsCondition(sentence: Sentence, w: SegmentWords = NO_SERVED_WORDS): Sentence {
  // ("workflow: delivered -> invoice": a workflow's name, read as such by `assemble`)
  if (sentence.label && NAME_LABEL.test(sentence.label)) return sentence;
  const m = ARROW_CASE.exec(sentence.text);
  if (!m?.[1] || !m[2] || m[1].split(/\s+/).length > 14) return sentence;
  const body = m[2].trim();
  // "opp -> Closed Won -> QB invoice for the first order": a record moving to a stage, then what that gets
  const staged = /^(["'“]?[A-Z][\w'’ -]{1,30}?["'”]?)\s*(?:→|->|=>)\s*(.+)$/.exec(body);
  if (staged?.[1] && staged[2] && MOVES_THROUGH_STAGES.test(m[1].trim())) {
    const rest = staged[2].trim();
    const then = startsWithDuty(rest.replace(/^(?:also|then|just)\s+/i, ''), w) ? rest : `create a ${rest}`;
    return { ...sentence, text: `When ${articleFor(m[1].trim())} ${m[1].trim().toLowerCase()} moves to ${staged[1]}, ${then}` };
  }
  // "If it's a bug report -> open a Jira bug": a case that says its own lead; the arrow is its comma
  // (so is a time: "Mon 8am → email me this week's deliveries", "2 wks before each wedding → email the couple …")
  const when = m[1].trim();
  const timed = (findSchedule(when)?.index ?? 9) <= 3 || (beforeMeeting(when)?.index ?? 9) <= 4 || WEEKDAY_AT.test(`${when}, x`);
  // ("Sun 20:00 → next week's sessions in #engineers": what goes to a channel, posted there)
  const posted = !startsWithDuty(body, w) && /(?:^|\s)#[\w-]+/.test(body) ? `post ${body}` : body;
  if (timed) return { ...sentence, text: `${when}, ${posted}` };
  if (detectLead(m[1], w)) return { ...sentence, text: `${when}, ${body}` };
  // "deposits go through Xero → when one's paid, mark the enquiry Booked": the start is said after the arrow
  const inner = detectLead(body, w);
  if (inner?.body && inner.kind !== 'manual') return { ...sentence, text: `${inner.text} (${when}), ${inner.body}` };
  // "3★ and up → nothing", "already reviewed → skip": a case left alone is a guideline, not a duty
  if (/^(?:nothing|skip(?: it)?|ignore(?: it)?|no action|none|do nothing|leave it)\b/i.test(body))
    return { ...sentence, text: `do not act if ${m[1].trim()}` };
  // ("Stripe invoice paid → HubSpot contact: lifecycle = Customer": fields set on a record update it, not make one)
  // ("Incoming texts -> #sms channel": a channel alone is where they are posted)
  const duty = startsWithDuty(body.replace(/^(?:also|then|just)\s+/i, ''), w)
    ? body
    : /^(?:the\s+)?#[\w-]+(?:\s+(?:channel|on slack|in slack))?$/i.test(body)
      ? `post it in ${body}`
      : /^[^:=]{1,40}:\s*[^=]{1,40}=/.test(body)
        ? `update the ${body}`
        : `create a ${body}`;
  // "New Zendesk ticket -> set priority …": something new arriving is an event, not a case of one; so is
  // someone doing something ("someone changes the Notion status to 'Arrived' → text …")
  const arrives =
    /^(?:a |an |each |every |any |all )?(?:new|incoming|inbound)\b/i.test(m[1].trim()) ||
    // ("Overdue QuickBooks invoices -> polite chase email": a product's items in a state that befalls them)
    ITEMS_IN_STATE_FIRST.test(m[1].trim()) ||
    SOMEONE_ACTS.test(m[1].trim()) ||
    // "booking request by email → …", "stems land in Drive → …", "deposit unpaid after 72h → …": what comes in by a
    // channel or lands somewhere, or a time passed, is a start of its own (each item of a kind is a case of the start
    // that speaks of it: "every enquiry → new row in Notion")
    ARROW_START.test(m[1].trim()) ||
    // "that Jira bug goes to Done → …" — not a kind of the items at hand ("tickets that mention an order → …")
    (!/\b[\w-]+\s+(?:that|which|who)\s+\w/i.test(m[1]) && isEventSentence(m[1].trim(), w));
  // ("Overdue QuickBooks invoices": one of them in that state)
  const state = ITEMS_IN_STATE.exec(m[1].trim());
  // ("booking request by email": what comes in that way)
  const left =
    state?.[1] && state[2]
      ? `${articleFor(state[2])} ${state[2]} is ${state[1].toLowerCase()}`
      : /\b(?:comes?|came|arrives?|lands?|gets?|got|is|are|was|were|sent|back)\b/i.test(m[1])
        ? m[1].trim()
        : m[1].trim().replace(/^([^,]*?[a-z])\s+(by|via|through|over)\s+(e-?mail|text|sms|whatsapp)$/i, '$1 comes in $2 $3');
  return { ...sentence, text: `${arrives ? 'when' : 'if'} ${left}, ${duty}` };
}

/** Ways work comes in, each as the arrival it is, and how a catalog says it. */
const WAYS_IN: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:texting|texts|texted|by text|text messages?|sms(?:es)?)\b/i, 'when a text message comes in'],
  [
    /\b(?:e-?mailing|e-?mails|e-?mailed|by e-?mail|(?:an |the |our )?(?:e-?mail|inbox|mailbox)|[\w.+-]+@[\w-]+\.[\w.]+)\b/i,
    'when an email arrives',
  ],
  [/\b(?:form|website|web ?hook|portal|online)\b/i, 'when the form on the website is submitted'],
  [/(?:\bslack\b|(?<![\w#])#[\w-]+)/i, 'when a message is posted in Slack'],
];
/** An event whose subject points back: "when it's fully signed", "once they're approved". */
const POINTED_SUBJECT =
  /^(?:when|whenever|once|after|as soon as)\s+(?:it|they|this|that)(?:['’]s|['’]re|\s+is|\s+are|\s+gets?|\s+has|\s+have)?\s+(?:been\s+)?(?:fully\s+|finally\s+|all\s+)?(?:signed|countersigned|executed|completed|signed off|comes? back signed)\b/i;
/** Ways in said as such: "in two ways", "both ways", "either by …". */
const SAID_AS_WAYS = /\b(?:two|three|both|several|multiple|different|a couple of|a few) (?:ways|routes|channels)\b|\beither\b/i;
/** How a way in is said: the canonical arrival, a Slack channel kept by name. */
const wayIn = (said: string, matched: string): string =>
  matched.startsWith('#') ? `when a message is posted in ${matched}` : said;

/**
 * The ways in of an arrival said as alternatives ("by texting our number, or through the form on our website",
 * "customers email us or fill in the form"): two or more, each named, with an "or" between them; else none.
 */
/**
 * The ways in, said to end in one place: "both land in Zendesk", "all end up in the inbox", "everything guests email
 * or send through the website ends up as a ticket in Zendesk".
 */
const ONE_PLACE =
  /\b(?:both|all|each|either way|they all|all of them)\s+(?:of them\s+)?(?:land|lands|end up|ends up|go|goes|come|comes|arrive|arrives|get logged|are logged)\s+(?:in|into|to|on)\b|\b(?:everything|anything|whatever)\b[^.;]{0,80}?\s(?:lands|ends up|goes|gets logged|is logged|turns up)\s+(?:as\s+(?:an?\s+)?[\w-]+\s+)?(?:in|into|on)\b/i;

function waysIn(hint: string, saidAsWays = false): string[] {
  // ("a client opens a ticket (email or portal, both land in Zendesk)": the ways end in one place, the start is there)
  const one = ONE_PLACE.exec(hint);
  if (one && providersIn(hint.slice(one.index)).some((p) => !p.weak)) return [];
  const found = WAYS_IN.map(([re, said]) => {
    const m = re.exec(hint);
    return { at: m?.index ?? -1, said: wayIn(said, m?.[0] ?? '') };
  })
    .filter((f) => f.at >= 0)
    .sort((a, b) => a.at - b.at);
  if (found.length < 2) return [];
  for (let i = 1; i < found.length; i++) {
    const between = hint.slice((found[i - 1] as { at: number }).at, (found[i] as { at: number }).at);
    if (!/\bor\b/i.test(between) && !(saidAsWays && /\band\b/i.test(between))) return [];
  }
  return found.map((f) => f.said);
}

/** A reply that says how it comes: by email, text, on Slack, in the ticket, … */
const REPLY_CHANNEL = /\b(?:e-?mails?|texts?|sms|slack|whatsapp|phone|calls?|tickets?|threads?|dms?|form|portal|chat)\b/i;
/** A duty that sends an email: "email each supplier", "send them an email". */
const SENDS_EMAIL = /^e-?mail\b|\b(?:send|drop|fire off)\s+(?:\w+\s+){0,3}(?:e-?mail)\b/i;
/** A duty that sends a text message: "text each learner", "send them an SMS". */
const SENDS_TEXT = /^(?:text|sms)\b|\b(?:send|drop|fire off)\s+(?:\w+\s+){0,3}(?:text(?: message)?|sms)\b/i;

/**
 * Of a setting said in several parts ("All our reservations are in Cloudbeds, staff coordinate on Slack, and we have a
 * Twilio number guests can text"), the one part that speaks of the work of the start after it ("Whenever a guest texts
 * our number"); the whole when no one part, or every part, does. Pure.
 */
function partOfItsWork(setting: string, start: string): string {
  // (a part is a clause of its own, not one that says more of the part before: ", which …", ", so …")
  const parts = setting
    .split(
      /\s*[,;]\s*(?:and\s+)?(?!\s*(?:which|who|whom|whose|that|where|so|as|because|since|though|although)\b)|\s+and\s+(?=(?:we|i|they|our|the|staff|everyone|all)\b)/i,
    )
    .filter(Boolean)
    // (a part that says nothing of its own is one more item of a list: "… in Cloudbeds, Airbnb, and Booking.com")
    .reduce<string[]>((kept, p) => {
      if (kept.length > 0 && !STATEMENT.test(p)) kept[kept.length - 1] = `${kept.at(-1)}, ${p}`;
      else kept.push(p);
      return kept;
    }, []);
  const speaking = parts.filter((p) => sharesWorkItem(start, p));
  return parts.length > 1 && speaking.length === 1 ? (speaking[0] ?? setting) : setting;
}

/** A word that opens a start, or a rule said of one, anywhere in a statement: it is no mere setting. */
const START_OR_RULE =
  /\b(?:when(?:ever)?|once|if|as soon as|after|before|until|till|each|every|any(?:thing|one|body|time)?|otherwise|else|new|upon|unless|should|must|need(?:s|ed)?|ha(?:s|ve) to|will|would|please)\b|['’]ll\b|[:|→]|->/i;
/** A statement: a thing and what it does or is, in the present ("Applications come into Greenhouse"). */
const STATEMENT =
  /^\(?(?:(?:all|our|the|their|my|most|some)\s+)?(?:[\w'’-]+\s+){1,4}?(?:is|are|come|comes|go|goes|get|gets|live|lives|run|runs|land|lands|sit|sits|coordinate|coordinates|communicate|communicates|talk|talks|book|books|sign|signs|use|uses|send|sends|have|has|keep|keeps|track|tracks|sell|sells|take|takes|handle|handles|manage|manages|happen|happens|arrive|arrives)\b/i;

/**
 * A draft that is only the setting of the others: an arrival said as how things go ("Applications come into
 * Greenhouse", "Memberships are signed through DocuSign"), with no duty, no word of a start or of a rule, and no hook
 * said to be called (a start of its own). Pure.
 */
function isSetting(d: Draft): boolean {
  return d.kind === 'event' && d.clauses.length === 0 && !d.labelled && saysHowThingsGo(d.hint);
}

/** How things go, said as a statement: no word of a start or of a rule, no hook said to be called. Pure. */
const saysHowThingsGo = (text: string): boolean =>
  STATEMENT.test(text.trim()) && !START_OR_RULE.test(text) && !CALLS_IN.test(text);

/** What a start says of where it comes from: a product, a channel, a form, an inbox, a hook. */
const SAYS_WHERE =
  /\b(?:e-?mails?|inbox(?:es)?|texts?|sms|calls?|rings?|phones?|forms?|slack|dms?|web ?hooks?|website|site|portal|chat|whatsapp|voicemails?)\b|#[\w-]+|@/i;

/**
 * "All our reservations are in Cloudbeds" ¶ "The day before each guest arrives, …"; "Our shop runs on Shopify. When
 * an order is refunded, …": a product outside the lists' catalog, named in a sentence of setting before a start that
 * says nowhere of its own, is where that start may happen — said with the start, in brackets, for the trigger
 * matcher to weigh against the org's catalog. A product named before a thing ("When a new Typeform response comes
 * in"), known as a product from elsewhere in the description, is said the same way. The start's text with its home,
 * by draft (the workflow's name keeps the start's own words). Pure.
 */
function homesOf(
  drafts: readonly Draft[],
  all: readonly Sentence[],
  settings: readonly Draft[],
  description: string,
): Map<Draft, string> {
  const homes = new Map<Draft, string>();
  const inDrafts = new Set(drafts.flatMap((d) => d.read));
  const ofSetting = new Set(settings.flatMap((d) => d.read));
  // (names no list knows, found where a tool goes somewhere in the description: "on Typeform")
  const names = [
    ...new Set(
      unknownProductsIn(description)
        .filter((m) => keptOrComesIn(description, m.index))
        .map((m) => description.slice(m.index, m.index + m.name.length)),
    ),
  ];
  // where each start that names no product and no place of its own was opened
  const open = drafts
    .filter((d) => d.kind === 'event' && !contextOf(d.hint) && d.read.length > 0)
    .map((d) => ({ d, at: Math.min(...d.read) }));
  for (const { d, at } of open) {
    if (providersIn(d.hint).some((p) => !p.weak) || unknownProductsIn(d.hint).length > 0) continue;
    const named = names.find((n) => new RegExp(`(?:^|[^\\w-])${escapeRegExp(n)}(?![\\w-])`).test(d.hint));
    if (named) {
      homes.set(d, withContext(d.hint, `in ${named}`));
      continue;
    }
    if (SAYS_WHERE.test(d.hint)) continue;
    // (the nearest sentence of setting before it that names such a product; the start right after that sentence, or a
    // later one that speaks of the same things, happens there)
    const setting = all
      .slice(0, at)
      .map((s, i) => ({ text: s.text, i, home: outsideOf(s.text) }))
      .reverse()
      .find(({ text, i, home }) => home && (ofSetting.has(i) || (!inDrafts.has(i) && saysHowThingsGo(text))));
    if (!setting?.home) continue;
    const first = !open.some((o) => o.at > setting.i && o.at < at);
    if (first || sharesWorkItem(d.hint, setting.text)) homes.set(d, withContext(d.hint, `in ${setting.home}`));
  }
  return homes;
}

/** The first product outside the lists' catalog a sentence of setting keeps things in, as it is written there. Pure. */
function outsideOf(text: string): string | undefined {
  const m = [...providersIn(text).filter((p) => !p.weak && !CATALOG_PROVIDERS.has(p.providerId)), ...unknownProductsIn(text)]
    .filter((p) => keptOrComesIn(text, p.index))
    .sort((a, b) => a.index - b.index)[0];
  return m ? text.slice(m.index, m.index + m.name.length) : undefined;
}

/**
 * A product named where things are kept or come in, not where people talk ("the team communicates in Microsoft
 * Teams") nor the town the writer is in ("we're a freight brokerage in Joliet"); "We're a small Shopify shop" names
 * where its orders are. Pure.
 */
function keptOrComesIn(text: string, index: number): boolean {
  const clause =
    text
      .slice(0, index)
      .split(/[,;.!?]|\band\b/)
      .at(-1) ?? '';
  return !TALKED_IN.test(clause) && !(WHO_WE_ARE.test(clause) && /\bin\s+$/i.test(clause));
}

/** Who the writer is: "we're a freight brokerage in …". */
const WHO_WE_ARE = /\b(?:we|i)\s*(?:['’]re|['’]m|are|am)\s+(?:a|an|the)\b/i;
/** People talking somewhere, right before where: "staff coordinate on", "we message each other over". */
const TALKED_IN =
  /\b(?:communicat\w*|talk(?:s|ing)?|chat(?:ting)?|coordinat\w*|messag(?:e|ing)|meet(?:ing)?|speak(?:s|ing)?|hang(?:s|ing)?\s+out)\s+(?:[\w-]+\s+){0,3}?(?:on|in|over|via|through|using)\s+(?:the\s+)?$/i;
const CATALOG_PROVIDERS = new Set(
  builtInCatalog.triggers.map((t) => t.providerId).concat(builtInCatalog.capabilities.map((c) => c.providerId)),
);

/** Breaks a job description into draft workflows. Pure: the same text gives the same analysis. */
/**
 * The products the description says are not connected, each with the workflow whose work speaks of it: the one
 * that names the product, else the one sharing most things with the sentence that says so ("Deposits are paid
 * through Square, which isn't connected" → the workflow of "no deposit has come in"), else the one being written
 * when it was said, else the first. Pure.
 */
function productsSaidUnconnected(
  all: readonly Sentence[],
  drafts: readonly Draft[],
  openAt: ReadonlyMap<Sentence, Draft>,
  w: SegmentWords,
): Map<Draft, UnconnectedProduct[]> {
  const out = new Map<Draft, UnconnectedProduct[]>();
  const textOf = (d: Draft): string => [d.hint, ...d.sentences, ...d.clauses].join(' ');
  const things = (text: string): Set<string> =>
    new Set(
      contentWords(text)
        .filter((x) => x.length > 3 && !GENERIC.has(x) && !PEOPLE_WORDS.test(x) && !knownVerb(x, w))
        .map(nounStem),
    );
  for (const s of all) {
    for (const product of saidUnconnected(s.text)) {
      if (drafts.length === 0) break;
      const names = (d: Draft): boolean =>
        [...providersIn(textOf(d)), ...unknownProductsIn(textOf(d))].some((p) => p.providerId === product.providerId);
      const said = things(s.text);
      const shared = (d: Draft): number => [...things(textOf(d))].filter((x) => said.has(x)).length;
      const best = drafts.reduce((a, b) => (shared(b) > shared(a) ? b : a));
      const open = openAt.get(s);
      const draft = drafts.find(names) ?? (shared(best) > 0 ? best : open && drafts.includes(open) ? open : drafts[0]);
      if (!draft) continue;
      const list = out.get(draft) ?? [];
      if (!list.some((p) => p.providerId === product.providerId)) list.push({ ...product, excerpt: clip(product.excerpt, 500) });
      out.set(draft, list);
    }
  }
  return out;
}

/** A note that hands its writer's own work over: "I'm writing down everything I do so the assistant can pick it up". */
const HANDS_OVER =
  /\b(?:hand(?:ing|ed)?[- ]?over|(?:while|when|whilst) I(?:'m|’m| am) (?:away|off|gone|out|on leave)|(?:going|go|off) on (?:maternity|paternity|parental|sick|long) leave|my last day|everything I do|(?:you|the assistant|the bot|it|hireloop) (?:can|could|will|to) (?:pick|take) (?:it|this|these|them|my work) (?:up|over)|take over (?:from me|my)\b)/i;
/** "Then I put a message in #home-managers": what the writer does, first in the sentence, with no modal. */
const I_DO =
  /^((?:(?:then|and|also|after that|next|so)[,\s]+)*)I\s+(?:(?:usually|normally|always|also|then|just|generally|typically)\s+)?([a-z]+)\b/i;

/**
 * In a note that hands its writer's work over, what the writer says they do is the duty taken over: "Then I put a
 * message in #home-managers" → "put a message in #home-managers" (not what they keep, "I do the offer letters myself",
 * nor what they think, want or are). Pure.
 */
export function handedOver(text: string, w: SegmentWords = NO_SERVED_WORDS): string {
  const m = I_DO.exec(text);
  const verb = m?.[2]?.toLowerCase() ?? '';
  if (!m || /\b(?:myself|personally)\b/i.test(text)) return text;
  if (
    /^(?:am|was|have|had|do|did|will|would|can|could|should|must|might|may|think|want|need|like|love|hope|guess|know|mean|feel|try|tend|get|work|report|use|look|approve|sign|decide|manage|oversee|supervise|lead|answer|greet|meet|attend|cover|own|enjoy|live|start|finish|leave|run|go|come|sit|spend|deal|take)$/.test(
      verb,
    )
  )
    return text;
  if (!knownVerb(verb, w)) return text;
  return `${m[1] ?? ''}${text.slice(m[0].length - verb.length)}`;
}

/** "On Tue, 4 Mar 2025 at 15:40, Daniel <d@…> wrote:": the header of a message quoted in an email thread. */
const WROTE = /^[ \t]*(?:>[ \t]*)*On\b[^\n]{0,160}\bwrote:[ \t]*$/gim;
/** The newest message of a thread says it is the whole job: "to summarise", "final version", "the rest is history". */
const FINAL_SAID =
  /\b(?:to summari[sz]e|in summary|summing up|final (?:version|list|plan)|the (?:full|whole|complete|updated|agreed|revised) (?:list|version|plan)|(?:the )?rest (?:below )?is (?:just )?history|ignore (?:the rest|everything below|what'?s below|the thread below)|supersedes|(?:set (?:it|this|them) up|do (?:it|this)|run (?:it|this)) like this)\b/i;
/** A line quoted from an earlier message of the thread: "> - send the engagement letter via DocuSign". */
const QUOTED_LINE = /^[ \t]*>.*(?:\n|$)/gm;

/**
 * An email thread pasted whole: the messages quoted under the newest are its history (drafts, ideas dropped since);
 * when the newest says work of its own, that is the job, and the quoted lines and their headers go. A thread whose
 * newest message only points below ("see below, please set this up") keeps them. Pure.
 */
export function withoutHistory(text: string, served: SegmentWords = NO_SERVED_WORDS): string {
  const thread = /\bwrote:|forwarded message|original message/i.test(text);
  if (!thread) return text;
  const plain = text.replace(WROTE, '');
  const top = plain.replace(QUOTED_LINE, '');
  // (only where the newest says it is the whole job: "to summarise", "the final version", "ignore the rest"; "adding
  // one more thing" or "sounds good, please set this up" adds to what is quoted)
  if (top === plain || !FINAL_SAID.test(top)) return plain;
  const said = analyseJob(top, served).workflows.some((w) => w.steps.length > 0 && w.triggerHint.kind !== 'unknown');
  return said ? top : plain;
}

export function analyseJob(jobDescription: string, served: SegmentWords = NO_SERVED_WORDS): JobAnalysis {
  const description = withoutHistory(jobDescription.slice(0, 20_000), served);
  const handsOver = HANDS_OVER.test(description);
  const all = sentences(description, (t) => isEventSentence(t, served) || describesEvent(t))
    .map((s) => (handsOver ? { ...s, text: handedOver(s.text, served) } : s))
    .flatMap(afterIntro)
    .flatMap(wishAfterStory)
    .map(thingWished)
    .map(thingOnSchedule)
    .flatMap(banThenRest)
    .map(withoutAppositive)
    .map(modalBeforeLead)
    .flatMap((s) => splitAtAnotherStart(s, served))
    .map((s) => arrowAsCondition(s, served));
  const assembled = assemble(all, served);
  let { drafts } = assembled;
  const { guidelines, openAt } = assembled;
  if (drafts.length > 1) {
    const concrete = drafts.filter((d) => !isVagueOnly(d));
    if (concrete.length > 0) drafts = concrete;
  }
  // "People ask for rooms in #office-help. When a request comes in, check …": an event with no duty of
  // its own is the context of the next event, which then says where it happens (or says it already)
  drafts = drafts.flatMap((d, i) => {
    const next = drafts[i + 1];
    // (in another paragraph, when the next one names the same work: "Homeowners send requests to board@…" ¶ "when a request arrives, …")
    // ("The path lab emails results to results@…. Each evening at 6, go through that day's results emails …": what
    // arrives, gathered on a schedule that goes through it, is the schedule's context)
    if (
      d.kind === 'event' &&
      d.clauses.length === 0 &&
      next?.kind === 'schedule' &&
      next.block === d.block &&
      next.clauses.some((c) => GOES_THROUGH.test(c)) &&
      sharesWorkItem(d.hint, next.clauses.join(' '))
    )
      return [];
    if (d.kind !== 'event' || d.clauses.length > 0 || !next || next.kind !== 'event') return [d];
    // ("- Harbour ops cancel a sailing by posting in #ops" ¶ "- When that happens, call …": the arrival named again)
    // (a start that names its own event keeps the one before apart, unless it is that same work said again, with
    // what is done to it: "Tenants log faults through our helpdesk portal (it's Zendesk)" ¶ "For every new fault
    // ticket: tag it …")
    const known = KNOWN_TRIGGER_CUE(next.hint);
    // ("Our booking system calls your webhook with the sailing …" ¶ "When a disruption notice comes in": what that hook
    // brings, where the next start names no product of its own)
    const apart =
      next.opened !== d.block &&
      !SAME_EVENT.test(next.hint) &&
      !(CALLS_IN.test(d.hint) && !known && !providersIn(next.hint).length);
    if (apart && (!sharesWorkItem(next.hint, d.hint) || (known && next.clauses.length === 0))) return [d];
    // (a hook said to be called is a start of its own, whatever product the next start names)
    // (unless the next start points back at what the hook brings: "whenever that form comes in", "every booking from that form")
    if (
      known &&
      CALLS_IN.test(d.hint) &&
      providersIn(next.hint).some((m) => !m.weak) &&
      !/\b(?:that|this|those|these|it|one|them|such)\b/i.test(next.hint)
    )
      return [d];
    // (said in its own words, it still has the one before as its context, for a start its words leave open)
    if (!known || apart) {
      // (of a hook called, what calls it and no more: "our booking system calls your webhook", not what it carries)
      const hook = CALLS_IN.exec(d.hint);
      const hookEnd = hook ? (hook.index ?? 0) + hook[0].length : 0;
      const carried = hook && !known && /^\s*,?\s*(?:with|containing|including|carrying)\b/i.test(d.hint.slice(hookEnd));
      next.hint = withContext(next.hint, carried ? d.hint.slice(0, hookEnd) : partOfItsWork(d.hint, next.hint));
      next.sentences.unshift(...d.sentences);
      next.read.unshift(...d.read);
    }
    // said again by the next one, as its context or in its own words: nothing is left of it to run
    return [];
  });
  // "send the client the agreement through DocuSign" ¶ "when it's fully signed: …": what "it" is, said by the duty before
  drafts = drafts.map((d, i) => {
    const before = drafts[i - 1];
    // (or the person's own, said after them: "I send the contract through DocuSign myself" ¶ "when it comes back signed")
    const last = d.keptBefore ?? before?.kept ?? before?.clauses.at(-1);
    if (d.kind !== 'event' || !last || !POINTED_SUBJECT.test(d.hint) || KNOWN_TRIGGER_CUE(d.hint)) return d;
    return providersIn(last).length > 0 ? { ...d, hint: withContext(d.hint, last) } : d;
  });
  // "by texting our refill number, or through the refill form on our website": one duty, two ways in — a workflow each
  drafts = drafts.flatMap((d) => {
    // ("Enquiries come in two ways: the contact form … and straight to our email": "and" between ways said as such)
    const ways = d.kind === 'event' ? waysIn(d.hint, d.ways) : [];
    if (ways.length < 2) return [d];
    return ways.map((hint) => ({
      ...d,
      hint,
      sentences: [...d.sentences],
      read: [...d.read],
      clauses: [...d.clauses],
      constraints: [...d.constraints],
    }));
  });
  // "Text each learner … If they reply CANCEL, …": a reply that names no channel comes back the way the message went
  drafts = drafts.map((d, i) => {
    const before = drafts[i - 1];
    if (d.kind !== 'event' || !before || !SOMEONE_REPLIES.test(d.hint)) return d;
    if (REPLY_CHANNEL.test(d.hint) || providersIn(d.hint).length > 0) return d;
    const way = before.clauses.some((c) => SENDS_TEXT.test(c))
      ? 'by text message'
      : before.clauses.some((c) => SENDS_EMAIL.test(c))
        ? 'by email'
        : undefined;
    return way ? { ...d, hint: `${d.hint} ${way}` } : d;
  });
  // "…, so leave QuickBooks alone": a sentence of rules alone, with no start and no duty, is no workflow of its own
  if (drafts.some((d) => d.kind !== 'unknown' || d.clauses.length > 0)) {
    for (const d of drafts) if (d.kind === 'unknown' && !d.hint && d.clauses.length === 0) guidelines.push(...d.constraints);
    drafts = drafts.filter((d) => d.kind !== 'unknown' || d.hint !== '' || d.clauses.length > 0);
  }
  // "All our reservations are in Cloudbeds, staff coordinate on Slack" ¶ "The day before each guest arrives, text them
  // …": how things go, said with no duty and no start word, is the setting of the duties, not a workflow of its own
  const settings = drafts.some((d) => d.clauses.length > 0) ? drafts.filter(isSetting) : [];
  if (settings.length > 0) drafts = drafts.filter((d) => !settings.includes(d));
  // the same start and the same duties said again (a pasted line repeated) are one workflow
  const said = new Set<string>();
  drafts = drafts.filter((d) => {
    const key = [d.kind, d.hint, ...d.clauses].join('\u0000').toLowerCase().replace(/\s+/g, ' ');
    if (said.has(key)) return false;
    said.add(key);
    return true;
  });
  if (drafts.length === 0 && jobDescription.trim()) {
    // nothing reads as a task: keep the whole text as one responsibility to ask about
    const text = all.map((s) => s.text).join('. ');
    drafts = [
      {
        block: 0,
        opened: 0,
        kind: 'unknown',
        hint: '',
        sentences: [text],
        read: all.map((_, i) => i),
        clauses: [],
        constraints: [],
      },
    ];
  }
  // "the Notion "Intake" tracker" … "when an Intake tracker row changes": a place named with its product once is in it
  const places = placesNamed(jobDescription.slice(0, 20_000));
  if (places.size > 0)
    drafts = drafts.map((d) => ({
      ...d,
      hint: d.kind === 'event' ? withPlaceKept(d.hint, places) : d.hint,
      clauses: d.clauses.map((c) => withPlaceKept(c, places)),
    }));
  const lacking = productsSaidUnconnected(all, drafts, openAt, served);
  const homes = homesOf(drafts, all, settings, description);
  const workflows: DraftWorkflow[] = drafts.slice(0, 20).map((d, i) => {
    const id = `wf-${i + 1}`;
    const steps: DraftStep[] = d.clauses
      .slice(0, 30)
      .map((c, k) => ({ id: `${id}.s${k + 1}`, text: clip(c, 500), action: stepAction(c) }));
    const responsibility = clip(d.sentences.join('. '), 4000);
    const extra = [...d.constraints.map((c) => `Constraint: ${c}.`), ...guidelines.map((g) => `Guideline: ${g}.`)].join(' ');
    return {
      id,
      name: nameFor(d, steps) || `Workflow ${i + 1}`,
      description: clip(extra ? `${responsibility}. ${extra}` : `${responsibility}.`, 4000),
      responsibility,
      triggerHint: { kind: d.kind, text: clip(homes.get(d) ?? d.hint, 500) },
      steps,
      ...(lacking.get(d)?.length ? { unconnected: lacking.get(d)?.slice(0, 10) } : {}),
    };
  });
  const confidence = workflows.length
    ? workflows.reduce((sum, w) => {
        const trig =
          w.triggerHint.kind === 'unknown'
            ? 0.4
            : w.triggerHint.kind === 'manual'
              ? 0.8
              : KNOWN_TRIGGER_CUE(w.triggerHint.text)
                ? 1
                : 0.8;
        const concrete = w.steps.filter((s) => {
          const v = parseClause(s.text).verbPhrase ?? '';
          return knownVerb(v.split(' ')[0] ?? '', served) && !(VAGUE_VERBS as readonly string[]).includes(v);
        }).length;
        const steps = w.steps.length ? concrete / w.steps.length : 0.3;
        return sum + 0.5 * trig + 0.5 * steps;
      }, 0) / workflows.length
    : 0;
  return { workflows, confidence: Math.round(confidence * 100) / 100 };
}
