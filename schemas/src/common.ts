import { FormatRegistry, type TLiteral, type TUnion, Type } from '@sinclair/typebox';
import { Limits } from './limits';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
if (!FormatRegistry.Has('uuid')) FormatRegistry.Set('uuid', (v) => UUID.test(v));
if (!FormatRegistry.Has('date-time'))
  FormatRegistry.Set('date-time', (v) => !Number.isNaN(Date.parse(v)) && /^\d{4}-\d\d-\d\dT/.test(v));

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
