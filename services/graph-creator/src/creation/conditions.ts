import type { Comparison, Condition, JsonSchemaProperty, ObjectJsonSchema } from '@hireloop/schemas';
import { findThreshold, sentenceOf } from './phrases';

// Organisational context that decides whether a step runs ("if the ticket is urgent", "large refunds",
// "from a VIP guest"): which quality gates which step, what to ask and with which example, and how the
// answer ("priority is high or urgent", "amount over 500") becomes the step's `when` over the trigger's
// event (the `Condition` of schemas/src/employee.ts, which the runtime's `holds` evaluates). Pure.

/** Lower-case words of a field name or a text, plurals made singular: `requesterEmail` → requester email. */
const words = (text: string): string[] =>
  text
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9@.]+/)
    .filter(Boolean)
    .map((w) => (w.length > 3 && w.endsWith('s') && !/(ss|us|is)$/.test(w) ? w.slice(0, -1) : w));

/** What a quality is about: how pressing, how big, or who it comes from. */
export type QualityKind = 'urgency' | 'size' | 'importance';

const QUALITIES: readonly [RegExp, QualityKind][] = [
  [/\b(urgent|critical|high[- ]priority|time[- ]sensitive|an emergency)\b/, 'urgency'],
  [/\b(large|big|huge|high[- ]value|expensive|major)\b/, 'size'],
  [/\b(important|key|vip|strategic|priority|top[- ]tier)\b/, 'importance'],
];

/** Said explicitly ("marked urgent", "tagged VIP", "priority high"): nothing to ask the organisation. */
const EXPLICIT =
  /\b(marked|tagged|labell?ed|flagged|set|with (the )?(tag|label|priority)|priority( is| of)?)\s+(as\s+)?["'#]?(urgent|critical|high|vip|important|key|large)\b/;

/** A step gated by a quality: the word as said, what it is about, and the words it was found in. */
export interface Gate {
  quality: string;
  kind: QualityKind;
  phrase: string;
}

function qualityIn(text: string): Gate | null {
  const lower = text.toLowerCase();
  if (EXPLICIT.test(lower) || findThreshold(text)) return null;
  for (const [re, kind] of QUALITIES) {
    const m = re.exec(lower);
    if (m?.[1]) return { quality: m[1].replace(/^an /, ''), kind, phrase: text.trim().slice(0, 200) };
  }
  return null;
}

/** A conditional lead ("If the ticket is urgent,") right before the step in its sentence, up to its first comma. */
function leadOf(stepText: string, context: string): string {
  const sentence = sentenceOf(stepText, context);
  const at = sentence.toLowerCase().indexOf(stepText.toLowerCase());
  const before = at > 0 ? sentence.slice(0, at) : '';
  return /^\s*((?:if|when|whenever|where|for|should|in case)\b[^,;]*)[,;]/i.exec(before)?.[1] ?? '';
}

/** The step's own condition ("…, if it is urgent", "for important customers", "large refunds …"). */
const OWN_CONDITION =
  /(?:\b(?:if|when|whenever|where|in case|unless|only for|for|from)\s+(?:the |a |an |any |our |it |they |it's |it is |they are |one of our )?[^,;]{0,60})|^\s*[\w-]+(?:\s[\w-]+)?\s+(?:refunds?|tickets?|customers?|clients?|accounts?|orders?|deals?|requests?|issues?|invoices?|payments?|expenses?|emails?|guests?)\b/i;

/**
 * The quality that decides whether a step runs: in a conditional lead before it, in its own words
 * ("…if it is urgent", "large refunds must…"), or in how its workflow starts ("from a VIP guest").
 * None when the text says it explicitly ("marked urgent", "over $500": bound from the text itself).
 */
export function gateOf(stepText: string, context: string, triggerText = ''): Gate | null {
  const lead = leadOf(stepText, context);
  const fromLead = lead ? qualityIn(lead) : null;
  if (fromLead) return fromLead;
  const own = OWN_CONDITION.exec(stepText)?.[0];
  const fromStep = own ? qualityIn(own) : null;
  if (fromStep) return fromStep;
  return triggerText ? qualityIn(triggerText) : null;
}

/** The field of the trigger's event a quality is read from, or null when none fits. */
export function gateField(kind: QualityKind, event: ObjectJsonSchema): string | null {
  const props = Object.entries(event.properties);
  const named = (re: RegExp, ok: (p: JsonSchemaProperty) => boolean = () => true) =>
    props.find(([name, p]) => re.test(words(name).join(' ')) && ok(p))?.[0];
  const numeric = (p: JsonSchemaProperty) => p.type === 'number' || p.type === 'integer';
  const tags = () => named(/\b(tag|label)\b/);
  const sender = () => named(/\b(from|sender|email)\b/, (p) => p.type === 'string') ?? named(/\b(company|account name)\b/);
  switch (kind) {
    case 'urgency':
      return named(/\b(priority|severity|urgency)\b/) ?? tags() ?? null;
    case 'size':
      return (
        named(/\b(amount|total|value|price)\b/, numeric) ??
        (props.filter(([, p]) => numeric(p)).length === 1 ? (props.find(([, p]) => numeric(p))?.[0] ?? null) : null)
      );
    case 'importance':
      return tags() ?? sender() ?? null;
    default: {
      const never: never = kind;
      throw new Error(`unknown quality ${String(never)}`);
    }
  }
}

/** An example answer for a gate over `field`, one that `parseCondition` reads. */
export function exampleCondition(field: string, quality: string, event: ObjectJsonSchema, params?: ObjectJsonSchema): string {
  const prop = event.properties[field];
  if (!prop) return '';
  if (prop.type === 'number' || prop.type === 'integer') return `${field} over 500`;
  if (/\b(tag|label)\b/.test(words(field).join(' '))) return `tagged ${quality.replace(/\s+/g, '-')}`;
  const values = prop.enum ?? params?.properties[field]?.enum ?? [];
  if (values.includes('high') && values.includes('urgent')) return `${field} is high or urgent`;
  if (values.length > 0) return `${field} is ${values.at(-1)}`;
  if (prop.format === 'email' || /\b(from|email|sender)\b/.test(words(field).join(' ')))
    return `${field} contains @bigcustomer.com`;
  if (/\b(company|name)\b/.test(words(field).join(' '))) return `${field} is Acme Corp`;
  return `${field} is high`;
}

const NUMERIC_OPS: readonly [RegExp, Comparison['op']][] = [
  [/^(at least|no less than|>=|min(imum)?( of)?)$/, 'gte'],
  [/^(at most|no more than|up to|<=|max(imum)?( of)?)$/, 'lte'],
  [/^(over|above|more than|greater than|bigger than|larger than|exceeds?|exceeding|>)$/, 'gt'],
  [/^(under|below|less than|smaller than|<)$/, 'lt'],
];
const NUMBER =
  /\b(at least|no less than|at most|no more than|up to|over|above|more than|greater than|bigger than|larger than|exceeds?|exceeding|under|below|less than|smaller than)\s*(?:[$€£]\s*)?(\d[\d,]*(?:\.\d+)?)\s*(k|m)?\b|(>=|<=|>|<)\s*(?:[$€£]\s*)?(\d[\d,]*(?:\.\d+)?)\s*(k|m)?/i;

/** The field a clause names, by the words of the event's field names ("requester email" → requesterEmail). */
function fieldNamed(text: string, event: ObjectJsonSchema): string | null {
  const said = ` ${words(text).join(' ')} `;
  const fields = Object.keys(event.properties).sort((a, b) => words(b).length - words(a).length);
  const tag = fields.find((f) => /\b(tag|label)\b/.test(words(f).join(' ')));
  for (const f of fields) if (said.includes(` ${words(f).join(' ')} `)) return f;
  if (tag && /\b(tag|tagged|label|labelled|labeled)\b/.test(text.toLowerCase())) return tag;
  return null;
}

const unquote = (v: string): string =>
  v
    .trim()
    .replace(/^["'#]|["'.]$/g, '')
    .trim();

/** One clause of an answer: a numeric comparison, a tag, "contains", or "is" with one or more values. */
function clause(text: string, event: ObjectJsonSchema, hint: string | null): Comparison[] | null {
  const said = text.trim();
  const source = (field: string) => ({ from: 'trigger' as const, path: field });
  const numericField = (f: string | null) => {
    const p = f ? event.properties[f] : undefined;
    return !!p && (p.type === 'number' || p.type === 'integer');
  };
  const valuesOf = (v: string) =>
    v
      .split(/\s*(?:,|\bor\b)\s*/i)
      .map(unquote)
      .filter(Boolean);
  const num = NUMBER.exec(said);
  if (num) {
    const word = (num[1] ?? num[4] ?? '').toLowerCase();
    const op = NUMERIC_OPS.find(([re]) => re.test(word))?.[1];
    const suffix = (num[3] ?? num[6] ?? '').toLowerCase();
    const scale = suffix === 'k' ? 1_000 : suffix === 'm' ? 1_000_000 : 1;
    const value = Number((num[2] ?? num[5] ?? '').replace(/,/g, '')) * scale;
    const named = fieldNamed(said.slice(0, num.index), event);
    const field = numericField(named) ? named : numericField(hint) ? hint : null;
    return op && field && Number.isFinite(value) ? [{ source: source(field), op, value }] : null;
  }
  const tagged = /\b(?:tagged|labell?ed|with (?:the )?(?:tag|label))\s+(?:as\s+|with\s+)?(.+)$/i.exec(said);
  if (tagged?.[1]) {
    const field = fieldNamed('tag', event);
    const values = valuesOf(tagged[1]);
    return field && values.length > 0 ? values.map((value) => ({ source: source(field), op: 'contains', value })) : null;
  }
  const contains = /^(.*?)\b(contains|includes|mentions|has)\s+(.+)$/i.exec(said);
  if (contains?.[3]) {
    const field = fieldNamed(contains[1] ?? '', event) ?? hint;
    const values = valuesOf(contains[3]);
    return field && event.properties[field] && values.length > 0
      ? values.map((value) => ({ source: source(field), op: 'contains', value }))
      : null;
  }
  const is = /^(.*?)\b(is not|isn't|is|are|equals|of)\s+(.+)$|^(.*?)\s*(=)\s*(.+)$/i.exec(said);
  const left = (is?.[1] ?? is?.[4] ?? '').trim();
  const verb = (is?.[2] ?? is?.[5] ?? '').toLowerCase();
  const right = is?.[3] ?? is?.[6] ?? '';
  const field = is && left ? fieldNamed(left, event) : null;
  const chosen = field ?? (hint && event.properties[hint] && !left ? hint : null);
  if (!chosen || (is && left && !field)) return null;
  const prop = event.properties[chosen];
  if (!prop || prop.type === 'number' || prop.type === 'integer' || prop.type === 'object') return null;
  const values = valuesOf(is ? right : said);
  if (values.length === 0 || values.some((v) => v.split(/\s+/).length > 4)) return null;
  const allowed = prop.enum;
  const canonical = values.map((v) => (allowed ? allowed.find((e) => e.toLowerCase() === v.toLowerCase()) : v));
  if (canonical.some((v) => v === undefined)) return null;
  const negated = verb === 'is not' || verb === "isn't";
  const op: Comparison['op'] = prop.type === 'array' ? 'contains' : negated ? 'neq' : 'eq';
  if (negated && values.length > 1) return null;
  return (canonical as string[]).map((value) => ({ source: source(chosen), op, value }));
}

/**
 * An answer to "what counts as urgent?" as a condition over the trigger's event: clauses joined by
 * "and" must all hold; values joined by "or" (or commas) any. `hint` is the field the question was
 * about, for answers that give only values ("high or urgent", "over 500"). Null when it cannot be read.
 */
export function parseCondition(answer: string, event: ObjectJsonSchema, hint: string | null = null): Condition | null {
  const text = answer
    .trim()
    .replace(/\.$/, '')
    .replace(/^.*?\b(?:means|when|if|whenever)\s+/i, '')
    .replace(/^(?:the |its |a |an )/i, '');
  if (!text || text.length > 300) return null;
  const parts = text.split(/\s*(?:;|\band\b)\s*/i).filter(Boolean);
  const read = parts.map((p) => clause(p, event, hint));
  if (read.some((r) => r === null) || read.length === 0) return null;
  const comparisons = read as Comparison[][];
  if (comparisons.length === 1) {
    const only = comparisons[0] as Comparison[];
    if (only.length === 1) return only[0] as Comparison;
    return only.length <= 10 ? { any: only } : null;
  }
  if (comparisons.some((c) => c.length > 1)) return null;
  const all = comparisons.map((c) => c[0] as Comparison);
  return all.length <= 10 ? { all } : null;
}
