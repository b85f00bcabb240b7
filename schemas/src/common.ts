import { FormatRegistry, type TLiteral, type TUnion, Type } from '@sinclair/typebox';
import { Limits } from './limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => UUID.test(v));
if (!FormatRegistry.Has('date-time')) FormatRegistry.Set('date-time', (v) => isDateTime(v));

const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(?:\.\d{1,9})?(?:[Zz]|([+-])(\d\d):(\d\d))$/;

/**
 * An RFC 3339 date-time that names a real instant Postgres can hold: a day that exists in its month (not
 * 2026-02-30, which `Date.parse` rolls over into March), a year from 1 to 9999, and an offset within ±15:59 —
 * what a `timestamptz` column takes, so that a date the edge lets through is never a 500 further in. Pure.
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [year, month, day, hour, minute, second, , offsetHour, offsetMinute] = [...m.slice(1, 7), m[7], m[8], m[9]].map(Number);
  if (!year || !month || month > 12 || !day) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth || (hour ?? 0) > 23 || (minute ?? 0) > 59 || (second ?? 0) > 60) return false;
  if (m[7] !== undefined && ((offsetHour ?? 0) > 15 || (offsetMinute ?? 0) > 59)) return false;
  return !Number.isNaN(Date.parse(value));
}

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
