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
  await pipeline(Readable.from(copyChunks(lines)), client.query(copyFrom(`COPY ${target} FROM STDIN`)));
}

const CHUNK_BYTES = 1 << 18;

/**
 * Lines encoded straight into buffers of a few hundred kilobytes: the stream then writes them as
 * they are, instead of first joining the lines into one long string and encoding that again.
 */
export function* copyChunks(lines: Iterable<string>): Generator<Buffer> {
  let buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let used = 0;
  for (const line of lines) {
    // a UTF-16 code unit takes at most 3 bytes in UTF-8: room for the line whatever it holds
    if (used + line.length * 3 > buffer.length) {
      if (used > 0) yield buffer.subarray(0, used);
      buffer = Buffer.allocUnsafe(Math.max(CHUNK_BYTES, line.length * 3));
      used = 0;
    }
    used += buffer.write(line, used);
  }
  if (used > 0) yield buffer.subarray(0, used);
}
