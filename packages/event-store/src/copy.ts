import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PoolClient } from '@hireloop/platform';
import { from as copyFrom } from 'pg-copy-streams';

/**
 * `COPY … FROM STDIN` in text format: the cheapest way into a table Postgres has, and no parameter to
 * serialise per value. The projector appends facts with it, and replay writes rebuilt projections.
 */

const TEXT_SPECIAL = /[\\\n\r\t]/;
const TEXT_ESCAPES: Record<string, string> = { '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** A value as COPY's text format writes it: backslash, newline, carriage return and tab escaped; null as `\N`. */
export const copyText = (value: string | null): string =>
  value === null ? '\\N' : TEXT_SPECIAL.test(value) ? value.replace(/[\\\n\r\t]/g, (c) => TEXT_ESCAPES[c] as string) : value;

/** JSON text as COPY's text format writes it: JSON holds no raw newline, carriage return or tab, only backslashes to double. */
export const copyJson = (json: string): string => (json.includes('\\') ? json.replaceAll('\\', '\\\\') : json);

/** Streams lines (each ending in `\n`) into `COPY <target> FROM STDIN`. */
export async function copyLines(client: PoolClient, target: string, lines: Iterable<string>): Promise<void> {
  await pipeline(Readable.from(chunks(lines)), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}

const LINES_PER_CHUNK = 500;

/** Lines joined a few hundred at a time: fewer, larger writes. */
function* chunks(lines: Iterable<string>): Generator<string> {
  let chunk = '';
  let count = 0;
  for (const line of lines) {
    chunk += line;
    if (++count === LINES_PER_CHUNK) {
      yield chunk;
      chunk = '';
      count = 0;
    }
  }
  if (chunk !== '') yield chunk;
}
