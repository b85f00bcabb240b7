import type {
  Binding,
  CatalogCapability,
  Comparison,
  Condition,
  JsonSchemaProperty,
  ObjectJsonSchema,
  Step,
} from '@hireloop/schemas';
import { parseCondition } from './conditions';
import { findThreshold, sentenceOf, THRESHOLD, type Threshold, words } from './phrases';

// Binding (ARCHITECTURE §11), pure: every required input of a step's capability gets a source — the
// trigger event, an earlier step's output, a constant the user gave, a schema default, or "ask at run
// time" — by the names, types and descriptions of the schemas. A step may get a `when` from a
// threshold in the description ("under $100") and depends on the steps it reads from or is ordered after.

/** What a step can read: the trigger's event, and the outputs of the steps before it. */
export interface BindSources {
  event: ObjectJsonSchema;
  earlier: { stepId: string; capabilityId: string; output: ObjectJsonSchema }[];
}

/** One step to bind: its capability, its clause of the job description, and what the user said about it. */
export interface StepToBind {
  stepId: string;
  capability: CatalogCapability;
  /** the clause of the job description the step comes from */
  text: string;
  /** answers the user gave to questions about this step or its workflow */
  answers: readonly string[];
}

type Source = { from: 'trigger'; path: string } | { from: 'step'; stepId: string; path: string };

/** Words that name the same thing in different schemas. */
const SYNONYMS: Record<string, string> = {
  key: 'id',
  number: 'id',
  sid: 'id',
  recipient: 'to',
  mail: 'email',
  address: 'email',
  phone: 'to',
  message: 'text',
  body: 'text',
  content: 'text',
  comment: 'text',
  total: 'amount',
  price: 'amount',
  cost: 'amount',
};
const canon = (w: string): string => SYNONYMS[w] ?? w;

const numeric = (p: JsonSchemaProperty): boolean => p.type === 'number' || p.type === 'integer';
const isEmail = (name: string, p: JsonSchemaProperty): boolean => p.format === 'email' || words(name).includes('email');

/** Whether a value of `from` can fill `to`: same kind, a scalar into a list of that scalar, emails into emails. */
function compatible(to: JsonSchemaProperty, toName: string, from: JsonSchemaProperty, fromName: string): boolean {
  if (to.type === 'object' || from.type === 'object') return false;
  if (numeric(to)) return numeric(from);
  if (to.type === 'boolean') return from.type === 'boolean';
  if (to.type === 'array') {
    const item = to.items?.type ?? 'string';
    const fromItem = from.type === 'array' ? (from.items?.type ?? 'string') : from.type;
    if (item !== fromItem && !(item === 'string' && fromItem === 'string')) return false;
    return !words(`${toName} ${to.description}`).includes('email') || isEmail(fromName, from) || from.format === 'email';
  }
  if (from.type !== 'string') return false;
  if (to.format === 'email' && !isEmail(fromName, from)) return false;
  return true;
}

/**
 * How well a field fits an input, 0 when it does not: the same name wins; otherwise every word of
 * the input's name must be among the field's (`email` ← `requesterEmail`, `ticketId` ← `ticketId`),
 * and identifiers must name the same thing (`paymentId` never takes `ticketId`).
 */
export function fit(input: string, prop: JsonSchemaProperty, field: string, fieldProp: JsonSchemaProperty): number {
  if (!compatible(prop, input, fieldProp, field)) return 0;
  if (input.toLowerCase() === field.toLowerCase()) return 10;
  const mine = words(input).map(canon);
  const theirs = new Set(words(field).map(canon));
  if (mine.length === 0 || !mine.every((w) => theirs.has(w))) {
    // an email list input ("recipient email addresses") takes an email field of the event
    if (prop.type === 'array' && isEmail(field, fieldProp) && words(prop.description).includes('email')) return 3;
    if (prop.format === 'email' && isEmail(field, fieldProp)) return 2;
    return 0;
  }
  const described = new Set(words(fieldProp.description).map(canon));
  const shared = words(prop.description)
    .map(canon)
    .filter((w) => described.has(w)).length;
  return 5 + Math.min(shared, 3) - Math.max(0, theirs.size - mine.length) * 0.5;
}

/**
 * The best field of the event or an earlier step for an input. A field whose qualifier the step's
 * text names wins ("email the customer" → customerEmail); on a tie the event wins (the step then
 * waits for nothing), then the latest step.
 */
function bestField(
  input: string,
  prop: JsonSchemaProperty,
  sources: BindSources,
  text: string,
): { source: Source; score: number; exact: boolean } | null {
  const mentioned = new Set(words(text));
  const own = new Set(words(input));
  let best: { source: Source; score: number; exact: boolean } | null = null;
  const recipient = input === 'to';
  const consider = (source: Source, field: string, fieldProp: JsonSchemaProperty) => {
    // an inbound event's `to` is the organisation itself: whoever the step writes to is its sender
    if (recipient && source.from === 'trigger' && field === 'to') return;
    const sender = recipient && source.from === 'trigger' && field === 'from' && compatible(prop, input, fieldProp, field);
    const base = sender ? 10 : fit(input, prop, field, fieldProp);
    if (base === 0) return;
    const named = words(field).filter((w) => !own.has(w) && mentioned.has(w)).length;
    const score = base + Math.min(named, 2);
    if (!best || score > best.score) best = { source, score, exact: input.toLowerCase() === field.toLowerCase() };
  };
  for (const [field, fieldProp] of Object.entries(sources.event.properties))
    consider({ from: 'trigger', path: field }, field, fieldProp);
  for (const step of [...sources.earlier].reverse())
    for (const [field, fieldProp] of Object.entries(step.output.properties))
      consider({ from: 'step', stepId: step.stepId, path: field }, field, fieldProp);
  return best;
}

const CHANNEL = /(?:^|\s)(#[a-z0-9][\w-]*)/i;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/;
/** An address on the web the user wrote ("check https://status.example.com"), without the sentence's last stop. */
const WEB_ADDRESS = /\bhttps?:\/\/[^\s<>"'`]+[^\s<>"'`.,;:!?)\]]/i;

/** A constant the user gave for this input: a channel, an email, an enum value or a target status named in the text. */
export function givenConstant(input: string, prop: JsonSchemaProperty, texts: readonly string[]): Binding | null {
  const names = words(`${input} ${prop.description}`);
  for (const text of texts) {
    const channel = CHANNEL.exec(text)?.[1];
    if (channel && prop.type === 'string' && names.includes('channel')) return { value: channel, origin: 'user' };
    const address = WEB_ADDRESS.exec(text)?.[0];
    if (address && prop.type === 'string' && (prop.format === 'uri' || names.includes('url')))
      return { value: address, origin: 'user' };
    const email = EMAIL.exec(text)?.[0];
    if (email && names.includes('email') && (prop.type === 'string' || prop.type === 'array'))
      return { value: prop.type === 'array' ? [email] : email, origin: 'user' };
    if (prop.enum) {
      const lower = ` ${text.toLowerCase().replace(/[^a-z0-9]+/g, ' ')} `;
      const named = prop.enum.find((v) => lower.includes(` ${v.toLowerCase()} `));
      if (named) return { value: named, origin: 'user' };
    }
    // "move it to Released", "advance them to Onsite": a target state named in capitals
    if (prop.type === 'string' && names.some((w) => w === 'status' || w === 'stage')) {
      const target = /\b(?:to|into|as)\s+["']?([A-Z][\w-]*(?:\s+[A-Z][\w-]*){0,2})/.exec(text)?.[1];
      if (target) return { value: target, origin: 'user' };
    }
    // "a 15-minute call", "2 days": a number with the unit the input is measured in
    if (numeric(prop)) {
      const unit = names.find((w) => /^(minute|hour|day|week|month|seat|year)$/.test(w));
      const m = unit ? new RegExp(`\\b(\\d+(?:\\.\\d+)?)[\\s-]*${unit}`, 'i').exec(text) : null;
      if (m?.[1]) return { value: Number(m[1]), origin: 'user' };
    }
  }
  return null;
}

/** Inputs that carry the message or text a step writes: composed at run time from the step's purpose. */
const CONTENT = new Set(['text', 'body', 'content', 'message', 'comment', 'note', 'notes', 'description', 'internalnote']);
export const isContent = (input: string, prop: JsonSchemaProperty): boolean =>
  prop.type === 'string' && !prop.format && !prop.enum && (CONTENT.has(input.toLowerCase()) || words(input).at(-1) === 'note');

/** Capabilities whose optional inputs are changes to a record. */
const CHANGES = /^(update|transition|move|label)/;

/** Capabilities that write a message to someone (their text is composed, never copied from the event). */
const MESSAGING = /^(send|post|reply|comment)/;
/** The whole of what came in, said as what a request carries: "with the event", "passing on the payload". */
const WITH_THE_EVENT =
  /\b(?:with|containing|including|carrying|passing(?: on)?|forwarding|relaying|sending(?: on)?)\s+(?:(?:the|its|all the|the whole|the full|the raw|the original)\s+)?(?:event|payload|webhook (?:body|payload|data)|event data|json|details of the event)\b/i;

/**
 * Binds every required input of the capability (and optional ones a source clearly fits). Order: a
 * constant the user gave, then a matching event or step field, then (for text) the step's purpose, then
 * the schema's default, else ask at run time.
 */
export function bindInputs(step: StepToBind, sources: BindSources): Record<string, Binding> {
  const schema = step.capability.inputSchema;
  const required = new Set(schema.required);
  const texts = [step.text, ...step.answers];
  const out: Record<string, Binding> = {};
  for (const [input, prop] of Object.entries(schema.properties)) {
    const must = required.has(input);
    const given = givenConstant(input, prop, texts);
    if (given) {
      out[input] = given;
      continue;
    }
    const content = isContent(input, prop);
    const field = content && MESSAGING.test(step.capability.name) ? null : bestField(input, prop, sources, step.text);
    // an optional input takes only a field of the same name, and never on an update (its optional
    // inputs are the changes to make, not the record's current values)
    const optionalFits = !!field?.exact && !CHANGES.test(step.capability.name);
    if (field && (must || optionalFits)) {
      out[input] = field.source;
      continue;
    }
    // "POST it to https://… with the event": a body of JSON text carries the whole trigger event
    if (/\bjson\b/i.test(prop.description ?? '') && WITH_THE_EVENT.test(step.text)) {
      out[input] = { from: 'trigger', path: '' };
      continue;
    }
    if (!must) continue;
    if (content || /^(subject|title|summary)$/i.test(input)) out[input] = { value: step.text.slice(0, 500), origin: 'default' };
    else if (prop.default !== undefined) out[input] = { value: prop.default, origin: 'default' };
    else out[input] = { ask: true, question: `${prop.description} for ${step.capability.id}?`.slice(0, 500) };
  }
  return out;
}

// ---- conditions ----

/** "anything larger", "otherwise", "the rest": the other side of the workflow's last threshold. */
const OTHERWISE =
  /\b(anything|everything|any|those|ones?|amounts?|requests?)\s+(larger|bigger|higher|greater|more|above|over|else|smaller|lower|less|below|under)\b|\botherwise\b|\bthe rest\b|\bif not\b/i;

const COMPLEMENT: Record<Comparison['op'], Comparison['op']> = {
  lt: 'gte',
  lte: 'gt',
  gt: 'lte',
  gte: 'lt',
  eq: 'neq',
  neq: 'eq',
  exists: 'not_exists',
  not_exists: 'exists',
  contains: 'neq',
};

/**
 * Whether the text speaks of the other side of an earlier condition ("ask a manager to approve anything larger"), or
 * the context says it right before it ("…; otherwise reply to the ticket").
 */
export const isOtherwise = (text: string, context = ''): boolean =>
  (OTHERWISE.test(text) && !THRESHOLD.test(text)) || saidOtherwise(text, context);

/** The numeric field a threshold compares: one whose words name its unit (amount for money), else the only number. */
export function thresholdSource(threshold: Threshold, sources: BindSources): Source | null {
  const candidates: { source: Source; name: string; prop: JsonSchemaProperty }[] = [];
  for (const [field, prop] of Object.entries(sources.event.properties))
    if (numeric(prop)) candidates.push({ source: { from: 'trigger', path: field }, name: field, prop });
  for (const step of [...sources.earlier].reverse())
    for (const [field, prop] of Object.entries(step.output.properties))
      if (numeric(prop)) candidates.push({ source: { from: 'step', stepId: step.stepId, path: field }, name: field, prop });
  const unit = threshold.unit === 'money' ? 'amount' : threshold.unit;
  const named = candidates.find((c) => words(c.name).map(canon).includes(unit));
  const described = candidates.find((c) => words(c.prop.description).map(canon).includes(unit));
  return (named ?? described ?? (candidates.length === 1 ? candidates[0] : undefined))?.source ?? null;
}

export const complement = (c: Comparison): Comparison => ({ ...c, op: COMPLEMENT[c.op] });

/** The other case of a condition: "any of" becomes "none of", and the other way round. */
export function complementOf(c: Condition): Condition {
  if ('any' in c) return { all: c.any.map(complement) };
  if ('all' in c) return { any: c.all.map(complement) };
  return complement(c);
}

/** The case a text says: "if its priority is urgent, …" → "its priority is urgent". */
const CASE_SAID = /\b(?:if|when|whenever|where)\s+([^,;:]{3,120})/i;

/**
 * An equality said of a text field of the trigger's event, read as an answer to "what counts?" is read
 * (`parseCondition`): "if its priority is urgent" → priority eq "urgent", "if the status is open or pending" → any of
 * two. Only equalities: other readings of a case are asked, not guessed. Null when none is said. Pure.
 */
export function findEquality(text: string, event: ObjectJsonSchema): Condition | null {
  // ("… is urgent in Zendesk": where it is said is no part of the value)
  const said = CASE_SAID.exec(text)?.[1]?.replace(/\s+(?:in|on|via|through|from)\s+(?:[A-Z][\w-]*\s?)+$/, '');
  const condition = said ? parseCondition(said, event) : null;
  if (!condition) return null;
  const parts = 'any' in condition ? condition.any : 'all' in condition ? null : [condition];
  return parts?.every((c) => c.op === 'eq' && c.source.from === 'trigger' && VALUE_SAID.test(String(c.value))) ? condition : null;
}

/** A value said plainly: a word or two, not a phrase ("an invoice", "about a refund", "the order is shipped"). */
const VALUE_SAID =
  /^(?!(?:a|an|the|about|of|in|on|at|from|for|with|by|to|not|no|any|some|this|that|it|its|their)\b)[A-Za-z0-9][\w-]*(?: [A-Za-z0-9][\w-]*)?$/i;

/** Whether a step is said as the other case, right before it: "…; otherwise reply to the ticket". */
function saidOtherwise(text: string, context: string): boolean {
  const at = context.toLowerCase().indexOf(text.toLowerCase());
  return at > 0 && /\b(?:otherwise|else|if not)\W*$/i.test(context.slice(Math.max(0, at - 30), at));
}

/** The steps a condition reads. */
export function conditionSteps(condition: Condition | undefined): string[] {
  if (!condition) return [];
  const parts = 'all' in condition ? condition.all : 'any' in condition ? condition.any : [condition];
  return parts.flatMap((c) => (c.source.from === 'step' ? [c.source.stepId] : []));
}

/** The steps a binding reads. */
export const bindingSteps = (inputs: Step['inputs']): string[] =>
  Object.values(inputs).flatMap((b) => ('from' in b && b.from === 'step' ? [b.stepId] : []));

// ---- order ----

/** Words before a clause that order it after the previous one: "…, then reply", "after that, post". */
const ORDERED = /\b(then|after that|afterwards|afterward|next|finally|once (?:that is|it is|done|that's)? ?done|and then)\W*$/i;
/** A clause that uses what came before: "with the outcome", "the result", "email it to…". */
const USES_RESULT = /\b(outcome|results?|the decision|the answer)\b/i;
const USES_PREVIOUS = /^\s*\w+\s+(it|them|this|that)\b/i;
const PRODUCES = /^(create|record|upload|search|find|send_envelope|request)/;

/**
 * The steps this one waits for, besides those it reads: the previous step when the description
 * orders it explicitly or the clause works on what the previous step made ("email it"), every earlier
 * step when it reports their outcome. Otherwise none: independent steps run in parallel.
 */
export function orderedAfter(
  text: string,
  context: string,
  earlier: readonly { stepId: string; capabilityId: string }[],
): string[] {
  const previous = earlier.at(-1);
  if (!previous) return [];
  if (USES_RESULT.test(text)) return earlier.map((e) => e.stepId);
  const at = context.toLowerCase().indexOf(text.toLowerCase());
  if (at > 0 && ORDERED.test(context.slice(Math.max(0, at - 40), at))) return [previous.stepId];
  const name = previous.capabilityId.split('.')[1] ?? '';
  if (USES_PREVIOUS.test(text) && PRODUCES.test(name)) return [previous.stepId];
  return [];
}

/**
 * The conditional clause right before a step in its sentence ("If an invoice is over $5,000, ask …", "When a ticket
 * arrives, if it is urgent, post …"), or ''.
 */
export function conditionalLead(text: string, context: string): string {
  const sentence = sentenceOf(text, context);
  const at = sentence.toLowerCase().indexOf(text.toLowerCase());
  const lead = at > 0 ? sentence.slice(0, at).trim() : '';
  // the last case said before it ("When a ticket arrives, if its priority is urgent, post …": the case, not the event)
  const last = [...lead.matchAll(/\b(?:if|when|whenever|where|for any|for every|for each)\b/gi)].at(-1);
  const said = last ? lead.slice(last.index) : '';
  return /^(if|when|whenever|where|for any|for every|for each)\b(?:[^,;]|,\d)*[,;]?$/i.test(said) ? said : '';
}

/** A draft step of a workflow, in order, with what binding needs. */
export interface DraftBoundStep {
  stepId: string;
  capability: CatalogCapability;
  text: string;
  answers: readonly string[];
}

/** A bound step; `after` names the approval step an added "action after approval" follows. */
export interface BoundStep {
  stepId: string;
  capability: CatalogCapability;
  text: string;
  inputs: Step['inputs'];
  when?: Condition;
  dependsOn: string[];
}

const APPROVAL = /\b(approve|approval|sign[- ]off|authori[sz]e)\b/i;
/**
 * Binds a workflow's steps in order: inputs, a `when` from a stated threshold (its complement on an
 * "otherwise" step), and `dependsOn` — the steps read by the inputs or the condition, plus explicit
 * order. An approval rule splits the action it gates (see `gateByApprovalRules`). `context` is the
 * workflow's source text.
 */
export function bindWorkflow(steps: readonly DraftBoundStep[], event: ObjectJsonSchema, context: string): BoundStep[] {
  const out: BoundStep[] = [];
  const earlier: BindSources['earlier'] = [];
  let lastCondition: Condition | null = null;
  for (const step of steps) {
    const sources: BindSources = { event, earlier: [...earlier] };
    const inputs = bindInputs(step, sources);
    let when: Condition | undefined;
    const threshold = findThreshold(step.text) ?? findThreshold(conditionalLead(step.text, context));
    const source = threshold ? thresholdSource(threshold, sources) : null;
    // (a text field said to hold a value — "if its priority is urgent" — when no number is compared)
    const equality = threshold
      ? null
      : (findEquality(step.text, event) ?? findEquality(conditionalLead(step.text, context), event));
    if (threshold && source) {
      when = { source, op: threshold.op, value: threshold.value };
      lastCondition = when;
    } else if (equality) {
      when = equality;
      lastCondition = when;
    } else if (lastCondition && isOtherwise(step.text, context)) {
      when = complementOf(lastCondition);
    }
    const reads = [...bindingSteps(inputs), ...conditionSteps(when)];
    const ordered = orderedAfter(step.text, context, earlier);
    const order = (id: string) => out.findIndex((e) => e.stepId === id);
    const dependsOn = [...new Set([...reads, ...ordered])].sort((a, b) => order(a) - order(b));
    const bound: BoundStep = {
      stepId: step.stepId,
      capability: step.capability,
      text: step.text,
      inputs,
      ...(when ? { when } : {}),
      dependsOn,
    };
    out.push(bound);
    earlier.push({ stepId: step.stepId, capabilityId: step.capability.id, output: step.capability.outputSchema });
  }
  return gateByApprovalRules(out, context, event);
}

/** The sentences of a description. */
const sentencesOf = (context: string): string[] =>
  context
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((x) => x.trim().replace(/^(?:Constraint|Guideline):\s*/, ''))
    .filter(Boolean);

/** The side of a threshold a comparison is on: above (gt, gte) or below (lt, lte), whether or not the line itself is in. */
const SIDE: Partial<Record<Comparison['op'], 'above' | 'below'>> = { gt: 'above', gte: 'above', lt: 'below', lte: 'below' };

/** The same comparison, or the same side of the same line ("over $100" and "$100 or more"). */
const sameComparison = (a: Condition | undefined, b: Comparison): boolean =>
  !!a &&
  !('all' in a) &&
  !('any' in a) &&
  a.value === b.value &&
  JSON.stringify(a.source) === JSON.stringify(b.source) &&
  (a.op === b.op || (SIDE[a.op] !== undefined && SIDE[a.op] === SIDE[b.op]));

/** Whether the event has a field named by a unit ("refunds" → a field with refund in its name). */
const hasField = (event: ObjectJsonSchema, unit: string): boolean =>
  Object.keys(event.properties).some((f) => words(f).map(canon).includes(canon(unit)));

/** Money said as such: "$100", "100 euros". */
const MONEY = /[$€£]\s*\d|\d\s*(?:usd|eur|gbp|dollars?|euros?|pounds?)\b/i;

/** An approval said not to be needed: "don't need approval", "no approval needed", "auto-approve", "without approval". */
const NO_APPROVAL = /\b(?:no|not|don'?t|doesn'?t|never|without|auto)[\s-]+(?:[\w'$€£-]+\s+){0,3}?(?:approv\w*|sign[- ]?off)/i;

/**
 * An approval rule with a threshold, said anywhere in the workflow ("Refunds over $100 need a manager's approval
 * first", "anything larger needs a manager's approval", "ask a manager to approve anything larger"), splits the
 * action it gates: on the threshold's other side the action runs as described, past it only once approved — a
 * step `<step>.approved` under the rule's condition, which the run's confirm node asks about. The action is the
 * catalog's high-risk step the rule names ("refunds"), else the one that moves the amount the threshold counts,
 * else the only one. A rule the steps already carry (an approved branch, or the gated step itself under the
 * rule's condition) only gives the other steps of that action the other side. Pure.
 */
function gateByApprovalRules(steps: BoundStep[], context: string, event: ObjectJsonSchema): BoundStep[] {
  let out = steps;
  // the rules: steps that ask for an approval, under their own condition, and sentences of a rule no step says
  const said = (sentence: string) => steps.some((b) => sentence.toLowerCase().includes(b.text.toLowerCase()));
  const rules = [
    ...steps.filter(
      (b) => APPROVAL.test(b.text) && !NO_APPROVAL.test(b.text) && b.when && !('all' in b.when) && !('any' in b.when),
    ),
    ...new Set(sentencesOf(context).filter((x) => APPROVAL.test(x) && !said(x))),
  ];
  // "anything larger": the other side of the last threshold the steps state
  const last = [...steps].reverse().find((b) => b.when && !('all' in b.when) && !('any' in b.when))?.when as
    | Comparison
    | undefined;
  for (const said of rules) {
    const rule = typeof said === 'string' ? said : said.text;
    const threshold = typeof said === 'string' ? findThreshold(rule) : null;
    let condition: Comparison | null = typeof said === 'string' ? null : (said.when as Comparison);
    // a sentence's threshold counts money, or a field of the event its unit names ("more than 3 refunds" is no amount)
    if (threshold && (threshold.unit === 'money' ? MONEY.test(rule) : hasField(event, threshold.unit))) {
      const source = thresholdSource(threshold, { event, earlier: [] });
      // "Refunds under $100 don't need approval": the approval is for the other side of the line
      const op = NO_APPROVAL.test(rule) ? COMPLEMENT[threshold.op] : threshold.op;
      if (source) condition = { source, op, value: threshold.value };
    } else if (!condition && !threshold && last && OTHERWISE.test(rule) && !NO_APPROVAL.test(rule)) condition = complement(last);
    if (!condition) continue;
    const cond = condition;
    if (out.some((b) => b.stepId.endsWith('.approved') && sameComparison(b.when, cond))) continue;
    const ruleWords = new Set(words(rule).map(canon));
    const actions = out.filter((b) => b.capability.risk === 'high' && !b.stepId.endsWith('.approved'));
    // the gated step already there, under the rule's condition: "refund over $100 need a manager approval first"
    const carried = actions.find(
      (b) => sameComparison(b.when, cond) && (APPROVAL.test(b.text) || rule.toLowerCase().includes(b.text.toLowerCase())),
    );
    if (carried) {
      out = out.map((b) =>
        b !== carried && !b.when && b.capability.id === carried.capability.id ? { ...b, when: complement(cond) } : b,
      );
      continue;
    }
    const open = actions.filter((b) => !b.when || sameComparison(b.when, complement(cond)));
    const named = open.filter((b) => words(b.capability.name).some((w) => ruleWords.has(canon(w))));
    const moving = open.filter((b) =>
      Object.keys(b.capability.inputSchema.properties).some((f) => words(f).map(canon).includes('amount')),
    );
    const money = threshold ? threshold.unit === 'money' : words(cond.source.path).map(canon).includes('amount');
    // a money line gates only the step that moves the amount, or the one the rule names (never a reply)
    const gated =
      named.length === 1
        ? named[0]
        : moving.length === 1 && money
          ? moving[0]
          : !money && open.length === 1
            ? open[0]
            : undefined;
    if (!gated) continue;
    // the step that asks for the approval, when there is one ("ask a manager in Slack to approve anything larger")
    const asking = out.find(
      (b) => b !== gated && sameComparison(b.when, cond) && rule.toLowerCase().includes(b.text.toLowerCase()),
    );
    const approved: BoundStep = {
      stepId: `${(asking ?? gated).stepId}.approved`,
      capability: gated.capability,
      text: `${gated.capability.name.replaceAll('_', ' ')} once approved — ${rule}`.slice(0, 500),
      inputs: gated.inputs,
      when: cond,
      dependsOn: [...new Set([...gated.dependsOn, ...(asking ? [asking.stepId] : [])])],
    };
    const after = out.indexOf(asking ?? gated);
    const before = out.slice(0, after + 1).map((b) => (b === gated && !b.when ? { ...b, when: complement(cond) } : b));
    // what waited for the action, after it, waits for its approved branch too
    const later = out
      .slice(after + 1)
      .map((b) => (b.dependsOn.includes(gated.stepId) ? { ...b, dependsOn: [...b.dependsOn, approved.stepId] } : b));
    out = [...before, approved, ...later];
  }
  return out;
}

/** A condition in words, for the review and the diagram: "trigger.amount < 100". */
export function describeCondition(condition: Condition): string {
  const symbol: Record<Comparison['op'], string> = {
    lt: '<',
    lte: '≤',
    gt: '>',
    gte: '≥',
    eq: '=',
    neq: '≠',
    exists: 'exists',
    not_exists: 'is missing',
    contains: 'contains',
  };
  const one = (c: Comparison) =>
    `${c.source.from === 'trigger' ? 'trigger' : c.source.stepId}.${c.source.path} ${symbol[c.op]}${c.value === undefined ? '' : ` ${String(c.value)}`}`;
  if ('all' in condition) return condition.all.map(one).join(' and ');
  if ('any' in condition) return condition.any.map(one).join(' or ');
  return one(condition);
}
