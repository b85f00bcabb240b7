/**
 * A faster reader of `bytea[]` (OID 1001) in Postgres' text form. LangGraph's PostgresSaver reads a
 * checkpoint's channel blobs and pending writes as `array_agg(array[… ::bytea, …])`, which pg hands to
 * postgres-array, a character-at-a-time parser: 4% of the worker's CPU under load (issue 16). Elements
 * in hex output are always quoted (`"\\x…"`, the backslash escaped), so the quotes delimit each one and
 * Buffer decodes its hex natively. Anything else (escape output, bounds decoration) goes to pg's own parser.
 */
import pg from 'pg';

export const BYTEA_ARRAY_OID = 1001;
/** pg's own parser of a type (its `TypeId` names only scalar types, not arrays such as `bytea[]`) */
export const pgParser = pg.types.getTypeParser as (oid: number, format: 'text' | 'binary') => (value: string) => unknown;
const HEX_PREFIX = '\\\\x';

type Nested = Array<Buffer | null | Nested>;

/** Not a shape this reader knows: the caller falls back to pg's parser. */
class Unreadable extends Error {}

/** Parses the text form of a bytea array of any dimensions into (nested) arrays of Buffers and nulls. Pure. */
export function parseByteaArray(text: string): Nested {
  try {
    let at = 0;
    const array = (): Nested => {
      if (text[at] !== '{') throw new Unreadable();
      at++;
      const out: Nested = [];
      if (text[at] === '}') {
        at++;
        return out;
      }
      for (;;) {
        const c = text[at];
        if (c === '{') out.push(array());
        else if (c === '"') {
          const end = text.indexOf('"', at + 1);
          if (end < 0 || !text.startsWith(HEX_PREFIX, at + 1)) throw new Unreadable();
          out.push(Buffer.from(text.slice(at + 1 + HEX_PREFIX.length, end), 'hex'));
          at = end + 1;
        } else if (text.startsWith('NULL', at)) {
          out.push(null);
          at += 4;
        } else throw new Unreadable();
        if (text[at] === ',') at++;
        else if (text[at] === '}') {
          at++;
          return out;
        } else throw new Unreadable();
      }
    };
    const parsed = array();
    if (at !== text.length) throw new Unreadable();
    return parsed;
  } catch (error) {
    if (!(error instanceof Unreadable)) throw error;
    return pgParser(BYTEA_ARRAY_OID, 'text')(text) as Nested;
  }
}

/** pg's type parsers, `bytea[]` read by `parseByteaArray`: a pool's `types`. */
export const poolTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === BYTEA_ARRAY_OID && format !== 'binary'
      ? parseByteaArray
      : pgParser(oid, format ?? 'text')) as pg.CustomTypesConfig['getTypeParser'],
};
