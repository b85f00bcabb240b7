/**
 * Canonical JSON: object keys sorted at every depth (by UTF-16 code units, as `Array.prototype.sort`),
 * no whitespace, `undefined` fields left out. The same fact always serialises the same: the event
 * store's hash chain is over it (docs/decisions.md, "The hash chain"), and the publisher writes facts
 * in it, so that a consumer that needs it again (the event store) finds the parsed fact already in
 * order and lets `JSON.stringify` write it.
 *
 * Three ways to the same text, cheapest first:
 * - every object's keys already in order (a fact as the publisher wrote it, parsed): `JSON.stringify`;
 * - plain JSON values, keys out of order: the objects rebuilt with their keys sorted, then `JSON.stringify`;
 * - anything else (keys that `JSON.stringify` would not write in insertion order, such as `"10"`,
 *   a `__proto__` key, functions, objects that are not plain): written part by part.
 */

const SORTED = 0;
const UNSORTED = 1;
const OTHER = 2;

/** Is a key one an object keeps in insertion order and one a plain assignment stores as an own property? */
const ordinaryKey = (key: string): boolean => {
  const first = key.charCodeAt(0);
  // integer-like keys ("0", "10") are enumerated before the others, in numeric order
  return !(first >= 48 && first <= 57) && key !== '__proto__';
};

function isPlainObject(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** How `value` can be written: SORTED, UNSORTED (plain JSON, keys out of order) or OTHER. */
function shape(value: unknown): number {
  if (value === null || typeof value !== 'object') {
    return typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint' ? OTHER : SORTED;
  }
  let result = SORTED;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const item = shape(value[i]);
      if (item === OTHER) return OTHER;
      if (item === UNSORTED) result = UNSORTED;
    }
    return result;
  }
  if (!isPlainObject(value)) return OTHER;
  let previous: string | null = null;
  for (const key in value) {
    if (!ordinaryKey(key)) return OTHER;
    if (previous !== null && previous >= key) result = UNSORTED;
    previous = key;
    const item = shape((value as Record<string, unknown>)[key]);
    if (item === OTHER) return OTHER;
    if (item === UNSORTED) result = UNSORTED;
  }
  return result;
}

/** A copy of a plain JSON value (`shape` UNSORTED) with every object's keys inserted in sorted order. */
function sorted(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map(sorted);
  const record = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(record).sort()) out[key] = sorted(record[key]);
  return out;
}

/** Object keys as JSON strings: a fact's keys come from a small set, each quoted once. */
const quotedKeys = new Map<string, string>();
const MAX_QUOTED_KEYS = 10_000;

function quoted(key: string): string {
  let json = quotedKeys.get(key);
  if (json === undefined) {
    json = JSON.stringify(key);
    if (quotedKeys.size < MAX_QUOTED_KEYS) quotedKeys.set(key, json);
  }
  return json;
}

/**
 * Written as parts joined once, so that the result is one flat string: built with `+=` it would be a
 * tree of a hundred-odd pieces that every later reader (the hash, the COPY line) flattens again.
 */
function writeCanonical(value: unknown, out: string[]): void {
  if (value === null || typeof value !== 'object') {
    out.push(JSON.stringify(value) ?? 'null');
    return;
  }
  if (Array.isArray(value)) {
    out.push('[');
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out.push(',');
      const item: unknown = value[i];
      if (item === undefined) out.push('null');
      else writeCanonical(item, out);
    }
    out.push(']');
    return;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  out.push('{');
  let first = true;
  for (const key of keys) {
    const item = record[key];
    if (item === undefined) continue;
    if (!first) out.push(',');
    first = false;
    out.push(quoted(key), ':');
    writeCanonical(item, out);
  }
  out.push('}');
}

/** The canonical JSON text of a value (see the top of this file). */
export function canonicalJson(value: unknown): string {
  switch (shape(value)) {
    case SORTED:
      return JSON.stringify(value) ?? 'null';
    case UNSORTED:
      return JSON.stringify(sorted(value)) ?? 'null';
    default: {
      const parts: string[] = [];
      writeCanonical(value, parts);
      return parts.join('');
    }
  }
}
