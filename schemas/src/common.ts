import { FormatRegistry, type TLiteral, type TUnion, Type } from '@sinclair/typebox';
import { Limits } from './limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => UUID.test(v));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => isDateTime(v));

const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:[Zz]|[+-](\d\d):?(\d\d))?$/;

/**
 * An ISO 8601 date-time that names a real instant Postgres holds: a day that exists in its month (not 2026-02-30,
 * which `Date.parse` rolls over into March), a year from 1 to 9999, a time up to 24:00, and an offset within ±15:59
 * (`Z`, `+01:00`, `+0100` or none) — what a `timestamptz` column takes, so that a date the edge lets through is never
 * a 500 further in. Seconds and their fraction may be left out. Pure.
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, offsetHour, offsetMinute] = m.slice(1, 9).map((part) => Number(part ?? 0));
  if (!year || !month || month > 12 || !day) return false;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return false;
  if ((hour ?? 0) > 24 || (minute ?? 0) > 59 || (second ?? 0) > 59) return false;
  if (hour === 24 && (minute !== 0 || second !== 0)) return false;
  return (offsetHour ?? 0) <= 15 && (offsetMinute ?? 0) <= 59;
}

/** A character that shows something: not white space, nor a zero-width one (U+200B–U+200D, U+2060; \s holds U+FEFF). */
export const SHOWS_SOMETHING = '[^\\s\\u200B-\\u200D\\u2060]';
const SHOWN = new RegExp(SHOWS_SOMETHING);
/** Text that shows nothing to a reader: empty, white space, or zero-width characters alone. Pure. */
export const isBlank = (text: string): boolean => !SHOWN.test(text);

export const Uuid = Type.String({ format: 'uuid', maxLength: 36 });
export const Id = Type.String({ minLength: 1, maxLength: Limits.id, pattern: '^[A-Za-z0-9._:@-]+$' });
export const Name = Type.String({ minLength: 1, maxLength: Limits.name });
export const ShortText = Type.String({ maxLength: Limits.shortText });
export const Text = Type.String({ maxLength: Limits.text });
export const Timestamp = Type.String({ format: 'date-time', maxLength: 40 });
export const Percent = Type.Number({ minimum: 0, maximum: 100 });

/** A union of string literals: `Literals(['a', 'b'])`. */
export const Literals = <const T extends readonly string[]>(values: T): TUnion<TLiteral<T[number]>[]> =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<TLiteral<T[number]>[]>;

/** A JSON object of bounded size whose shape is described elsewhere (a JSON Schema, parameters). */
export const JsonObject = (description: string, extra: object = {}) =>
  Type.Record(Type.String({ maxLength: Limits.name }), Type.Unknown(), { description, maxProperties: 100, ...extra });
