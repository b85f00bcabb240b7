import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BYTEA_ARRAY_OID, parseByteaArray, pgParser } from '../src/bytea-array';

type Nested = Array<Uint8Array | null | Nested>;

/** Postgres' text form of a bytea array in hex output: every element quoted, its backslash escaped. */
const textOf = (value: Nested): string =>
  `{${value.map((v) => (v === null ? 'NULL' : Array.isArray(v) ? textOf(v) : `"\\\\x${Buffer.from(v).toString('hex')}"`)).join(',')}}`;

/** pg's own reader of bytea[] */
const pgParse = (text: string) => pgParser(BYTEA_ARRAY_OID, 'text')(text);

const element = fc.oneof(fc.uint8Array({ maxLength: 40 }), fc.constant(null));
const nested: fc.Arbitrary<Nested> = fc.letrec<{ array: Nested }>((tie) => ({
  array: fc.array(fc.oneof({ depthSize: 'small' }, element, tie('array')), { maxLength: 6 }),
})).array;

describe('the bytea[] reader', () => {
  it("given any bytea array of any depth in hex output, when it is read, then it is what pg's own parser reads", async () => {
    await fc.assert(
      fc.property(nested, (value) => {
        const text = textOf(value);
        expect(parseByteaArray(text)).toEqual(pgParse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('given a checkpoint-shaped array (channel, type, blob triples), when it is read, then each element is a Buffer of its bytes', () => {
    const text = textOf([
      [Buffer.from('phase'), Buffer.from('json'), Buffer.from('"step 1"')],
      [Buffer.from('gone'), Buffer.from('empty'), null],
    ]);
    expect(parseByteaArray(text)).toEqual([
      [Buffer.from('phase'), Buffer.from('json'), Buffer.from('"step 1"')],
      [Buffer.from('gone'), Buffer.from('empty'), null],
    ]);
  });

  it('given a form it does not read itself (escape output, bounds decoration), when it is read, then pg parser reads it', () => {
    for (const text of ['{"ab\\\\000c",NULL}', '{abc,def}', '[0:1]={"\\\\x6869","\\\\x"}']) {
      expect(parseByteaArray(text)).toEqual(pgParse(text));
    }
  });
});
