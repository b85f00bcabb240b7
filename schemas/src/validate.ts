import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { ValueErrorType } from '@sinclair/typebox/errors';
import { Value } from '@sinclair/typebox/value';
import type { AnyFact } from './facts';
import { FactSchemas, NavigationAnswer, OptionsAnswer, QuestionsAnswer } from './facts';
import { Limits } from './limits';
import { FactTypes } from './topics';

export interface FieldError {
  /** JSON pointer of the failing field, e.g. `/payload/jobDescription` */
  path: string;
  message: string;
}
export type Validation<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

const compiled = new WeakMap<TSchema, TypeCheck<TSchema>>();

/** The compiled checker of a schema (compiled once, then cached). */
export function checker<T extends TSchema>(schema: T): TypeCheck<T> {
  let check = compiled.get(schema);
  if (!check) {
    check = TypeCompiler.Compile(schema);
    compiled.set(schema, check);
  }
  return check as TypeCheck<T>;
}

/** Validates a value, returning every failing field (at most 10) with its JSON pointer. */
export function validate<T extends TSchema>(schema: T, value: unknown): Validation<Static<T>> {
  const check = checker(schema);
  if (check.Check(value)) return { ok: true, value };
  return { ok: false, errors: firstErrors(check.Errors(value)) };
}

/**
 * `validate` for a schema made for one value (a prompt's answer schema, built per answer): checked
 * without compiling it, for compiling costs a millisecond or more and is then thrown away.
 */
export function validateOnce<T extends TSchema>(schema: T, value: unknown): Validation<Static<T>> {
  if (Value.Check(schema, value)) return { ok: true, value };
  return { ok: false, errors: firstErrors(Value.Errors(schema, value)) };
}

/** A failure as TypeBox reports it: where, what, and the schema it broke. */
export interface SchemaError {
  path: string;
  message: string;
  schema?: TSchema;
  type?: ValueErrorType;
}

/**
 * A failure's message, naming the allowed values where the schema is a choice of constants (TypeBox says
 * only "Expected union value" there, which tells the sender nothing they can fix). Pure.
 */
export function errorMessage(error: SchemaError): string {
  const choices = error.schema?.anyOf as TSchema[] | undefined;
  if (error.type !== ValueErrorType.Union || !choices || choices.length === 0 || !choices.every((c) => 'const' in c))
    return error.message;
  return `Expected one of ${choices.map((c) => JSON.stringify(c.const)).join(', ')}`;
}

function firstErrors(found: Iterable<SchemaError>): FieldError[] {
  const errors: FieldError[] = [];
  for (const e of found) {
    errors.push({ path: e.path || '/', message: errorMessage(e) });
    if (errors.length >= 10) break;
  }
  return errors;
}

/** One line naming the fields: `/payload/jobDescription: Expected string length less or equal to 20000`. */
export const describeErrors = (errors: readonly FieldError[]): string => errors.map((e) => `${e.path}: ${e.message}`).join('; ');

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The branch of a union a value means, by its discriminator: its errors name fields, the union's do not. */
function variantOf(schema: TSchema, key: string, value: unknown): TSchema | undefined {
  return (schema.anyOf as TSchema[] | undefined)?.find(
    (v) => (v.properties as Record<string, { const?: unknown }>)[key]?.const === value,
  );
}

function answerBranch(payload: unknown): TSchema | undefined {
  if (!isObject(payload)) return undefined;
  if ('action' in payload) return NavigationAnswer;
  if ('selected' in payload) return OptionsAnswer;
  if ('answers' in payload) return QuestionsAnswer;
  return undefined;
}

/** Turns a union's generic "Expected union value" into the failing fields of the branch the fact means. */
function refine(fact: Record<string, unknown>, errors: FieldError[]): FieldError[] {
  const discriminated = { TriggerCreated: 'triggerType', HILPrompt: 'kind' } as const;
  if (fact.type === 'TriggerCreated' || fact.type === 'HILPrompt') {
    const key = discriminated[fact.type];
    const variant = variantOf(FactSchemas[fact.type], key, fact[key]);
    if (!variant) {
      const allowed = fact.type === 'TriggerCreated' ? 'create_graph or cancel_execution' : 'options or questions';
      return [{ path: `/${key}`, message: `unknown ${key} ${JSON.stringify(fact[key])}: expected ${allowed}` }];
    }
    const inner = validate(variant, fact);
    return inner.ok ? errors : inner.errors;
  }
  if (fact.type === 'HILResponse' && errors.some((e) => e.path === '/payload')) {
    const branch = answerBranch(fact.payload);
    const inner = branch ? validate(branch, fact.payload) : undefined;
    if (inner && !inner.ok)
      return inner.errors.map((e) => ({ path: `/payload${e.path === '/' ? '' : e.path}`, message: e.message }));
    if (!branch) return [{ path: '/payload', message: 'expected {selected: [...]}, {answers: {...}} or {action}' }];
  }
  return errors;
}

/** Validates any fact: an unknown `type` fails naming `/type`; otherwise the fact's own schema applies. */
export function validateFact(value: unknown): Validation<AnyFact> {
  if (!isObject(value)) return { ok: false, errors: [{ path: '/', message: 'a fact must be a JSON object' }] };
  const type = value.type;
  if (typeof type !== 'string' || !(FactTypes as readonly string[]).includes(type)) {
    return {
      ok: false,
      errors: [{ path: '/type', message: `unknown fact type ${JSON.stringify(type)}: expected one of ${FactTypes.join(', ')}` }],
    };
  }
  const result = validate(FactSchemas[type as keyof typeof FactSchemas], value);
  if (result.ok) return result as Validation<AnyFact>;
  return { ok: false, errors: refine(value, result.errors) };
}

/** Parses Kafka bytes into a validated fact. */
export function parseFact(bytes: Buffer | string | null | undefined): Validation<AnyFact> {
  if (bytes === null || bytes === undefined) return { ok: false, errors: [{ path: '/', message: 'empty message' }] };
  let value: unknown;
  try {
    value = JSON.parse(typeof bytes === 'string' ? bytes : bytes.toString('utf8'));
  } catch (error) {
    return { ok: false, errors: [{ path: '/', message: `not JSON: ${(error as Error).message}` }] };
  }
  return validateFact(value);
}

export const AnyFactSchema = Type.Union(Object.values(FactSchemas));

/** A NUL, or half of a UTF-16 surrogate pair without its other half. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the NUL is what it looks for
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** A key as one step of a JSON pointer (RFC 6901). */
const pointerStep = (key: string): string => key.replaceAll('~', '~0').replaceAll('/', '~1');

const isPlain = (v: object): boolean => {
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, 'g');

/** The first `max` UTF-16 units of a text, one fewer where the cut would split a surrogate pair (an emoji). Pure. */
export function firstUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = max > 0 && /[\ud800-\udbff]/.test(text.charAt(max - 1)) ? max - 1 : max;
  return text.slice(0, Math.max(0, end));
}

/** A text of at most `max` UTF-16 units: cut, an ellipsis last, never through an emoji (`firstUnits`). Pure. */
export const clipped = (text: string, max: number): string => (text.length <= max ? text : `${firstUnits(text, max - 1)}…`);

/**
 * A copy of a value from outside hireloop that is not the user's to refuse (a provider's answer, an error it gave),
 * with what no fact can carry made storable: a NUL or a lone surrogate becomes U+FFFD (as a UTF-8 decoder writes an
 * unreadable byte), in values and keys; a number too large to be finite becomes null (as JSON writes it); anything
 * nested deeper than `Limits.jsonDepth` is cut there, said so. The user's own input is refused instead
 * (`unstorableText`). Plain objects and arrays are copied; other values are returned as they are. Pure.
 */
export function storable<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.replace(UNSTORABLE_ALL, '\ufffd') as T;
  if (typeof value === 'number') return (Number.isFinite(value) ? value : null) as T;
  if (typeof value !== 'object' || value === null) return value;
  if (depth >= Limits.jsonDepth) return `(nested deeper than ${Limits.jsonDepth} levels: cut)` as T;
  if (Array.isArray(value)) return value.map((item) => storable(item, depth + 1)) as T;
  if (!isPlain(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(v, depth + 1)])) as T;
}

/**
 * The first string (value or key) of parsed JSON that no fact can carry, as a field error: a NUL
 * character (`\u0000`), which Postgres' `jsonb` cannot hold, or a lone UTF-16 surrogate, which is no
 * text at all (both are valid JSON escapes, so a JSON parser lets them through). Every fact is kept in
 * Postgres: an input holding one would be accepted and then lost, so the edge refuses it naming the
 * field; so is a number too large to be finite ("1e400", which JSON parses as Infinity and writes as null). Walks plain objects and arrays only; null when there is none. Input nested deeper than
 * `Limits.jsonDepth` is refused as well, before anything walks it recursively. Pure.
 */
export function unstorableText(value: unknown, path = '', depth = 0): FieldError | null {
  if (depth > Limits.jsonDepth && typeof value === 'object' && value !== null)
    return { path: path || '/', message: `nests deeper than ${Limits.jsonDepth} levels` };
  if (typeof value === 'string') {
    const found = UNSTORABLE.exec(value)?.[0];
    if (found === undefined) return null;
    return {
      path: path || '/',
      message:
        found === '\u0000'
          ? 'holds a NUL character (\\u0000), which text cannot hold here'
          : 'holds half of a UTF-16 surrogate pair, which is not text',
    };
  }
  // "1e400" parses as Infinity, which JSON cannot carry on: it would be stored as null
  if (typeof value === 'number' && !Number.isFinite(value))
    return { path: path || '/', message: 'is a number too large to store (JSON holds finite numbers only)' };
  if (typeof value !== 'object' || value === null) return null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = unstorableText(item, `${path}/${i}`, depth + 1);
      if (found) return found;
    }
    return null;
  }
  if (!isPlain(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    const at = `${path}/${pointerStep(key)}`;
    const name = unstorableText(key, at);
    if (name) return { path: at, message: `its name ${name.message}` };
    const found = unstorableText(item, at, depth + 1);
    if (found) return found;
  }
  return null;
}
