import { CALENDAR_ITEM, DATED_ITEM, NUMBER_WORDS } from './lexicon';

// Recurring times in plain English → five-field cron expressions.

const DAY_NAMES = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
/** A weekday's name, as a regular expression. */
export const DAY = '(?:mon|tues|wednes|thurs|fri|satur|sun)day';
const NUM = `(?:\\d+|${Object.keys(NUMBER_WORDS)
  .filter((w) => w.length > 2)
  .join('|')})`;
const UNIT = '(?:minutes?|mins?|hours?|hrs?|days?|weeks?|months?)';
const PERIOD =
  '(?:day|weekday|workday|working day|business day|school day|morning|afternoon|evening|night|week|month|quarter|year|hour|minute)';

/** A weekday, by its name or its short form: "Saturday", "sat", "Thurs.". */
export const ANY_DAY = `(?:${DAY}|mon|tue|tues|wed|weds|thu|thur|thurs|fri|sat|sun)`;
/** A run of weekdays: "Mon–Fri", "monday to thursday", "Tue-Sat". */
const DAY_RANGE = `\\b(${ANY_DAY})\\.?\\s*(?:-|–|—|to|through|thru|till|until)\\s*(${ANY_DAY})\\b`;
/** A clock time, whole: "10", "10pm", "9:30", "7.45 a.m.". */
const A_TIME = '\\d{1,2}(?:[:.]\\d\\d)?(?:\\s*[ap]\\.?m\\.?)?(?![\\w:])';
/** The singular weekday with a time of day that RECURRING reads as weekly: a weaker sign than "every Monday". */
export const ONE_WEEKDAY = new RegExp(
  `^(?:on\\s+)?${DAY}\\s+(?:(?:morning|afternoon|evening|night)\\s*,?\\s*)?(?:at|around|by|from)\\s`,
  'i',
);
/** A time of day right after: "3pm", "at 9", "9:30". */
const AT_A_TIME = '(?=\\s*,?\\s*(?:at\\s+)?\\d{1,2}(?::\\d\\d|\\s*[ap]\\.?m\\b|\\b))';

/** "first Monday of each month", "last Friday of the month": which weekday of the month (ordinal, day). */
const NTH_WEEKDAY_OF_MONTH = new RegExp(
  `\\b(first|second|third|fourth|last|1st|2nd|3rd|4th)\\s+(${DAY})\\s+(?:of|in)\\s+(?:each|every|the)\\s+month\\b`,
);
/** A weekday of given months or of every quarter: "the first Monday of January, April, July and October". */
const NTH_WEEKDAY_OF_MONTHS = new RegExp(
  `\\b(first|second|third|fourth|last|1st|2nd|3rd|4th)\\s+(${DAY})\\s+(?:of|in)\\s+(?:(?:each|every|the)\\s+(quarter)|((?:january|february|march|april|may|june|july|august|september|october|november|december)(?:\\s*(?:,|and|&)\\s*(?:and\\s+)?(?:january|february|march|april|may|june|july|august|september|october|november|december))*))\\b`,
  'i',
);
/** Croner's `#` for each ordinal: `1#1` is a month's first Monday, `5#L` its last Friday. */
const NTH = {
  first: '1',
  '1st': '1',
  second: '2',
  '2nd': '2',
  third: '3',
  '3rd': '3',
  fourth: '4',
  '4th': '4',
  last: 'L',
} as const;

const MONTH = '(?:january|february|march|april|may|june|july|august|september|october|november|december)';
/** A day of a month: "the 1st of October", "1 March", "January 15th", "the last day of June". */
export const DAY_OF_YEAR = `(?:(?:the\\s+)?(?:\\d{1,2}(?:st|nd|rd|th)?|first|last)\\s+(?:day\\s+)?(?:of\\s+)?${MONTH}|${MONTH}\\s+\\d{1,2}(?:st|nd|rd|th)?)\\b`;

/** More days of the month after the first: ", 10th and 20th", " and the 15th". */
export const MORE_MONTH_DAYS = String.raw`(?:\s*(?:,|and|&)\s*(?:the\s+)?\d{1,2}(?:st|nd|rd|th))`;
/** Days of the month listed: "on the 1st and 15th", "every 1st and the 15th", "each 10th, 20th and 30th". */
const MONTH_DAYS_LISTED = new RegExp(
  String.raw`(?:on\s+the|every|each)\s+(\d{1,2})(?:st|nd|rd|th)(${MORE_MONTH_DAYS}+)(?:\s+of\s+(?:the|each|every)\s+month)?\b(?!\s+(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|of\b))`,
  'i',
);

/**
 * How often in each period: "twice a day", "two times per week", "3x daily", "three times a month" — the count
 * (`once`, `twice`, `thrice`, or a number with "times" or "x") and the period (a day, week or month, or its
 * adverb).
 */
const TIMES_PER = new RegExp(
  // (not a limit: "follow up at most 2 times a week")
  `(?<!\\b(?:at most|no more than|more than|not more than|max|maximum|up to|fewer than|less than)\\s+)\\b(once|twice|thrice|${NUM}\\s*(?:times|x))\\s+(?:(?:a|per|every|each)\\s+(day|week|month)|(daily|weekly|monthly))\\b`,
  'i',
);

/** The count and period TIMES_PER says: "two times per week" → 2 a week. */
function timesPer(t: string): { n: number; period: 'day' | 'week' | 'month' } | null {
  const m = TIMES_PER.exec(t);
  if (!m?.[1]) return null;
  const word = m[1].toLowerCase().replace(/\s*(?:times|x)$/, '');
  const n = word === 'once' ? 1 : word === 'twice' ? 2 : word === 'thrice' ? 3 : toNumber(word);
  const period = (m[2] ?? m[3] ?? 'day').toLowerCase().replace(/ly$/, '').replace(/^dai$/, 'day');
  return { n, period: period as 'day' | 'week' | 'month' };
}

/**
 * `n` of the `from`..`to` span, spread evenly and first and last at its ends: 2 of 9..17 → 9,17; 3 → 9,13,17. A
 * count at or above the span's size takes every one.
 */
function spread(n: number, from: number, to: number): number[] {
  if (n <= 1) return [from];
  if (n > to - from) return Array.from({ length: to - from + 1 }, (_, i) => from + i);
  return [...new Set(Array.from({ length: n }, (_, i) => Math.round(from + (i * (to - from)) / (n - 1))))];
}

/** The weekdays and the days of the month a count a week or a month falls on, unless they are said. */
const TIMES_A_WEEK_OR_MONTH = {
  2: ['1,4', '1,15'],
  3: ['1,3,5', '1,10,20'],
  4: ['1,2,4,5', '1,8,15,22'],
  5: ['1-5', '1,8,15,22'],
  6: ['1-6', '1,8,15,22'],
  7: ['*', '1,8,15,22'],
} as const;

const RECURRING = new RegExp(
  [
    `\\b(?:every|each)\\s+(?:other\\s+|single\\s+)?(?:${PERIOD}|${DAY}|${NUM}\\s+${UNIT})s?\\b`,
    // "every second Monday": that weekday (a fortnight's rhythm is asked about, not guessed)
    `\\b(?:every|each)\\s+(?:second|alternate)\\s+${DAY}\\b`,
    // "every sat at 5pm": a weekday's short form after every
    `\\b(?:every|each)\\s+(?:other\\s+)?${ANY_DAY}\\b`,
    // "Mon–Fri at 9:30 pm", "Fridays 3pm", "weekdays at 7": days that recur, with a time
    `${DAY_RANGE}`,
    `\\b(?:${DAY}s|weekdays|workdays|weeknights|weekends)\\b${AT_A_TIME}`,
    // (not a sum or a plan that recurs: "the monthly retainer", "a weekly fee", "weekly active users")
    '\\b(?:daily|weekly|monthly|quarterly|hourly|nightly|annually|yearly|fortnightly|bi-?weekly|bi-?monthly)\\b(?!\\s+(?:retainers?|fees?|rent|subscriptions?|plans?|payments?|budgets?|salary|salaries|amounts?|totals?|limits?|caps?|targets?|quotas?|prices?|rates?|costs?|spend|allowances?|active|users|volumes?|revenue|income|instal?ments?)\\b)',
    // "twice a day", "two times per week", "3x daily": a count in each period
    TIMES_PER.source,
    `\\b(?:once|twice|thrice|${NUM}\\s*times)\\s+(?:a|per|every)\\s+(?:quarter|year)\\b`,
    `\\bon\\s+(?:${DAY}s|weekdays|weekends)\\b`,
    // one weekday with a time of day: "on Thursday evening around 7", "Monday morning at 8", "on Friday at
    // 4pm" — a duty's day of the week, not a date (a weekday's morning alone may be one: "On Monday morning, …")
    `\\b(?:on\\s+)?${DAY}\\s+(?:morning|afternoon|evening|night)\\s*,?\\s*(?:at|around|by|from)\\s+${A_TIME}`,
    `\\bon\\s+${DAY}\\s+(?:at|around|by)\\s+${A_TIME}`,
    // a weekday naming a thing made each week, after "a", "an" or "my": "a Monday list of …", "a Friday recap", "a Monday
    // morning email to me" (not "the Monday meeting", "the Tuesday update emails from clients" or "the Monday list …
    // every Sunday": things named by their day)
    `(?<=\\b(?:a|an|my)\\s+)${DAY}(?:\\s+(?:morning|afternoon|evening|night))?(?=\\s+(?:list|recap|summary|digest|report|round-?up|update|e-?mail|reminder|message|post|briefing|overview|rundown|newsletter|text|sms|check-?in|nudge|wrap-?up)\\b)`,
    // a part of the day, said in the plural, recurs: "Friday afternoons", "on weekday mornings", "Tuesday and Thursday evenings"
    `\\b(?:on\\s+)?(?:(?:${DAY}|weekday|weekend)s?\\s*(?:,|and|&|or)\\s*)*(?:${DAY}|weekday|weekend)s?\\s+(?:mornings|afternoons|evenings|nights)\\b`,
    `\\b(?:at|by)\\s+the\\s+(?:start|end|beginning|close)\\s+of\\s+(?:the\\s+|each\\s+|every\\s+)?(?:day|week|month|quarter|year)\\b`,
    `\\bon\\s+the\\s+(?:first|last|second|third|\\d+(?:st|nd|rd|th)?)\\s+(?:(?:working|business)\\s+)?(?:day|${DAY})?\\s*of\\s+(?:each|every|the)\\s+(?:month|quarter|year)\\b`,
    // ("Last business day of the month, 4 PM:", "1st of each month 7am …": said first, before its comma, colon or time —
    // not "The 15th of the month is payday")
    `^(?:the\\s+)?(?:first|last|second|third|\\d+(?:st|nd|rd|th)?)\\s+(?:(?:working|business)\\s+)?(?:day|${DAY})?\\s*of\\s+(?:each|every|the)\\s+(?:month|quarter|year)\\b(?=\\s*(?:[,:|→]|->|\\d|at\\b|by\\b|around\\b))`,
    '\\b(?:end|start) of (?:each|every) (?:day|week|month|quarter)\\b',
    // "on the 1st and 15th", "every 1st and the 15th": days of the month listed come round each month
    `\\b${MONTH_DAYS_LISTED.source}`,
    // "the first Monday of each month", "every last Friday of the month": a weekday of the month
    `\\b(?:(?:the|every|each)\\s+)?${NTH_WEEKDAY_OF_MONTH.source}`,
    // "on the first Monday of January, April, July and October", "the last Friday of every quarter"
    `\\b(?:(?:on\\s+)?(?:the|every|each)\\s+)?${NTH_WEEKDAY_OF_MONTHS.source}`,
    // "On the 1st of October, …", "If it's 1 March …", "Every January 15th": a day of the year that opens the
    // duty comes round each year (a date in a duty, or one with its year, is no schedule)
    // (one that bounds a season, "1 June – 31 August: …", or says what happened that day, "On the 3rd of March we
    // had a flood", is none: the day is followed by its duty's comma, "each year", "then", a time or a colon)
    `^(?:(?:if|when|once)\\s+it(?:['’]s|\\s+is)\\s+|on\\s+|every\\s+|each\\s+)?${DAY_OF_YEAR}(?:\\s*(?:,|and|&)\\s*(?:and\\s+)?${MONTH}\\b)*(?!,?\\s*\\d{4})(?!\\s*(?:,|[-–—]|to|until|till|through|thru)\\s*\\d{1,2}\\b)(?=\\s*(?:$|,|:|\\s(?:each|every)\\s+year\\b|\\s(?:then|THEN)\\s|\\s(?:at|by)\\s+\\d))`,
  ].join('|'),
  'i',
);

const RELATIVE = new RegExp(
  [
    // ("no food for 2 hours before swimming": how long, not when)
    // (nor "if it's more than 7 days before drop-off": a condition on how far off)
    `(?<!\\b(?:for|more than|less than|at least|at most|within|over|under|up to|no later than)\\s)\\b(?:${NUM}|a|an|the)\\s+(?:${UNIT}|day|week|morning|evening)\\s+(?:after|before|prior to|following|ahead of)\\b`,
    '\\bthe (?:day|week|morning|evening) (?:after|before|following)\\b',
    "\\bon (?:their|his|her|the [\\w-]+'s|the) (?:first|last|final|start|end|official) (?:day|date|working day|week)\\b",
    "\\bon (?:their|his|her|each|every|the) (?:[\\w-]+'s )?(?:birthday|(?:work )?anniversary|start date|end date|renewal date|due date)\\b",
  ].join('|'),
  'i',
);

/** The hours or days a schedule keeps, said before it: "Business hours only (Mon–Fri 8:00–18:00), every 30 min: …". */
export const HOURS_FIRST =
  /^(?:(?:during|in|within|on)\s+)?(?:(?:business|office|working|opening)\s+hours|weekdays|workdays)(?:\s+only)?\s*(?:\([^)]{0,40}\))?\s*,\s*/i;

/**
 * A time of day said before the schedule it belongs to: "At 7:30 every evening", "9am each Monday", "5:30, Monday
 * to Friday", "Noon on Fridays" — only before a word that says when it recurs.
 */
export const CLOCK_FIRST = new RegExp(
  String.raw`^(?:(?:at|around|about|by)\s+)?(?:\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?|noon|midday|midnight|(?:the\s+)?(?:close|end) of (?:business|trading|play|(?:the\s+)?(?:work(?:ing)?\s*)?day)\s*\(\s*\d{1,2}(?:[:.]\d\d)?\s*(?:[ap]\.?m\.?)?\s*\))\s*,?\s+(?=(?:on\s+)?(?:every|each|daily|weekly|weekdays|weekends|${ANY_DAY}s?|the\s+(?:first|last|second|third|fourth|\d{1,2}(?:st|nd|rd|th))\b)\b)`,
  'i',
);

/** A day of the year, as a schedule found says it: "On the 1st of October", "If it's 1 March". */
export const isDayOfYear = (said: string): boolean => new RegExp(DAY_OF_YEAR, 'i').test(said) && !RELATIVE.test(said);

/** A recurring time ("every Monday at 9am") or a date relative to a record ("thirty days after their start date"). */
export function findSchedule(text: string): { text: string; index: number; relative: boolean; weak?: boolean } | null {
  const r = RECURRING.exec(text);
  const rel = RELATIVE.exec(text);
  if (r && (!rel || r.index <= rel.index))
    return { text: r[0], index: r.index, relative: false, ...(ONE_WEEKDAY.test(r[0]) ? { weak: true } : {}) };
  if (rel) return { text: rel[0], index: rel.index, relative: true };
  return null;
}

/** A clock time said right before a schedule: "at 9:30 every morning", "at 7pm each Friday". */
const CLOCK_RIGHT_BEFORE = /\b((?:at|by|around)\s+(?:\d{1,2}(?:[:.]\d\d)?(?:\s*[ap]\.?m\.?)?|noon|midday|midnight))\s*,?\s*$/i;
/** … or last in the sentence after a noun: "a daily recap in #sales at 5pm" (not "the office closes at 5pm"). */
const CLOCK_LAST =
  /(?<!\b(?:closes?|opens?|starts?|ends?|shuts?|begins?|finish(?:es)?|arrives?|leaves?|departs?|is|are|was|were|due|ready|back|home|here|there)\s)\b((?:at|by|around)\s+\d{1,2}(?:[:.]\d\d)?(?:\s*[ap]\.?m\.?)?)\s*[.!]?\s*$/i;
/** … or right after it: "daily at 5pm", "every weekday at 9:30" (not "at 48 hours"). */
const CLOCK_RIGHT_AFTER =
  /^\s*,?\s*((?:at|by|around)\s+(?:\d{1,2}(?:[:.]\d\d)?(?:\s*[ap]\.?m\.?)?|noon|midday|midnight))(?![\w:])(?!\s*(?:%|days?|hours?|hrs?|minutes?|mins?|weeks?))/i;

/** The part of the day right after a run of days: "every Friday afternoon", "each Monday morning". */
export const PART_OF_DAY_RIGHT_AFTER = /^\s+(morning|afternoon|evening|night|lunchtime)\b/i;

/**
 * A recurring time found in a duty, with the time of day and the run of days the same sentence says apart from it:
 * "post the day's appointments in #studio at 9:30 every morning we're open (Tue–Sat)" → "every morning at 9:30
 * Tue–Sat". Pure.
 */
export function scheduleSaid(text: string, found: { text: string; index: number; relative: boolean }): string {
  if (found.relative) return found.text;
  // (only right before it, "at 9:30 every morning": a time said elsewhere is the content's, "the 7am walk")
  const before = text.slice(0, found.index);
  const after = text.slice(found.index + found.text.length);
  const clock = timeOfDay(found.text.toLowerCase())?.explicit
    ? null
    : (CLOCK_RIGHT_BEFORE.exec(before) ?? CLOCK_RIGHT_AFTER.exec(after) ?? CLOCK_LAST.exec(after));
  // ("every Friday afternoon": the part of the day said right after the days, when no clock says the hour)
  const part = clock || timeOfDay(found.text.toLowerCase()) ? null : PART_OF_DAY_RIGHT_AFTER.exec(after);
  // (only in brackets: "we're open (Tue–Sat)"; "we're open Thu–Sun" says when someone is there)
  const days = daysOfWeek(found.text) ? null : new RegExp(`\\(\\s*${DAY_RANGE}\\s*\\)`, 'i').exec(text);
  return [found.text, clock?.[1] ?? part?.[1], days?.[0].replace(/[()]/g, '').trim()].filter(Boolean).join(' ');
}

const BEFORE_ITEM = new RegExp(
  `(?:\\b(${NUM}|the|a|an|one|half an)\\s+|^)(minutes?|mins?|hours?|hrs?|days?|nights?|evenings?|afternoons?|mornings?|weeks?)\\s+(?:before|ahead of|prior to)\\s+${DATED_ITEM}`,
  'i',
);

/** "an event on the "Bookings" calendar is 48 hours away": how near a dated item is, said after it */
const ITEM_AWAY = new RegExp(
  `\\b${CALENDAR_ITEM}\\b[^.;:!?]{0,60}?\\b(?:is|are)\\s+(${NUM}|an?|one|half an)\\s+(minutes?|mins?|hours?|hrs?|days?|weeks?)\\s+away\\b`,
  'i',
);

const MORNING_OF_ITEM = new RegExp(`\\b(?:on\\s+)?the\\s+(?:morning|day)\\s+of\\s+${CALENDAR_ITEM}`, 'i');

/** True when a relative time is anchored on a calendar event ("an hour before the demo"). */
export function beforeMeeting(text: string): { minutes: number; index: number; phrase: string } | null {
  // "on the morning of their appointment": early that day, three hours before as a default
  const sameDay = MORNING_OF_ITEM.exec(text);
  const m = BEFORE_ITEM.exec(text) ?? ITEM_AWAY.exec(text);
  // ("On the day of each visit, about an hour before the tour starts": the hour says when on that day)
  const closer =
    sameDay &&
    m &&
    m.index > sameDay.index &&
    /^\s*,?\s*(?:about|around|roughly|some)?\s*$/i.test(text.slice(sameDay.index + sameDay[0].length, m.index));
  if (sameDay && (!m || sameDay.index < m.index) && !closer) return { minutes: 180, index: sameDay.index, phrase: sameDay[0] };
  if (!m) return null;
  // "if it's more than 7 days before drop-off": how far ahead, a condition (not "at least 24 hours before …")
  if (
    /\b(?:if|when|unless|whether)\s+(?:it|they|there)(?:['’]s|['’]re|\s+is|\s+are)\s+(?:more|less|fewer)\s+than\s*$/i.test(
      text.slice(0, m.index),
    )
  )
    return null;
  const unit = (m[2] ?? 'minute').toLowerCase();
  // "the day before", "the night before": a day ahead; "a week before": seven
  const n = m[1] === 'half an' ? 0.5 : /^(the|a|an|one)$/i.test(m[1] ?? '') ? 1 : toNumber(m[1] ?? '1');
  const perUnit = unit.startsWith('h') ? 60 : unit.startsWith('w') ? 10_080 : unit.startsWith('mi') ? 1 : 1_440;
  const minutes = Math.min(Math.round(n * perUnit), 10_080);
  if (closer && sameDay) return { minutes, index: sameDay.index, phrase: text.slice(sameDay.index, m.index + m[0].length) };
  return { minutes, index: m.index, phrase: m[0] };
}

/** A count written as digits or a word ("14", "two"), 1 when it is neither. */
export const toNumber = (w: string): number => {
  const n = Number(w);
  return Number.isFinite(n) ? n : (NUMBER_WORDS[w.toLowerCase()] ?? 1);
};

/** Zone abbreviations count only right after a time ("9am ET"); city names only as "Paris time". */
const TIMEZONES: ReadonlyArray<readonly [string, string, string]> = [
  ['et|est|edt', 'eastern|new york', 'America/New_York'],
  ['ct|cst|cdt', 'central|chicago', 'America/Chicago'],
  ['mt|mst|mdt', 'mountain|denver', 'America/Denver'],
  ['pt|pst|pdt', 'pacific|los angeles|san francisco', 'America/Los_Angeles'],
  ['utc|gmt', 'utc|gmt', 'UTC'],
  ['cet|cest', 'paris|central european', 'Europe/Paris'],
  ['', 'berlin', 'Europe/Berlin'],
  ['bst', 'uk|london', 'Europe/London'],
  ['ist', 'india|bangalore|mumbai', 'Asia/Kolkata'],
  ['jst', 'tokyo|japan', 'Asia/Tokyo'],
  ['aest|aedt', 'sydney', 'Australia/Sydney'],
  ['sgt', 'singapore', 'Asia/Singapore'],
];

function timezoneIn(text: string): string | undefined {
  const t = text.toLowerCase();
  for (const [abbr, cities, zone] of TIMEZONES) {
    if (abbr && new RegExp(`(?:\\d|[ap]\\.?m\\.?|noon|midnight)\\s*\\(?(?:${abbr})\\b`).test(t)) return zone;
    if (new RegExp(`\\b(?:${cities}) time\\b|\\b(?:${abbr || cities}) time zone\\b`).test(t)) return zone;
  }
  return undefined;
}

export type ParsedSchedule = { expression: string; timezone?: string; confidence: number };

/** A further time of a list after the first: ", 12:00 and 3pm", " and at 15:00" (same minute only: one cron expression). */
const MORE_TIME = /^\s*(?:,\s*(?:and\s+)?|and\s+|&\s*)(?:at\s+)?(\d{1,2})(?:[:.h]([0-5]\d))?\s*(?:([ap])\.?m\.?)?(?![\w:%$])/i;

/** The hours of a list of times that starts with `hour:minute` at `end` of `t` ("at 7am and 3pm" → 7,15). */
function listedHours(t: string, end: number, hour: number, minute: number): string | undefined {
  const hours = [hour];
  let rest = t.slice(end);
  for (let m = MORE_TIME.exec(rest); m; m = MORE_TIME.exec(rest)) {
    let h = Number(m[1]);
    if (m[3]) h = (h % 12) + (m[3].toLowerCase() === 'p' ? 12 : 0);
    else if (m[2] === undefined && h >= 1 && h <= 6) h += 12;
    if (h > 23 || Number(m[2] ?? 0) !== minute) break;
    if (!hours.includes(h)) hours.push(h);
    rest = rest.slice(m[0].length);
  }
  return hours.length > 1 ? hours.sort((a, b) => a - b).join(',') : undefined;
}

/**
 * A clock hour said without am or pm, read with the part of the day said next to it ("Thursday evening
 * around 7" is 19, "at 6 in the morning" is 6, "at 11 at night" 23); with none said, `guess` (the working
 * day's reading). `near` is the words around the hour. Pure.
 */
function withPartOfDay(near: string, hour: number, guess: number): number {
  if (hour < 1 || hour > 12) return guess;
  if (/\bmornings?\b(?!')/i.test(near)) return hour;
  if (/\b(?:afternoons?|evenings?|tonight)\b(?!')/i.test(near) || (/\bnights?\b(?!')/i.test(near) && hour >= 6))
    return (hour % 12) + 12;
  return guess;
}

/** The words around a match: where a part of the day that qualifies its hour is said. */
const around = (t: string, match: RegExpMatchArray): string => {
  const start = match.index ?? 0;
  // ("On Thursday evening, around 7": a comma may part the day from its hour; "at 8, hand over to the night
  // shift": after the hour, a comma ends what qualifies it)
  const before =
    t
      .slice(Math.max(0, start - 24), start)
      .split(/[;.(]/)
      .pop() ?? '';
  const after = t.slice(start + match[0].length, start + match[0].length + 24).split(/[,;.(]/)[0] ?? '';
  return `${before}${match[0]}${after}`;
};

/** An hour said in words, where nothing follows it that it counts: "at about six", "by four o'clock", "at ten, post". */
const WORDED_HOUR =
  /\b((?:at|by|around|about)\s+(?:about\s+|around\s+)?)(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)(?=\s*(?:o'?clock|sharp|-?ish|[ap]\.?m\.?|in the|[,.;:!)]|$|(?:every|each|on|and|to|then|or|at|so|if|when|please)\b))/gi;

function timeOfDay(said: string): { hour: number; minute: number; hours?: string; explicit: boolean } | null {
  // ("at about six" is read as "at about 6": the clock's own rules say which half of the day)
  const t = said.replace(WORDED_HOUR, (_whole, at: string, word: string) => `${at}${NUMBER_WORDS[word.toLowerCase()] ?? word}`);
  const found = (hour: number, minute: number, match: RegExpMatchArray) => {
    const hours = listedHours(t, (match.index ?? 0) + match[0].length, hour, minute);
    return { hour, minute, ...(hours ? { hours } : {}), explicit: true };
  };
  const ampm = t.match(/\b(\d{1,2})(?:[:.](\d{2}))?\s*([ap])\.?m\.?(?![a-z])/i);
  if (ampm) {
    let hour = Number(ampm[1]) % 12;
    if ((ampm[3] ?? '').toLowerCase() === 'p') hour += 12;
    return found(hour, Number(ampm[2] ?? 0), ampm);
  }
  const clock = t.match(/\b([01]?\d|2[0-3])[:.h]([0-5]\d)\b/);
  if (clock) {
    // "at 4:30", "5:30, Monday to Friday": a single-digit hour up to 6 with no am or pm is the afternoon's, as for
    // "at 4"; a 24-hour clock writes the morning's with its zero ("04:30")
    const h = Number(clock[1]);
    const said = (clock[1] ?? '').length === 1 && h >= 1 && h <= 6 && clock[0].includes(':') ? h + 12 : h;
    return found(withPartOfDay(around(t, clock), h, said), Number(clock[2]), clock);
  }
  const at = t.match(
    /\b(?:at|by|around|about)\s+(?:about\s+|around\s+)?(\d{1,2})(?:\s*o'?clock)?\b(?!\s*(?:%|days?|hours?|minutes?|weeks?|[$]))/i,
  );
  if (at) {
    const h = Number(at[1]);
    return found(withPartOfDay(around(t, at), h, h >= 1 && h <= 6 ? h + 12 : h % 24), 0, at);
  }
  if (/\b(noon|midday|lunch ?time)\b/i.test(t)) return { hour: 12, minute: 0, explicit: true };
  if (/\bmidnight\b/i.test(t)) return { hour: 0, minute: 0, explicit: true };
  if (/\b(end of (?:the |each |every |every single )?(work(ing)? ?)?day|eod|close of business|cob)\b/i.test(t))
    return { hour: 17, minute: 0, explicit: true };
  if (/\bmornings?\b/i.test(t)) return { hour: 9, minute: 0, explicit: false };
  if (/\bafternoons?\b/i.test(t)) return { hour: 14, minute: 0, explicit: false };
  if (/\bevenings?\b/i.test(t)) return { hour: 18, minute: 0, explicit: false };
  if (/\b(nights?|nightly|overnight)\b/i.test(t)) return { hour: 22, minute: 0, explicit: false };
  return null;
}

/** A weekday's number (Sunday 0) from its name or short form. */
const dayNumber = (name: string): number => DAY_NAMES.findIndex((d) => d.startsWith(name.toLowerCase().slice(0, 3)));

/** A weekday's full name from its name or short form ("tues" → "tuesday"); the word itself when it is none. */
export const dayName = (name: string): string => DAY_NAMES[dayNumber(name)] ?? name;

function daysOfWeek(t: string): string | null {
  // "Mon–Fri", "tuesday to saturday": a run of days
  const range = new RegExp(DAY_RANGE, 'i').exec(t);
  if (range?.[1] && range[2] && !/\bof (each|every|the)\b/i.test(t)) {
    const from = dayNumber(range[1]);
    const to = dayNumber(range[2]);
    if (from >= 0 && to >= 0 && from !== to)
      return from < to ? `${from}-${to}` : `${from === 6 ? '6' : `${from}-6`},${to === 0 ? '0' : `0-${to}`}`;
  }
  if (
    /\b(weekdays?|workdays?|working days?|business days?|school days?|monday (to|through|-) friday|mon-fri)\b/i.test(t) &&
    !/\bof (each|every|the)\b/i.test(t)
  )
    return '1-5';
  if (/\bweekends?\b/i.test(t)) return '0,6';
  const found: number[] = [];
  DAY_NAMES.forEach((d, i) => {
    if (new RegExp(`\\b${d}s?\\b|\\b${d.slice(0, 3)}\\b`, 'i').test(t)) found.push(i);
  });
  return found.length ? found.join(',') : null;
}

/** Days in each month, February as in most years. */
const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const MONTH_NAMES = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
] as const;

/**
 * The months a schedule names with a day of theirs ("the first day of February, May, August and November",
 * "every January 1st"), as a cron month list; null when it names none that way. "May" counts only beside
 * another month (it is also a verb).
 */
function monthsIn(t: string): string | null {
  // the day tied to the months: "the first day of February, May …", "the 15th of March", "every January 1st", "1 March"
  const dayOf = new RegExp(
    `\\b(?:first|last|\\d{1,2}(?:st|nd|rd|th)?)(?: (?:day|working day|business day))? of ${MONTH}\\b|\\b${DAY_OF_YEAR}`,
  );
  // a date that bounds another schedule is no schedule of its own: "every weekday from Sep 1st to June 30th"
  if (!dayOf.test(t) || /\b(?:from|until|till|through|thru|starting|to|before|after|by)\s+(?:the\s+)?(?:\d|[a-z]+ \d)/.test(t))
    return null;
  if (
    /\b(?:every|each)\s+(?:day|weekday|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b|\bdaily\b|\bweekly\b/.test(
      t,
    )
  )
    return null;
  const found = MONTH_NAMES.map((m, i) => (new RegExp(`\\b${m}\\b`).test(t) ? i + 1 : 0)).filter((n) => n > 0);
  // ("May" alone may be the verb; tied to a day of its own it is the month: "the 1st of May", "May 5th")
  const mayDated = /\b(?:\d{1,2}(?:st|nd|rd|th)?|first|last)\s+(?:day\s+)?(?:of\s+)?may\b|\bmay\s+\d{1,2}(?:st|nd|rd|th)?\b/.test(
    t,
  );
  const others = found.filter((n) => n !== 5 || mayDated);
  if (others.length === 0) return null;
  return found.join(',');
}

/** The day of the month a yearly date names: "the 15th of March", "15 March", "March 15" (ordinal or not). */
function dayOfMonth(t: string): number | undefined {
  const m =
    t.match(/\b(\d{1,2})(?:st|nd|rd|th)\b/) ??
    t.match(new RegExp(`\\b(\\d{1,2})\\s+(?:of\\s+)?${MONTH}\\b`)) ??
    t.match(new RegExp(`\\b${MONTH}\\s+(\\d{1,2})\\b`));
  return m?.[1] ? Number(m[1]) : undefined;
}

/** The hours of a day a schedule says it runs between: "from 8 to 4", "between 6am and 10pm", "6am–10pm". */
export const HOUR_SPAN =
  /\b(?:from|between)?\s*(?<![\d:])(\d{1,2})(?::\d\d)?\s*([ap]\.?m\.?)?\s*(?:-|–|—|to|till|until|and)\s*(\d{1,2})(?::\d\d)?\s*([ap]\.?m\.?)?(?![\d:])/i;

/**
 * The first and last hour a schedule says it runs between: "from 8 to 4" 8 and 16 (an end before its start
 * is in the afternoon), "8:00–18:00" 8 and 18, "during business hours" 9 and 17; undefined when none is said.
 */
function hoursBetween(t: string): { from: number; to: number } | undefined {
  const m = HOUR_SPAN.exec(t.replace(/\b(?:every|each) hour\b|\bhourly\b/, ''));
  if (!m?.[1] || !m[3] || !/\b(?:from|between)\b|[ap]\.?m|\d:\d\d\s*\S{1,5}\s*\d{1,2}:\d\d/i.test(m[0]))
    return BUSINESS_HOURS.test(t) ? { from: 9, to: 17 } : undefined;
  const hourOf = (n: string, ampm: string | undefined): number => {
    const h = Number(n) % 12;
    return ampm?.toLowerCase().startsWith('p') ? h + 12 : ampm ? h : Number(n);
  };
  const from = hourOf(m[1], m[2] ?? (m[4]?.toLowerCase().startsWith('a') ? m[4] : undefined));
  let to = hourOf(m[3], m[4]);
  if (!m[4] && to <= from && to < 12) to += 12;
  return from < to && to <= 23 ? { from, to } : undefined;
}

/**
 * Said of the hours a schedule runs in: "in business hours", "during office hours", "working hours only" — not
 * "outside business hours" or "after office hours", which are the other hours (no bound is guessed for those).
 */
const BUSINESS_HOURS =
  /(?<!\b(?:outside|after|out of|beyond|before|outwith)\s+(?:of\s+)?(?:[\w-]+\s+){0,2})\b(?:business|office|working) hours\b/;

/** Parses a schedule in plain English into a cron expression; null when the text has no schedule in it. */
export function parseSchedule(text: string): ParsedSchedule | null {
  const t = text.toLowerCase();
  const found = findSchedule(t);
  const time = timeOfDay(t);
  const dow = daysOfWeek(t);
  if (!found && !time && !dow) return null;
  const timezone = timezoneIn(text);
  const tz = timezone ? { timezone } : {};
  const hour = time?.hours ?? String(time?.hour ?? 9);
  const minute = String(time?.minute ?? 0);
  let confidence = time?.explicit ? 0.9 : 0.75;

  const minutes = t.match(new RegExp(`\\bevery\\s+(${NUM})\\s+(?:minutes?|mins?)\\b`));
  const workdays = BUSINESS_HOURS.test(t) ? '1-5' : '*';
  const between = hoursBetween(t);
  // a schedule every few minutes "from 8:00 to 18:00" last runs in the hour before the end ("8-17"); an hourly one
  // runs at the end hour too ("from 8 to 4": "8-16")
  const minuteHours = between && (between.to - 1 > between.from ? `${between.from}-${between.to - 1}` : `${between.from}`);
  if (minutes)
    return {
      expression: `*/${toNumber(minutes[1] ?? '15')} ${minuteHours ?? '*'} * * ${dow ?? workdays}`,
      confidence: 0.9,
      ...tz,
    };
  const hours = t.match(new RegExp(`\\bevery\\s+(${NUM})\\s+(?:hours?|hrs?)\\b`));
  const span = between && `${between.from}-${between.to}`;
  if (hours)
    return { expression: `0 ${span ?? '*'}/${toNumber(hours[1] ?? '1')} * * ${dow ?? workdays}`, confidence: 0.9, ...tz };
  if (/\b(hourly|every hour)\b/.test(t)) return { expression: `0 ${span ?? '*'} * * ${dow ?? workdays}`, confidence: 0.9, ...tz };
  if (/\b(?:every|each) minute\b/.test(t)) return { expression: `* * * * ${dow ?? '*'}`, confidence: 0.9, ...tz };

  // "twice a day" (at 9 and 17 unless its times are said), "three times a week" (Monday, Wednesday, Friday unless its
  // days are said), "twice a month" (the 1st and 15th)
  const count = timesPer(t);
  if (count && count.n > 1) {
    const confident = { confidence: time?.explicit || dow ? 0.85 : 0.7, ...tz };
    if (count.period === 'day') {
      const hours = time?.explicit ? hour : spread(count.n, between?.from ?? 9, between?.to ?? 17).join(',');
      return { expression: `${minute} ${hours} * * ${dow ?? workdays}`, ...confident };
    }
    const [days, monthDays] = TIMES_A_WEEK_OR_MONTH[Math.min(count.n, 7) as keyof typeof TIMES_A_WEEK_OR_MONTH];
    if (count.period === 'week') return { expression: `${minute} ${hour} * * ${dow ?? days}`, ...confident };
    return { expression: `${minute} ${hour} ${monthDays} * *`, ...confident };
  }

  // "the first Monday of January, April, July and October" (or "of every quarter"): that weekday of those months
  const nthOf = t.match(NTH_WEEKDAY_OF_MONTHS);
  if (nthOf?.[1] && nthOf[2]) {
    const months = nthOf[3]
      ? '1,4,7,10'
      : MONTH_NAMES.map((m, i) => (new RegExp(`\\b${m}\\b`).test(nthOf[4] ?? '') ? i + 1 : 0))
          .filter((n) => n > 0)
          .join(',');
    return {
      expression: `${minute} ${hour} * ${months} ${dayNumber(nthOf[2])}#${NTH[nthOf[1] as keyof typeof NTH]}`,
      confidence: time ? 0.85 : 0.75,
      ...tz,
    };
  }
  // "the first Monday of each month": the nth such weekday of every month (croner's `#`)
  const nthDay = t.match(NTH_WEEKDAY_OF_MONTH);
  if (nthDay?.[1] && nthDay[2])
    return {
      expression: `${minute} ${hour} * * ${dayNumber(nthDay[2])}#${NTH[nthDay[1] as keyof typeof NTH]}`,
      confidence: time ? 0.85 : 0.75,
      ...tz,
    };
  const months = monthsIn(t);
  if (months) {
    // "on the first day of February, May, August and November", "every January 1st": a day of those months
    const nth = dayOfMonth(t);
    // croner reads "L" as a month's last day; a day past a month's end (the 31st of April) would never come
    const shortest = Math.min(...months.split(',').map((m) => MONTH_DAYS[Number(m) - 1] ?? 28));
    const dom = /\blast day\b/.test(t) ? 'L' : nth ? Math.min(shortest, nth) : 1;
    return { expression: `${minute} ${hour} ${dom} ${months} *`, confidence: time ? 0.85 : 0.75, ...tz };
  }
  if (found?.relative) {
    // a date relative to a record (start date, renewal): check once a day
    return { expression: `${minute} ${hour} * * ${dow ?? '*'}`, confidence: 0.5, ...tz };
  }
  // croner's days of a month: "L" its last day, "LW" its last weekday, "1W" its first weekday
  const business = /\b(?:business|working|work)\s+day\b/.test(t);
  if (/\b(quarterly|every quarter|each quarter|once a quarter)\b/.test(t)) {
    const dom = /\b(end|last)\b/.test(t) ? (business ? 'LW' : 'L') : business ? '1W' : '1';
    const months = /\b(end|last)\b/.test(t) ? '3,6,9,12' : '1,4,7,10';
    return { expression: `${minute} ${hour} ${dom} ${months} *`, confidence: 0.75, ...tz };
  }
  if (/\b(annually|yearly|every year|each year|once a year)\b/.test(t))
    return { expression: `${minute} ${hour} 1 1 *`, confidence: 0.7, ...tz };
  const listed = MONTH_DAYS_LISTED.exec(t);
  if (listed?.[1]) {
    const doms = [listed[1], ...(listed[2]?.match(/\d{1,2}/g) ?? [])].map(Number).filter((n) => n >= 1 && n <= 31);
    return { expression: `${minute} ${hour} ${[...new Set(doms)].join(',')} * *`, confidence: 0.8, ...tz };
  }
  if (/\b(monthly|every month|each month|once a month|of (each|every|the) month|end of (each|every|the) month)\b/.test(t)) {
    if (/\b(last|end)\b/.test(t))
      return {
        expression: `${minute} ${/\bend\b/.test(t) && !time ? '17' : hour} ${business ? 'LW' : 'L'} * *`,
        confidence: 0.7,
        ...tz,
      };
    const nth = t.match(/\bon the (\d{1,2})(?:st|nd|rd|th)?\b/);
    const dom = nth ? Math.min(28, Number(nth[1])) : business ? '1W' : 1;
    return { expression: `${minute} ${hour} ${dom} * *`, confidence: 0.8, ...tz };
  }
  if (/\b(fortnightly|bi-?weekly|every other week|every two weeks)\b/.test(t)) {
    return { expression: `${minute} ${hour} * * ${dow ?? '1'}`, confidence: 0.45, ...tz };
  }
  if (/\b(weekly|every week|each week|once a week)\b/.test(t)) {
    const endOfWeek = /\bend of (the |each |every )?week\b/.test(t);
    return {
      expression: `${minute} ${endOfWeek && !time ? '16' : hour} * * ${dow ?? (endOfWeek ? '5' : '1')}`,
      confidence: dow ? confidence : 0.7,
      ...tz,
    };
  }
  if (/\bend of (each |every |the )?week\b/.test(t))
    return { expression: `${minute} ${time ? hour : '16'} * * 5`, confidence: 0.75, ...tz };
  if (dow) return { expression: `${minute} ${hour} * * ${dow}`, confidence: time ? confidence : 0.8, ...tz };
  if (!time && !found) return null;
  if (!time) confidence = 0.75;
  return { expression: `${minute} ${hour} * * *`, confidence, ...tz };
}
