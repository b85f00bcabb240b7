/**
 * A run's decisions, pure (ARCHITECTURE §11): which steps run, what their inputs are, what must be
 * asked, in which order they go. The graph's nodes call these and do the I/O around them.
 */
import { createHash } from 'node:crypto';
import type { Binding, CatalogCapability, Comparison, Condition, JsonSchemaProperty, Step } from '@hireloop/schemas';
import { exampleOf, withoutExample } from '../tools/examples';

/** What bindings and conditions read: the trigger event and the outputs of the steps done so far. */
export interface Sources {
  event: Record<string, unknown>;
  outputs: Record<string, Record<string, unknown> | undefined>;
}

/** A dotted path into a value; the empty path is the value itself. */
export function getPath(root: unknown, path: string): unknown {
  if (path === '') return root;
  let value: unknown = root;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** The id of the question that asks a step's input at run time. */
export const questionId = (stepId: string, input: string): string => `${stepId}.${input}`;

/** A binding's value; undefined when its source has nothing there (or it is asked and not answered yet). */
export function resolveBinding(binding: Binding, sources: Sources, asked?: string): unknown {
  if ('ask' in binding) return asked;
  if ('value' in binding) return binding.value;
  if (binding.from === 'trigger') return getPath(sources.event, binding.path);
  return getPath(sources.outputs[binding.stepId], binding.path);
}

/** The steps a condition reads the output of. */
export const conditionSteps = (condition: Condition | undefined): string[] => {
  if (!condition) return [];
  const comparisons = 'all' in condition ? condition.all : 'any' in condition ? condition.any : [condition];
  return comparisons.flatMap((c) => (c.source.from === 'step' ? [c.source.stepId] : []));
};

const compare = (c: Comparison, sources: Sources): boolean => {
  const left = resolveBinding(c.source, sources);
  const right = c.value;
  switch (c.op) {
    case 'exists':
      return left !== undefined && left !== null && left !== '';
    case 'not_exists':
      return left === undefined || left === null || left === '';
    case 'eq':
      return left !== undefined && String(left) === String(right);
    case 'neq':
      return left === undefined || String(left) !== String(right);
    case 'contains':
      if (Array.isArray(left)) return left.map(String).includes(String(right));
      return typeof left === 'string' && left.toLowerCase().includes(String(right).toLowerCase());
    case 'lt':
    case 'lte':
    case 'gt':
    case 'gte': {
      const a = Number(left);
      const b = Number(right);
      if (left === undefined || left === null || left === '' || !Number.isFinite(a) || !Number.isFinite(b)) return false;
      return c.op === 'lt' ? a < b : c.op === 'lte' ? a <= b : c.op === 'gt' ? a > b : a >= b;
    }
    default: {
      const never: never = c.op;
      throw new Error(`unknown condition op ${String(never)}`);
    }
  }
};

/** Whether a condition holds (absent: always). A missing value makes a comparison false. */
export function holds(condition: Condition | undefined, sources: Sources): boolean {
  if (!condition) return true;
  if ('all' in condition) return condition.all.every((c) => compare(c, sources));
  if ('any' in condition) return condition.any.some((c) => compare(c, sources));
  return compare(condition, sources);
}

/** Every step a step waits for: its `dependsOn` and the steps its inputs and condition read. */
export function dependenciesOf(step: Step): string[] {
  const fromInputs = Object.values(step.inputs).flatMap((b) => ('from' in b && b.from === 'step' ? [b.stepId] : []));
  return [...new Set([...step.dependsOn, ...fromInputs, ...conditionSteps(step.when)])];
}

/**
 * Steps in dependency order, as batches whose steps wait for nothing in their own or a later batch
 * (so each batch may run in parallel). A cycle or an unknown step throws.
 */
export function batches(steps: readonly Step[]): string[][] {
  const ids = new Set(steps.map((s) => s.id));
  const waiting = new Map(steps.map((s) => [s.id, new Set(dependenciesOf(s))]));
  for (const [id, deps] of waiting)
    for (const dep of deps) if (!ids.has(dep)) throw new Error(`step ${id} depends on unknown step ${dep}`);
  const done = new Set<string>();
  const out: string[][] = [];
  while (done.size < steps.length) {
    const ready = steps
      .filter((s) => !done.has(s.id) && [...(waiting.get(s.id) ?? [])].every((d) => done.has(d)))
      .map((s) => s.id);
    if (ready.length === 0)
      throw new Error(
        `steps depend on each other in a cycle: ${steps
          .filter((s) => !done.has(s.id))
          .map((s) => s.id)
          .join(', ')}`,
      );
    for (const id of ready) done.add(id);
    out.push(ready);
  }
  return out;
}

/**
 * The planned steps that cannot run whatever is answered now: a step that depends (at any remove) on one that was
 * rejected, every step after one the org refuses outright (`moot`: execute fails the run there), and every step the
 * run's budget (`reach`: the fewer of its tool calls and steps) cannot come to — counted, in the order the run calls
 * them, over the steps that surely act (one whose condition waits on an earlier step's output may not, so it spends
 * nothing here). Nobody is asked to approve those; a rejection asked later may bring a step back within reach.
 * `approvals` as the run holds them; a spec whose steps form no order blocks nothing. Pure.
 */
export function cannotRun(
  steps: readonly Step[],
  planned: readonly string[],
  approvals: Readonly<Record<string, 'approved' | 'rejected' | 'moot'>>,
  reach = Number.POSITIVE_INFINITY,
): Set<string> {
  const blocked = new Set<string>();
  let order: string[];
  try {
    order = batches(steps).flat();
  } catch {
    return blocked;
  }
  const byId = new Map(steps.map((st) => [st.id, st]));
  const stopped = new Set<string>();
  let refusedBefore = false;
  let spent = 0;
  for (const id of order) {
    if (!planned.includes(id)) continue;
    const st = byId.get(id) as Step;
    if (refusedBefore || spent >= reach) blocked.add(id);
    else if (dependenciesOf(st).some((d) => stopped.has(d))) {
      blocked.add(id);
      stopped.add(id);
    } else if (approvals[id] !== 'rejected' && conditionSteps(st.when).length === 0) spent += 1;
    if (approvals[id] === 'rejected') stopped.add(id);
    if (approvals[id] === 'moot') refusedBefore = true;
  }
  return blocked;
}

export interface PlannedRun {
  /** the steps that will run (a condition over a step output is decided in execute, after that step) */
  planned: string[];
  /** steps whose condition over the trigger event does not hold, with why */
  notRun: Record<string, string>;
}

/** plan: the workflow's steps whose `when` holds, as far as the trigger event decides it. */
export function planSteps(steps: readonly Step[], event: Record<string, unknown>): PlannedRun {
  const planned: string[] = [];
  const notRun: Record<string, string> = {};
  for (const step of steps) {
    if (conditionSteps(step.when).length === 0 && !holds(step.when, { event, outputs: {} })) {
      notRun[step.id] = 'its condition does not hold';
    } else {
      planned.push(step.id);
    }
  }
  return { planned, notRun };
}

export interface MissingInput {
  /** the question id: `<stepId>.<input>` */
  id: string;
  stepId: string;
  input: string;
  text: string;
  /** what an answer looks like (the capability's example or default): the answer box's placeholder */
  exampleAnswer?: string;
}

/**
 * confirm: the inputs to ask for — bound `{ask:true}`, or a required input of the capability that
 * its trigger binding resolves to nothing (or that nothing binds). Step-output bindings are
 * resolved in execute.
 */
export function missingInputs(
  steps: readonly Step[],
  planned: readonly string[],
  capabilities: ReadonlyMap<string, CatalogCapability>,
  event: Record<string, unknown>,
  answers: Record<string, string>,
): MissingInput[] {
  const out: MissingInput[] = [];
  for (const step of steps) {
    if (!planned.includes(step.id)) continue;
    const capability = capabilities.get(step.capabilityId);
    const required = new Set(capability?.inputSchema.required ?? []);
    const names = [...new Set([...Object.keys(step.inputs), ...required])];
    for (const input of names) {
      const id = questionId(step.id, input);
      if (!blank(answers[id])) continue;
      const binding = step.inputs[input];
      const property = capability?.inputSchema.properties[input];
      const description = property?.description ?? input;
      // (the example a description gives is the placeholder, not words of the question: "project key, e.g. OPS")
      const plain = withoutExample(description);
      const text = (b: string | undefined) =>
        (b?.replace(description, plain) ?? `${step.purpose} — ${plain} (${input})`).slice(0, 500);
      const asked = { id, stepId: step.id, input, ...(property ? exampleOf(property) : {}) };
      if (binding && 'ask' in binding) {
        out.push({ ...asked, text: text(binding.question) });
      } else if (required.has(input)) {
        const value = binding ? resolveBinding(binding, { event, outputs: {} }) : undefined;
        const later = binding && 'from' in binding && binding.from === 'step';
        if (!later && blank(value)) out.push({ ...asked, text: text(undefined) });
      }
    }
  }
  return out;
}

/** Nothing to act on: no value, or text of nothing but spaces. Pure. */
const blank = (value: unknown): boolean =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** An answer in words as the type the input's schema asks for ("42.5" → 42.5 for a number). */
export function coerce(capability: CatalogCapability | undefined, input: string, value: string): unknown {
  const prop = capability?.inputSchema.properties[input];
  const text = value.trim();
  if ((prop?.type === 'number' || prop?.type === 'integer') && text !== '' && Number.isFinite(Number(text))) return Number(text);
  if (prop?.type === 'boolean' && /^(true|false|yes|no)$/i.test(text)) return /^(true|yes)$/i.test(text);
  if (prop?.type === 'array')
    return text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  // (a person's "\t#tab\n" is the channel #tab)
  return text;
}

/**
 * A bound value in the shape its input's schema asks for, where one reads plainly as the other: one
 * address where a list of them is asked (the trigger's `email` → `to: [email]`), a number or a yes/no
 * where text is asked, an object where JSON text is asked (a request's body carrying the event), a number written as text where a number is asked. Anything else is left as it
 * is, for the registry's check of the arguments to refuse by name.
 */
export function fitted(prop: JsonSchemaProperty | undefined, value: unknown): unknown {
  // nothing said (an empty field of the event) stays nothing: the answer asked for it takes its place
  if (value === undefined || value === null || value === '' || !prop?.type) return value;
  if (prop.type === 'array' && !Array.isArray(value) && typeof value !== 'object') return [value];
  if (prop.type === 'string' && (typeof value === 'number' || typeof value === 'boolean')) return String(value);
  // JSON text asked (a request's body) and a whole object bound (the trigger event): written as JSON
  if (prop.type === 'string' && typeof value === 'object' && /\bjson\b/i.test(prop.description ?? ''))
    return JSON.stringify(value);
  if ((prop.type === 'number' || prop.type === 'integer') && typeof value === 'string' && value.trim() !== '') {
    const n = Number(value);
    if (Number.isFinite(n) && (prop.type === 'number' || Number.isInteger(n))) return n;
  }
  return value;
}

/**
 * A step's arguments from its bindings. `unresolved` lists the inputs that resolved to nothing
 * (a required one among them means the step cannot be called).
 */
export function resolveArgs(
  step: Step,
  capability: CatalogCapability | undefined,
  sources: Sources,
  answers: Record<string, string>,
): { args: Record<string, unknown>; unresolved: string[] } {
  const args: Record<string, unknown> = {};
  const unresolved: string[] = [];
  const names = [...new Set([...Object.keys(step.inputs), ...(capability?.inputSchema.required ?? [])])];
  for (const input of names) {
    const binding = step.inputs[input];
    const answered = answers[questionId(step.id, input)];
    let value = binding
      ? fitted(capability?.inputSchema.properties[input], resolveBinding(binding, sources, undefined))
      : undefined;
    if (blank(value) && !blank(answered)) value = coerce(capability, input, answered as string);
    // (an event's "   " is no payment id: nothing, as an empty one is)
    if (blank(value)) unresolved.push(input);
    else args[input] = value;
  }
  return { args, unresolved };
}

/** The arguments as an approver sees them: step outputs not known yet are named by their source. */
export function previewArgs(
  step: Step,
  capability: CatalogCapability | undefined,
  event: Record<string, unknown>,
  answers: Record<string, string>,
): Record<string, unknown> {
  const { args } = resolveArgs(step, capability, { event, outputs: {} }, answers);
  for (const [input, binding] of Object.entries(step.inputs))
    if ('from' in binding && binding.from === 'step')
      args[input] = `<output of ${binding.stepId}${binding.path ? `: ${binding.path}` : ''}>`;
  return args;
}

/** JSON with object keys sorted: the same arguments always hash the same. */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonical((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `executionId/stepId/hash(args)`: the same call of the same step of the same run never acts twice. */
export const idempotencyKey = (executionId: string, stepId: string, args: Record<string, unknown>): string =>
  `${executionId}/${stepId}/${createHash('sha256').update(canonical(args)).digest('hex').slice(0, 32)}`;

/** Whether a trigger event matches the workflow's trigger parameters (a parameter the event carries must agree). */
export function eventMatches(params: Record<string, unknown>, event: Record<string, unknown>): boolean {
  return Object.entries(params).every(([name, want]) => {
    const got = event[name];
    if (got === undefined || want === undefined || want === '' || typeof want === 'object') return true;
    return String(got).toLowerCase() === String(want).toLowerCase();
  });
}
