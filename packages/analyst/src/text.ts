import { memo } from '@hireloop/platform';
import { capabilityVocabulary } from '@hireloop/schemas';
import nlp from 'compromise';
import { DETERMINERS, EXTERNAL_PEOPLE, KNOWN_VERBS, LEAD_INS, PREPOSITIONS, PROVIDER_NAMES } from './lexicon';
import { CLOCK_FIRST, findSchedule, HOURS_FIRST } from './schedule';

// ---- words ----

const IRREGULAR: Readonly<Record<string, string>> = {
  sent: 'send',
  made: 'make',
  paid: 'pay',
  got: 'get',
  went: 'go',
  came: 'come',
  gave: 'give',
  left: 'leave',
  took: 'take',
  wrote: 'write',
  written: 'write',
  told: 'tell',
  found: 'find',
  held: 'hold',
  met: 'meet',
  kept: 'keep',
  won: 'win',
  lost: 'lose',
  began: 'begin',
  begun: 'begin',
  brought: 'bring',
  bought: 'buy',
  sold: 'sell',
  ran: 'run',
  done: 'do',
  did: 'do',
  does: 'do',
  has: 'have',
  had: 'have',
  is: 'be',
  are: 'be',
  was: 'be',
  were: 'be',
  been: 'be',
  people: 'person',
  replies: 'reply',
  replied: 'reply',
  applies: 'apply',
  applied: 'apply',
  emails: 'email',
  led: 'lead',
  set: 'set',
  put: 'put',
  read: 'read',
  hit: 'hit',
  shut: 'shut',
};

const NO_STRIP = /(ss|us|is|ous|ics|ws)$/;

/** The forms a word may be an inflection of, most likely first: "invoices" → invoices, invoice, invoic. */
export const lemmas = memo(lemmasUncached, 5000);
function lemmasUncached(word: string): string[] {
  const w = word.toLowerCase().replace(/[’']s$/, '');
  const out = [w];
  const add = (s: string): void => {
    if (s.length >= 2 && !out.includes(s)) out.push(s);
  };
  const irregular = IRREGULAR[w];
  if (irregular) add(irregular);
  if (w.endsWith('ies')) add(`${w.slice(0, -3)}y`);
  if (w.endsWith('ied')) add(`${w.slice(0, -3)}y`);
  if (w.endsWith('s') && !NO_STRIP.test(w)) add(w.slice(0, -1));
  if (w.endsWith('es') && !NO_STRIP.test(w)) add(w.slice(0, -2));
  if (w.endsWith('ed')) {
    add(w.slice(0, -1));
    add(w.slice(0, -2));
    if (/([bdgklmnprt])\1ed$/.test(w)) add(w.slice(0, -3));
  }
  if (w.endsWith('ing') && w.length > 5) {
    add(w.slice(0, -3));
    add(`${w.slice(0, -3)}e`);
    if (/([bdgklmnprt])\1ing$/.test(w)) add(w.slice(0, -4));
  }
  return out;
}

export type Token = { text: string; lower: string; start: number; end: number };

const TOKEN = /#[\w-]+|@[\w.-]+|[\w.+-]+@[\w-]+\.[\w.]+|https?:\/\/\S+|\$?\d[\d,.:]*(?:am|pm)?|[A-Za-z][\w’']*(?:-[\w’']+)*/g;

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0].replace(/[.,]+$/, '');
    const start = m.index ?? 0;
    out.push({ text: raw, lower: raw.toLowerCase().replace(/’/g, "'"), start, end: start + raw.length });
  }
  return out;
}

export const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const termCache = new Map<string, RegExp>();

/** A regular expression for a lexicon term: each word with optional inflection, spaces or hyphens between. */
export function termPattern(term: string): RegExp {
  let re = termCache.get(term);
  if (!re) {
    const words = term.split(/[\s]+/).map((w) => {
      const e = escapeRegExp(w).replace(/-/g, '[\\s-]?');
      return /[a-z]$/.test(w) ? `${e}(?:s|es|ed|d|ing|'s)?` : e;
    });
    const body = words.join('[\\s-]+');
    // hyphenated compounds are one word: "call" is not in "on-call"
    re = new RegExp(`(?:^|[^\\w#@-])${body}(?![\\w-])`, 'i');
    termCache.set(term, re);
  }
  return re;
}

/** True when a lexicon term occurs in the text (any inflection). */
export function hasTerm(text: string, term: string): boolean {
  return termPattern(term).test(text);
}

export function anyTerm(text: string, terms: readonly string[]): string | undefined {
  return terms.find((t) => hasTerm(text, t));
}

/** Word-level lemma test, for single words at a known position (a clause's verb). */
export function isWord(word: string, terms: readonly string[]): boolean {
  const forms = lemmas(word);
  return terms.some((t) => forms.includes(t));
}

// ---- providers ----

export type ProviderMention = { providerId: string; name: string; index: number; weak: boolean };

const GENERIC_AFTER_NAME = /^\s*(link|url|id|key|number|reference|ref|ticket number|record id)\b/i;

const PROVIDER_PATTERNS = PROVIDER_NAMES.map(
  ([name, providerId]) => [name, providerId, new RegExp(`(?:^|[^\\w-])${escapeRegExp(name)}(?![\\w])`, 'g')] as const,
);

/** Products named in a text. A name used as a modifier of a reference ("the Jira link") is weak. */
export const providersIn = memo((text: string): ProviderMention[] => {
  const lower = text.toLowerCase();
  const out: ProviderMention[] = [];
  for (const [name, providerId, re] of PROVIDER_PATTERNS) {
    for (const m of lower.matchAll(re)) {
      const index = (m.index ?? 0) + (m[0].length - name.length);
      if (out.some((o) => o.index <= index && index < o.index + o.name.length)) continue;
      const after = lower.slice(index + name.length);
      // ("booked through my Calendly link": what is done through its link is done in it)
      const through = /^\s*links?\b/.test(after) && /\b(?:through|via|using)\s+(?:my|our|the|a)\s+$/.test(lower.slice(0, index));
      out.push({ providerId, name, index, weak: GENERIC_AFTER_NAME.test(after) && !through });
    }
  }
  return out.sort((a, b) => a.index - b.index);
});

/** What a place kept in a product is called: "tracker", "board", "sheet", "project". */
const PLACE_NOUN =
  '(?:tracker|board|sheet|spreadsheet|database|table|list|folder|project|base|pipeline|workspace|register|log|calendar|inbox)';
/** A word said of a place that names no one place: "the", "our", "new", "shared". */
const NOT_A_NAME =
  /^(?:the|a|an|our|my|your|their|its|this|that|these|those|new|old|main|shared|own|same|one|each|every|any|which|whose|and|or|of|in|on|to|for|with|from|into|by|at)$/i;
const NAME_WORD = String.raw`[\w"“”'‘’&-]+`;
const PLACE_AFTER_PRODUCT = new RegExp(String.raw`^\s+((?:${NAME_WORD}\s+){0,2}?${NAME_WORD})\s+(${PLACE_NOUN})s?\b`, 'i');
const PLACE_BEFORE_PRODUCT = new RegExp(
  String.raw`((?:${NAME_WORD}\s+){0,2}?${NAME_WORD})\s+(${PLACE_NOUN})s?\s+(?:in|on|inside|within)\s+(?:the\s+|our\s+)?$`,
  'i',
);
/** A place's words as they are compared: lower case, no quotes, no plural "s". */
/** A word or words without their quote marks. */
const unquoted = (words: string): string => words.replace(/["“”'‘’]/g, '');
const placeKey = (words: string): string =>
  unquoted(words.toLowerCase())
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => (w.length > 3 ? w.replace(/s$/, '') : w))
    .join(' ');

/**
 * The places a description names with the product that keeps them — "the Notion "Intake" tracker", "the Orders board
 * in Notion", "our Notion order board", "the IT project in Jira" — as their words ("intake tracker", "order board")
 * to the product's name as said. A place needs a name of its own: "our Notion board" names none. Pure.
 */
export function placesNamed(text: string): Map<string, string> {
  const places = new Map<string, string>();
  for (const m of providersIn(text)) {
    if (m.weak) continue;
    const said = text.slice(m.index, m.index + m.name.length);
    const after = PLACE_AFTER_PRODUCT.exec(text.slice(m.index + m.name.length));
    const found = after ?? PLACE_BEFORE_PRODUCT.exec(text.slice(0, m.index));
    if (!found?.[1] || !found[2]) continue;
    // (right after the product, every word names the place: "post in Slack and the jobs list" names none)
    if (after && found[1].split(/\s+/).some((w) => NOT_A_NAME.test(unquoted(w)))) continue;
    // (the words right before the place's noun that are a name: "copy it to the Orders board" → "Orders")
    const all = found[1].split(/\s+/);
    // (a pronoun in lower case: "IT" may be a name)
    const last = all.findLastIndex((w) => NOT_A_NAME.test(unquoted(w)) || /^(?:it|them|him|her|us|me|you)$/.test(w));
    const words = all.slice(last + 1);
    // (a name, not what is done there: "save it to the Drive folder", "add a row to the tracker")
    if (words.length === 0 || providersIn(words.join(' ')).length > 0) continue;
    const key = placeKey(`${words.join(' ')} ${found[2]}`);
    if (!places.has(key)) places.set(key, said);
  }
  return places;
}

/**
 * A start or a duty that names a place of `places` and no product keeps the product said with it elsewhere:
 * "tick the Paid box on the Orders board" → "… (Notion)". Pure.
 */
export function withPlaceKept(text: string, places: ReadonlyMap<string, string>): string {
  if (places.size === 0 || providersIn(text).some((m) => !m.weak)) return text;
  for (const [key, product] of places) {
    const words = key.split(' ').map((w) => `["“”'‘’]?${escapeRegExp(w)}s?["“”'‘’]?`);
    if (new RegExp(`(?:^|[^\\w])${words.join('\\s+')}(?![\\w])`, 'i').test(text)) return `${text} (${product})`;
  }
  return text;
}

export const channelsIn = (text: string): string[] =>
  [...text.matchAll(/(?:^|[^\w&])(#[a-z0-9][\w-]*)/gi)].map((m) => (m[1] ?? '').toLowerCase());
export const handlesIn = (text: string): string[] =>
  [...text.matchAll(/(?:^|[\s(])(@[a-z][\w.-]*)/gi)].map((m) => (m[1] ?? '').replace(/\.$/, ''));

// ---- sentences ----

const ABBREVIATIONS = new Set([
  'e.g',
  'i.e',
  'etc',
  'vs',
  'mr',
  'mrs',
  'ms',
  'dr',
  'inc',
  'ltd',
  'co',
  'approx',
  'no',
  'dept',
  'st',
  'jr',
  'sr',
  'a.m',
  'p.m',
  'u.s',
  'min',
  'max',
]);

export type Sentence = {
  text: string;
  /** paragraph, bullet or numbered item the sentence belongs to */
  block: number;
  /** the sentence opens its block */
  first: boolean;
  /** a short label before a colon ("About the role:") stripped from the text */
  label?: string;
  /** split off the sentence before it as a duty with an arrival of its own: it starts a workflow */
  anew?: true;
  /** a numbered section's title over its sub-items ("1. Inbound documents" over "1.a …"): it names the work */
  title?: true;
  /** a numbered item right after the one numbered before it ("2." after "1."): the next step of a procedure */
  step?: true;
};

/** What happened to a thing, said by its noun: "payment" paid, "failure" (a verb of its own, marked "-") fails. */
const HAPPENINGS: Readonly<Record<string, string>> = {
  payment: 'paid',
  failure: '-fails',
  cancellation: 'cancelled',
  cancelation: 'cancelled',
  completion: 'completed',
  approval: 'approved',
  creation: 'created',
  submission: 'submitted',
  signature: 'signed',
  signing: 'signed',
  renewal: 'renewed',
  expiry: '-expires',
  expiration: '-expires',
  closure: 'closed',
  closing: 'closed',
  rejection: 'rejected',
  acceptance: 'accepted',
  confirmation: 'confirmed',
  delivery: 'delivered',
  dispatch: 'dispatched',
  registration: 'registered',
  publication: 'published',
  assignment: 'assigned',
  escalation: 'escalated',
  resolution: 'resolved',
  termination: 'terminated',
  deletion: 'deleted',
  booking: 'booked',
  refund: 'refunded',
  return: 'returned',
  reopening: 'reopened',
  upload: 'uploaded',
  purchase: 'purchased',
  transfer: 'transferred',
  withdrawal: 'withdrawn',
};
const UPON_THE_HAPPENING = new RegExp(
  String.raw`^([ \t]*(?:[-*•·▪◦‣]|\d{1,2}[.)])?[ \t]*)(?:up)?on (?:the )?(${Object.keys(HAPPENINGS).join('|')}) of ((?:an?|the|any|each|every|their|our|its|his|her)(?:\s+[^\s,:;(]+){1,4}?)(?=\s*(?:[,:]|\([^)\n]*\)\s*[,:]))`,
  'gim',
);

/** A question of whether the assistant should do something: "should it merge the dependabot PRs too?". */
const SHOULD_IT =
  /(?:^|(?<=[.!?]\s+))(?:(?:and|so|also|what about|oh)[,\s]+)?(?:should|shall|could|can|would|will|do we want|does it need to)\s+(?:it|the (?:assistant|bot)|you)\b[^?\n]*\?/i;
/** A chat's speaker line: "Tom Becker  10:16 AM", "Priya:". */
const SPEAKER_LINE = /^\s*(?:[A-Z][\w .'’-]{0,40}\s+\d{1,2}:\d{2}\s*(?:[ap]\.?m\.?)?|[A-Z][\w .'’-]{0,30}:)\s*$/i;
/** An answer that refuses: "no.", "nope", "never", "definitely not". */
const REFUSED = /^\s*(?:[A-Z][\w .'’-]{0,30}:\s*)?(?:no|nope|nah|never|definitely not|absolutely not|god no|please don'?t)\b/i;

/**
 * A question in a thread of whether the assistant should do something, answered "no" by the next line that says
 * anything (past a speaker's name and time): the work asked about is refused, no duty — "should it merge the
 * dependabot PRs too?" ¶ "Priya Raman 10:21 AM" ¶ "no. nothing gets merged without a human". Pure.
 */
function withoutQuestionsRefused(text: string): string {
  const lines = text.split('\n');
  return lines
    .map((line, at) => {
      const asked = SHOULD_IT.exec(line);
      if (!asked) return line;
      const answer = lines.slice(at + 1).find((l) => l.trim() && !SPEAKER_LINE.test(l));
      return answer !== undefined && REFUSED.test(answer) ? line.replace(asked[0], '') : line;
    })
    .join('\n');
}

/** A sentence of whom the employee works beside or reports to, and nothing it does: people's names, roles, "and". */
const WORKS_BESIDE_ONLY =
  /^(?:you(?:'ll| will)|it(?:'ll| will)|the (?:assistant|bot)(?:'ll| will)) (?:(?:also )?work alongside|report to) (?:(?:[A-Z][\w'-]*|our|the|my|two|three|four|a few|and|,|\([^)]*\)|(?:head|lead|manager|director|team|csms?|reps?|engineers?|staff|colleagues|people|partners?|owners?|founders?|of|[A-Z]{2,5})s?)\s*)+(?:,?\s*and (?:you(?:'ll| will)|it(?:'ll| will)) (?:work alongside|report to) (?:(?:[A-Z][\w'-]*|our|the|my|and|,|\([^)]*\))\s*)+)?[.!?]?\s*$/i;

/** What follows asks the assistant to do something: "the assistant should reply …", "please forward …", "reply …". */
const ASKED_OF_IT =
  /^(?:(?:the (?:assistant|bot)|you|it) (?:should|must|will|can|needs to|has to)\b|please\b|(?:just |also |then |always )?(?:reply|respond|forward|send|email|e-mail|text|post|create|add|log|tag|assign|escalate|notify|ping|move|update|close|refund|label|archive|save|file|share|invite|book|schedule|mark|set|message|call|flag|copy|raise|open|record|remind|thank|acknowledge|route)\b)/i;

/** The readings of whole blocks of a description, in order, before its sentences are read one by one. Pure. */
/**
 * A chat message's sender and time, first on its line: "Tom (owner), 09:12: ", "[12/03/2024, 09:12] Nadia: ",
 * "12/03/2024, 09:12 - Tom: " (not a day or a routine with its time, "Monday 09:00:", "Daily 08:30:").
 */
const CHAT_NAME = String.raw`(?!(?:mon|tue|wed|thu|fri|sat|sun|every|each|daily|weekly|today|tomorrow|weekdays?|weekends?|mornings?|evenings?)\w*\b)[A-Z][\w.'’-]*(?:\s+[A-Z][\w.'’-]*)?(?:\s*\([^()\n]{1,30}\))?`;
const CHAT_WHEN = String.raw`\d{1,2}[/.]\d{1,2}[/.]\d{2,4},?\s+\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\.?)?`;
const CHAT_PREFIX = new RegExp(
  String.raw`^[ \t]*(?:\[${CHAT_WHEN}\]\s*${CHAT_NAME}\s*:|${CHAT_WHEN}\s*[-–—]\s*${CHAT_NAME}\s*:|${CHAT_NAME},\s+\d{1,2}:\d{2}(?:\s*[ap]\.?m\.?)?\s*:)[ \t]+(?=\S)`,
  'i',
);

/**
 * A pasted chat ("Tom (owner), 09:12: can the new assistant …" ¶ "Nadia (ops), 09:14: yes - when …"): who said each
 * line and when is no part of what is said; each message is read as a sentence of its own. Only where two lines or
 * more open so. Pure.
 */
function chatPrefixesDropped(text: string): string {
  const lines = text.split('\n');
  if (lines.filter((l) => CHAT_PREFIX.test(l)).length < 2) return text;
  return lines
    .map((l) => {
      const m = CHAT_PREFIX.exec(l);
      if (!m) return l;
      return l.slice(m[0].length).replace(/^(?:(?:yes|yep|yeah|ok|okay|sure|right)\b[\s,!]*(?:[-–—]\s*)?)+(?=\S)/i, '');
    })
    .join('\n');
}

/**
 * A message's words set out on lines of their own under what sends it ("text the pupil:" ¶ "  "Hi {first name}, …" ¶
 * "   Reply C if you need to cancel."): the quoted lines are what is sent, one with the line that sends them, not
 * sentences of their own to read as work. Only a quote that opens on the line after a colon and closes within twelve
 * lines. Pure.
 */
function templatesJoined(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const next = lines[i + 1]?.trim() ?? '';
    if (!/:[ \t]*$/.test(line) || !/^["“]/.test(next)) {
      out.push(line);
      continue;
    }
    let end = -1;
    for (let j = i + 1; j < Math.min(lines.length, i + 13); j++) {
      const t = (lines[j] ?? '').trim();
      if (t === '') break;
      // (the quote's close: its last mark, a full stop or comma after it at most)
      if (/["”][.,;!]?$/.test(t) && (j > i + 1 || t.length > 1)) {
        end = j;
        break;
      }
    }
    if (end < 0) {
      out.push(line);
      continue;
    }
    const quoted = lines
      .slice(i + 1, end + 1)
      .map((l) => l.trim())
      .join(' ');
    out.push(`${line.replace(/[ \t]+$/, '')} ${quoted}`);
    i = end;
  }
  return out.join('\n');
}

/** One of what follows "then" in a criterion, said in the passive: "a Bug is created in Jira …" — (thing, done, rest). */
const DONE_THEN =
  /^((?:an?|the|that|this|its|their|each|every|one)\s+[^,]{1,60}?)\s+(?:is|are|gets?|will be)\s+(?:also\s+|then\s+|automatically\s+)*([a-z]+ed|sent|put|set|kept|made|built|written|given|shown|told|paid)\b(.*)$/i;
/** "the customer gets a public reply on the ticket …": someone sent something — (who, what and the rest). */
const GETS_THEN =
  /^((?:the|that|this|their|each|every|an?)\s+[\w-]+(?:\s+[\w-]+)?)\s+(?:gets?|receives?|is sent|are sent)\s+(?:also\s+)?((?:an?|the|their)\s+.+)$/i;

/** What a criterion's "then" says is done, as work: "a message is also posted in #oncall" → "post a message in #oncall". */
function thenAsWork(part: string): string {
  const said = part.trim().replace(/^(?:and|also|then)\s+/i, '');
  const done = DONE_THEN.exec(said);
  if (done?.[1] && done[2]) {
    const word = done[2].toLowerCase();
    const base =
      IRREGULAR_PARTICIPLES[word] ??
      (['put', 'set'].includes(word) ? word : lemmas(word).find((l) => l !== word && KNOWN_VERBS.has(l)));
    if (base) return `${base} ${lowerFirst(done[1])}${done[3] ?? ''}`;
  }
  const got = GETS_THEN.exec(said);
  if (got?.[1] && got[2]) return `send ${lowerFirst(got[1])} ${got[2]}`;
  return said;
}

/** A criterion's "Given …": a thing (its start's subject) or a state (a condition of it). */
const GIVEN_STATE = /\b(?:is|are|has|have|was|were|does|do|did|contains?|includes?|matches|equals)\b/i;

/**
 * Acceptance criteria written as Given / When / Then ("AC1 – Given a new Zendesk ticket tagged "bug", when it is
 * created, then a Bug is created in Jira …, and the Jira key is added to the ticket as an internal note"), on one line
 * or on lines of their own: the "when" is the start (its "it" the thing given), a given state its condition, and what
 * "then" says is done, the work. Pure.
 */
function criteriaAsWork(text: string): string {
  // (Given / When / Then / And on lines of their own: one criterion per line)
  const joined = text.replace(
    /^([ \t]*(?:[-*•][ \t]+)?Given\b[^\n]*)((?:\n[ \t]*(?:[-*•][ \t]+)?(?:When|Then|And|But)\b[^\n]*)+)/gm,
    (whole: string, given: string, rest: string) =>
      // (only a criterion with a "When" of its own: "Given a customer signs up …" ¶ "Then …" reads line by line)
      !/\n[ \t]*(?:[-*•][ \t]+)?When\b/.test(rest)
        ? whole
        : `${given.replace(/[.,;]\s*$/, '')}${rest
            .split('\n')
            .filter((l) => l.trim())
            .map(
              (l) =>
                `, ${lowerFirst(
                  l
                    .trim()
                    .replace(/^[-*•]\s+/, '')
                    .replace(/[.,;]\s*$/, ''),
                )}`,
            )
            .join('')}`,
  );
  return joined.replace(
    /^([ \t]*(?:[-*•][ \t]+)?)(?:(?:AC|Scenario|Criterion|Rule|Case)[ \t]*[\w.]*[ \t]*[–—:-][ \t]*|\d{1,2}[.)][ \t]+)?Given (?:that )?([^\n]{3,200}?),\s*when (?:the |a |an )?([^\n]{3,200}?),\s*then ([^\n]+)$/gim,
    (_whole, marker: string, given: string, when: string, then: string) => {
      const state = GIVEN_STATE.test(given);
      // ("when it is created": the thing given is what happens)
      const start = /^(?:it|they|this|that)\b/i.test(when)
        ? `${given} ${when.replace(/^(?:it|they|this|that)\s+/i, '')}`
        : /^(?:the |a |an )/i.test(when) || when.split(/\s+/).length > 2
          ? `the ${when}`.replace(/^the (?=(?:the|a|an)\s)/i, '')
          : when;
      // ("Given a ticket linked to a Jira bug, when the customer adds a new comment": the comment is on that ticket)
      const condition = state ? `, if ${given}` : /^(?:it|they|this|that)\b/i.test(when) ? '' : ` on ${given}`;
      const work = then
        .replace(/[.;]\s*$/, '')
        .split(
          /,\s*(?:and\s+)?(?=(?:an?|the|that|this|its|their)\s)|\s+and\s+(?=(?:an?|the|that|this|its|their)\s[^,]{1,60}?\s(?:is|are|gets?|receives?)\s)/i,
        )
        .map(thenAsWork)
        .join(', and ');
      return `${marker}When ${start}${condition}, ${work}.`;
    },
  );
}

/** Contractions written without their apostrophe ("we cant hook it up", "theyre already in there"). */
const BARE_CONTRACTIONS: Readonly<Record<string, string>> = {
  cant: "can't",
  dont: "don't",
  doesnt: "doesn't",
  didnt: "didn't",
  isnt: "isn't",
  arent: "aren't",
  wasnt: "wasn't",
  werent: "weren't",
  wont: "won't",
  havent: "haven't",
  hasnt: "hasn't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  couldnt: "couldn't",
  theyre: "they're",
  youre: "you're",
  theyll: "they'll",
  theyve: "they've",
};

/**
 * Text typed fast, in lower case and with few stops ("whenever someone pays … in stripe they should go into hubspot as a
 * contact … and then the other thing is when a payment fails … can it text them"): "i" and bare contractions written
 * out, a new subject after a start parted from it, and "the other thing is" read as the full stop it stands for. Pure.
 */
function hurriedRead(text: string): string {
  return (
    text
      .replace(
        /\b(cant|dont|doesnt|didnt|isnt|arent|wasnt|werent|wont|havent|hasnt|shouldnt|wouldnt|couldnt|theyre|youre|theyll|theyve)\b/gi,
        (w) =>
          /^[A-Z]/.test(w)
            ? `${(BARE_CONTRACTIONS[w.toLowerCase()] ?? w).charAt(0).toUpperCase()}${(BARE_CONTRACTIONS[w.toLowerCase()] ?? w).slice(1)}`
            : (BARE_CONTRACTIONS[w] ?? w),
      )
      // (mid-sentence only: a line that opens with "i" is still written in lower case, and read so)
      .replace(/(?<=[a-z0-9,;)][ \t]+)i(?=\s+[a-z]|['’](?:m|ve|d|ll)\b)/g, 'I')
      // ("… and then the other thing is when a payment fails …": another piece of work, as after a full stop)
      // (mid-sentence, on one line, before more work: not after a full stop, nor "the other thing is that our Slack is busy")
      .replace(
        /(?<=[a-z0-9)])(?<!\b(?:the|one|an))[ \t,]+(?:(?:and|oh|so)[ \t]+)*(?:then[ \t]+)?(?:the other thing is|one other thing is|another thing is|the (?:second|next|last) thing is|one more thing(?: is)?)[ \t,:]+(?=[a-z])(?!that\b)/gi,
        '. ',
      )
      // ("whenever someone pays … in stripe they should go into hubspot": the subject of the work after its start)
      .replace(
        /\b((?:when|whenever|once|as soon as|every time|each time)\s+[^,.;:!?\n]{3,140}?)\s+(?=(?:they|he|she|we)\s+(?:should|must|need to|needs to|have to|has to)\b)/gi,
        // (not what someone asks or says: "When a tenant asks whether they need to pay …", "… tells us they need to …")
        (whole, lead: string) =>
          /\b(?:whether|if|that|us|me|says?|asks?|tells?|thinks?|knows?|wonders?|decides?|checks?|confirms?|asked|told|said)$/i.test(
            lead,
          )
            ? whole
            : `${lead}, `,
      )
      // ("they should go into hubspot as a contact": what is to go into a product as one of its things is added to it)
      .replace(
        /\b(they|he|she|it)\s+(?:should|must|need to|needs to|can|could|will)\s+go\s+(?:in|into|onto|on)\s+(?=[a-z]+\s+as\s+an?\s)/gi,
        (_whole, who: string) => `add ${/^it$/i.test(who) ? 'it' : 'them'} to `,
      )
      // ("-> put in salesforce as a lead": a note's step with its object left out, what came in)
      .replace(/\b(put|add|log|enter|save|record)\s+(?=(?:in|into|on|to)\s+[a-z][\w-]*\s+as\s+an?\s)/gi, '$1 them ')
      // ("and then they get an email from us welcoming them": what they are to get from us, sent to them)
      .replace(
        /\b(and\s+then|then|and)\s+(?:they|he|she)\s+(?:get|gets|receive|receives)\s+(?=(?:an?|one|our)\s+(?:[\w'-]+\s+){0,3}?(?:e-?mail|text|sms|message|welcome|reminder|confirmation)\b)/gi,
        // (not one a product sends itself: "… they receive an invoice email automatically", "… from stripe itself")
        (whole: string, join: string, at: number, all: string) =>
          /^[^.;!?\n]*\b(?:automatically|itself|by (?!us\b|me\b)[a-z]+|from (?!us\b|me\b|our\b|the (?:assistant|bot|studio|team|shop|office)\b)[a-z]+)/i.test(
            all.slice(at + whole.length),
          )
            ? whole
            : `${join} send them `,
      )
  );
}

/** Where a gerund goes on to another duty in a list item: ", and letting …", " and inviting …". */
const GERUND_AFTER =
  /(,\s+(?:and\s+)?|\s+and\s+(?:then\s+)?)([a-z]+ing)\b(?=\s+(?:an?|the|their|his|her|its|our|them|him|it|every|each|any|all|#|[a-z]+\s+(?:an?|the|their|to|into|on|in)\b))/g;
/** A start said first in a list item, then its duty as a gerund: "Once … in DocuSign, setting up their record …". */
const LEAD_THEN_GERUND = /^((?:when|whenever|once|if|after|as soon as|every|each)\b[^,\n]{3,160}),\s+([a-z]+ing)\b/i;

/**
 * A job ad's duties as gerunds ("• Acknowledging every candidate … with a warm email, and letting #hiring know …",
 * "• Once an offer has been signed in DocuSign, setting up their record in BambooHR"): each gerund that opens a
 * duty, said as the duty. Only in list items, and not one that heads what it means ("Supporting our pastoral care –
 * …"); a word that is no verb ("Onboarding", "Morning") stays. Pure.
 */
function gerundItems(text: string): string {
  return text
    .split('\n')
    .map((line) => {
      const bullet = BULLET.exec(line)?.[0];
      if (!bullet) return line;
      const item = line.slice(bullet.length);
      // (a duty of work the employee can do: a product, a channel or a start said in it — not "Greeting visitors")
      if (
        !providersIn(item).some((p) => !p.weak) &&
        channelsIn(item).length === 0 &&
        !/\b(?:when|whenever|once|every|each|who|as soon as)\b/i.test(item)
      )
        return line;
      // (not a headline over what it means, "Supporting our pastoral care – our line is a text number …")
      const first = /^([A-Z][a-z]+ing)\b(?=\s+[a-z#])(?![^\n]{0,80}?(?:\s[–—-]\s|:\s))/.exec(item)?.[1];
      const base = first ? baseOfGerund(first.toLowerCase()) : undefined;
      const lead = base ? null : LEAD_THEN_GERUND.exec(item);
      const leadBase = lead?.[2] ? baseOfGerund(lead[2].toLowerCase()) : undefined;
      if (!base && !leadBase) return line;
      const opened =
        base && first
          ? `${base.charAt(0).toUpperCase()}${base.slice(1)}${item.slice(first.length)}`
          : `${lead?.[1]}, ${leadBase}${item.slice(lead?.[0].length ?? 0)}`;
      return `${bullet}${opened.replace(GERUND_AFTER, (whole, join: string, gerund: string) => {
        const verb = baseOfGerund(gerund);
        return verb ? `${join}${verb}` : whole;
      })}`;
    })
    .join('\n');
}

/** "who applies …", "that books …": someone doing what starts the work, in a relative clause of a duty's object. */
const DOING_THAT_ARRIVES =
  /(?:appl(?:y|ies)|signs? up|registers?|books?|pays?|submits?|enquires?|inquires?|orders?|joins?|cancels?|donates?|subscribes?|repl(?:y|ies)|writes? in|emails? in|texts? in|fills? in|fills? out|completes?)/;
/**
 * "Acknowledge every candidate who applies for one of our roles in Greenhouse with a warm email": the people's doing is
 * the start, and the duty is done to each of them — "When a candidate applies for …, acknowledge them with …". Pure.
 */
function eachWhoArrives(text: string): string {
  return text.replace(
    new RegExp(
      `^([ \\t]*(?:${BULLET.source.replace(/^\^\\s\*/, '')})?)([A-Z][a-z]+) (?:every|each|any|all) (?:new )?([a-z]+?)(s?) (?:who|that) (${DOING_THAT_ARRIVES.source}\\b[^,;.\\n]{0,100}?)(?=\\s+(?:with|by|via|using|within)\\s|,|;|\\.|$)`,
      'gm',
    ),
    (whole: string, marker: string, verb: string, noun: string, _s: string, doing: string, at: number, all: string) =>
      // (not where the line says when: "Thank every donor who donates … at the end of the year")
      KNOWN_VERBS.has(verb.toLowerCase()) && !findSchedule(all.slice(at).split('\n')[0] ?? '')
        ? `${marker}When a ${noun} ${doing}, ${verb.toLowerCase()} them`
        : whole,
  );
}

/**
 * A sketch typed like a config file ("trade_orders:" ¶ "  on: webhook /shopify-orders" ¶ "  only_if: tag == wholesale" ¶
 * "  do:" ¶ "    - slack #wholesale: "new trade order …"" ¶ "    - label the mail -> "Booked""): its keys read as words
 * ("only if:"), a message to a channel as a post there, and an arrow before a quoted name as what it is named. Pure.
 */
function sketchRead(text: string): string {
  return (
    text
      // ("only_if:", "run_when:": a key's words)
      .replace(
        /^([ \t]*(?:[-*•][ \t]+)?)([a-z]+)_([a-z]+(?:_[a-z]+)?)[ \t]*:(?=[ \t]|$)/gm,
        (_whole, at: string, a: string, b: string) => `${at}${a} ${b.replace(/_/g, ' ')}:`,
      )
      // ("- slack #wholesale: "new trade order from {store}"": what is said in a channel, posted there)
      .replace(/^([ \t]*[-*•][ \t]+)((?:[A-Za-z][\w-]*[ \t]+)?)(#[\w-]+)[ \t]*:[ \t]*(?=["“])/gm, '$1post in $2$3 ')
      // ("label the mail -> "Booked"": the name it is given; not "opportunity -> "Won"", a stage it is moved to)
      .replace(
        /\b(label|tag|name|rename|title|categori[sz]e)\b([^\n]{0,60}?)[ \t]+(?:->|=>|→)[ \t]+(?=["“'][^"”'\n]{1,40}["”'])/gi,
        '$1$2 as ',
      )
  );
}

const blocksRead = (text: string): string =>
  [
    sketchRead,
    gerundItems,
    eachWhoArrives,
    hurriedRead,
    criteriaAsWork,
    templatesJoined,
    chatPrefixesDropped,
    itemsMarkedForWhom,
    weekByDays,
    partsForLaterDropped,
    relativeItemsOfOne,
    outcomesAsDuties,
    eachArrivingAsStart,
    arrivalsByEmail,
  ].reduce((read, reading) => reading(read), text);

/** Where a formal request's words were taken out: the work asked for begins there (a capital if a sentence does). */
const ASKED = '\uE000';

export function normalise(text: string): string {
  return (
    blocksRead(text.replace(/\r\n?/g, '\n'))
      // "I should be most grateful if your assistant could, whenever …, add them …": a formal request, the work it asks
      .replace(
        /\b(?:I|we)(?: should| would|['’]d) be (?:most |very |extremely |truly |so |really |immensely |ever so )?(?:grateful|obliged|thankful|delighted|pleased|glad) if (?:you|your (?:assistant|bot|system)|the (?:assistant|bot|system|digital (?:assistant|employee))|it) (?:could|would|might|can)(?: (?:kindly|please|also))*,?[ \t]*/g,
        ASKED,
      )
      // "It would be great if you could send new hires …", "it'd help if the assistant could …": the work wished
      .replace(
        /\b(?:it|that)(?: would|['’]d) (?:be )?(?:really |so |very |super |incredibly |extremely )?(?:great|nice|good|amazing|helpful|ideal|brilliant|fantastic|lovely|awesome|perfect|useful|help(?:ful)?|a (?:big |huge |great )?help) if (?:you|your (?:assistant|bot)|the (?:assistant|bot|system)|it) (?:could|would|can)(?: (?:also|please|just))*,?[ \t]*(?=[a-z])(?!(?:stop|not|never|avoid|refrain|quit)\b)/gi,
        ASKED,
      )
      // "Could you send new hires a welcome email?", "Can the assistant text the driver?": a question that asks for work
      .replace(
        /(^|[.!?][ \t]+|\n[ \t]*(?:(?:[-*•]|\d{1,2}[.)])[ \t]+)?)(?:could|can|would) (?:you|the (?:assistant|bot)|it)(?: (?:please|also|just|maybe|perhaps))*[ \t]+((?!(?:be|have|tell|let me know|help|confirm|check|explain|read|store|delete|see|look|know|access|handle|do|remind me how|show me)\b)[a-z][^?\n]{3,300})\?(?![ \t]*(?:[Ww]e (?:don['’]t|do not)|[Tt]hat would be|[Oo]r |[Ii]s that|[Nn]o\b|[Nn]ot\b))/gim,
        // (one that says when, or where: "could the assistant chase late accounts?" before the answer that says how
        // is still a question)
        (whole, before: string, asked: string) =>
          KNOWN_VERBS.has(asked.split(/\s+/)[0] ?? '') &&
          (/\b(?:when|whenever|every|each|new|once|after|as soon as)\b|#[\w-]|@/i.test(asked) || providersIn(asked).length > 0)
            ? `${before}${ASKED}${asked}.`
            : whole,
      )
      // "Were it possible for the assistant to remind schools …, that would be a considerable help": the work wished
      .replace(
        /\b(?:were it possible|if it were possible|if it is possible|would it be possible|might it be possible|is it possible) for (?:you|your (?:assistant|bot)|the (?:assistant|bot|system)|it) to (?=[a-z])/gi,
        ASKED,
      )
      .replace(
        /,[ \t]*(?:that|this) would be (?:a |an |of )?(?:considerable |great |real |tremendous |enormous |most |very |big |huge )?(?:help|helpful|use|assistance|benefit)\b/gi,
        '',
      )
      // "we should very much appreciate the assistant writing to the volunteer with …": the doing wished is the work
      .replace(
        /\b(?:I|we)(?: should| would|['’]d)(?: (?:very much|greatly|really|much|also|particularly))* (?:appreciate|welcome|value) (?:it if )?(?:you|your (?:assistant|bot)|the (?:assistant|bot|system)|it) ([a-z]+ing)\b/gi,
        (whole, doing: string) => {
          const base = baseOfGerund(doing);
          return base ? `${ASKED}${base}` : whole;
        },
      )
      // (a request's work that now opens its sentence opens it with a capital)
      .replace(
        /(^|[.!?][ \t]+|\n[ \t]*)\uE000([a-z])/g,
        (_whole, before: string, first: string) => `${before}${first.toUpperCase()}`,
      )
      .replace(/\uE000/g, '')
      // "Whenever a new file lands there, each row should become a lead in the CRM": after a start, what each thing
      // becomes is made from it
      .replace(
        /,([ \t]+)((?:each|every|any|all) (?:[\w-]+ ){0,2}?[\w-]+) (?:(?:should|must|will|needs? to|has to|have to|is to) (?:then |also )?(?:become|turn into|be turned into|be made into)|becomes|turns into|is turned into|gets turned into) (an?|one|a new) /gi,
        (_whole, space: string, thing: string, a: string) => `,${space}turn ${thing} into ${a} `,
      )
      // "Each one should go into HubSpot and get a welcome email": things said to go into a product are added to it, and
      // a message they get is sent them
      .replace(
        /(^|[.!?:][ \t]+|\n[ \t]*|\b)([Ee]ach one|[Ee]ach of them|[Ee]very one|[Aa]ll of them|[Tt]hey|[Tt]hese|[Tt]hose)\s+(?:should|must|need to|needs to|will|can|have to|has to)\s+(?:also\s+)?(?:go|be put|get put)\s+(?:in|into|onto)\s+([A-Z][\w-]*(?:\s+as\s+(?:an?\s+)?[\w-]+)?)(\s+and\s+(?:also\s+)?get\s+(?=(?:a|an|the|their|our)\s))?/gm,
        (whole, before: string, who: string, where: string, gets: string | undefined, at: number, all: string) => {
          // (only into a product: "they have to go in January" is no place)
          if (!providersIn(where).some((p) => !p.weak)) return whole;
          const them = /^(?:they|these|those)$/i.test(who) ? 'them' : who.toLowerCase();
          // (a capital where a sentence starts)
          const opens = /(?:^|[.!?:]\s*|\n\s*)$/.test(`${all.slice(0, at)}${before}`);
          return `${before}${opens ? 'Add' : 'add'} ${them} to ${where}${gets ? ' and send them ' : ''}`;
        },
      )
      // "Only create a HubSpot task for the sales exec if the amount is over £500": the duty, limited by its condition
      .replace(
        // (in a list item of work, where a rule of its own would stand apart: "Only email customers when …" stays a rule)
        /(^[ \t]*[-*•][ \t]+)Only ([a-z]+)\b([^.!?\n]{3,160}?)[ \t]+(if|when|where|once)\b/gm,
        (whole, before: string, verb: string, rest: string, how: string) =>
          KNOWN_VERBS.has(verb) ? `${before}${verb.charAt(0).toUpperCase()}${verb.slice(1)}${rest} only ${how}` : whole,
      )
      // "Please set up:", "Could you set the following up:", "Here's what to set up:": what opens a list of work is none
      .replace(
        /(^|[.!?][ \t]+)(?:(?:please|kindly|could you|can you|would you)[ \t]+)?(?:set (?:up|(?:this|these|it|them|the following) up)(?: the following(?: (?:automations|workflows|things|for us))?)?|here(?:['’]s| is| are) what (?:to|we(?:['’]d| would) like you to|we need you to) set up|(?:we(?:['’]d| would)|I(?:['’]d| would)) like (?:the (?:assistant|bot)|it|you) to (?:take over|handle|pick up|look after|do) (?:that|this|all (?:of )?(?:that|this)|the following|these|some of (?:that|this|the)|the)(?: [\w-]+){0,2}|(?:we|I) want (?:the (?:assistant|bot)|it|you) to (?:take over|handle|pick up|look after|do) (?:that|this|the following|these)(?: [\w-]+){0,2})[ \t]*(?:,?[ \t]*please)?[ \t]*:[ \t]*$/gim,
        '$1',
      )
      // "and I'll have it tick "On stop" on their HubSpot contact": what someone will have the employee do is its duty
      .replace(
        /(^|[.!?:][ \t]+|\n[ \t]*|\b(?:[Aa]nd|[Ss]o|[Tt]hen)[ \t]+)(?:I|we|We)(?:['’]ll| will| can| could)? have (?:it|the (?:assistant|bot|helper|agent)) (?=[a-z]+\b)(?!(?:[a-z]+ed|done|sent|made|built|written|taken|seen|given|shown|kept)\b)/gm,
        '$1',
      )
      // "- 15 minutes before: nothing, teachers already get Google's own notification": a case with nothing to do
      .replace(
        /^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+[^:\n]{2,100}:[ \t]*(?:nothing|no action|none|do nothing|nothing to do|n\/a)(?:[ \t]+(?:needed|required|to do))?(?:[ \t]*[.!]?[ \t]*$|[ \t]*[,;(—–-](?![^\n]*\b(?:just|but|except|unless|until|then|instead|only)\b)[^\n]*$)/gim,
        '',
      )
      // "You'll work alongside Rosa and our two CSMs, and you'll report to Rosa": whom the employee works beside or for
      // is no work — a sentence that says nothing else (not "You'll report to #ops every morning with the open tickets")
      .replace(
        /(?<=^|[.!?][ \t]+)(?:you(?:'ll| will)|it(?:'ll| will)|the (?:assistant|bot)(?:'ll| will)) (?:(?:also )?work alongside|report to)\b[^.!?\n]*(?:[.!?]|$)[ \t]*/gim,
        (sentence: string) => (WORKS_BESIDE_ONLY.test(sentence) && !findSchedule(sentence) ? '' : sentence),
      )
      // "Client change requests come on mail with subject starting "[CR]". For each such mail please create …": how the
      // things come, then what to do for each of them, is a start and its work
      .replace(
        /(^[ \t]*(?:(?:[-*•]|\d{1,2}[.)])[ \t]+)?|[.!?][ \t]+)((?!(?:when|whenever|if|once|after)\b)[A-Z][^.!?\n:]{3,120}?\b(?:come|comes|arrive|arrives|land|lands|get sent|are sent)\b[^.!?\n:]{0,100}?)\.[ \t]+(?:[Ff]or|[Ww]ith) (?:each|every) (?:such|one|of (?:these|them|those))(?: (?:mail|e-?mail|message|request|one|ticket|order|form|submission|text|enquiry|inquiry))?,?[ \t]+(?:please[ \t]+)?(?=[a-z])/gm,
        (_whole, before: string, come: string) => `${before}When ${lowerFirst(come)}, `,
      )
      // "When an opportunity moves to Contract Sent, the MSA goes out through DocuSign": something sent out by a product,
      // after a start or said as what should be, is sent by it ("Our build contracts go out through DocuSign." alone says
      // how things are)
      .replace(
        /\b((?:the|a|an|their|our|each|every|his|her) (?:(?!(?:should|must|will|shall|can|would|to)\b)[\w-]+ ){0,2}?(?!(?:should|must|will|shall|can|would|to)\b)[\w-]+) ((?:should|must|shall|has to|needs to) )?(?:goes|go|gets sent|get sent|be sent) out((?: to (?:the |their |our |a )?[\w-]+)?(?: for (?:e-)?[\w-]+)?) (through|via|with|in|on|by) (?=[A-Z])/g,
        (whole, thing: string, modal: string | undefined, to: string, by: string, at: number, all: string) => {
          const sentence =
            all
              .slice(0, at)
              .split(/[.!?\n]\s*/)
              .at(-1) ?? '';
          return modal || /^\s*(?:when|whenever|once|if|after|as soon as)\b[^,]*,\s*$/i.test(sentence)
            ? `send ${thing}${to} ${by} `
            : whole;
        },
      )
      // "I want that everything for the new client is made ready: a Slack channel …, a kickoff page in Notion …, and a
      // task in Jira …": each thing to be made ready, made
      .replace(
        /\b(?:I|we|We)(?: would|'d)? (?:like|want|need)(?: that| for)? (?:everything|all of this|the following|these(?: things)?)\b([^:\n.]{0,80}?)\s(?:(?:is|are|be|gets?|to be) )?(?:made ready|set up|ready|prepared|created|sorted|in place|made)[ \t]*:[ \t]*((?:an?|one) [^\n.!?]+)/g,
        (_whole, _for: string, things: string) =>
          `create ${things
            .split(/,\s*(?:and\s+)?(?=(?:an?|one)\s)|\s+and\s+(?=(?:an?|one)\s)/)
            .map((t) => t.trim())
            .join(', create ')}`,
      )
      // "… send the client an email. But only when the issue is not marked as internal.": a condition of the work before
      .replace(/([^.!?\n\s])[.!][ \t]+(?:But|And|Though) only (when|if|where|as long as) (?=[a-z])/g, '$1, only $2 ')
      // "; smaller companies just get our standard 'thanks for your interest' email": what some people are to be sent
      .replace(
        /([;,][ \t]*|[.!?][ \t]+)((?:(?:the )?(?:smaller|larger|bigger|other|new|existing|returning|remaining|all|any|those|these) )?(?:companies|customers|clients|leads|applicants|candidates|members|donors|guests|tenants|patients|parents|students|ones|everyone else|the rest)) (?:just |only |simply |instead |then )*(?:get|receive) ((?:our|an?|the) (?:[\w'"-]+ ){0,6}?(?:e-?mail|text|sms|message|reply|note))\b(?![^.;\n]*\b(?:from|by|automatically)\b)/gi,
        (_whole, before: string, who: string, what: string) =>
          `${before}${/[.!?]/.test(before) ? 'Send' : 'send'} ${lowerFirst(who)} ${what}`,
      )
      // "On payday, which is the last Friday of the month, post …": a day named by what happens on it, said as its date
      .replace(
        /\b(on|every) ((?:[\w-]+ )?[\w-]*(?:day|night|morning))s?,? (?:which|that) (?:is|falls on) ((?:the|every) (?:last|first|second|third|fourth|\d{1,2}(?:st|nd|rd|th))\b[^,.;\n]{0,40}?|(?:mon|tues|wednes|thurs|fri|satur|sun)day)(?=[,.;])/gi,
        (_whole, on: string, _named: string, date: string) => `${on} ${date}`,
      )
      // "Every Thursday evening can it email the squad …?": a start, then the work asked of it
      .replace(
        /(\b(?:every|each|on|at|when|whenever|once|after|before)\b(?:[^,.?!;:\n()]|\([^()\n]{0,80}\)){2,140}?)[ \t]+(?:can|could|would|will) (?:it|you|the (?:assistant|bot)) (?:please )?(?:also )?(?=[a-z]+\b)/gi,
        (whole, lead: string, at: number, all: string) =>
          // (only where the lead is a start of its own: "…, can you …" in the middle of a clause stays)
          /^\s*$|[.!?:\n]\s*$/.test(all.slice(Math.max(0, at - 2), at)) || at === 0 ? `${lead}, ` : whole,
      )
      // "… email the squad the kick-off time, and if any of the lads reply that they're not available, label …": the replies
      // to what was emailed come in by email, a start of their own
      .replace(
        /(\be-?mail\b[^.!?\n]{1,160}?),?\s+and (?:if|when|whenever) ((?:any|one|some|each|all) of (?:the|them|our)(?: [\w-]+s)?|(?:the|our) [\w-]+s|they|anyone|someone) (repl(?:y|ies)|respond|responds|answers?|writes? back)\b/gi,
        (_whole, before: string, who: string) => `${before}. When an email reply comes in from ${who.replace(/^they$/i, 'them')}`,
      )
      // "The day before each appointment they should get an SMS reminder …": what they are to be sent, sent to them
      .replace(
        /\b(?:they|he|she) (?:should|must|shall|need to|needs to) (?:get|receive) ((?:an?|one) (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|reply|note|confirmation|acknowledge?ment|receipt|reminder)s?)\b(?![^.;\n]*\b(?:from|by)\s+(?:[A-Z]|the|their|our)\b)/gi,
        'send them $1',
      )
      // "…, they get an email instead": what they are sent instead
      .replace(
        /\b(?:they|he|she) (?:just |only )?(?:get|receive) ((?:an?|one) (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|call|letter|reminder)) instead\b/gi,
        'send them $1 instead',
      )
      // "I want each driver to get a text with their first stop": what they are to be sent, sent to them
      .replace(
        /\b(?:I|we)(?:'d| would)? (?:also )?(?:want|like|need) ((?:each|every|all|the|our|all our|all the) (?:[\w-]+ )?[\w-]+) to (?:get|receive) ((?:an?|one) (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|reminder|note))\b/gi,
        'send $1 $2',
      )
      // "…, ask a manager to approve before posting it to #escalations, …": the step done once a person approves it
      // (said after, so that the approval gates that step and no other, and no start is read into "before")
      .replace(APPROVED_BEFORE, (whole, who: string, gerund: string, rest: string) => {
        const base = baseOfGerund(gerund);
        // (said first in its sentence, "Ask a manager …", the step is)
        const verb = base && /^[A-Z]/.test(whole) ? `${base.charAt(0).toUpperCase()}${base.slice(1)}` : base;
        return verb ? approvedStep(`${verb}${rest}`, who) : whole;
      })
      // "Before posting it to #escalations, ask a manager to approve.": the same, its step said first
      .replace(BEFORE_APPROVED, (whole, lead: string, gerund: string, rest: string, who: string) => {
        const base = baseOfGerund(gerund);
        return base ? `${lead}${approvedStep(`${base.charAt(0).toUpperCase()}${base.slice(1)}${rest}`, who)}` : whole;
      })
      // "our dispatch software can ping a web address with tomorrow's runs": it calls a webhook of ours (as `CALLS_IN` reads)
      .replace(
        // (said of the other system, by a modal or in the third person: "call the endpoint" is a duty of ours)
        /(?<!\b(?:we|i|you|the (?:bot|assistant|agent)) )\b(?:(?:can|will|could|may|should) (?:ping|hit|call|post to|send (?:it |them |the [\w-]+ )?to)|pings|hits|calls) (?:a|our|the|any|your) (?:web ?address|url|link|endpoint|web ?hook)\b/gi,
        'calls our webhook',
      )
      // "post it to QuickBooks as a bill": in bookkeeping, posting a bill records it
      .replace(
        /\bpost (it|them|the [\w-]+(?: [\w-]+)?) (?:to|in|into) (QuickBooks|Xero|the books|the ledger) as (an? (?:bill|expense|purchase))\b/gi,
        'record $1 in $2 as $3',
      )
      // "When the amount is more than EUR 1.000 then don't book it": an amount is a condition of the work, not a start
      .replace(
        /\b[Ww]hen(?:ever)?( (?:the|its|their|his|her|an?) (?:[\w-]+ )?(?:amount|total|value|price|sum|cost|balance|fee|bill|refund|order total) (?:is|are|comes to|goes) (?:more|less|over|under|above|below|greater|higher|lower|bigger|smaller|at least|at most)\b)/g,
        // (at a sentence's start only: "Refund it when the amount is under $100" is a condition already)
        (whole, rest: string, at: number, all: string) =>
          at === 0 || /(?:^|[.!?:;\n])[ \t]*(?:[-*•][ \t]+)?$/.test(all.slice(Math.max(0, at - 4), at)) ? `If${rest}` : whole,
      )
      // "Shout if you need access to anything.", "Let me know if you have questions": a sign-off, no work
      .replace(
        /(?<=^|[.!?][ \t]+)(?:(?:just |and )?(?:shout|give (?:me|us) a shout|let (?:me|us) know|ping me|holler|reach out|get in touch|ask me|drop me a line))(?: here)? if you (?:need|have|want|get stuck|are stuck|run into|hit)\b[^.!?\n]*[.!?]?[ \t]*/gim,
        '',
      )
      // "check the events calendar for the date they've asked about": whether that time is free in it
      .replace(
        /\b(?:check|look at|look in|see) ((?:my|our|the|their) (?:[\w"'-]+ ){0,2}?calendar) (?:for|on) ((?:the|their|that|this) (?:[\w'-]+ ){0,5}?(?:date|day|time|slot)s?)\b/gi,
        'find a free slot in $1 on $2',
      )
      // "pencil a "HOLD" event on my calendar", "pencil in a call": a provisional booking is a booking
      .replace(/\b([Pp])encil(?: in)? (?=(?:an?|the|their|it|them)\b)/g, (_all, p: string) => (p === 'P' ? 'Book ' : 'book '))
      // "Give Kylie a hoy in Slack", "give the team a shout on Slack": a message to them
      .replace(
        /\b[Gg]ive (me|us|them|him|her|the [\w-]+|[A-Z][\w'-]+) a (?:hoy|shout|bell|buzz|nudge|heads[- ]up|ping|holler|yell|quick message|quick note)\b/g,
        (all: string, who: string) => `${all.startsWith('G') ? 'Message' : 'message'} ${who}`,
      )
      // "the arvo before each move": Australian for the afternoon
      .replace(/\barvo\b/gi, 'afternoon')
      // "look how many receipt mails are still without the label": a count of emails is a search of the mailbox
      .replace(
        /\b(?:look|check|see|count|find out)(?: up)? how many (?=(?:[\w"'-]+ ){0,3}?(?:mails|e-?mails|messages)\b)/gi,
        'search for how many ',
      )
      // "put the label "Verwerkt" on the mail": label the email so
      .replace(
        /\bput (?:the|a) (?:label|tag) ("[^"\n]{1,40}"|'[^'\n]{1,40}'|[\w-]+) on (the|this|that|each|every) (?:mail|e-?mail|message)\b/gi,
        'label $2 email $1',
      )
      // "please do the refund in Stripe": refund
      .replace(/\b(?:do|process|make|action) (?:the|a|their|his|her) refund\b/gi, 'refund the payment')
      // "Once fees are overdue": what a customer owes, overdue, is an invoice overdue
      .replace(
        /\b(?:the |their |school |tuition |membership )?(?:fees|tuition|rent|dues)(?: payments?)? (are|is|go|goes|become|becomes|get|gets) (overdue|late|past due)\b/gi,
        'invoices $1 $2',
      )
      // "move them straight to Phone Screen": straight to is to
      .replace(/\b((?:them|it|him|her|(?:the|their|this|that) [\w-]+)) (?:straight|directly|right) (to|into|onto)\b/gi, '$1 $2')
      // "If a volunteer SMSes back": texts
      .replace(/\bSMS(?:es|'es|s|'s)\b(?=\s+(?:back|us|in|to|the|our|me)\b)/g, 'texts')
      // "The day before anyone's appointment": before each one
      .replace(
        /\b(before|after|ahead of|prior to) (?:anyone|everyone|someone|somebody|everybody|each person|a person)'s (?=[a-z])/gi,
        '$1 each ',
      )
      // "The lab we use, SmileCraft, emails their invoices …": the one named, as the subject
      .replace(
        /\b(?:[Tt]he|[Oo]ur) [\w-]+(?: [\w-]+)? (?:we|I) (?:use|work with|buy from|order from|rent from|deal with), ([A-Z][\w&.'-]*(?: [A-Z][\w&.'-]*){0,2}),[ \t]+(?=[a-z])/g,
        '$1 ',
      )
      // "requests come on mail": by email
      .replace(/\b(come|comes|arrive|arrives|are sent|is sent|get sent|gets sent) (?:on|over|via|in) mail\b/gi, '$1 by email')
      // "So for tickets tagged "damaged" the assistant should reply …": the things so marked, as they are marked, start it
      .replace(
        /(^[ \t]*(?:(?:[-*•]|\d{1,2}[.)])[ \t]+)?|[.!?][ \t]+)(?:(?:so|and|but|also|then)[ \t]+)?for (?:all |any |every )?(ticket|e-?mail|order|issue|deal|lead|message|invoice|pull request|PR|candidate|application|card|contact)s? (?:that are |which are )?(tagged|labell?ed|marked|flagged) ("[^"\n]{1,40}"|'[^'\n]{1,40}'|[\w-]+),?[ \t]+(?=[a-z])/gim,
        (whole, before: string, thing: string, marked: string, value: string, at: number, all: string) =>
          // (only over work asked of the assistant: "For tickets tagged "billing", Anna handles them herself" asks none)
          ASKED_OF_IT.test(all.slice(at + whole.length))
            ? `${before}When ${articleFor(thing)} ${thing.toLowerCase() === 'pr' ? 'PR' : thing.toLowerCase()} is ${marked.toLowerCase()} ${value}, `
            : whole,
      )
      // "The moment a card charge fails in Stripe, you'll create …": the moment something happens is a start
      .replace(
        /(^[ \t]*(?:(?:[-*•]|\d{1,2}[.)])[ \t]+)?|[.!?:][ \t]+)the (?:very )?(?:moment|minute|instant) (?!(?:is|was|has|had|of|for|when)\b)(?=[a-z])/gi,
        '$1As soon as ',
      )
      // "EVERY DAY, ANY TIME": at any time at all is whenever it happens, no time of day
      .replace(
        /\b(?:every day|each day|daily|all day)[ \t]*[,/–—-]?[ \t]*(?:at )?(?:any ?time|24\/7|round the clock|around the clock)\b/gi,
        'any time',
      )
      // "#1 and #3 will be set up later once we see how billing goes": other parts of a plan, for another time, say no work
      .replace(
        /(^|[.!?]\s+)(?:#\d+|(?:parts?|items?|points?|steps?|phases?|nos?\.?)\s*#?\d+|the (?:others?|rest|other (?:two|three|ones?|parts?|assistants?)))(?:(?:\s*,\s*|\s+(?:and|&|or)\s+)#?\d+)*\s+(?:will|can|are to|would)\s+(?:be\s+)?(?:set up|added|built|done|handled|tackled|looked at|come|follow|wait)\s+(?:later|at a later (?:date|stage)|in (?:a )?(?:later|next|future) (?:phase|stage|step|round))\b[^.!?\n,;]*(?:[.!?]|$)/gim,
        '$1',
      )
      .replace(/[‘’]/g, "'")
      .replace(/[“”]/g, '"')
      .replace(/\u00a0/g, ' ')
      // "Cancellations come in by email. When one arrives:" over a list: the start heads the list on a line of its own
      .replace(
        /^((?![ \t]*(?:when|whenever|if|once|after|as soon as|each time|every time)\b)[^\n]*[.!?])[ \t]+((?:when|whenever|if|once|after|as soon as|each time|every time)\b(?!\s+(?:you|i|we)\b)[^:.!?\n]{3,120}:)[ \t]*(?=\n[ \t]*(?:[-*•·▪◦‣]|\d{1,2}[.)])[ \t])/gim,
        '$1\n$2',
      )
      // "Right now Maria does this every time a referral comes into the referrals@ inbox:" over a list: the steps someone
      // takes today, said to be taken each time something comes, are the work and what starts it
      .replace(
        /^[ \t]*(?:right now|currently|at the moment|at present|today|these days|nowadays),?[ \t]+[^\n:]*?\b((?:every|each) time|whenever|when|as soon as)\b([^\n:]{3,160}):[ \t]*(?=\n(?:[ \t]*\n)*[ \t]*(?:[-*•·▪◦‣]|\d{1,2}[.)])[ \t])/gim,
        (_whole, lead: string, rest: string) => `${lead.charAt(0).toUpperCase()}${lead.slice(1)}${rest}:`,
      )
      // "IF a customer reopens a ticket" ¶ "THEN set it to High priority …": a rule written on two lines, IF over THEN, as
      // automation rules are, is a start and its work in one sentence (its IF says what happens, as a When does); an IF
      // line that says more than its condition ("When a booking comes in, put it in my diary." ¶ "then …") is no such rule
      .replace(
        /^([ \t]*)(?:if|when|whenever|once)\b[ \t]*([^\n,.;:!?]*?)[ \t]*\n[ \t]*then\b[ \t]*[,:]?[ \t]*(?=\S)/gim,
        '$1When $2, ',
      )
      // "post a public reply to the tenant", "leave a reply on the ticket": a reply, as the duty
      .replace(
        /\b(?:post|send|leave|add|write) (?:a|an) (public |private )?(?:reply|response)(?=\s+(?:to|on|in|with|thanking|asking|saying)\b|\s*[.,;!]|\s*$)/gim,
        (_w, kind?: string) => (kind ? `reply ${kind.trim() === 'public' ? 'publicly' : 'privately'}` : 'reply'),
      )
      // "When it's the 1st of the month, …", "if it's Friday at 4pm": a time come round is a time, said as one
      .replace(
        /\b(?:when|whenever|if|once) it(?:'s| is) (?=(?:the \d{1,2}(?:st|nd|rd|th)|the (?:first|last) (?:day|working day|weekday|business day|monday|tuesday|wednesday|thursday|friday) of|(?:mon|tues|wednes|thurs|fri|satur|sun)day\b))/gi,
        'on ',
      )
      // "Upon payment of the deposit invoice:", "On cancellation of a viewing, …": a start said as a noun is the thing
      // it happens to, and the happening ("When the deposit invoice is paid:")
      .replace(UPON_THE_HAPPENING, (_whole, lead: string, noun: string, thing: string) => {
        const done = HAPPENINGS[noun.toLowerCase()] ?? '';
        return `${lead}When ${thing} ${done.startsWith('-') ? done.slice(1) : `is ${done}`}`;
      })
      // "… her own system, but when a cafe pays one of those invoices it would be lovely if …": a start and its wish, a
      // sentence of their own
      .replace(
        /,\s*but\s+(when(?:ever)?\s[^,.;:\n]{3,100}?),?\s+it(?='d| would (?:really |also |just |so )?(?:help|be [a-z]+) if\b)/gi,
        (_whole, when: string) => `. ${when.charAt(0).toUpperCase()}${when.slice(1)}, it`,
      )
      // "…, so what I'd like is for every order email that comes in to become a new card …": each of them, and what it
      // becomes, a sentence of its own ("Every order email that comes in should become a new card …")
      .replace(
        /[,;]?\s*(?:(?:and|so)\s+)?what (?:i|we)(?:'d| would) (?:really )?(?:like|love|want) is for ((?:every|each|any|all)\s[^,.;:\n]{3,120}?)\s+to (?:become|turn into|be turned into|be made into)\s+/gi,
        (_whole, each: string) => `. ${each.charAt(0).toUpperCase()}${each.slice(1)} should become `,
      )
      // ("…, and then for the cafe to get a quick email back confirming it": more of that wish, a message sent)
      .replace(
        /(?<=\bshould become [^.!?\n]*)\band (?:then )?for (the|each|every|that) ([\w-]+) to (?:get|receive) (an? (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|reply|note|confirmation))(?: back)?\b(?!\s+from\b)/gi,
        'and then send $1 $2 $3',
      )
      // an item labelled with how overdue ("- 7 days overdue: email the customer …", "- 45 days overdue AND more than
      // £1,500: …"): a start, said of the item overdue
      .replace(
        /^([ \t]*(?:[-*•]|\d{1,2}[.)]|[a-z][.)])[ \t]+)((?:\d{1,3}|one|two|three|four|five|six|seven|eight|nine|ten|fourteen|thirty|sixty|ninety)\s+(?:days?|weeks?)\s+(?:overdue|late|past due|unpaid|outstanding)\b[^:\n]{0,60}):[ \t]*/gim,
        // (an invoice when the item or the lines just above it speak of invoices: "A) Customer invoices (QuickBooks)")
        (_whole, item: string, late: string, at: number, all: string) =>
          `${item}When ${/\binvoices?\b/i.test(`${all.slice(Math.max(0, at - 300), at)} ${late}`) ? 'an invoice' : 'one'} is ${late}: `,
      )
      // an item labelled with an amount ("- Bill under £750: record it …", "- £750 or more: label …"): a case of the work
      .replace(
        // (over a duty: "- Orders over £50: free delivery" is a price list)
        /^([ \t]*(?:[-*•]|\d{1,2}[.)]|[a-z][.)])[ \t]+)((?:[\w-]+\s+){0,3}?(?:under|over|above|below|less than|more than|at least|up to)\s*[£$€]\s?\d[\d,.]*k?|[£$€]\s?\d[\d,.]*k?\s+(?:or (?:more|less|over|under|above|below)|and (?:over|above|up|under|below)))[ \t]*:[ \t]*(?=(?:please\s+)?(?:record|label|post|email|e-mail|send|create|add|log|save|file|forward|reply|text|tag|assign|refund|invoice|pay|approve|ask|flag|move|update|notify|tell|leave|ignore|hold|escalate|message|ping|book|cancel|mark|set|share|upload|archive)\b)/gim,
        (_whole, item: string, amount: string) => `${item}If ${/^[£$€]/.test(amount) ? 'it is ' : ''}${lowerFirst(amount)}, `,
      )
      // said in another language's order: "then must the contract be sent with DocuSign" (the thing, then the modal),
      // "make please a Slack channel" (please first), "Additional make …" (also), "please not e-mail" (don't)
      .replace(
        // (after "then" only, and never in a question: "…, should the deposit be refunded?" asks)
        /\b(then)\s+(must|should|shall|has to|needs to)\s+((?:the|a|an|our|their|this|that|these|those)\s[^,.;:?\n]{1,80}?)\s+be\s+(?=(?:[a-z]+ed|sent|made|put|set|written|given)\b(?![^.!?\n]*\?))/gi,
        '$1 $3 $2 be ',
      )
      .replace(/\b(make|create|send|post|add|write|book|put|give|set|open|raise)\s+please\b/gi, 'please $1')
      .replace(/(^|[.!?]\s+)additional(?:ly)?\s+(?=please\b)/gim, '$1Also ')
      .replace(/\bplease not\s+(?=[a-z])/gi, "please don't ")
      // ("Leads from source "Partner portal" please don't e-mail": the thing first, then the ban — the ban first)
      .replace(
        // (a thing, not a start: "If a customer asks for a refund please don't promise anything" stays as said)
        /(^|[.!?]\s+)((?!(?:when|whenever|if|once|as soon as|after|before|unless|while)\b)[A-Z](?:[^.!?\n,\s]*\s+){0,5}?[^.!?\n,\s]+)\s+please (don't|do not|never)\s+([a-z-]+)\b/gim,
        (_whole, start: string, thing: string, not: string, verb: string) => `${start}Please ${not} ${verb} ${lowerFirst(thing)}`,
      )
      // "HS contact", "HS task", "new HS deal": HubSpot by its initials, said of its own records (not "H&S", "HS2")
      .replace(
        /\bHS(?=\s+(?:contacts?|tasks?|deals?|pipelines?|notes?|propert(?:y|ies)|companies|company|lists?|lifecycle|records?)\b)/g,
        'HubSpot',
      )
      // "ONLY after Marco replies approving it, refund the payment": a person's yes is a condition of the step, no start
      .replace(
        /\b(?:only\s+)?(?:after|once|when)\s+([A-Z][a-z]+)\s+(?:replies|has replied|says yes|approves|has approved|gives (?:the|his|her|their) (?:ok|okay|go-ahead)|oks it|signs it off|signs off)(?:\s+(?:approving|to approve|okaying)\s+it)?\s*,\s*/gi,
        'if $1 approves, ',
      )
      // "it can run on weekends": when it may work, no time to run at ("every weekend" is)
      .replace(
        /\b(?:it|you|the (?:assistant|bot)) (?:can|may|is allowed to|is fine to) (?:also |still )?(?:run|work|operate|be on|be active|keep running)(?: on| at| during| over| through| in)? (?:the )?(?:weekends?|evenings?|nights?|weekdays|bank holidays|holidays|any ?time|24\/7|all day|all night|out of hours)\b/gi,
        'that is fine',
      )
      // "She wants to keep that part herself, but it would help if their text was posted to #front-desk": the wish is a
      // sentence of its own
      .replace(/,\s*(?:but|and|so)\s+it(?=(?:'d| would) (?:really |also |just |so )?(?:help|be [a-z]+) if\b)/gi, '. It')
      // "The day before of each appointment": "before of", as Portuguese and Spanish say it, is "before"
      .replace(/\b(before|after) of (?=(?:each|every|the|a|an|their|any|his|her)\b)/gi, '$1 ')
      // a forwarded or replied-to email's quote marks ("> Hiya, two things …", ">> …"): layout, not words
      .replace(/^[ \t]*(?:>[ \t]?)+/gm, '')
      // markdown emphasis and headings, and emoji: layout, not words
      .replace(/\*\*|__/g, '')
      // (a markdown heading is a heading, said with a colon when it has none: "## Onboarding Coordinator (digital)", "###
      // Not your job", "### When a ticket arrives" head what is under them and carry no work of their own)
      .replace(/^[ \t]*#{1,6}[ \t]+(.*?)[ \t#]*$/gm, (_whole, heading: string) =>
        /[:.!?]$/.test(heading) || /:(?!\d\d)/.test(heading) || !/\w/.test(heading) ? heading : `${heading}:`,
      )
      // "Our software has an API: `GET /recalls/due` returns …": code said first is the thing the sentence is about, no verb
      .replace(
        /(^|[:.!?][ \t]+)(`[^`\n]{1,120}`)(?=\s+(?:returns|gives|lists|responds|sends back|shows|is|are|has|contains)\b)/gm,
        '$1the $2',
      )
      // an emoji that opens a line marks it as an item ("📲 when a driver texts …", "⛔ text customers …")
      .replace(/^[ \t]*(?:\p{Extended_Pictographic}\uFE0F?[ \t]*)+(?=[^\s-])/gmu, '- ')
      .replace(/\p{Extended_Pictographic}\uFE0F?/gu, '')
      // "In office hours just post urgent ones in #desk": the hours a duty keeps, said first, end before it as with a comma
      .replace(
        /(^|[.!?]\s+)((?:in|during|within|outside(?: of)?|out of|after)\s+(?:business|office|working|opening)\s+hours)\s+(?=[a-z])/gim,
        '$1$2, ',
      )
      // "stick a message in the sales-floor channel", "pop a note in #ops": a message put in a channel is posted there
      .replace(
        /\b(?:stick|pop|throw|put|bung)\s+((?:a|an|the)\s+(?:quick\s+|short\s+)?(?:message|note|post|line|heads-up|update))\s+(in|into|on)\s+(?=#|the\s+[\w-]+\s+channel\b|(?:the\s+)?slack\b)/gi,
        'post $1 $2 ',
      )
      // who is copied in, at a line's end ("thanks! cc @Priya @Sam", "/cc @marta (EM)"): no part of the work
      .replace(/(^|[\s.!,])\/?cc:?\s+@[\w.-]+(?:[\s,]+(?:and\s+)?@[\w.-]+)*(?:\s*\([^()]{0,30}\))?[ \t]*$/gim, '$1')
      // the person on call is one word, or "call" reads as a meeting
      .replace(/\bon call\b/gi, 'on-call')
      // "• Keeping our volunteers in the loop – every Thursday at 10am, post …": an item's title before a dash, then
      // its start; the dash is kept (as "⸺"), so that `splitLine` sets the title aside, or makes it a comma again
      .replace(
        /^([ \t]*(?:[-*•·▪◦‣]|\d{1,2}[.)])?[ \t]*(?!(?:hi|hello|hey|dear|thanks|thank you)\b)[^:\-–—\n,.;]{2,60}?)\s+[–—]\s+(?=(?:when|whenever|if|every|each|once|after|on)\b)/gim,
        '$1 ⸺ ',
      )
      .replace(/\s+[–—]\s+/g, ', ')
      .replace(/[ \t]+/g, ' ')
      .replace(/ & /g, ' and ')
      // "@mention @itbot": the verb, written as Slack shows it
      .replace(/(^|\s)@(mention|mentions|mentioned|tag|tags|tagged)\b/gi, '$1$2')
      // "POST their name + email to …": a plus between two things of one owner joins the things, not two duties
      .replace(
        /(?<=\b(?:their|his|her|its|our|your|each|every|the customer['’]s|the member['’]s) [a-z]+) \+ (?=[a-z]+ (?:to|into|onto|in|on|with|for)\b)/g,
        '/',
      )
      // "post in #it-ops + open a Jira incident", "Zendesk + Jira": a plus between words joins them
      // (and after a sentence's end: "send it to them. + post in #brewhouse"; not after "no.")
      .replace(/(?<=[A-Za-z)'"]) \+ (?=[A-Za-z#@(])|(?<=[a-z]{3}|[)'"])\. \+ (?=[a-z#@(])/g, (plus) =>
        plus.startsWith('.') ? ', and ' : ' and ',
      )
      // "I don't want the assistant merging PRs": what it must never do, said as a wish
      .replace(
        /\b(?:I|we|We)(?:['’]d| would)? (?:don['’]?t|do not|never|would not|wouldn['’]t) (?:want|like|expect) (?:you|it|the (?:assistant|bot|employee|agent|helper|automation))(?: to)? (?=[a-z])/g,
        'never ',
      )
      // "From 85% please write in #yard-crew …", "Above 30 °C, text the manager": a threshold before its duty is its condition
      .replace(
        /(^|[.!?:]\s+|\n\s*(?:(?:[-*•–]|\d{1,2}[.)])\s+)?)(From|Above|Over|Beyond|Under|Below|Up to|More than|Less than|At least)\s+(\d[\d.,]*\s*(?:%|percent|per cent|°\s?[CF]|degrees|kg|km|mph|units|items|days|hours)|[$€£]\s?\d[\d,.]*k?|\d[\d,.]*k?\s?(?:€|£|EUR|GBP|USD|dollars|euros|pounds))\s*[,:]?\s+(?=(?:please|also|then|just)\s|(?!(?:and|or|to|in|of|per|is|are|was|were|be|goes|go|gets?|means|needs?|requires?|should|must|will|can|may|stays?|counts?|comes?|sits?|lands?|takes?|has|have|we|they|it|he|she|i|you)\b)(?![a-z]+\s+[a-z]+s\b)[a-z]+\s)/g,
        (_whole, before: string, word: string, amount: string) =>
          `${before}If it is ${{ from: 'at or above', under: 'below' }[word.toLowerCase()] ?? word.toLowerCase()} ${amount}, `,
      )
      // "Every one goes into HubSpot as a contact", "every booking from that form goes into the Boarding calendar as an
      // event": each item put somewhere, said of the item
      .replace(
        /(^|[.!?:]\s+|\n\s*)(Every|Each|every|each) ((?:one|[\w-]+)(?: (?:from|of|on|in) (?:that|this|the|our) [\w-]+)?) (?:goes|should go|must go|gets put|is put|gets added|is added|gets entered|is entered) (in|into|on|onto) (?=(?:[A-Z]|the |our |a |an )[^.;]{0,80}?\bas an? )/g,
        (_whole, before: string, each: string, what: string, into: string) =>
          `${before}Add ${each.toLowerCase()} ${what} ${/^on/i.test(into) ? 'onto' : 'to'} `,
      )
      // "give the account owner a HubSpot task": a task made for them
      .replace(
        /\bgive (the [\w'’ -]{1,40}?|them|him|her|[A-Z][\w-]+) ((?:an?|one) (?:[A-Z][\w-]+ )?(?:follow-up |follow up |reminder )?task)\b/g,
        'create $2 for $1',
      )
      // "residents send SMS to our number": they text it
      .replace(
        /\b(send|sends|sent)\s+(?:an?\s+)?(?:sms|text(?:\s+message)?)(?:es|s)?\s+to\s+(?=(?:our|the|my)\s+(?:[\w-]+\s+)?(?:number|line|mobile|phone|shortcode)\b)/gi,
        (_whole, verb: string) => `${{ send: 'text', sends: 'texts', sent: 'texted' }[verb.toLowerCase()] ?? 'text'} `,
      )
      // "the "bug" tag", "with the `urgent` label": a tag named, not a verb
      .replace(/\bwith (?:the|a) ("[^"\n]{1,30}"|'[^'\n]{1,30}'|`[^`\n]{1,30}`|“[^”\n]{1,30}”) tag\b/g, 'tagged $1')
      // a story of the people served is what they should get: "As a customer, I want to get a text when my order
      // ships" → "The customer should get a text when their order ships"
      .replace(
        SERVED_STORY,
        (_whole, role: string, when: string | undefined, wants: string | undefined, rest: string) =>
          `${when ? `${when.charAt(0).toUpperCase()}${when.slice(1)}the` : 'The'} ${role} should ${!wants ? 'get ' : /^hear back$/i.test(wants) ? 'get a reply' : wants}${rest
            .replace(/\bmy\b/gi, 'their')
            .replace(/\bme\b/gi, 'them')
            .replace(/\bI\b/g, 'they')}`,
      )
      // a user story's role is who wants it, not part of the work: "As the studio manager, I want …"
      .replace(STORY_ROLE, '')
      // a time of day said in words: "half past seven", "quarter to nine", "at half eight", "seven o'clock"
      .replace(SPOKEN_CLOCK, spokenClock)
      // a number written onto its unit: "2hrs before", "30mins", "3days"
      .replace(/\b(\d{1,3})(hrs?|hours?|mins?|minutes?|days?|wks?|weeks?)\b/gi, '$1 $2')
      // "24h before", "about 24 hours before each appointment": a length of time before, said roughly
      .replace(/\b(\d{1,3})h\b(?=\s+(?:before|after|ahead|prior)\b)/gi, '$1 hours')
      .replace(
        /\b(?:about|around|roughly|approximately|approx\.?|some|~)\s+(?=(?:\d{1,3}|an?|one|two|three)\s*(?:hours?|hrs?|mins?|minutes?|days?|weeks?)\s+(?:before|after|ahead|prior)\b)/gi,
        '',
      )
      // chat shorthand, in lower case between spaces: "txt the customer", "w/ the bike", "ppl book repairs thru the form"
      .replace(SHORTHAND_WORD, (w) => SHORTHAND[w] ?? w)
      // the words of the work, misspelt as people type them: "the artists calender", "the apointment", "recieve"
      .replace(MISSPELT, (word) => MISSPELLINGS[word] ?? word)
      .replace(FOREIGN_WHEN, (phrase) => inEnglish(phrase))
      // a spoken note's fillers, in lower case and not before a number ("so um when someone …", "and, uh, send
      // them …"; not German "um 8", nor "the ER")
      .replace(/(?<=^|[\s,(])(?:um+|uh+|erm+|er(?=,))(?:,|\.\.\.)?(?=\s+(?!\d))/gm, '')
      .replace(/[ \t]{2,}/g, ' ')
      .replace(TABLE, (table) => casesOf(table))
      // (a question that says no case, "Q: What about reminders?", keeps its line; the answer loses its "A:")
      .replace(
        QUESTION_ANSWER,
        (whole, question: string, answer: string) =>
          asCase(question, answer) ?? whole.replace(ANSWER_MARK, '$1').replace(NOT_YOURS, '$1'),
      )
      // ("Q: Refunds? A: Never promise one.": a question and its answer on one line, read as on two)
      .replace(QUESTION_ANSWER_INLINE, (whole, question: string, answer: string) => {
        const read = asCase(question, answer);
        return read ?? whole.replace(/[ \t]+A\s*[:.)-]\s*/, '\n').replace(NOT_YOURS, '$1');
      })
  );
}

/** A user story of the people the business serves: the role, what they want to get, the rest of the sentence. */
const SERVED_STORY =
  /\bAs (?:a|an|the) ((?:new |first-time |returning |prospective |existing )?(?:customer|client|tenant|member|patient|guest|parent|student|learner|buyer|visitor|homeowner|subscriber|donor|volunteer|caller|applicant|candidate|passenger|resident|player|attendee|participant|shopper|user|new hire|starter))\b[^,.\n]{0,40}, ((?:when|whenever|once|if|after|as soon as)\b[^.\n]{1,120}?, )?I(?:['’]d| would)? (?:want|like|need|love|expect) (?:to (get|receive|be (?:told|notified|emailed|texted|reminded|sent)|hear back)|(?=(?:a|an) (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|reminder|reply|confirmation|update)\b))([^.\n]*)/gi;
/**
 * "As the studio manager, I want …", "As a line manager, I'd like …": the role a user story opens with; also before
 * the story's start ("As the support lead, when a new Zendesk ticket comes in …, I want …").
 */
const STORY_ROLE =
  /\bAs (?:(?:a|an|the|our|my) |(?=[A-Z]))(?!(?:soon|of|well|long|usual)\b)[^,.;:\n]{1,60}, (?=(?:(?:I|we)(?:'d| would)? (?:want|need|like|love|would like|expect)|when|whenever|once|if|every|each|never)\b)/g;

const HOUR_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
const HOUR = String.raw`(?:${HOUR_WORDS.join('|')}|1[0-2]|[1-9])`;
/** A clock said in words: "half past seven", "quarter to nine", "at half eight" (British, 8:30), "seven o'clock", "at seven". */
const SPOKEN_CLOCK = new RegExp(
  [
    // ("a quarter past seven": a quarter past may be said with its article; "a quarter to one charity" is a share)
    String.raw`(?:\ba\s+(?=quarter\b)|(?<!\ba\s))\b(half|quarter)\s+past\s+(${HOUR})\b`,
    String.raw`(?<!\ba\s)\b(quarter)\s+to\s+(${HOUR})\b`,
    String.raw`\b(?:(at|by|around|about|from|until|till)\s+)half\s+(${HOUR})\b(?!\s*(?:an?\s+)?(?:hours?|days?|weeks?|months?|years?|minutes?|of|the|a|an)\b)`,
    String.raw`\b(${HOUR_WORDS.join('|')})\s+o'?clock\b`,
    String.raw`(?<!\b(?:${HOUR_WORDS.join('|')})\s)\b(at|by|around|about|from|until|till)\s+(${HOUR_WORDS.join('|')})\b(?=\s*(?:[ap]\.?m\b|in the (?:morning|afternoon|evening)|at night|sharp|[,.;:!?)]|$|(?:and|&)\s+(?:at\s+)?(?:${HOUR_WORDS.join('|')}|\d)\b))`,
  ].join('|'),
  'gi',
);
const hourOf = (word: string): number => {
  const n = HOUR_WORDS.indexOf(word.toLowerCase());
  return n >= 0 ? n + 1 : Number(word);
};
function spokenClock(whole: string, ...g: (string | undefined)[]): string {
  const [pastWhat, pastHour, toWhat, toHour, halfPrep, halfHour, oclockHour, atPrep, atHour] = g;
  if (pastWhat && pastHour) return `${hourOf(pastHour)}:${pastWhat.toLowerCase() === 'half' ? '30' : '15'}`;
  if (toWhat && toHour) return `${((hourOf(toHour) + 10) % 12) + 1}:45`;
  if (halfPrep && halfHour) return `${halfPrep} ${hourOf(halfHour)}:30`;
  if (oclockHour) return `${hourOf(oclockHour)} o'clock`;
  if (atPrep && atHour) return `${atPrep} ${hourOf(atHour)}`;
  return whole;
}

/** A question and its answer, each on a line of its own: "Q: Someone emails berths@. What do I do?" ¶ "A: Add them …". */
const QUESTION_ANSWER = /^[ \t]*Q\s*[:.)-]\s*(.+?)[ \t]*\n(?:[ \t]*\n)*[ \t]*A\s*[:.)-]\s*(.+)$/gim;
const ANSWER_MARK = /(\n[ \t]*)A\s*[:.)-]\s*/;
const QUESTION_ANSWER_INLINE = /^[ \t]*Q\s*[:.)-]\s*([^\n]+?\?)[ \t]+A\s*[:.)-]\s*([^\n]+)$/gim;
/** An answer that opens "Not you, …" / "Not yours.": that part is no duty; what it says after may be. */
const NOT_YOURS = /(\n[ \t]*)not\s+(?:you|yours|for you)\b[^.,;—–\n]*[.,;—–]?\s*/i;

/** A question after what must not be done: "What must it never do?", "Anything it shouldn't do?", "What's off limits?" */
const NEVER_ASKED =
  /^(?:(?:and|so)\s+)?(?:what|anything|things?)\s+(?:(?:must|should|shall|can|may)(?:n['’]?t|\s+not)?\s+(?:it|you|the (?:assistant|bot|agent))\s+(?:never\s+)?(?:do|touch)|(?:it|you|the (?:assistant|bot|agent))\s+(?:must|should|shall|can|may)(?:n['’]?t|\s+not|\s+never)\s+(?:do|touch)|(?:is|are|['’]s)\s+off[\s-]limits|not\s+to\s+do)\b/i;

/**
 * A question and answer as the case it says: what happens, then what to do ("When someone emails berths@: Add
 * them …"); a question about doing something answered "no" as what not to do; an answer that it is not the
 * employee's at all, as nothing. Pure.
 */
function asCase(question: string, answer: string): string | undefined {
  const tail =
    /\s*(?:so\s+)?(?:what|how)\s+(?:do|should|shall|must)\s+(?:i|we|you)\s+(?:do|handle it|respond)(?:\s+then)?\s*\?\s*$/i;
  // a situation: one told, then "what do I do?"; or asked as "what happens when …", "what if …", "and if …"
  const told = tail.test(question);
  const asked = question
    .replace(tail, '')
    .replace(/^(?:and\s+)?what\s+(?:happens|do\s+(?:i|we|you)\s+do|should\s+(?:i|we|you)\s+do)\s+(when|if|once|after)\s+/i, '$1 ')
    .replace(/^(?:and\s+)?what\s+if\s+/i, 'if ')
    .replace(/^and\s+(?=(?:if|when|once|after)\b)/i, '')
    .replace(/[?.!\s]+$/, '')
    .trim();
  const doing = /^(?:should|can|must|shall)\s+(?:i|we|you)\s+(.+)$/i.exec(asked);
  if (doing?.[1] && /^no\b/i.test(answer)) return `Don't ${doing[1]}.`;
  // "Q: What must it never do? A: Close or delete tickets, …": the answer is what it must never do
  if (NEVER_ASKED.test(asked) && !/^(?:never|don['’]?t|do not|not|nothing)\b/i.test(answer))
    return `Never ${answer.charAt(0).toLowerCase()}${answer.slice(1)}`;
  const situation = /^(?:when|whenever|if|once|after|as soon as)\b/i.test(asked);
  // anything else ("Q: What's the salary?", "Q: How often should I check the inbox?") is left as written
  if (!told && !situation) return undefined;
  if (/^not\s+(?:you|yours|for you)\b/i.test(answer)) return '';
  return `${situation ? asked : `When ${asked.charAt(0).toLowerCase()}${asked.slice(1)}`}: ${answer}`;
}

/** A line that is only a day of the week, a heading of what happens that day: "MONDAY", "## Wednesday:", "**Fri**". */
const WEEKDAY_HEADING =
  /^[ \t]*(?:#{1,6}[ \t]*)?\**[ \t]*(mon|tue|tues|wed|wednes|thu|thur|thurs|fri|sat|satur|sun)(?:day)?s?[ \t]*\**[ \t]*:?[ \t]*\**[ \t]*$/i;
const WEEKDAY_NAMES: Readonly<Record<string, string>> = {
  mon: 'Monday',
  tue: 'Tuesday',
  tues: 'Tuesday',
  wed: 'Wednesday',
  wednes: 'Wednesday',
  thu: 'Thursday',
  thur: 'Thursday',
  thurs: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  satur: 'Saturday',
  sun: 'Sunday',
};
/** A line of a day's plan that starts with its clock: "08:00  Open …", "- 9.30am – post …", "4pm: email …". */
const CLOCKED_LINE =
  /^([ \t]*(?:[-*•][ \t]+)?)(\d{1,2}[:.]\d{2}(?:[ \t]*[ap]\.?m\.?)?|\d{1,2}[ \t]*[ap]\.?m\.?)(?![\w:.])[ \t]*(?:[-–—:|][ \t]*)?(\S.*)$/i;
/** A day's plan that says there is nothing: "Nothing scheduled.", "- none", "Free". */
const NOTHING_THAT_DAY =
  /^[ \t]*(?:[-*•][ \t]+)?(?:nothing|none|no tasks?|free|rest day|-+)\b(?![^\n]*\b(?:but|except|just|only|unless|then)\b)[^\n]{0,40}$/i;

/**
 * A week laid out by its days, each day a heading over the clocked things done then ("MONDAY" ¶ "08:00  Open this
 * week's checks task in Jira"): each clocked line is a weekly duty at its time ("Every Monday at 08:00, open …"), and a
 * day that says there is nothing says nothing. A heading of a day with no clocked line under it stays as it is. Pure.
 */
export function weekByDays(text: string): string {
  const lines = text.split('\n');
  const out: string[] = [];
  let day: string | undefined;
  for (const [index, line] of lines.entries()) {
    const heading = WEEKDAY_HEADING.exec(line);
    if (heading?.[1]) {
      // (a day's clocked things that are work, said as duties: "09:30  Post in #team …", not "9:00 - 17:00" or "18:00
      // Vinyasa with Kate" or "08:00 Sam opens the shop")
      const under = lines.slice(index + 1);
      const end = under.findIndex((l, i) => i > 0 && !l.trim());
      const clocked = (end < 0 ? under : under.slice(0, end)).map((l) => CLOCKED_LINE.exec(l)).filter((m) => m !== null);
      const duties = clocked.length > 0 && clocked.every((m) => startsWithVerb(m[3] ?? ''));
      const next = under.find((l) => l.trim()) ?? '';
      day = duties || NOTHING_THAT_DAY.test(next) ? WEEKDAY_NAMES[heading[1].toLowerCase()] : undefined;
      if (day) continue;
      out.push(line);
      continue;
    }
    if (day && NOTHING_THAT_DAY.test(line)) continue;
    const clocked = day ? CLOCKED_LINE.exec(line) : null;
    if (day && clocked) {
      const [, lead = '', clock = '', rest = ''] = clocked;
      out.push(`${lead}Every ${day} at ${clock.replace(/\s+/g, '')}, ${lowerFirst(rest)}`);
      continue;
    }
    if (!line.trim() || (day && !CLOCKED_LINE.test(line))) day = undefined;
    out.push(line);
  }
  return out.join('\n');
}

/** A list item led by a time before or after something: "- 48 hours before each lesson: …", "- 1 hour before: …". */
const RELATIVE_ITEM =
  /^([ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+)((?:\d{1,3}|an?|one|two|three|half an)\s*(?:min(?:ute)?s?|hours?|hrs?|h|days?|weeks?)\s+(?:before|after|ahead of|prior to))(\s+[^:\n]{2,80}?)?[ \t]*:/i;

/**
 * Items led by times around one thing, that thing said only the first time ("- 48 hours before each lesson: email …",
 * "- 1 hour before: text …"): each later one is of the same thing ("1 hour before each lesson"). Pure.
 */
export function relativeItemsOfOne(text: string): string {
  let thing: string | undefined;
  return text
    .split('\n')
    .map((line) => {
      const m = RELATIVE_ITEM.exec(line);
      if (!m) {
        if (!line.trim() || !/^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]/.test(line)) thing = undefined;
        return line;
      }
      const [whole, item = '', when = '', of] = m;
      if (of?.trim()) {
        thing = of;
        return line;
      }
      return thing ? `${item}${when}${thing}:${line.slice(whole.length)}` : line;
    })
    .join('\n');
}

/** What is to be true of each thing that comes, said as its outcome: "exists as a lead in …", "has a follow-up task …". */
const OUTCOME_OF_EACH =
  /^([ \t]*(?:[-*•][ \t]+)?)(?:(?:[Ee]very|[Ee]ach|EVERY|EACH) ((?:new )?[\w-]+(?: [\w-]+)?)|(?:[Ee]very|[Aa]ny)(?:one|body)(?= (?:who|that) ))((?: (?:in|on|from) (?:[A-Z][\w-]*|the [\w-]+ (?:form|page|site|inbox)))?)(?: [—–-]{1,2} [^—–\n]{1,120} [—–-]{1,2})?(?: (?:who|that|which) ((?!(?:is|are|was|were|has|have)\b)[^,;:\n]{3,120}?))?,? (exists? as|ends? up as|shows? up as|exists? in|ends? up in|shows? up in|has|gets|receives|(?:should|must|will) (?:get|receive|have)) ((?:an?|the|their|its|his|her) [^\n]+|[A-Z#][^\n]+)$/;
/** "The whole sales floor hears about every win in #wins on Slack": who is told, of each thing, and where. */
const TOLD_OF_EACH =
  /^([ \t]*(?:[-*•][ \t]+)?)(?:the |our |my )?(?:[\w-]+ ){0,3}?(?:hears?|knows?|learns?|is told|are told|finds? out) about ((?:every|each|all|any) [^\n]+?) ((?:in|on) (?:#[\w-]+|slack)\b[^\n]*)$/i;
/** What each thing's outcome may be that an employee makes or sends: a record, a message, a booking. */
const OUTCOME_THING =
  /^(?:an?|the|their|its|his|her) (?:[\w'"-]+ ){0,3}?(?:task|ticket|issue|contact|row|page|card|record|entry|lead|deal|folder|event|invoice|note|e-?mail|message|text|sms|reminder|invite|invitation|reply|confirmation|survey|appointment|meeting|agreement|contract|envelope|channel)s?\b/i;
/** Said to happen by itself or by someone else: "automatic", "from Etsy itself", "already", "no need". */
const HAPPENS_WITHOUT_IT =
  /\b(?:automatic(?:ally)?|already|itself|themselves|no need|(?:don't|do not|doesn't|does not) need|not needed|by (?:me|us|hand|him|her|them)|from (?:me|us|[A-Z][\w-]*|(?:the|our|my) [\w-]+))\b/;
const SENDS_THING =
  /^(?:an?|the) (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|reminder|note|invite|invitation|reply|confirmation)\b/i;

/**
 * What should be true once the employee runs, said of each thing that comes ("Every homeowner who fills out the
 * estimate form exists as a lead in Salesforce", "Every new lead in Salesforce has a follow-up task for the rep", "the
 * sales floor hears about every win in #wins"): the thing coming is the start and the outcome the duty that makes
 * it ("When a homeowner fills out the estimate form, create a lead in Salesforce"). Pure.
 */
export function outcomesAsDuties(text: string): string {
  return eachSentence(text, outcomeAsDuty);
}

/** One sentence of `outcomesAsDuties`. */
function outcomeAsDuty(line: string): string {
  // ("gets an automatic confirmation email from Etsy itself, so no need to send one", "already finds out about every
  // refund": what happens by itself or by someone else is no work)
  // (an aside between dashes says which, not how: "— the ones our reps punch in by hand —")
  if (HAPPENS_WITHOUT_IT.test(line.replace(/ [—–-]{1,2} [^—–\n]{1,120} [—–-]{1,2} /g, ' '))) return line;
  const told = TOLD_OF_EACH.exec(line);
  if (told) return `${told[1]}Post ${told[2]} ${told[3]}`;
  const m = OUTCOME_OF_EACH.exec(line);
  if (!m) return line;
  const [, item = '', kind = '', where = '', clause, verb = '', rest = ''] = m;
  const singular = kind.replace(/(?<=\w{3})s$/, '');
  const a = articleFor(singular);
  // ("every customer has an account manager": a thing that is, not one that comes, says no work)
  if (!clause && !where && !/^new\s/i.test(kind)) return line;
  // ("Everyone who applies should get a thank-you email": someone)
  const one = singular ? `${a} ${singular}` : 'someone';
  const event = clause ? `When ${one} ${clause.trim()}` : `When ${one}${where} comes in`;
  const v = verb.toLowerCase();
  const first = rest.split(/,? and /)[0] ?? rest;
  // (what each has or gets is a record or a message the employee makes or sends: "has an account manager", "gets a
  // laptop" are no such thing)
  if (!/\b(?:as|in)$/.test(v) && !OUTCOME_THING.test(first)) return line;
  const duty = /\bas$/.test(v)
    ? `create ${rest}`
    : /\bin$/.test(v)
      ? `add them to ${rest}`
      : SENDS_THING.test(first) || /\bin (?:their|his|her) inbox\b/i.test(first)
        ? `send them ${rest.replace(/\s+in (?:their|his|her) inbox\b/i, '')}`
        : /\b(?:calendar|diary)\b/i.test(first)
          ? `schedule ${rest}`
          : `create ${rest}`;
  // (", and the homeowner has the agreement in their inbox to sign": one more outcome, said of someone)
  const more = duty.replace(
    /,? and (the [\w-]+|they|he|she) (?:has|have|gets?|receives?) ((?:an?|the|their|his|her) [^,;]+?)(?: in (?:their|his|her) inbox)?(?=$|[,;.])/i,
    (_all, who: string, thing: string) => `, and send ${/^(?:they|he|she)$/i.test(who) ? 'them' : who} ${thing}`,
  );
  return `${item}${event}, ${more}`;
}

/**
 * Who approves: "a manager", "the team lead", "my boss", "Sarah", "Tom or Ana" — someone of ours (the customer,
 * the lead or the candidate asked for a yes is a message to them, not an approval of the run).
 */
const APPROVER = String.raw`(?:(?:a|an|the|my|our|their|your)\s+(?!(?:${EXTERNAL_PEOPLE.join('|')})s?\b)[\w'’-]+(?:\s+[\w'’-]+){0,2}?|[A-Z][\w'’-]+(?:\s+(?:or|and)\s+[A-Z][\w'’-]+)?)`;
/** What asks a person's yes: "ask a manager to approve (it)", "get the team lead to sign off on it", "ask Sarah for approval". */
const ASK_APPROVAL = String.raw`(?:[Aa]sk|[Gg]et|[Hh]ave)\s+(${APPROVER})\s+(?:to\s+(?:approve|ok|okay|sign\s+(?:it\s+|them\s+)?off(?:\s+on)?)(?:\s+(?:it|this|that|them))?|for\s+(?:(?:an?\s+|the\s+)?(?:approval|yes|ok|okay|sign-?off|go-ahead)))(?:\s+first)?`;
/**
 * What a step's -ing acts on, right after it (or nothing): "posting it to …", "refunding the customer", "sending $12.50"
 * — not a noun the -ing qualifies ("closing time").
 */
const ACTS_ON = String.raw`(?=\s*$|\s*[,;.!?\n]|\s+(?:it|them|this|that|these|those|the|a|an|each|their|his|her|our|my|to|in|on|into|onto|through|via|with|for|back|out|up)\b|\s+[$£€#\d])`;
/** A step's words, to its clause's end: a full stop inside a word or a number ("ops@acme.com", "$12.50") is no end. */
const STEP_WORDS = String.raw`((?:[^,;.!?\n]|\.(?=[\w\d]))*)`;
/** "ask a manager to approve before posting it to #escalations" (to the clause's end). */
const APPROVED_BEFORE = new RegExp(String.raw`\b${ASK_APPROVAL}\s+before\s+([a-z]+ing)\b${ACTS_ON}${STEP_WORDS}`, 'g');
/**
 * "Before posting it to #escalations, ask a manager to approve.": the step said first, of the work at hand ("it",
 * "the contract") — "Before replying to any customer, ask a manager for approval" is a rule of every reply, not a step.
 */
const BEFORE_APPROVED = new RegExp(
  String.raw`(^|[.!?\n][ \t]*)[Bb]efore\s+([a-z]+ing)(\s+(?:it|them|this|that|these|those)\b(?:[^,;.!?\n]|\.(?=[\w\d])){0,120}),\s*(?:please\s+)?${ASK_APPROVAL}[ \t]*(?=[.!?\n]|$)`,
  'g',
);
/**
 * The base form of a verb's -ing, when it is a verb (the analyst's own, or those `isVerb` knows): "posting" → "post",
 * "closing" → "close". Pure.
 */
/** Past participles that are not the base with "-ed". */
export const IRREGULAR_PARTICIPLES: Record<string, string> = {
  sent: 'send',
  kept: 'keep',
  made: 'make',
  built: 'build',
  written: 'write',
  found: 'find',
  told: 'tell',
  given: 'give',
  shown: 'show',
  taken: 'take',
  paid: 'pay',
};
export const baseOfGerund = (gerund: string, isVerb: (word: string) => boolean = (l) => KNOWN_VERBS.has(l)): string | undefined =>
  lemmas(gerund).find((l) => l !== gerund.toLowerCase() && !l.endsWith('ing') && isVerb(l));

/**
 * The step a person is asked to approve, and the approval said after it — before the next step its words join on
 * ("post it to #escalations and email the customer": the post is approved, the email is not). Pure.
 */
function approvedStep(step: string, who: string): string {
  const next = /\s+(?:and\s+then|and|then)\s+([a-z]+)\b/g;
  for (let m = next.exec(step); m; m = next.exec(step))
    if (KNOWN_VERBS.has(m[1] ?? '')) return `${step.slice(0, m.index)} once ${who} approves${step.slice(m.index)}`;
  return `${step} once ${who} approves`;
}

/** Things that arrive, one at a time. */
const ARRIVING = String.raw`(?:new |incoming )?(e-?mail|message|ticket|order|enquiry|inquiry|request|application|submission|booking|text|sms|invoice|bill|receipt|pull request|issue|complaint|review)s?`;
/** Which of them: "with "objection" in the subject", "from accounts@acme.com", "tagged "urgent"". */
const WHICH_ARRIVE = String.raw`(with ["'][^"'\n]{1,60}["'] in (?:the|its|their) (?:subject(?: line)?|title|body|name)|(?:from|sent to|addressed to) [\w.+-]*@[\w.-]*|(?:tagged|labell?ed|marked) ["'][^"'\n]{1,40}["'])`;
/** "Log every email with "objection" in the subject in Notion", "- please forward each email from x@y.com to …". */
const EACH_ARRIVING_DONE = new RegExp(
  String.raw`^([ \t]*(?:[-*•][ \t]+)?(?:[^:\n.]{1,60}:[ \t]+)?(?:please[ \t]+)?)([a-z]+) (?:every|each|any|all) ${ARRIVING} ${WHICH_ARRIVE}(?=[ ,.;]|$)(.*)$`,
  'i',
);
/** "Every email with "objection" in the subject should be logged in Notion". */
const EACH_ARRIVING_PASSIVE = new RegExp(
  String.raw`^([ \t]*(?:[-*•][ \t]+)?(?:[^:\n.]{1,60}:[ \t]+)?)(?:every|each|any|all) ${ARRIVING} ${WHICH_ARRIVE},? (?:should|must|shall|needs? to|has to|is to) be ([a-z]+ed|sent|put|kept|set)\b(.*)$`,
  'i',
);
/** Said done by someone else, or done already: "by me personally", "by Gmail", "automatically", "already", "no need". */
const DONE_BY_OTHERS =
  /\bby (?:me|us|hand|him|her|them|[A-Z][\w-]*|(?:the|our|my) [\w-]+(?: [\w-]+)?)\b|\b(?:automatically|already|itself|themselves|no need|don't need|do not need|not needed)\b/;

/** "and the sender should get an acknowledgement …": one more thing sent, to someone named by their part. */
const SOMEONE_GETS =
  /\b(?:and )?(the|each|every) (sender|customer|client|applicant|candidate|requester|caller|donor|member|tenant|patient|student|parent|guest|user|submitter|buyer|supplier)s? (?:should|must|shall|will|needs? to|has to) (?:get|receive|be sent) (an? (?:[\w'-]+ ){0,3}?(?:e-?mail|message|text|sms|reply|note|confirmation|acknowledge?ment|receipt|reminder))\b/gi;

/**
 * Work said of each thing of a kind that arrives, picked out by what it carries ("Log every email with "objection" in
 * the subject in Notion", "Every email with "objection" in the subject should be logged in Notion"): its arrival is
 * the start and the work is done to it ("When an email with "objection" in the subject comes in, log it in Notion").
 * Pure.
 */
export function eachArrivingAsStart(text: string): string {
  return eachSentence(text, (sentence) => {
    const done = EACH_ARRIVING_DONE.exec(sentence);
    const passive = done ? null : EACH_ARRIVING_PASSIVE.exec(sentence);
    const m = done ?? passive;
    if (!m) return sentence;
    const [, before = '', first = '', kind = '', which = '', rest = ''] = done ? m : [m[0], m[1], m[4], m[2], m[3], m[5]];
    const verb = lemmas(first.toLowerCase()).find((l) => KNOWN_VERBS.has(l));
    if (!verb || (done && !KNOWN_VERBS.has(first.toLowerCase()))) return sentence;
    // ("Leave every email from jane@… to me", "ignore each email from …": hands off, no work)
    if (/^(?:leave|ignore|skip|forget|let|drop)$/.test(verb)) return sentence;
    // ("… will be answered by me personally", "… gets forwarded automatically already": someone else's doing)
    if (DONE_BY_OTHERS.test(rest)) return sentence;
    const noun = kind.toLowerCase().replace(/^e-mail$/, 'email');
    const a = articleFor(noun);
    const more = rest.replace(SOMEONE_GETS, (_all, the: string, who: string, thing: string) => `and send ${the} ${who} ${thing}`);
    return `${before}When ${a} ${noun} ${which} comes in, ${verb} it${more}`;
  });
}

/** An inbox said to get things: "Our accounts payable inbox gets 30 or 40 supplier invoices a week". */
const INBOX_GETS =
  /\b(?:our|the|my)\s+(?:[\w@.&-]+\s+){0,3}?(?:inbox|mailbox)\s+(?:gets|receives|collects|is full of)\s+(?:[\w-]+\s+){0,5}?([a-z]{3,}s)\b/gi;
/** Things said to be emailed in: "SmileCraft emails their invoices to accounts@", "suppliers send their bills to our inbox". */
const EMAILED_IN =
  /\b(?:e-?mails?|sends?|forwards?)\s+(?:their|its|the|all|any|us)\s+(?:[\w-]+\s+)?([a-z]{3,}s)\s+(?:to|into)\s+(?:[\w.+-]*@[\w.-]*|us\b|me\b|our\s+(?:[\w-]+\s+){0,2}?inbox)/gi;

/**
 * Things a description says come by email ("Our accounts payable inbox gets 30 or 40 supplier invoices a week", "The
 * lab emails their invoices to accounts@"), then said to arrive with no way in ("When an invoice comes in, …"): they
 * arrive by email ("When an invoice comes in by email"). Pure.
 */
export function arrivalsByEmail(text: string): string {
  const kinds = new Set(
    [...text.matchAll(INBOX_GETS), ...text.matchAll(EMAILED_IN)].map((m) => (m[1] ?? '').toLowerCase().replace(/s$/, '')),
  );
  if (kinds.size === 0) return text;
  const kind = [...kinds].map(escapeRegExp).join('|');
  return text.replace(
    new RegExp(
      String.raw`\b((?:when(?:ever)?|once|as soon as|each time|every time|if)\s+(?:an?|the|a new|each|one)\s+(?:[\w-]+\s+)?(?:${kind})\s+(?:comes in|arrives|lands|turns up|shows up))\b(?!\s+(?:from|in|to|into|via|by|through|on|at)\b)`,
      'gi',
    ),
    '$1 by email',
  );
}

/** An item marked as the people's own: "(us)", "(me)", "(us, for now)", "(we do this)", "(staff)", "(human)". */
const MARKED_OURS =
  /\((?:us|me|we do (?:it|this|that)|we keep (?:it|this|that)|human|humans|staff|team|manual|by hand|not (?:the )?(?:bot|assistant|ai|you))\b[^()\n]*\)/i;
/** An item marked as the assistant's: "(BOT)", "[bot]", "(assistant)", "(AI)", "(you)". */
const MARKED_ITS = /[ \t]*[([](?:bot|assistant|ai|you|the bot|the assistant)[)\]][ \t]*/i;

/**
 * A list whose items are marked for whom they are ("2. (BOT) When someone fills in the form …", "1. Open up at 5:30
 * (us)"): the items marked as the people's are not the employee's work, and the assistant's mark is no part of its
 * item. Only where some item carries the assistant's mark and some the people's. Pure.
 */
export function itemsMarkedForWhom(text: string): string {
  const lines = text.split('\n');
  const item = (l: string) => /^[ \t]*(?:[-*•]|\(?\d{1,2}[.)])[ \t]+/.test(l);
  if (!lines.some((l) => item(l) && MARKED_ITS.test(l)) || !lines.some((l) => item(l) && MARKED_OURS.test(l))) return text;
  return lines
    .filter((l) => !(item(l) && MARKED_OURS.test(l) && !MARKED_ITS.test(l)))
    .map((l) => (item(l) ? l.replace(MARKED_ITS, ' ').replace(/^([ \t]*(?:[-*•]|\(?\d{1,2}[.)]))[ \t]+/, '$1 ') : l))
    .join('\n');
}

/** A part of a plan marked for another time: "1. Front desk assistant (later)", "## Phase 2 — not yet". */
const FOR_LATER =
  /(?:\((?:later|not yet|not now|future|for later|coming later|on hold|phase (?:2|two|3|three)|not this one|not for now|parked)\)|\s[-–—]\s*(?:later|not yet|not now|on hold|parked))[ \t]*:?[ \t]*\**[ \t]*$/i;
/** The part of a plan the request is for: "2. Billing assistant  <-- this one", "## Intake (this one)". */
const THIS_ONE =
  /(?:(?:<-+|←|⬅️?)\s*(?:this one|this request|this is the one|this is it|you)|\((?:this one|this request|the one for now)\))[ \t]*:?[ \t]*$/i;
/** A heading of such a plan's part: numbered, a markdown heading, or a bold line. */
const PART_HEADING = /^[ \t]*(?:\(?\d{1,2}[.)]|#{1,6}|\*\*)[ \t]+\S/;

/**
 * A plan of several parts, one of them what the request is for ("2. Billing assistant <-- this one") or some of them
 * for later ("1. Front desk assistant (later)"): the other parts, or those for later, with the items under them, are
 * not this employee's work. A part runs from its heading to the next heading of its kind, or to a line no deeper than
 * the heading that is no item. Pure.
 */
export function partsForLaterDropped(text: string): string {
  const lines = text.split('\n');
  // (a part's heading is a title with items under it, not a step: "2. Save the form PDF in Dropbox (for now)")
  const titleOverItems = (l: string, i: number): boolean => {
    const next = lines.slice(i + 1).find((n) => n.trim()) ?? '';
    return (
      PART_HEADING.test(l) &&
      l.trim().split(/\s+/).length <= 12 &&
      (indentOf(next) > indentOf(l) || (BULLET.test(next) && !PART_HEADING.test(next)))
    );
  };
  const headings = lines.map((l, i) => (titleOverItems(l, i) ? i : -1)).filter((i) => i >= 0);
  const chosen = headings.filter((i) => THIS_ONE.test(lines[i] ?? ''));
  const dropped = headings.filter((i) => (chosen.length > 0 ? !chosen.includes(i) : FOR_LATER.test(lines[i] ?? '')));
  if (dropped.length === 0) return text;
  const gone = new Set<number>();
  for (const at of dropped) {
    const indent = indentOf(lines[at] ?? '');
    gone.add(at);
    for (let i = at + 1; i < lines.length; i++) {
      const line = lines[i] ?? '';
      if (headings.includes(i)) break;
      if (line.trim() && indentOf(line) <= indent && !BULLET.test(line)) break;
      gone.add(i);
    }
  }
  return lines.filter((_, i) => !gone.has(i)).join('\n');
}

/** A table written with pipes: its consecutive lines "| … | … |". */
const TABLE = /(?:^[ \t]*\|.*\|[ \t]*(?:\n|$))+/gm;
/** The column of a table of cases that says what starts the work. */
const CASE_HEADER = /^(?:when|if|trigger|event|case|situation|what happens|when this happens)$/i;
/** The columns of what to do then. */
const ACTION_HEADER = /^(?:do|then|action|actions|what to do|response|steps?|do this|task|tasks|what|duty|duties)$/i;
/** The column that says who does a row's duty. */
const WHO_HEADER = /^(?:who|owner|done by|by whom|responsible|assignee|assigned to|whose job)$/i;
/** A column that says more about the duty: kept with it, in brackets. */
const NOTE_HEADER =
  /^(?:notes?|comments?|details?|remarks?|how|where|channel|extra|info|context|rules?|constraints?|systems?|tools?|apps?|products?|integrations?|via|using)$/i;
/** Who, said of the assistant: "Bot", "Assistant", "AI", "Intake bot", "automation", "you". */
export const THE_ASSISTANT =
  /^(?:(?:the|our|new)\s+)*(?:(?:ai|digital|virtual)\s+(?:assistant|agent|employee)|(?:[\w-]+\s+)?bot|assistant|ai|automation|automated|digital employee|you|hireloop|[\w-]+\s*\((?:ai|bot|assistant|the assistant|our assistant|ai assistant)\))$/i;
/** A case said as following the row before it: "Right after sending the letter", "Then", "Straight after". */
const FOLLOWS_ON = /^(?:(?:right|straight|immediately|directly|just)\s+after(?:wards)?|then|after that|afterwards|same time)\b/i;
/** A row that only draws the line under a table's header: "|---|:--:|". */
const RULE_CELL = /^:?-{2,}:?$/;

const cellsOf = (row: string): string[] =>
  row
    .trim()
    .replace(/^\||\|$/g, '')
    .split('|')
    .map((c) => c.trim());

/**
 * A table of cases and what to do, its header naming them ("| When | Do |", "| Task | Who | When |"): each row
 * becomes "When <case>, <duty>." ("| A tech posts in #parts | Create a Jira issue |" → "When a tech posts in #parts,
 * create a Jira issue."); a case that says when itself keeps its words. Rows of one case in a row are one duty,
 * and a row that follows on ("Right after sending the letter") adds to the duty before it. Where a column says
 * who does each row and some rows are the assistant's, the other rows are people's work and left out. Any other
 * table (contacts, prices) is left as it is.
 */
function casesOf(table: string): string {
  const rows = table.split('\n').filter((r) => r.trim() !== '');
  const header = cellsOf(rows[0] ?? '');
  const at = header.findIndex((c) => CASE_HEADER.test(c));
  const other = header.filter((_, i) => i !== at);
  const isNote = (h: string) => NOTE_HEADER.test(h) || WHO_HEADER.test(h);
  if (at < 0) return dutiesOfOwner(table, header) ?? table;
  if (
    header.length < 2 ||
    at < 0 ||
    !other.some((c) => ACTION_HEADER.test(c)) ||
    !other.every((c) => ACTION_HEADER.test(c) || isNote(c) || c === '')
  )
    return table;
  const who = header.findIndex((c) => WHO_HEADER.test(c));
  // (a case said after what is done needs that to be work: "| Staff meeting | Every Monday at 10am |" lists things)
  const action = header.findIndex((c, i) => i !== at && ACTION_HEADER.test(c));
  const done = rows
    .slice(1)
    .map((r) => cellsOf(r)[action] ?? '')
    .filter((c) => c !== '' && !RULE_CELL.test(c));
  if (at > 0 && !(done.every((c) => startsWithVerb(c)) && done.some((c) => c.split(/\s+/).length >= 3))) return table;
  const body = rows
    .slice(1)
    .map(cellsOf)
    .filter((cells) => !cells.every((c) => c === '' || RULE_CELL.test(c)));
  const assistants = who < 0 ? [] : body.filter((cells) => THE_ASSISTANT.test(cells[who] ?? ''));
  const kept = assistants.length > 0 ? assistants : body;
  const lines: { lead: string; duties: string[] }[] = [];
  for (const cells of kept) {
    const first = cells[at] ?? '';
    const said = (test: (h: string) => boolean) =>
      cells.filter((c, i) => i !== at && c !== '' && !RULE_CELL.test(c) && test(header[i] ?? ''));
    const actions = said((h) => !isNote(h));
    if (first === '' || actions.length === 0) continue;
    // (who does it is said by keeping the row; the other notes stay with the duty)
    const notes = said((h) => NOTE_HEADER.test(h) || (WHO_HEADER.test(h) && assistants.length === 0)).join('; ');
    const duty = `${actions.join(', ').replace(/[.;,]+$/, '')}${notes ? ` (${notes.replace(/[.;,]+$/, '')})` : ''}`;
    const before = lines.at(-1);
    if (
      before &&
      ((FOLLOWS_ON.test(first) && !findSchedule(first)) ||
        before.lead.toLowerCase() === first.replace(/[.;,]+$/, '').toLowerCase())
    ) {
      before.duties.push(duty);
      continue;
    }
    lines.push({ lead: first.replace(/[.;,]+$/, ''), duties: [duty] });
  }
  return `${lines.map(({ lead, duties }) => `${leadOfCase(lead)}, ${lowerFirst(duties.join(', then '))}.`).join('\n')}\n`;
}

/** A note that says when its row happens: "Same moment the contract is signed: …", "Every Friday: …". */
/** Someone doing something, as a table's task: "Delegate registers on the website form", "Speaker contract comes back signed". */
const SOMEONE_DOES =
  /^\S+(?:\s+\S+){0,2}?\s+(?:registers|signs(?: up)?|submits|pays|books|applies|arrives|comes|joins|fills|sends|emails|cancels|opens|replies|asks|leaves|requests|orders|buys|calls|texts|uploads|is|are|gets|moves|goes|enrols|enrolls|starts|quits)\b/i;
const NOTE_SAYS_WHEN =
  /^(?:(?:at )?(?:the )?same (?:moment|time)(?: as)?|right when|as soon as|when|whenever|if|once|after|every|each|on)\b/i;

/**
 * A table of who does what with no column of cases ("| Task | Owner | Notes |"), some rows the assistant's: those rows
 * are its work, each the task with what its notes say to do ("| Delegate registers on the website form | Assistant |
 * Add them to HubSpot … |" → "When delegate registers on the website form, add them to HubSpot …"); a note that says
 * its own start ("Same moment the contract is signed: find a slot …") is the row's work as it stands; the other rows
 * are people's. Undefined when no row is the assistant's. Pure.
 */
function dutiesOfOwner(table: string, header: readonly string[]): string | undefined {
  const who = header.findIndex((c) => WHO_HEADER.test(c));
  const task = header.findIndex((c) => ACTION_HEADER.test(c));
  if (who < 0 || task < 0 || !header.every((c, i) => i === who || i === task || NOTE_HEADER.test(c) || c === '')) return;
  const rows = table
    .split('\n')
    .slice(1)
    .map(cellsOf)
    .filter((cells) => !cells.every((c) => c === '' || RULE_CELL.test(c)) && THE_ASSISTANT.test(cells[who] ?? ''));
  if (rows.length === 0) return;
  const lines = rows.map((cells) => {
    const what = (cells[task] ?? '').replace(/[.;,]+$/, '');
    const notes = cells
      .filter((c, i) => i !== who && i !== task && c !== '')
      .join(' ')
      .trim();
    if (!notes) return `${what}.`;
    const notesBare = notes.replace(/[.;,]+$/, '');
    // a task said as a duty ("Chase overdue invoices in Xero"): its notes say when ("Every Monday morning") or how
    if (startsWithVerb(what) && !SOMEONE_DOES.test(what)) {
      if (findSchedule(notesBare)?.index === 0) return `${notesBare}, ${lowerFirst(what)}.`;
      return `${what} (${notesBare}).`;
    }
    // a note that says its own start and work: "Same moment the contract is signed: find a slot …"
    if (NOTE_SAYS_WHEN.test(notes) && /:\s*\S/.test(notes))
      return notes.replace(/^(?:at )?(?:the )?same (?:moment|time)(?: as)?\s+/i, 'When ');
    // a task that is something happening ("Delegate registers on the website form"), its notes the work then
    return startsWithVerb(notes) ? `${leadOfCase(what)}, ${lowerFirst(notes)}` : `${what}: ${notes}`;
  });
  return `${lines.join('\n')}\n`;
}

/** "a" or "an" before a noun, by its first letter. */
export const articleFor = (noun: string): string => (/^[aeiou]/i.test(noun) ? 'an' : 'a');

/** Each sentence of each line read by `read`, lines and sentences kept where they were. Pure. */
const eachSentence = (text: string, read: (sentence: string) => string): string =>
  text
    .split('\n')
    .map((line) =>
      line
        .split(/(?<=[.!?])[ \t]+(?=[A-Z])/)
        .map(read)
        .join(' '),
    )
    .join('\n');

const lowerFirst = (text: string): string => `${text.charAt(0).toLowerCase()}${text.slice(1)}`;

/** A table's case as the start of its duty: as it is when it says when itself, else "When <case>". */
function leadOfCase(first: string): string {
  const saysWhen =
    /^(?:when|whenever|if|once|after|before|as soon as|every|each|on|at|upon|daily|weekly|monthly|nightly|hourly)\b|^(?:\d+|an?|the|one|two|three|half an)\s*(?:min\w*|hours?|hrs?|days?|weeks?|evenings?|nights?|mornings?)\s+(?:before|after|ahead of|prior to)\b|\b(?:mornings|afternoons|evenings|nights|weekdays|weekends|mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays)\b/i.test(
      first,
    ) ||
    // ("| Twice a day, at 8 and 4 | …": a time of its own)
    findSchedule(first)?.index === 0;
  return saysWhen ? first : `When ${lowerFirst(first)}`;
}

const WEEKDAYS_IN: Readonly<Record<string, string>> = {
  lundi: 'Monday',
  mardi: 'Tuesday',
  mercredi: 'Wednesday',
  jeudi: 'Thursday',
  vendredi: 'Friday',
  samedi: 'Saturday',
  dimanche: 'Sunday',
  montag: 'Monday',
  dienstag: 'Tuesday',
  mittwoch: 'Wednesday',
  donnerstag: 'Thursday',
  freitag: 'Friday',
  samstag: 'Saturday',
  sonntag: 'Sunday',
  lunes: 'Monday',
  martes: 'Tuesday',
  miércoles: 'Wednesday',
  miercoles: 'Wednesday',
  jueves: 'Thursday',
  viernes: 'Friday',
  sábado: 'Saturday',
  sabado: 'Saturday',
  domingo: 'Sunday',
  maandag: 'Monday',
  dinsdag: 'Tuesday',
  woensdag: 'Wednesday',
  donderdag: 'Thursday',
  vrijdag: 'Friday',
  zaterdag: 'Saturday',
  zondag: 'Sunday',
};
const DAY_IN = String.raw`(${Object.keys(WEEKDAYS_IN).join('|')})s?`;
const dayIn = (word: string): string =>
  WEEKDAYS_IN[word.toLowerCase()] ?? WEEKDAYS_IN[word.toLowerCase().replace(/s$/, '')] ?? word;
const clockIn = (hour: string, minute: string | undefined): string => `${hour}:${minute ?? '00'}`;

/**
 * When a job is said in French, German, Spanish or Dutch, the words that say when it happens, in English —
 * "tous les lundis à 7h", "jeden Montag um 10 Uhr", "de lunes a viernes a las 9", "elke dag om 9 uur" — so that
 * a description mixing languages is scheduled like one in English. Only phrases of time: the rest stays as written.
 * Each is a whole phrase (no letter on either side); the first that matches a phrase says it.
 */
const FOREIGN_TIMES: ReadonlyArray<readonly [string, (...m: string[]) => string]> = [
  [String.raw`(?:à|a las|a la|um|om) (\d{1,2})(?:[:.h](\d\d))?(?: ?h| uhr| uur)?`, (_, h = '', m) => `at ${clockIn(h, m)}`],
  [String.raw`(\d{1,2})(?:[:.](\d\d))? (?:uhr|uur)`, (_, h = '', m) => clockIn(h, m)],
  [String.raw`et (?:à )?(\d{1,2})(?:[:.h](\d\d))?(?: ?h)?`, (_, h = '', m) => `and at ${clockIn(h, m)}`],
  ['deux fois par jour|zweimal (?:täglich|am tag|pro tag)|dos veces al día|twee keer per dag', () => 'twice a day'],
  ['chaque jour ouvré|les jours ouvrés|werktags|jeden werktag|cada día laborable|elke werkdag', () => 'every weekday'],
  [
    'tous les jours|chaque jour|quotidiennement|jeden tag|täglich|todos los días|cada día|diariamente|elke dag|dagelijks',
    () => 'every day',
  ],
  [
    'du lundi au vendredi|(?:von )?montag bis freitag|de lunes a viernes|van maandag tot (?:en met )?vrijdag',
    () => 'Monday to Friday',
  ],
  [String.raw`(?:chaque|tous les|jeden|cada|todos los|elke) ${DAY_IN}`, (_, d = '') => `every ${dayIn(d)}`],
  [
    String.raw`(?:le premier|am ersten|el primer|de eerste) ${DAY_IN} (?:du mois|de chaque mois|jedes monats|des monats|de cada mes|del mes|van de maand|van elke maand)`,
    (_, d = '') => `on the first ${dayIn(d)} of every month`,
  ],
  [
    'chaque semaine|toutes les semaines|jede woche|wöchentlich|cada semana|todas las semanas|semanalmente|elke week|wekelijks',
    () => 'every week',
  ],
  [
    'chaque mois|tous les mois|jeden monat|monatlich|cada mes|todos los meses|mensualmente|elke maand|maandelijks',
    () => 'every month',
  ],
];
const WHOLE = String.raw`(?![\p{L}\d])`;
const FOREIGN_PHRASES = FOREIGN_TIMES.map(([source, english]) => [new RegExp(`^(?:${source})${WHOLE}`, 'iu'), english] as const);
const FOREIGN_WHEN = new RegExp(
  String.raw`(?<![\p{L}\d])(?:${FOREIGN_TIMES.map(([source]) => `(?:${source})${WHOLE}`).join('|')})`,
  'giu',
);
const inEnglish = (phrase: string): string => {
  for (const [re, english] of FOREIGN_PHRASES) {
    const m = re.exec(phrase);
    if (m) return english(...(m as unknown as string[])) + phrase.slice(m[0].length);
  }
  return phrase;
};

/** Chat shorthand spelled out (lower case only: "R&D", "U.S." are left alone). */
/** Words of the work as they are often misspelt, and how they are spelt. */
const MISSPELLINGS: Readonly<Record<string, string>> = {
  calender: 'calendar',
  calander: 'calendar',
  calandar: 'calendar',
  calenders: 'calendars',
  apointment: 'appointment',
  apointments: 'appointments',
  appointmnet: 'appointment',
  appoitment: 'appointment',
  recieve: 'receive',
  recieved: 'received',
  recieves: 'receives',
  reciept: 'receipt',
  reciepts: 'receipts',
  adress: 'address',
  emial: 'email',
  shedule: 'schedule',
  schedual: 'schedule',
  tommorow: 'tomorrow',
  tomorow: 'tomorrow',
  untill: 'until',
  seperate: 'separate',
  confirmaton: 'confirmation',
  confirmtion: 'confirmation',
  remindr: 'reminder',
  reminer: 'reminder',
  deposite: 'deposit',
  invoce: 'invoice',
  invocie: 'invoice',
  invoces: 'invoices',
  paymnet: 'payment',
  payement: 'payment',
  refudn: 'refund',
  custmer: 'customer',
  cusomter: 'customer',
  buisness: 'business',
  bussiness: 'business',
  messsage: 'message',
  mesage: 'message',
  spreadhseet: 'spreadsheet',
  spreedsheet: 'spreadsheet',
  creat: 'create',
  craete: 'create',
  sned: 'send',
  emergancy: 'emergency',
  emergancies: 'emergencies',
  somthing: 'something',
  reveiw: 'review',
  reivew: 'review',
  conected: 'connected',
  thier: 'their',
};
/** (in lower case, and not inside a name, an address or a channel: "#calender-updates", "apointments@…") */
const MISSPELT = new RegExp(`(?<![#@\\w.-])(?:${Object.keys(MISSPELLINGS).join('|')})(?![\\w@-]|\\.\\w)`, 'g');

const SHORTHAND: Readonly<Record<string, string>> = {
  txt: 'text',
  'w/': 'with',
  thru: 'through',
  u: 'you',
  ppl: 'people',
  r: 'are',
  pls: 'please',
  plz: 'please',
  dont: "don't",
  // contractions typed without their apostrophe ("theres also a Drive folder", "doesnt matter")
  doesnt: "doesn't",
  didnt: "didn't",
  isnt: "isn't",
  arent: "aren't",
  havent: "haven't",
  hasnt: "hasn't",
  cant: "can't",
  shouldnt: "shouldn't",
  wouldnt: "wouldn't",
  couldnt: "couldn't",
  theres: "there's",
  thats: "that's",
  whats: "what's",
  im: "i'm",
  opp: 'opportunity',
  opps: 'opportunities',
  cust: 'customer',
  custs: 'customers',
  pmt: 'payment',
  pmts: 'payments',
  acct: 'account',
  accts: 'accounts',
  amt: 'amount',
  inv: 'invoice',
  invs: 'invoices',
  biz: 'business',
  qty: 'quantity',
  msg: 'message',
  msgs: 'messages',
  bc: 'because',
  b4: 'before',
  evry: 'every',
  evrey: 'every',
  evey: 'every',
  tix: 'tickets',
  tkt: 'ticket',
  tkts: 'tickets',
  prio: 'priority',
  smth: 'something',
  sth: 'something',
  wk: 'week',
  wks: 'weeks',
  appt: 'appointment',
  appts: 'appointments',
  cal: 'calendar',
  asap: 'as soon as possible',
  wkday: 'weekday',
  wkdays: 'weekdays',
  wkend: 'weekend',
  wkends: 'weekends',
  some1: 'someone',
  any1: 'anyone',
  every1: 'everyone',
  no1: 'no one',
  nvr: 'never',
  txts: 'texts',
  txted: 'texted',
  tmrw: 'tomorrow',
  tmr: 'tomorrow',
  mins: 'minutes',
  // ("hr" alone is as often the HR team as an hour: "1hr before" is read by the schedule's own units)
  hrs: 'hours',
};
/** A word of the table, in lower case between spaces: "txt the customer", "w/ the bike", "ppl book repairs thru the form". */
const SHORTHAND_WORD = new RegExp(
  String.raw`(?<=^|[\s(])(${Object.keys(SHORTHAND)
    .map((k) => k.replace(/[/.*+?^${'$'}{}()|[\]\\]/g, '\\$&'))
    .join('|')})(?=[\s,!?)]|\.(?!\w)|$)`,
  'gm',
);

/** Sections of a pasted job ad about the person or the offer, not the work. */
const NOT_WORK_SECTION =
  /^(purpose|the purpose|requirements|job requirements|qualifications|(minimum|preferred|basic|required) qualifications|what we offer|what we're offering|we offer|benefits|perks|perks and benefits|nice to have|nice-to-haves?|bonus points|skills|who you are|about you|what you bring|what you'll bring|you have|you are|compensation|salary|how to apply|about us|about the company|who we are|our culture|the team|equal opportunity)$/i;

// (a section of a procedure too: "3.2 Upon receipt, …", "4.1.2 …")
// (a checklist's box too: "[ ] Scan files …", "[x] …")
const BULLET =
  /^\s*(?:->|=>|[-*•·▪◦–→>]|\[[ xX✓]?\]|\(?\d{1,2}[.)]|\d{1,2}(?:\.\d{1,2}){1,3}\.?(?=\s+[A-Z])|\d{1,2}(?:\.[a-h][.)]?|[a-h][.)])(?=\s+[A-Z])|\(?[a-h][.)])\s+/;
/** "Please DON'T:", "Never:", "Things to avoid:" — a heading over the things the employee must not do. */
const NOT_TO_DO_HEADING = String.raw`(?:please\s+)?(?:(?:you|it|we|the (?:assistant|bot|helper|agent|employee))\s+(?:(?:must|should|shall|will|may|can|are|is)\s*(?:not|never|n't)(?:\s+ever)?(?:\s+(?:be )?(?:allowed|permitted) to)?|won'?t|can'?t|cannot)|don'?t(?:\s+ever)?|do not|must not|must never|never|avoid|don'?ts|what not to do|(?:what|things) (?:you|it|(?:the|this) (?:assistant|bot|helper|agent|employee|role|job|position)) (?:(?:should|must|will|do|does|can|is)\s*(?:not|n't|never)|won'?t|cannot|can'?t|don'?t|never) (?:do|cover|include|handle|touch)|things (?:not )?to avoid|off[- ]limits|out of scope|hands off|not (?:your|its) job|not (?:for|part of) (?:the|this|our|your) (?:helper|assistant|bot|employee|agent|role|job)|not in scope)(?:\s+(?:please|ever))?`;
const NEGATIVE_SECTION = new RegExp(
  // (one or several said together: "Out of scope / must not", "Not for the helper")
  String.raw`^${NOT_TO_DO_HEADING}(?:\s*(?:[/&,+]|\band\b|\bor\b)\s*${NOT_TO_DO_HEADING})*[!.]*$`,
  'i',
);
/** A short heading that keeps the items under it from the employee, said inside it: "STILL WITH ME (please don't touch)". */
const NEGATIVE_IN_HEADING =
  /\b(?:(?:please\s+)?(?:don'?t|do not|never)\s+(?:touch|handle|change)|hands off|still with me|leave (?:these|this|them|those) (?:alone|to me|to us))\b/i;
/** A heading over how the work is done today, not what is wanted: "TODAY", "Current process", "As is", "Before". */
const NOW_HEADING =
  /^(?:today|now|right now|currently|current(?: process| setup| state| way)?|as[- ]is|before|old way|the old way|how (?:it|this|things) (?:works?|is done|gets? done|goes) (?:now|today|at the moment|currently)|(?:what happens|the process|our process) (?:now|today))$/i;
/** The label the items under such a heading are read with (the segmenter reads it as how the work is done today). */
export const NOW_SAID = 'How it works now';
/** A numbered part of a spec, on its own line: "Rule 2", "Story 1", "Step 3:", "Use case #4" — it parts, it carries no work. */
const PART_NUMBER =
  /^(?:rule|story|user story|step|task|workflow|flow|scenario|use case|case|item|part|section|phase|automation|job|duty|request|requirement)\s*(?:#|no\.?\s*)?\d{1,3}[a-z]?\s*[:.)-]?$/i;

/** "When a deal goes to Closed Won:", "Every Friday:" — a heading that says what starts the items under it. */
const LEAD_HEADING =
  // (a clock's colon is no end: "Every Monday at 08:00:")
  /^(?:when|whenever|if|once|after|as soon as|each time|every time|every|each|on (?:mon|tues|wednes|thurs|fri|satur|sun)days?)\b(?:[^:]|:(?=\d\d)){3,200}:$/i;

/** A lead said before a colon on the line of its work: a LEAD_HEADING without its colon, of more than its first word. */
const LEAD_BEFORE_COLON = new RegExp(`${LEAD_HEADING.source.replace(/:\$$/, '$')}`, 'i');

/** "Mon–Fri at 9:30 pm", "Fridays 3pm", "15 min before a booking starts": a label that is a time from its first word. */
const startsWithSchedule = (label: string): boolean =>
  findSchedule(label.slice(HOURS_FIRST.exec(label)?.[0].length ?? CLOCK_FIRST.exec(label)?.[0].length ?? 0))?.index === 0;

/** An outline's event heading: "on new Salesforce lead (source Website):", "on opportunity -> "Proposal Accepted":". */
const OUTLINE_EVENT =
  /^on\s+(?!(?:the\s+)?(?:mondays?|tuesdays?|wednesdays?|thursdays?|fridays?|saturdays?|sundays?|weekends?|holidays?|site|call|leave)\b)[^:]{3,120}:$/i;
/** "On weekdays:", "On bank holidays:", "On rainy days:": when a rule holds, no event. */
const OUTLINE_NOT_EVENT = /\b(?:days?|weekends?|weekdays|holidays?|payday|mornings?|afternoons?|evenings?|nights?|shifts?)$/i;
/** "daily 17:30" written as a schedule's heading: "daily" reads as every day. */
const OUTLINE_SCHEDULE = /^(?=daily\b)/i;

/**
 * An outline's event heading as a lead: "on new Salesforce lead (…)" → "When a new Salesforce lead comes in (…)",
 * "on opportunity -> "Proposal Accepted"" → "When an opportunity moves to "Proposal Accepted"", "on contract fully
 * signed" → "When the contract is fully signed". Pure.
 */
function outlineEvent(heading: string): string {
  const what = heading.replace(/^on\s+/i, '').trim();
  const moved = /^(?:an?\s+|the\s+)?([\w\s-]{2,40}?)\s*(?:->|→|=>)\s*(.+)$/.exec(what);
  if (moved?.[1] && moved[2]) return `When ${/^[aeiou]/i.test(moved[1]) ? 'an' : 'a'} ${moved[1]} moves to ${moved[2]}`;
  if (/^new\s/i.test(what)) {
    const [head = '', rest = ''] = what.split(/(?=\s*[(,])/, 2);
    return `When a ${head} comes in${rest ? ` ${rest.trim()}` : ''}`;
  }
  const done = /^(?:an?\s+|the\s+)?([\w-]+(?:\s+(?!fully\b|being\b)[\w-]+)?)\s+((?:fully\s+|being\s+)?[a-z]+ed)\b(.*)$/i.exec(
    what,
  );
  if (done?.[1] && done[2]) return `When the ${done[1]} is ${done[2]}${done[3] ?? ''}`;
  return `When ${what}`;
}

/** A duty that sends words, before the words it sends: "text the homeowner:", "email them:", "post in #ops:". */
const SENDS_WORDS =
  /^(?:(?:then|and|also|please|and then)\s+)*(?:(?:text|sms|email|e-mail|message|dm|reply|tell|remind|notify|ping)\s+(?:(?:them|him|her|me|us|everyone|everybody)$|\S+\s+\S)|post\s+(?:(?:a|an|the)\s+(?:[\w-]+\s+)?(?:message|note|update|summary)\s+)?(?:to|in|on)\s+#[\w-]+$|(?:create|add|leave|open)\s+(?:(?:a|an|the)\s+)?(?:[\w-]+\s+)?(?:task|note|comment|reminder|to-?do)\b(?![^:]*\b(?:every|each|any)\b))/i;
/** A message named and no verb: "reminder email to the participant", "a text to the owner", "Slack message to #ops". */
const MESSAGE_NAMED =
  /^(?:an?\s+|the\s+)?(?:[\w-]+\s+){0,2}(?:e-?mail|text|sms|message|dm|reminder|note|notification)\s+(?:to|for)\s+\S/i;
/** An outline's item that sets a record's stage: "opportunity -> "Contracted"". */
const SETS_STAGE = /^(?:the\s+)?([a-z][\w-]*(?:\s+[\w-]+)?)\s*(?:->|→|=>)\s*(["“][^"”]{1,40}["”])\s*$/i;

/** A sub-item of a numbered section ("1.a", "2.3", "1b)"): its section's number. */
const SUB_ITEM = /^\s*(\d{1,2})(?:\.\d{1,2}|\.?[a-h])[.)]?\s/;
/** A numbered line ("1. Inbound documents", "2) Delay exceptions"): its number. */
const NUMBERED = /^\s*\(?(\d{1,2})[.)]\s/;

/** What a label named, said to reach us: "they land in returns@…", "these usually come in by email". */
const THEY_ARRIVE =
  /^(?:they|these|those|all of them|most of them)\s+((?:(?:all|usually|normally|always|mostly|often|typically)\s+)?(?:land|arrive|come in|come through|end up|turn up|show up|get (?:sent|emailed|forwarded)|are (?:sent|emailed|forwarded))\b.*)$/i;
/** "Failed payments", "Overdue invoices", "New sign-ups": what happened to things, said by a word before them. */
const HAPPENED_BEFORE =
  /^(failed|declined|bounced|cancell?ed|refunded|overdue|unpaid|late|abandoned|new|incoming|paid|signed|completed|approved|rejected|returned)\s+((?:[A-Z][\w-]*\s+)?[a-z][\w-]*?)(\s*\([^()]*\))?$/i;
/** One of a plural thing: "invoices" → "invoice", "batches" → "batch", "deliveries" → "delivery". */
export const nounStem = (word: string): string =>
  word
    .replace(/(?<=\w{2})ies$/, 'y')
    .replace(/(?<=\w(?:s|x|z|ch|sh))es$/, '')
    .replace(/(?<=\w{2}[^s])s$/, '');
/** "Car sold", "Invoice paid", "Order shipped": a thing, then what happened to it. */
const HAPPENED_AFTER =
  /^((?:[A-Z][\w-]*\s+)?[A-Za-z][\w-]*?)\s+(sold|paid|signed|cancell?ed|booked|shipped|delivered|refunded|approved|rejected|closed|won|lost|received|submitted|created|opened|completed|returned)(\s*\([^()]*\))?$/;

/**
 * A heading over items that names what happened to a thing without a verb ("Failed payments (deposits taken through
 * Stripe)", "Car sold", "Overdue invoices"): the same as a sentence — "a payment fails (…)", "a car is sold". Pure.
 */
export function headingAsEvent(heading: string): string | null {
  const before = HAPPENED_BEFORE.exec(heading.trim());
  if (before?.[1] && before[2]) {
    const [, how = '', things = '', aside = ''] = before;
    const thing = nounStem(things);
    const a = articleFor(thing);
    const word = how.toLowerCase();
    const happened = /^(?:failed|declined|bounced)$/.test(word)
      ? `${a} ${thing} fails`
      : /^(?:overdue|unpaid|late)$/.test(word)
        ? `${a} ${thing} is overdue`
        : /^(?:new|incoming)$/.test(word)
          ? `a new ${thing} comes in`
          : `${a} ${thing} is ${word}`;
    return `${happened}${aside}`;
  }
  const after = HAPPENED_AFTER.exec(heading.trim());
  if (after?.[1] && after[2] && !/^(?:the|a|an|all|any|our|we|i|not|never)$/i.test(after[1])) {
    const thing = /^[A-Z][a-z]+$/.test(after[1]) ? lowerFirst(after[1]) : after[1];
    return `${articleFor(thing)} ${thing} is ${after[2]}${after[3] ?? ''}`;
  }
  return null;
}

/** A decision tree's question, said of the thing at hand: "mentions a room and a time?", "is it urgent?", "has a PO number?". */
const QUESTION_ITEM =
  /^(?:(?:mentions|includes|contains|has|have|is|are|was|were|says|asks|comes|came|needs|matches|uses|wants|does|did|over|under|above|below|more than|less than)\b|(?:first|second|third|last|new|existing|returning|paid|free|urgent|vip)\b[^.!\n]{0,60}$)/i;

/** Splits a job description into sentences, keeping track of paragraphs and list items. */
/** An item of a list taken back by its place: "actually, scrap the second one", "forget number 3", "drop point 2". */
const RETRACTED =
  /(?:^|(?<=[.!?]\s+)|(?<=\n))(?:(?:actually|ok|okay|oh|wait|hmm|sorry|on second thoughts?|change of plan|one more change|also)[,!.]?\s+)*(?:please\s+)?(?:scrap|scratch|drop|forget(?:\s+about)?|skip|ignore|remove|delete|cut|lose|strike)\s+(?:(?:the\s+)?(first|second|third|fourth|fifth|sixth|1st|2nd|3rd|4th|5th|6th)\s+(?:one|item|point|bit|thing|bullet|part)|(?:number|item|point|no\.?|#)\s*(\d))\b[^\n.!?]*[.!?]?/i;
const ORDINALS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  '1st': 1,
  '2nd': 2,
  '3rd': 3,
  '4th': 4,
  '5th': 5,
  '6th': 6,
};

/**
 * "1. … 2. book a phone screen … 3. …" then "actually, scrap the second one": the item taken back is no part of the
 * work, nor is the sentence that takes it back. Only an item of a list said before, numbered or bulleted; the list's
 * items are counted in order, each with the lines that go on from it. Pure.
 */
/** A list item's marker: "1.", "(2)", "3)", "-", "•" (the number, when it has one). */
const LIST_ITEM = /^\s*(?:\(?(\d{1,2})[.)]|[-*•·▪◦‣])\s+/;

/** An item taken back by what it does: "oh and scratch the bit about texting the subbies — …". */
const RETRACTED_BY_WHAT =
  /(?:^|(?<=[.!?]\s+)|(?<=\n))(?:(?:actually|ok|okay|oh|wait|hmm|sorry|on second thoughts?|and|also)[,!.]?\s+)*(?:please\s+)?(?:scrap|scratch|drop|forget(?:\s+about)?|skip|ignore|remove|lose|strike)\s+the\s+(?:bit|part|item|point|thing|idea|step|one)\s+about\s+([a-z]+ing)\b[^\n.!?]*[.!?]?/i;

/**
 * "1) … ¶ 3) and text the subcontractor … ¶ oh and scratch the bit about texting the subbies": the one item that does
 * what is taken back goes, and so does the sentence that takes it back; with none or several such items, both stay. Pure.
 */
function withoutRetractedByWhat(text: string): string {
  const m = RETRACTED_BY_WHAT.exec(text);
  const gerund = m?.[1]?.toLowerCase();
  if (!m || !gerund) return text;
  const stem = gerund.slice(0, -3);
  const bases = [stem, `${stem}e`, stem.replace(/(.)\1$/, '$1')];
  const lines = text.slice(0, m.index).split('\n');
  // (the item's first word after its marker, past a joining word: "3) and text the subcontractor" → "text")
  const verbOf = (line: string): string =>
    (/^(?:(?:and|then|also|plus)\s+)?([a-z]+)\b/i.exec(line.replace(LIST_ITEM, ''))?.[1] ?? '').toLowerCase();
  const doing = lines.flatMap((l, i) => (LIST_ITEM.test(l) && bases.includes(verbOf(l)) ? [i] : []));
  if (doing.length !== 1) return text;
  const at = doing[0] ?? 0;
  return [...lines.slice(0, at), ...lines.slice(at + 1)].join('\n') + text.slice(m.index).replace(m[0], '');
}

/**
 * A duty taken back by its name: "Actually, scrap the reply to tenants – the officers handle all tenant contact." Words
 * that are also work ("drop the file in …", "remove the tag") take a duty back only after a change of mind is said:
 * "Actually, drop the confirmation".
 */
const RETRACTED_BY_NAME =
  /(?:^|(?<=[.!?]\s+)|(?<=\n))(?:(?:(?:actually|ok|okay|oh|wait|hmm|sorry|on second thoughts?|change of plan|and|also)[,!.]?\s+)*(?:please\s+)?(?:scrap|scratch|forget(?:\s+about)?|ditch)|(?:actually|wait|hmm|sorry|on second thoughts?|change of plan)[,!.]?\s+(?:(?:ok|okay|no|and)[,!.]?\s+)*(?:please\s+)?(?:drop|skip|remove|lose|cut|leave out|don['’]t bother with|no need for)(?![^\n.!?]*\b(?:just|instead|only|into|onto|in|to|on|at|from)\b))\s+the\s+([a-z]+)\b(?!\s+(?:bit|part|item|point|thing|idea|step|one)\b)(?![^\n.!?,;–—]*\b(?:if|on|for|when|whenever|unless|except|during|at|after|before|until)\b)[^\n.!?]*[.!?]?/i;
/** The verb a duty's name comes from, where it is no verb itself: "the reminder" → "remind". */
const NAMED_DUTY: Readonly<Record<string, string>> = {
  reminder: 'remind',
  notification: 'notify',
  confirmation: 'confirm',
  invitation: 'invite',
};

/**
 * "…, tag it by trade and reply to the tenant with the target time." then "Actually, scrap the reply to tenants": the
 * one clause said before that does what is named goes, with its joining word, and so does the sentence that takes it
 * back; with none or several such clauses, both stay. Pure.
 */
function withoutRetractedByName(text: string): string {
  const m = RETRACTED_BY_NAME.exec(text);
  const name = m?.[1]?.toLowerCase();
  if (!m || !name) return text;
  const verb = NAMED_DUTY[name] ?? name;
  if (!isKnownVerb(verb)) return text;
  const before = text.slice(0, m.index);
  // (the clause from its verb to the next comma, stop or line end, brackets whole; with "and" or a comma before it)
  const clause = new RegExp(String.raw`(?:^|,\s*|\s+)(?:(?:and|then|also)\s+)*${verb}\b(?:[^,;.!?\n(]|\([^)\n]*\))*`, 'gi');
  const found = [...before.matchAll(clause)];
  if (found.length !== 1 || found[0]?.index === undefined) return text;
  // (the clause ends where another duty is joined on: "reply to the customer … and post it in #support")
  const whole = found[0][0];
  const from = whole.toLowerCase().indexOf(verb) + verb.length;
  const said = `${whole.slice(0, from)}${whole.slice(from).replace(/\s+(?:and|then)\s+(?!(?:the|a|an|their|our|its|his|her)\b)[a-z]+\b[\s\S]*$/i, '')}`;
  const at = found[0].index;
  return `${before.slice(0, at)}${before.slice(at + said.length)}${text.slice(m.index).replace(m[0], '')}`;
}

export function withoutRetracted(text: string): string {
  const m = RETRACTED.exec(text);
  if (!m) return withoutRetractedByName(withoutRetractedByWhat(text));
  const place = m[1] ? ORDINALS[m[1].toLowerCase()] : Number(m[2]);
  const lines = text.slice(0, m.index).split('\n');
  const starts = lines.flatMap((l, i) => (LIST_ITEM.test(l) ? [i] : []));
  const numbered = starts.filter((i) => LIST_ITEM.exec(lines[i] ?? '')?.[1] !== undefined);
  const at =
    numbered.length > 0 ? numbered.find((i) => Number(LIST_ITEM.exec(lines[i] ?? '')?.[1]) === place) : starts[(place ?? 0) - 1];
  if (at === undefined || !place) return text;
  let end = at + 1;
  while (end < lines.length && (lines[end] ?? '').trim() !== '' && !LIST_ITEM.test(lines[end] ?? '')) end++;
  const kept = [...lines.slice(0, at), ...lines.slice(end)].join('\n');
  // ("keep 1 and 3": the items left, said again)
  const rest = text
    .slice(m.index)
    .replace(m[0], '')
    .replace(/(^|[\s.!?])keep\s+(?:only\s+)?(?:numbers?\s+|items?\s+|points?\s+)?\d(?:\s*(?:,|and|&)\s*\d)+\s*[.!]?/i, '$1');
  return `${kept}${rest}`;
}

/** A section of a spec in Gherkin: "Feature:", "Scenario:" (a "Background:" alone may head prose). */
const GHERKIN_SECTION = /^\s*(?:feature|scenario(?: outline)?)\s*:/i;
/** A checklist's item, its box ticked or not: "- [x] …", "[ ] …". */
const TICKED = /^\s*(?:[-*•]\s*)?\[[xX✓✔]\]\s/;
const UNTICKED = /^\s*(?:[-*•]\s*)?\[ \]\s/;
/** A heading that says its items are done already: "Already handled (don't duplicate):", "In place:". */
const SAID_DONE = /\b(?:already|in place|live now|handled|taken care of|done already)\b/i;

/** A field set to a value: "set "DBS received" to today's date", "mark Status as Paid". */
const FIELD_SET = /^(?:set|mark|change|tick|update|flip)\s+\S.{0,60}?\s(?:to|as)\s/i;

/**
 * The sentences of a description, each with its block. `saysEvent` tells a heading that says how work arrives
 * ("Stripe payment fails:", "New member signs up (our form calls the webhook):") over the items it starts.
 */
export function sentences(description: string, saysEvent: (text: string) => boolean = () => false): Sentence[] {
  const out: Sentence[] = [];
  let block = 0;
  let blockOpen = false;
  // the number of the section whose sub-items are being read ("1.a", "1.b", … are one section's work, read together)
  let section: string | undefined;
  // inside a section of a pasted job ad that asks things of a person, not work ("Requirements", "What we offer")
  let notWork = false;
  // the items under a heading that says what starts them belong to it
  let underLead = false;
  // the items under a heading of things not to do ("Please DON'T:") are rules, not duties
  let forbidden = false;
  // …and the lines right under such a heading that ends in a colon, bulleted or not, until a blank line
  let forbiddenLines = false;
  // under a heading of how the work is done today ("TODAY", "As is"), until the next heading
  let now = false;
  // the indent of a list item that leads the items indented under it ("* When someone mentions the bot:"), while they last
  let leadItemIndent: number | undefined;
  // a heading that says a start ("When a referral comes in:") and has no item yet: a blank line under it parts nothing
  let leadWithoutItems = false;
  const lines = withoutRetracted(normalise(withoutQuestionsRefused(description))).split('\n');
  // a checklist with boxes left to tick: a ticked one is done already where it says so ("… Sam's bot already does this")
  // or its heading does ("Already handled:")
  const ticksLeft = lines.some((l) => UNTICKED.test(l)) && lines.some((l) => TICKED.test(l));
  const doneAlready = (at: number): boolean => {
    if (/\balready\b/i.test(lines[at] ?? '')) return true;
    const heading = lines
      .slice(0, at)
      .reverse()
      .find((l) => l.trim() && !TICKED.test(l) && !UNTICKED.test(l) && !BULLET.test(l));
    // (a statement of what is done, not an instruction to tick: "Tick the jobs you want done:")
    return (
      heading !== undefined &&
      /:\s*$/.test(heading) &&
      SAID_DONE.test(heading) &&
      !/^\s*(?:tick|check|select|mark|choose|pick)\b/i.test(heading)
    );
  };
  // a spec written in Gherkin (a feature or scenario with its When and Then lines): its "Given" lines, and the "And"
  // lines under them, say the state the work starts from
  const raw = description.split('\n');
  const gherkin =
    raw.some((l) => GHERKIN_SECTION.test(l)) && raw.some((l) => /^\s*when\b/i.test(l)) && raw.some((l) => /^\s*then\b/i.test(l));
  let given = false;
  // the number of the last numbered item read, while numbered items follow one another
  let lastNumber: number | undefined;
  for (const [index, rawLine] of lines.entries()) {
    if (ticksLeft && TICKED.test(rawLine) && doneAlready(index)) continue;
    if (gherkin && rawLine.trim()) {
      given = /^\s*given\b/i.test(rawLine) || (given && /^\s*(?:and|but)\b/i.test(rawLine));
      if (given) continue;
    }
    let line = rawLine.trim();
    if (!line && leadWithoutItems) continue;
    leadWithoutItems = false;
    if (!line) {
      if (blockOpen) block++;
      blockOpen = false;
      underLead = false;
      forbiddenLines = false;
      continue;
    }
    // "Me: And then?", "Me: What about staff stuff?": a speaker's line of questions only, in a transcript, asks and
    // does nothing (unless it asks for work: "Sam: Could you also email the client?"; a "Q:" line is read with its answer)
    const spoken = /^(?!Q(?:uestion)?\s*:)[A-Z][\w .'’-]{0,24}:\s+(.+)$/.exec(line)?.[1];
    if (
      spoken &&
      spoken.split(/(?<=[.!?])\s+/).every((p) => /\?["”’)]*$/.test(p.trim())) &&
      !/\b(?:can|could|would|will)\s+(?:you|it|the assistant)\b|\bplease\b/i.test(spoken)
    )
      continue;
    const bullet = BULLET.test(line);
    // the next line that says anything (the items under a heading, a section's first sub-item, …)
    const nextLine = lines.slice(index + 1).find((l) => l.trim()) ?? '';
    // ("- [ ] When a PR is opened …": a checklist's box after its bullet is a marker too)
    const item = bullet ? line.replace(BULLET, '').replace(BULLET, '') : line;
    // a numbered heading ("5. Do NOT", "6. For info only") says what the items under it are, as a heading does
    // (numbered, not a dash or a dot: "- 2+ years in customer support" is an item of its section)
    const numberedHeading = /^\s*\(?\d{1,2}[.)]\s/.test(line) && item.split(/\s+/).length <= 5 && !/[.!?,;]$/.test(item);
    // (an item of its own, a duty said short — "b. refund or credit anyone" — is no heading: it starts with a verb)
    // ("## Purpose" … "## 1. Escalations": a numbered heading ends a section that was no work, as any heading does)
    if (numberedHeading) notWork = NOT_WORK_SECTION.test(item.replace(/:$/, '').trim());
    if (numberedHeading && NEGATIVE_SECTION.test(item.replace(/:$/, '').trim())) {
      forbidden = true;
      forbiddenLines = false;
      continue;
    }
    if (numberedHeading && !startsWithVerb(item)) forbidden = false;
    // "1. Inbound shipping documents" over "1.a When an email arrives …", "1.b …": a section's title over its sub-items,
    // which are read together, as one paragraph's sentences ("1.b If there is no folder …, create one" is 1.a's work)
    const number = SUB_ITEM.test(line) ? undefined : NUMBERED.exec(line)?.[1];
    const grouped = number !== undefined && SUB_ITEM.exec(nextLine)?.[1] === number;
    // (a title is short and no sentence: "1. Email the daily report to the manager at 5pm." is a duty, its sub-items its details)
    const titled =
      grouped &&
      !/[.!?;]$/.test(item) &&
      item
        .replace(/\s*\([^()]*\)/g, '')
        .split(/\s+/)
        .filter(Boolean).length <= 6;
    const sub = bullet ? SUB_ITEM.exec(line)?.[1] : undefined;
    const sameSection = sub !== undefined && sub === section;
    section = grouped ? number : (sub ?? (bullet ? undefined : section));
    if (!bullet && !forbiddenLines) forbidden = false;
    // "Rule 2", "Story 1": a numbered part of a spec, on its own line, parts the work and is none
    if (PART_NUMBER.test(item)) {
      if (blockOpen) block++;
      blockOpen = false;
      underLead = false;
      forbidden = false;
      forbiddenLines = false;
      continue;
    }
    // (an item at or left of the one that led the items under it ends them)
    if (leadItemIndent !== undefined && (!bullet || indentOf(rawLine) <= leadItemIndent)) {
      leadItemIndent = undefined;
      underLead = false;
    }
    if (bullet) {
      line = item.replace(SETS_STAGE, 'move the $1 to $2');
      // ("-> mentions a room and a time?", "- team plan (3+ seats)?": a branch's question is its condition, no work)
      if (/\?\s*$/.test(line) && QUESTION_ITEM.test(line)) line = `if it ${lowerFirst(line.replace(/\?\s*$/, ''))}`;
      if (forbidden) line = `don't ${line.replace(/^(?:don'?t|do not|never|no)\s+/i, '')}`;
      // ("- Also give the account owner a HubSpot task": an item that goes on from the one before is of its work)
      if (!underLead && !sameSection && !/^(?:also|and|plus|then|and then|additionally|as well)\b/i.test(line)) {
        if (blockOpen) block++;
        blockOpen = false;
      }
    } else {
      underLead = false;
      // (a heading ends them: "### Not your job" ¶ "Payroll." ¶ "### Every Friday")
      if (forbiddenLines && /:$/.test(line)) {
        forbidden = false;
        forbiddenLines = false;
      }
      if (forbiddenLines && forbidden) line = `don't ${line.replace(/^(?:don'?t|do not|never|no)\s+/i, '')}`;
    }
    // an outline's start, over the items it runs ("on new Salesforce lead:", "on contract fully signed:", "daily 17:30:")
    const outlined = !bullet && /:$/.test(line) && BULLET.test(nextLine);
    const heading = line.replace(/:$/, '');
    // ("Stripe payment fails:", "Message posted in #room-requests:": an arrival said with no lead word, over its items)
    const eventHeading =
      outlined &&
      !OUTLINE_EVENT.test(line) &&
      heading.replace(/\s*\([^()]*\)/g, '').split(/\s+/).length <= 10 &&
      // (one clause, no lead word of its own: "Some practices still email the Rx to rx@…. For those:" says more)
      !/[.!?]\s/.test(heading) &&
      !/^(?:when|whenever|if|once|after|as soon as|every|each|for)\b/i.test(heading) &&
      // (nor over items that say starts of their own: "Players report bugs in two places:" ¶ "- GitHub: when …")
      !/\b(?:when|whenever|every time|each time|as soon as)\b/i.test(nextLine) &&
      // (nor one over rules of the things, "- must have an owner", nor one of what we send, "Invoices we send:")
      !/^(?:must|should|shall|are|is|need|needs|have|has|can|cannot|can't|will|won't|may)\b/i.test(
        nextLine.replace(BULLET, ''),
      ) &&
      !/\b(?:we|i)\b/i.test(heading) &&
      !NEGATIVE_SECTION.test(heading) &&
      (saysEvent(heading) || saysEvent(headingAsEvent(heading) ?? ''));
    const outlineStart =
      outlined &&
      ((OUTLINE_EVENT.test(line) && !OUTLINE_NOT_EVENT.test(heading) && !startsWithSchedule(heading)) ||
        eventHeading ||
        (startsWithSchedule(heading.replace(OUTLINE_SCHEDULE, '')) &&
          /\d|\b(?:daily|weekly|monthly|every|each)\b/i.test(heading)));
    // "* When someone @-mentions @release-bot in Slack:" over "  - if it's a hotfix request, …": an item that says a
    // start, over the items indented under it, leads them as a heading does
    const leadItem =
      bullet && !forbidden && LEAD_HEADING.test(line) && BULLET.test(nextLine) && indentOf(nextLine) > indentOf(rawLine);
    if (leadItem) leadItemIndent = indentOf(rawLine);
    if ((!bullet && (LEAD_HEADING.test(line) || outlineStart)) || leadItem) {
      if (blockOpen) block++;
      const said = line.replace(/:$/, '').trim();
      const text =
        OUTLINE_EVENT.test(line) && !startsWithSchedule(said)
          ? outlineEvent(said)
          : eventHeading
            ? `When ${saysEvent(said) ? (/^[A-Z][a-z]/.test(said) && !/^[A-Z][a-z]+[A-Z]/.test(said) ? lowerFirst(said) : said) : (headingAsEvent(said) ?? said)}`
            : said;
      out.push({ text, block, first: true });
      blockOpen = true;
      underLead = true;
      leadWithoutItems = /:$/.test(line) && BULLET.test(nextLine);
      continue;
    }
    // (an aside in brackets makes no heading longer: "STILL WITH ME (please don't touch)")
    // (nor does a slash between two: "Out of scope / must not")
    const words = line
      .replace(/\s*\([^()]*\)/g, '')
      .split(/\s+/)
      .filter((w) => /\w/.test(w)).length;
    const headingLike = (/:$/.test(line) && words <= 8) || (!bullet && words <= 5 && !/[.!?,;]$/.test(line));
    // "Replies from passengers" over "People often text back. When a text arrives …, open …": a title of things (a
    // plural and where they come from), over a paragraph that says its own start, names the part and does nothing
    if (
      headingLike &&
      !bullet &&
      !/:$/.test(line) &&
      /^[A-Z][a-z]+s\s+(?:from|of|by|about)\b/.test(line) &&
      !BULLET.test(nextLine) &&
      /\b(?:when|whenever|each time|every time|as soon as|if)\b/i.test(
        nextLine
          .split(/[.!?](?:\s|$)/)
          .slice(0, 2)
          .join(' '),
      )
    )
      continue;
    if (headingLike) notWork = NOT_WORK_SECTION.test(line.replace(/:$/, '').trim());
    if (headingLike && !bullet && !forbiddenLines) {
      const said = line.replace(/:$/, '').trim();
      forbidden = NEGATIVE_SECTION.test(said) || NEGATIVE_IN_HEADING.test(said);
      // ("### Not your job" ¶ "Contracts, payroll, or changing anything in BambooHR.": the lines under it, as after a colon)
      forbiddenLines = forbidden && (/:$/.test(line) || (!BULLET.test(nextLine) && NEGATIVE_SECTION.test(said)));
      if (forbiddenLines) leadWithoutItems = true;
      now = NOW_HEADING.test(said);
      if (now || (forbidden && !/:$/.test(line))) {
        if (blockOpen) block++;
        blockOpen = false;
        continue;
      }
    }
    if (notWork) {
      if (blockOpen) block++;
      blockOpen = false;
      continue;
    }
    // a heading line ("Responsibilities:", "What you will do") separates blocks and carries no work
    // (so does a short title with no colon over a list: "Refund requests" ¶ "- CSMs ask for refunds in …")
    const titleOverList =
      !bullet &&
      words <= 4 &&
      !/[.!?,;:]$/.test(line) &&
      /^[A-Z]/.test(line) &&
      startsWithVerb(line) &&
      /^[A-Za-z-]+\s+[a-z]+s\b/.test(line) &&
      BULLET.test(nextLine);
    if ((/:$/.test(line) && words <= 8) || titleOverList) {
      if (blockOpen) block++;
      blockOpen = false;
      continue;
    }
    const ruled = forbidden && (bullet || forbiddenLines);
    const numbered = Number(NUMBERED.exec(rawLine)?.[1] ?? Number.NaN);
    const step = bullet && !SUB_ITEM.test(rawLine) && lastNumber !== undefined && numbered === lastNumber + 1;
    lastNumber = Number.isNaN(numbered) ? undefined : numbered;
    for (const [i, s] of splitLine(line).entries()) {
      // (what an item kept from the employee says after its rule is no duty either — "Replying to customers on
      // tickets. Support owns every customer-facing reply." — unless it says what to do instead: "… Cancel the hold")
      const text =
        ruled && i > 0 && !/^(?:don'?t|do not|never)\b/i.test(s.text) && !saysWhatToDo(s.text) ? `don't ${s.text}` : s.text;
      out.push({
        ...s,
        text,
        ...(now && !s.label ? { label: NOW_SAID } : {}),
        ...(titled ? { title: true as const } : {}),
        ...(step && i === 0 ? { step: true as const } : {}),
        block,
        first: !blockOpen,
      });
      blockOpen = true;
    }
    // "I'd like the employee to triage every new repair ticket as it comes in:" over "- Emergencies (…): set …": a
    // sentence that ends in a colon over a list is done by the items under it, which stay with it
    if (!bullet && /:$/.test(line) && BULLET.test(nextLine) && !ruled && !ANNOUNCES_JOBS.test(line)) {
      underLead = true;
      leadWithoutItems = true;
    }
  }
  // (a dash kept for a title that no line took as one is a comma, as every other dash between words)
  return out.map((s) => (s.text.includes('⸺') ? { ...s, text: s.text.replace(/\s*⸺\s*/g, ', ') } : s));
}

/** A sentence over a list of separate jobs: "look after these three jobs for the office:", "your duties:". */
const ANNOUNCES_JOBS =
  /\b(?:(?:these|the following|a few|several|some|two|three|four|five|six|\d)\s+(?:[\w-]+\s+)?(?:jobs|things|tasks|duties|responsibilities|areas|bits|workflows|automations|errands)|(?:jobs|tasks|duties|responsibilities)\s*:?\s*$)/i;

/** How far a line is indented (a tab counts as one). */
const indentOf = (line: string): number => /^\s*/.exec(line)?.[0].length ?? 0;

/** An order, its verb first ("Cancel the hold and email the couple"), not a statement of someone ("Support owns every reply"). */
function saysWhatToDo(text: string): boolean {
  const second = /^[A-Za-z-]+\s+([a-z]+)s\b/.exec(text)?.[1];
  return startsWithVerb(text) && !(second !== undefined && isKnownVerb(second));
}

/** Whether a sentence end falls inside a quotation that closes soon after it (in the next 300 characters). Pure. */
function insideQuote(before: string, after: string): boolean {
  const straight = (before.match(/"/g) ?? []).length % 2 === 1;
  const curly = (before.match(/“/g) ?? []).length > (before.match(/”/g) ?? []).length;
  return (straight && after.slice(0, 300).includes('"')) || (curly && after.slice(0, 300).includes('”'));
}

function splitLine(line: string): Omit<Sentence, 'block' | 'first'>[] {
  const parts: string[] = [];
  // (or who capitalises only the first: "Returns coordinater for our shop. customers email … . if its …")
  const lowerStarts = (line.match(/[!?]\s+[a-z]|[a-z)]\.\s+[a-z]/g) ?? []).length;
  const lowerCaseStyle = /^[a-z]/.test(line) || (lowerStarts >= 2 && lowerStarts > (line.match(/[.!?]\s+[A-Z]/g) ?? []).length);
  let start = 0;
  for (const m of line.matchAll(/[.!?]+(?=\s+|$)/g)) {
    const end = (m.index ?? 0) + m[0].length;
    const before = line.slice(start, m.index ?? 0);
    const lastWord = (before.match(/([A-Za-z.]+)$/)?.[1] ?? '').toLowerCase();
    const next = line.slice(end).trimStart();
    // "towels, pillows etc. Open a Jira issue …": a list's "etc." ends a sentence before a capital
    const endsList = lastWord === 'etc' && /^[A-Z]/.test(next);
    if (m[0] === '.' && ABBREVIATIONS.has(lastWord) && !endsList && !(lastWord === 'no' && !/^\d/.test(next))) continue;
    if (m[0] === '.' && /\d$/.test(before) && /^\d/.test(next)) continue;
    // "text them back: "Thanks. A volunteer will call you shortly."": a quoted message is one part of its sentence
    if (insideQuote(line.slice(start, end), line.slice(end))) continue;
    // a writer who starts sentences in lower case ("… inbox. whenever a student …") splits there too
    if (next && !/^["'(#@A-Z0-9]/.test(next) && !(lowerCaseStyle && /^[a-z]/.test(next))) continue;
    parts.push(line.slice(start, end));
    start = end;
  }
  if (start < line.length) parts.push(line.slice(start));
  const out: Omit<Sentence, 'block' | 'first'>[] = [];
  // ("About us: family-run boutique hotel. Reception logs guest complaints …": the line goes on about us)
  let about: string | undefined;
  for (const p of parts) {
    const said = p
      .trim()
      .replace(/[.!?]+$/, '')
      .trim();
    if (!said) continue;
    if (
      about &&
      !/^(?:when|whenever|if|once|after|every|each|as soon as|please)\b/i.test(said) &&
      !/:\s/.test(said) &&
      !startsWithVerb(said)
    ) {
      out.push({ text: said, label: about });
      continue;
    }
    const text = said.replace(/\s*⸺\s*/g, ', ');
    // "About the role: you will …", "Documents: send …" — a short label before a colon; and
    // "Anything over the limit needs a manager: message …" — a condition before an instruction
    // "Museum group bookings - when a school emails us …": a short title before a dash, then the work
    // ("Email Sam the report - every Monday" is a duty before its schedule: not a title)
    const dashed = said.match(/^([^:\-–—⸺]{2,60}?)\s+[-–—⸺]\s+((?:when|whenever|if|every|each|once|after|on)\b.+)$/i);
    // (a title may be said with a gerund: "Keeping our volunteers in the loop - every Thursday …")
    if (
      dashed?.[1] &&
      dashed[2] &&
      dashed[1].split(/\s+/).length <= 6 &&
      (!startsWithVerb(dashed[1]) || /^(?!(?:bring|ring|ping|sing|string|swing|sting)\b)[a-z]{2,}ing\b/i.test(dashed[1])) &&
      // ("Overdue invoices get a reminder email – every Monday at 10": a duty said of things, no title)
      !/\b(?:gets?|goes|go|is|are|has|have|needs?|should|must|will)\b/i.test(dashed[1]) &&
      // ("Monday to Friday – every morning at 8": a time, no title)
      !startsWithSchedule(dashed[1]) &&
      !/^(?:mon|tue|wed|thu|fri|sat|sun)[a-z]*\b/i.test(dashed[1])
    ) {
      out.push({ text: dashed[2].trim(), label: dashed[1].trim() });
      continue;
    }
    // (not a colon inside brackets: "… as a contact (lifecycle stage: volunteer), so …")
    const colon = text.match(/^([^:]{2,120}):\s+(.+)$/);
    const label = colon?.[1] && (colon[1].match(/\(/g)?.length ?? 0) > (colon[1].match(/\)/g)?.length ?? 0) ? null : colon;
    // "When a party invoice is paid: email the parent …", "Every day at 8 am: post …": what starts the work, said
    // before a colon, is the sentence's own lead, not a label to set aside
    if (label?.[1] && label[2] && (LEAD_BEFORE_COLON.test(label[1]) || startsWithSchedule(label[1]))) {
      // ("48h before a session: reminder email to the participant": the message named is the one to send)
      const said = MESSAGE_NAMED.test(label[2]) && !startsWithVerb(label[2]) ? `send ${label[2].trim()}` : label[2].trim();
      out.push({ text: `${label[1].trim()}, ${said}` });
      continue;
    }
    // "Update the employee's BambooHR record: set "DBS received" to today's date": a duty in a product, then the field
    // it sets — one duty's words, not a label
    if (label?.[1] && label[2] && startsWithVerb(label[1]) && providersIn(label[1]).length > 0 && FIELD_SET.test(label[2])) {
      out.push({ text: `${label[1].trim()} and ${label[2].trim()}` });
      continue;
    }
    // "Refund requests: they land in returns@…": things named by a label, then how they reach us — one sentence
    const theyArrive = label?.[2] ? THEY_ARRIVE.exec(label[2]) : null;
    if (label?.[1] && theyArrive?.[1] && label[1].split(/\s+/).length <= 5 && !/\b(?:we|i|you)\b/i.test(label[1])) {
      out.push({ text: `${label[1].trim()} ${theyArrive[1]}` });
      continue;
    }
    // ("text homeowners with an install tomorrow: clear the drive …": a message's words after the duty that sends it)
    const sends = label?.[1] !== undefined && SENDS_WORDS.test(label[1]);
    if (
      label?.[1] &&
      label[2] &&
      !sends &&
      !/\d$/.test(label[1]) &&
      (label[1].split(/\s+/).length <= 5 || startsWithVerb(label[2]))
    ) {
      out.push({ text: label[2].trim(), label: label[1].trim() });
      if (ABOUT_LABEL.test(label[1].trim())) about = label[1].trim();
    } else out.push({ text });
  }
  return out;
}

/** A label over who the org is, whose line says no work: "About us", "Who we are". */
// (not "Context:" or "Background:", whose lines often say how the work arrives: "Parents report absences by email to …")
const ABOUT_LABEL = /^(?:about us|about|who we are|our company|the company|company)$/i;

// ---- clauses ----

/** Strips lead-ins ("you will", "also", "automatically") from the start of a clause. */
export function stripLeadIns(text: string): string {
  let t = text.trim().replace(/^[,;:\s]+/, '');
  for (let i = 0; i < 6; i++) {
    const lower = t.toLowerCase();
    const lead = LEAD_INS.find((l) => lower.startsWith(`${l} `) || lower.startsWith(`${l}, `));
    if (!lead) break;
    t = t.slice(lead.length).trim().replace(/^,\s*/, '');
  }
  return t;
}

/** Placing a thing somewhere, colloquially: "pop the lesson on the calendar", "put a card on the board". */
const PLACED =
  /^(?:put|pop|stick|plonk|bung|chuck|whack) ((?:(?!\b(?:on|onto|in|into)\b)[^,;]){1,60}?) (?:on|onto|in|into) (?!(?:hold|charge|touch|place|writing|order|mind|stock|line|front|use|effect|practice|danger|jeopardy|contact)\b)/i;
/** Where a thing placed is said or filed rather than added: a chat's channel, thread or post; a folder or drive. */
const SAID_OR_FILED = /#|\b(?:channels?|slack|teams|threads?|posts?|messages?|chats?|dms?|folders?|drive)\b/i;
/** Checking with someone, who is asked: "check with me", "confirm with the manager", "clear it with Priya". */
const CHECK_WITH = /^(?:check|confirm|clear it|double-check) with (me|us|him|her|them|(?:the|our|their|a) [\w'-]+|[\w'-]+)\b/i;

/**
 * A start said with the arrival or the calendar it points back at, in brackets after it: "When one lands (People email
 * jobs@ …)". The segmenter writes it; the trigger matcher reads the context back when the start names no event of its
 * own. Pure.
 */
export const withContext = (said: string, context: string): string => `${said} (${context})`;

/** The context `withContext` put after a start, if its text ends with one: the last bracketed part, brackets and all. Pure. */
export function contextOf(text: string): string | undefined {
  const end = text.trimEnd();
  if (!end.endsWith(')')) return undefined;
  let depth = 0;
  for (let i = end.length - 1; i >= 0; i--) {
    if (end[i] === ')') depth++;
    else if (end[i] === '(' && --depth === 0) return i > 0 ? end.slice(i + 1, -1) : undefined;
  }
  return undefined;
}

/** "Keep HubSpot deals up to date" → "update HubSpot deals"; phrasal idioms that hide the real verb. */
export function rewriteIdioms(text: string): string {
  return (
    text
      .replace(/^keep (.+?) (up to date|up-to-date|updated|current|accurate|in sync)\b/i, 'update $1')
      .replace(/^let (.+?) know\b/i, 'notify $1')
      .replace(/^give (.+?) a (heads[- ]up|shout|nudge|ping|call)\b/i, 'notify $1')
      .replace(/^(make|get) sure (that )?/i, 'check ')
      .replace(/^send out\b/i, 'send')
      .replace(/^reach out to\b/i, 'contact')
      .replace(/^get in touch with\b/i, 'contact')
      .replace(/^drop (.+?) (a line|a note|an email|a message)\b/i, 'message $1 $2')
      .replace(/^loop in\b/i, 'notify')
      // a light duty said as an idiom: "look after time-off requests" says no more than "handle" them
      .replace(/^(look after|take care of|stay on top of|keep on top of|see to)\b/i, 'handle')
      .replace(/^shoot (.+?) (an? (email|note|message))\b/i, 'send $1 $2')
      // "send the owner a text reminder": the medium named as the thing sent is the verb ("text the owner a reminder")
      .replace(
        /^send ((?:(?:the|their|our|each|every|this|that) )?[\w'-]+) (?:a|an) (?:(?:short|quick|brief|polite|friendly|personal) )*(text|sms|e-?mail)(?: message)?\b\s*/i,
        (_whole, who: string, medium: string) =>
          `${/^sms$/i.test(medium) ? 'text' : medium.toLowerCase().replace('-', '')} ${who} a `,
      )
      // "put the "Filed" label on the email", "add a Processed label to it": labelling it
      .replace(
        /^(?:put|add|apply|stick|slap)\s+(?:the|a|an)\s+((?:"[^"]{1,40}"|'[^']{1,40}'|[\w-]+)\s+)?label\s+(?:on|to|onto)\s+(the (?:e-?mail|message|thread)|it|them)\b/i,
        (_whole, name: string | undefined, what: string) => `label ${what}${name ? ` ${name.trim()}` : ''}`,
      )
      // "tag @Gareth in the post", "tag me": a person tagged is mentioned in a message, not a record labelled
      .replace(/^tag (me|us|him|her|@[\w.-]+|[A-Z][a-z]+(?= in\b| on\b|$))(?=[\s,.;]|$)/, 'mention $1')
      // "send the tenant a public reply": replying to them, wherever the work came in
      .replace(
        /^(?:send|write|give) ((?:(?:the|their|our|each|every|this|that) )?[\w'-]+) (?:a|an) (?:(?:short|quick|brief|public|polite|friendly|personal|standard|holding|first) )*(?:reply|response)\b/i,
        'reply to $1',
      )
      // "put the collection in with the address in the description": booked in, where the slot was found
      .replace(
        /^(?:put|pop|pencil|stick|slot) ((?:the|their|a|an|this|that|it|them)\b(?: [\w'-]+){0,3}?) in\b(?=\s+(?:with|for|on|at|as)\b|\s*,|\s*$)/i,
        'book $1 in',
      )
      // "check with me on Slack first": asking someone, not checking a thing
      // (a bare word only when it is a name: "clear it with Priya", not "check with care")
      .replace(CHECK_WITH, (whole, who: string) =>
        /^[a-z]/.test(who) && !/\s|^(?:me|us|him|her|them)$/i.test(who) ? whole : `ask ${who}`,
      )
      // "pop the lesson on the calendar", "stick it in the tracker", "put a card on the board": placing a thing is adding it
      // (not in a chat's channel or post, where it is said, nor in a folder, where it is filed)
      .replace(PLACED, (whole: string, what: string, _i: number, all: string) =>
        SAID_OR_FILED.test(all) ? whole : `add ${what} to `,
      )
      // "check the shop Gmail for new special-order requests": a look through the mail for something is a search
      .replace(/^check ((?:the |our |my |their )?(?:[\w'-]+ )?(?:gmail|inbox|mailbox|e-?mails?|mail)) for\b/i, 'search $1 for')
      // a particle after its object: "set the family up as a customer" says "set up the family as a customer"
      .replace(
        /^(set|sign|hook) ((?:them|him|her|it|(?:the|their|each|every|this|that|a|an) [\w'-]+(?: [\w'-]+)?)) up\b/i,
        '$1 up $2',
      )
      // "pass it straight on to #pastoral-care", "pass the details along to …": what is passed on to someone is forwarded
      .replace(
        /^pass ((?:them|him|her|it|this|that|(?:the|their|each|every|this|that|a|an) [\w'-]+(?: [\w'-]+)?)) (?:(?:straight|right|directly|quickly) )?(?:on|along) to\b/i,
        'forward $1 to',
      )
      .replace(/^pass (?:on|along) ((?:the|their|this|that|these|those|it|them)\b[^,;]{0,60}?) to\b/i, 'forward $1 to')
  );
}

const ROUTING =
  /^(.+?)\s+(?:goes|go|should go|must go|(?:has|have|needs?) to go|gets? sent|gets? routed|gets? escalated|is routed|are routed|is escalated|are escalated|is handed|are handed|is passed|are passed)\s+(?:over\s+|on\s+)?to\s+(.+)$/i;

/** "Anything you are not sure about goes to the queue in Jira" → "route anything you are not sure about to the queue in Jira". */
export function rewriteRouting(clause: string): string | null {
  const m = clause.match(ROUTING);
  return m?.[1] && m[2] ? `route ${m[1].replace(/^(and|but|then)\s+/i, '')} to ${m[2]}` : null;
}

export type Clause = {
  /** the clause as written (lead-ins stripped) */
  text: string;
  /** lower-cased clause with idioms rewritten, used for matching */
  norm: string;
  /** the main part, without trailing conditions or purposes ("so the team knows") */
  core: string;
  verb: string | null;
  /** verb with particle, e.g. "follow up" */
  verbPhrase: string | null;
  object: string;
  rest: string;
  negated: boolean;
};

const PARTICLES = new Set(['up', 'out', 'in', 'off', 'back', 'over', 'through', 'down', 'on']);
const PHRASAL = new Set([
  'follow up',
  'set up',
  'look up',
  'look for',
  'reach out',
  'sign up',
  'check in',
  'fill in',
  'fill out',
  'send out',
  'call off',
  'back up',
  'hand off',
  'spin up',
  'check off',
  'put together',
  'draw up',
  'find out',
  'work out',
  'figure out',
  'look at',
  'walk through',
  'sort out',
  'deal with',
  'take care',
  'look after',
  'help with',
  'work on',
  'shout out',
  'come in',
  // someone getting in touch: "if a cleaner texts back …", "when a patient calls back"
  'text back',
  'text in',
  'write back',
  'write in',
  'call back',
  'call in',
  'pull in',
  'bring in',
  'ring back',
  'phone back',
  'phone in',
  'email back',
  'email in',
  'message back',
  'reply back',
  'come back',
]);

/** Whether `particle` after `word` makes one phrasal verb with it ("texts back", "signed up"), not another verb. */
export function isPhrasal(word: string, particle: string): boolean {
  return PARTICLES.has(particle) && lemmas(word).some((l) => PHRASAL.has(`${l} ${particle}`));
}

const TAIL =
  /\s+(?:,\s*)?(?:if|when|whenever|unless|once|before|after|until|so that|so|because|in order to|as soon as|in case|while|since|whether)\s+.*$/i;
const PURPOSE = /\s+to (let|make|ensure|confirm|tell|inform|keep|check|see|show|give|get|help|approve|update|request)\b.*$/i;

/** Verb, direct object and the rest of one clause. */
export const parseClause = memo(parseClauseUncached);
/** Where something is kept, said in brackets: "(numbers are in the pinned message in #transport)" — no place of the work. */
const WHERE_KEPT =
  /\s*\(\s*(?:(?:the|their|our|his|her|its|all|all the)\s+)?[\w'-]+(?:\s+[\w'-]+){0,2}\s+(?:is|are|live|lives|sit|sits|is kept|are kept|is stored|are stored)\s+(?:in|on|at|inside)\s+[^()]{1,80}\)/gi;

/**
 * A message's own words quoted in the step ("send: "No problem {first name}, your {time} lesson is cancelled.""): what
 * is sent, not what the step acts on — read as "a message". A short quote (a label, a stage, "reply C") stays.
 */
const QUOTED_MESSAGE = /["“](?=[^"”\n]*(?:[{}]|[.!?]\s|[.!?]["”]))[^"”\n]{12,600}["”]|["“](?:[^"”\s]+\s+){6,}[^"”]*["”]/g;

function parseClauseUncached(raw: string): Clause {
  const text = stripLeadIns(raw.replace(QUOTED_MESSAGE, 'a message')).replace(WHERE_KEPT, '').replace(/\s+/g, ' ').trim();
  const norm = rewriteIdioms(text).toLowerCase();
  const negated = /^(never|don't|do not|not|avoid|no)\b/.test(norm);
  const core = norm.replace(TAIL, '').replace(PURPOSE, '').trim() || norm;
  const tokens = tokenize(core);
  let i = 0;
  while (i < tokens.length && /^(never|don't|do|not|avoid)$/.test(tokens[i]?.lower ?? '')) i++;
  const first = tokens[i];
  if (!first) return { text, norm, core, verb: null, verbPhrase: null, object: '', rest: '', negated };
  const verb = lemmas(first.lower).find((l) => KNOWN_VERBS.has(l)) ?? first.lower;
  let verbPhrase = verb;
  let objStart = i + 1;
  const next = tokens[i + 1]?.lower;
  if (next && PARTICLES.has(next) && PHRASAL.has(`${verb} ${next}`)) {
    verbPhrase = `${verb} ${next}`;
    objStart = i + 2;
  } else if (next === 'with' && PHRASAL.has(`${verb} with`)) {
    verbPhrase = `${verb} with`;
    objStart = i + 2;
  }
  let objEnd = objStart;
  while (objEnd < tokens.length) {
    const w = tokens[objEnd]?.lower ?? '';
    // "create each lead as a contact": the "as" complement names the object's type
    if (PREPOSITIONS.has(w) && objEnd > objStart) break;
    objEnd++;
  }
  const objTokens = tokens.slice(objStart, objEnd);
  const asAt = tokens.findIndex((t, k) => k >= objEnd && t.lower === 'as');
  const asEnd = tokens.findIndex((t, k) => k > asAt && PREPOSITIONS.has(t.lower));
  const asTokens = asAt >= 0 ? tokens.slice(asAt + 1, asEnd > asAt ? Math.min(asEnd, asAt + 5) : asAt + 5) : [];
  const object = [...objTokens, ...asTokens].map((t) => t.lower).join(' ');
  const lastObj = objTokens[objTokens.length - 1];
  const rest = core.slice(lastObj ? lastObj.end : first.end).trim();
  return { text, norm, core, verb, verbPhrase, object, rest, negated };
}

/** The content words of an object: "the customer a polite reminder" → "customer reminder". */
export function contentWords(text: string): string[] {
  return tokenize(text)
    .map((t) => t.lower)
    .filter((w) => !DETERMINERS.has(w) && !PREPOSITIONS.has(w));
}

export const isKnownVerb = (word: string): boolean => lemmas(word).some((l) => KNOWN_VERBS.has(l));

/** Whether a word is used as a verb at the start of a clause (the lexicon first, then compromise). */
export const startsWithVerb = memo(startsWithVerbUncached);
function startsWithVerbUncached(clause: string): boolean {
  const t = stripLeadIns(clause);
  const first = tokenize(t)[0];
  if (!first) return false;
  const w = first.lower;
  if (/^(never|don't|do|not|avoid|also|then)$/.test(w)) return true;
  if (/ing$|ed$/.test(w) && !KNOWN_VERBS.has(w)) return false;
  if (/s$/.test(w) && !KNOWN_VERBS.has(w) && !/ss$/.test(w)) return false;
  if (KNOWN_VERBS.has(w)) return true;
  const tags = nlp(t.toLowerCase()).json({ terms: { tags: true } }) as Array<{ terms?: Array<{ tags?: string[] }> }>;
  const firstTags = tags[0]?.terms?.[0]?.tags ?? [];
  return firstTags.includes('Imperative') || (firstTags.includes('Infinitive') && !firstTags.includes('Noun'));
}

const LANGUAGES = new Set(
  'english german french spanish italian dutch portuguese polish swedish danish norwegian finnish czech greek turkish russian ukrainian arabic hebrew hindi chinese mandarin japanese korean'.split(
    ' ',
  ),
);
const CALENDAR_WORDS =
  /^(monday|tuesday|wednesday|thursday|friday|saturday|sunday|january|february|march|april|may|june|july|august|september|october|november|december|today|tomorrow|eod|asap)$/i;
/**
 * A product's name: capitalised ("Personio", "Monday.com", "Google Sheets"), or a brand with a capital inside
 * ("ezyVet", "myCase"; not a device, "iPhone").
 */
const NAME = String.raw`(?:[A-Z][\w.]*[a-z0-9](?:[\w.]*\w)?|(?!i(?:Phone|Pad|Mac|OS|Pod)\b)[a-z]{1,5}[A-Z][\w.]*[a-z0-9](?:[\w.]*\w)?)`;
/** What a name before it names inside a product: "our Intake calendar", "the Leads sheet" are a calendar and a sheet. */
const CONTAINER =
  /^\s+(?:calendars?|channels?|folders?|drives?|inbox(?:es)?|mailbox(?:es)?|sheets?|spreadsheets?|docs?|documents?|pages?|lists?|projects?|queues?|pipelines?|spaces?|teams?|groups?|forms?|templates?|tabs?|columns?|stages?|views?|labels?|tags?|repos?|repositories|threads?|office|offices|branch|branches|site|sites|warehouse|clinic|school|campus|links?|urls?|reviews?|profiles?|listings?|ratings?)\b|^\s+\d/;
/** A product said to have an API ("Lightspeed has an API", "Cliniko's API"): reached over HTTP, not a missing integration. */
const HAS_API =
  /^(?:['’]s\s+(?:\w+\s+)?API\b|\s+API\b|[^.;]{0,30}?\b(?:has|have|with|exposes?|offers?|gives?)\s+(?:an?\s+|its\s+)?(?:open\s+|rest\s+|public\s+)?API\b)/i;
/** The kind of system a product is, said beside its name: "Arbor (our MIS)", "our booking system, Cliniko", "our Dentrix system". */
const SYSTEM =
  '(?:MIS|CRM|ERP|PMS|LMS|ATS|HRIS|HRMS|POS|EHR|EMR|PIM|WMS|TMS|CMS|system|software|app|platform|tool|portal|database|register|till)';
/** A team of the org, not a product: "add them to Marketing", "log it in Finance". */
const DEPARTMENTS =
  /^(?:marketing|sales|finance|support|operations|ops|hr|people|legal|it|engineering|accounts|accounting|admin|reception|management|procurement|payroll|compliance|customer service|customer success|product|design|facilities|security)$/i;
/** A brand's shape: a capital or a digit inside ("ServiceM8", "WooCommerce", "ezyVet") or a web address ("Monday.com"). */
const BRAND = /^(?:[A-Z][a-z0-9]*[A-Z0-9][\w.]*|[a-z]{1,5}[A-Z][\w.]*|[A-Z][\w-]*\.(?:com|io|app|ai|co))$/;
/** Things an org names as its own that are no product: "our Rota", "our Blog", "our Gallery". */
const OWN_THINGS =
  /^(?:rota|roster|blog|gallery|website|site|shop|store|newsletter|wiki|intranet|portal|tracker|register|log|diary|archive|database|spreadsheet|handbook|catalogue|catalog|menu|album|library|directory|schedule|timetable|pipeline|backlog|board|forum|community|app|account|records?|files?|system)$/i;
/** Where a name said as the org's own ends its phrase: a stop, a joining word, or the kind of system it is. */
const OWN_NAME_ENDS = new RegExp(
  String.raw`^(?:\s*(?:[,.;:!?)]|$)|\s+(?:and|so|to|for|or|as|with|when|then|too|if)\b|\s+(?:[\w-]+\s+)?(?:${SYSTEM}|accounts?|dashboard|workspace|instance|admin|back ?office|backend|login)\b)`,
);
/** "add each booking to ServiceM8", "export them to Sage.io": a verb that keeps a thing somewhere, its object, then "to". */
const KEPT_TO = String.raw`\b(?:[Aa]dd|[Uu]pload|[Ss]ync|[Pp]ush|[Ee]xport|[Ii]mport|[Ss]ave|[Ll]og|[Cc]opy|[Ee]nter|[Ss]ubmit|[Aa]ttach)(?:s|ed|ing)?\s+(?:[\w'’-]+\s+){0,4}?to\s+`;
/** "in Personio", "on Monday.com", "via WhatsApp": a name right after where-a-tool-is words. */
const PRODUCT_AFTER = new RegExp(
  String.raw`\b(?:[Ii]n|[Oo]n|[Ii]nto|[Vv]ia|[Uu]sing|[Tt]hrough|[Ww]ithin)\s+(${NAME}(?:\s+${NAME})?)`,
  'g',
);
/** "in our Clio", "from our WooCommerce shop", "in our Ekos keg register": a name the writer calls theirs ("with our Leiterin" is a person). */
const OURS_AFTER = new RegExp(
  String.raw`\b(?:[Ii]n|[Oo]n|[Ii]nto|[Vv]ia|[Uu]sing|[Tt]hrough|[Ww]ithin|[Ff]rom)\s+(?:our|their|my|your)\s+(${NAME})`,
  'g',
);
/**
 * "our Clio account", "our Ekos keg register": a lowercase word after the name, that is no kind of thing of the org's
 * own ("our Platinum tier", "our Deliveries album"; a second capital, "our Waiting List", is a title, not a product).
 */
const OWN_NAME_THEN_WORD =
  /^\s+(?!(?:tiers?|levels?|plans?|albums?|lists?|rolls?|ledgers?|areas?|campaigns?|sections?|boards?|members?|customers?|clients?|staff|team|group|events?|days?|nights?|week|range|menu|collection|package|bundle|offer|deal|scheme|programme|program|club|rate|price|prices)\b)[a-z][\w-]*\b/;
/** "add each booking to ServiceM8", "export them to our Sage.": a thing kept in a name (the org's own or not). */
const KEPT_IN = new RegExp(String.raw`${KEPT_TO}(?:(?:our|their|my|your)\s+)?(${NAME})`, 'g');
/** "Whenever Typeform gets a new response", "when Jotform fires": a name as what does a product's event (not a person's). */
const NAME_DOES = new RegExp(
  String.raw`\b(?:[Ww]hen(?:ever)?|[Oo]nce|[Ii]f|[Ee]ach time|[Ee]very time|[Aa]fter|[Aa]s soon as)\s+(${NAME})\s+(?:(?:gets|receives|records|logs|captures|collects)\s+(?:a|an|another)\s+(?:new\s+)?(?:responses?|submissions?|entr(?:y|ies)|form|sign-?ups?|orders?|bookings?|reviews?|ratings?)|fires|syncs|notifies (?:us|you)|pings (?:us|you)|flags)\b`,
  'g',
);
/** "Arbor (our MIS)", "Cliniko (the booking system)": a name, and the kind of system it is in brackets after it. */
const NAME_THEN_SYSTEM = new RegExp(
  String.raw`\b(${NAME})\s*\((?:it['’]?s\s+|which is\s+)?(?:our|the|their|a|an)\s+(?:[\w-]+\s+){0,3}${SYSTEM}s?\)`,
  'g',
);
/** "our MIS (Arbor)", "our booking system, Cliniko,", "our practice software called Dentally", "our Dentrix system". */
const SYSTEM_THEN_NAME = new RegExp(
  String.raw`\b(?:our|their|the)\s+(?:[\w-]+\s+){0,2}${SYSTEM}\s*(?:\(\s*|,\s*|\s+(?:called|named)\s+|\s+[-–—]\s+)(${NAME})|\b(?:[Oo]ur|[Tt]heir)\s+(${NAME})\s+(?:[\w-]+\s+)?${SYSTEM}\b`,
  'g',
);

/** A product called by a short name where a tool goes: "in Teams" is Microsoft Teams. */
const SHORT_NAMES: Readonly<Record<string, string>> = { teams: 'microsoft-teams' };

/**
 * Products a text names that no list knows ("log it in Personio", "post it on WhatsApp", "check Arbor (our MIS)"): a
 * name where a tool goes or beside the kind of system it is, that names no container of another product ("in our
 * Intake calendar"), that compromise does not read as a place, a person or a date, that is not a language and not a
 * word `known` as the catalog's vocabulary ("in Calendar"). Their ids are the name in lower case, words joined by '-',
 * or the product a short name is for ("in Teams" is `microsoft-teams`).
 */
export function unknownProductsIn(text: string, known: (word: string) => boolean = () => false): ProviderMention[] {
  const out: ProviderMention[] = [];
  const named = providersIn(text);
  const after = (m: RegExpMatchArray) => text.slice((m.index ?? 0) + m[0].length);
  const found = [
    ...[...text.matchAll(PRODUCT_AFTER)].map((m) => ({ m, name: m[1] ?? '', contained: true })),
    // (the org's own, by its name's shape or where it ends: not "our Rota", "our Waiting List", "our Spring Campaign")
    ...[...text.matchAll(OURS_AFTER)]
      .filter(
        (m) =>
          BRAND.test(m[1] ?? '') ||
          (!OWN_THINGS.test(m[1] ?? '') && (OWN_NAME_ENDS.test(after(m)) || OWN_NAME_THEN_WORD.test(after(m)))),
      )
      .map((m) => ({ m, name: m[1] ?? '', contained: true })),
    // (shaped as a brand, or one word that ends its phrase: not "to Harbour House's calendar", "to our Spring Campaign")
    ...[...text.matchAll(KEPT_IN)]
      .filter(
        (m) =>
          !/^['’]s\b/.test(after(m)) &&
          (BRAND.test(m[1] ?? '') || (!OWN_THINGS.test(m[1] ?? '') && OWN_NAME_ENDS.test(after(m)))),
      )
      .map((m) => ({ m, name: m[1] ?? '', contained: true })),
    ...[...text.matchAll(NAME_THEN_SYSTEM), ...text.matchAll(SYSTEM_THEN_NAME), ...text.matchAll(NAME_DOES)].map((m) => ({
      m,
      name: m[1] ?? m[2] ?? '',
      contained: false,
    })),
  ];
  for (const { m, name, contained } of found) {
    const index = (m.index ?? 0) + (contained ? m[0].lastIndexOf(name) : m[0].indexOf(name));
    if (!name || out.some((o) => o.index === index || (o.index <= index && index < o.index + o.name.length))) continue;
    if (named.some((p) => p.index <= index && index < p.index + p.name.length + 1)) continue;
    if (contained && CONTAINER.test(text.slice(index + name.length))) continue;
    if (HAS_API.test(text.slice(index + name.length))) continue;
    // ("on the shared drive in Inspections/Incoming": a part of a path is a folder, no product)
    if (text.charAt(index + name.length) === '/' || text.charAt(index - 1) === '/') continue;
    const first = name.split(/\s+/)[0] ?? '';
    if (LANGUAGES.has(first.toLowerCase()) || CALENDAR_WORDS.test(first) || DEPARTMENTS.test(name) || known(first.toLowerCase()))
      continue;
    const tags = (nlp(name).json() as Array<{ terms: { tags: string[] }[] }>).flatMap((s) => s.terms.flatMap((t) => t.tags));
    if (tags.some((t) => t === 'Place' || t === 'Person' || t === 'Date' || t === 'Value')) continue;
    // ("add a line to CHANGELOG.md", "attach invoice.pdf": a file's name is no product)
    if (/\.(?:md|txt|pdf|csv|json|ya?ml|xlsx?|docx?|pptx?|png|jpe?g|zip|html?|ts|js|py)$/i.test(name)) continue;
    const id = name
      .toLowerCase()
      .replace(/\.(com|io|app|ai)$/, '')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    if (id.length >= 2) out.push({ providerId: SHORT_NAMES[id] ?? id, name: name.toLowerCase(), index, weak: false });
  }
  return out.sort((a, b) => a.index - b.index);
}

/** Verbs of the catalog's vocabulary an object can name as its action ("refund requests", "invoicing"). */
const ACTION_NOUNS = new Set(
  Object.values(capabilityVocabulary)
    .flatMap((v) => v.verbs)
    .filter((v) => !v.includes(' ') && !['request', 'ask', 'check', 'get', 'make', 'set', 'note', 'change', 'need'].includes(v)),
);
export const namesAction = (object: string): boolean =>
  tokenize(object).some((t) => lemmas(t.lower).some((l) => ACTION_NOUNS.has(l)));
