import { memo } from '@hireloop/platform';
import type { Comparison } from '@hireloop/schemas';

// What binding and the conditions both read off a text: its words, a numeric threshold it states, the
// sentence a clause sits in. A module of its own so that neither imports the other for them.

const STOP = new Set(
  'a an the of to in on for by with from and or is are be this that it its as at into via when who what which per each every'.split(
    ' ',
  ),
);

/**
 * Lower-case words of an identifier or a text: `requesterEmail` → requester, email. Cached (`memo`):
 * binding asks for the words of the same field names and descriptions for every input it weighs.
 * Read-only: callers share the array.
 */
export const words: (text: string) => readonly string[] = memo(
  (text: string): readonly string[] =>
    text
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((w) => w.length > 0 && !STOP.has(w))
      .map((w) => (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w) ? w.slice(0, -1) : w)),
  5000,
);

const COMPARATORS: [RegExp, Comparison['op']][] = [
  [/^(?:under|below|less than|lower than|smaller than|cheaper than|fewer than)$/, 'lt'],
  [/^(?:up to|at most|no more than|not more than|or less)$/, 'lte'],
  [/^(?:over|above|more than|greater than|higher than|larger than|bigger than|exceeding|exceeds|beyond)$/, 'gt'],
  [/^(?:at least|no less than|or more)$/, 'gte'],
];
export const THRESHOLD =
  /\b(under|below|less than|lower than|smaller than|cheaper than|fewer than|up to|at most|no more than|not more than|over|above|more than|greater than|higher than|larger than|bigger than|exceeding|exceeds|beyond|at least|no less than)\s+([$€£]?)\s*(\d[\d,]*(?:\.\d+)?)\s*(k\b|m\b)?\s*([a-z]+)?/i;
export interface Threshold {
  op: Comparison['op'];
  value: number;
  /** what is counted: 'money' for currency amounts, else the unit word ("seats", "days") */
  unit: string;
}

/** A numeric threshold stated in a text: "when it is under $100" → lt 100 money. */
export function findThreshold(text: string): Threshold | null {
  const m = THRESHOLD.exec(text);
  if (!m?.[1] || !m[3]) return null;
  const phrase = m[1].toLowerCase().replace(/\s+/g, ' ');
  const op = COMPARATORS.find(([re]) => re.test(phrase))?.[1];
  if (!op) return null;
  const scale = m[4]?.toLowerCase() === 'k' ? 1_000 : m[4]?.toLowerCase() === 'm' ? 1_000_000 : 1;
  const value = Number(m[3].replace(/,/g, '')) * scale;
  const money = !!m[2] || /^(usd|eur|gbp|dollars?|euros?|pounds?)$/i.test(m[5] ?? '');
  return { op, value, unit: money ? 'money' : (words(m[5] ?? '')[0] ?? 'money') };
}

/** The sentence of `context` that holds `text` (where an "If … over $5,000," lead may stand). */
export function sentenceOf(text: string, context: string): string {
  const at = context.toLowerCase().indexOf(text.toLowerCase());
  if (at < 0) return text;
  const start = Math.max(context.lastIndexOf('. ', at), context.lastIndexOf('\n', at)) + 1;
  const end = context.indexOf('. ', at + text.length);
  return context.slice(start, end < 0 ? undefined : end).trim();
}
