import { describe, expect, it } from 'vitest';
import { Limits, unstorableText } from '../src';

describe('unstorableText: text no fact can carry, found at the edge', () => {
  it('given text with letters, accents, emoji and escapes, when checked, then nothing is found', () => {
    expect(
      unstorableText({ jobDescription: 'Refunds — café 😀 \t\n "quoted"', n: 1, ok: true, none: null, list: ['a', 2] }),
    ).toBeNull();
    expect(unstorableText('plain')).toBeNull();
    expect(unstorableText(undefined)).toBeNull();
  });

  it('given a NUL deep in an object, when checked, then the field is named as a JSON pointer', () => {
    const found = unstorableText(JSON.parse('{"payload":{"jobDescription":"Sales\\u0000assistant"}}'));
    expect(found).toEqual({ path: '/payload/jobDescription', message: expect.stringContaining('NUL') });
  });

  it('given a number too large to be finite ("1e400"), when checked, then its field is named; a large finite one is not', () => {
    expect(unstorableText(JSON.parse('{"ticketId":"T-1","amount":1e400}'))).toEqual({
      path: '/amount',
      message: expect.stringContaining('too large'),
    });
    expect(unstorableText(JSON.parse('{"list":[1,-1e999]}'))?.path).toBe('/list/1');
    expect(unstorableText(JSON.parse('{"amount":1e300}'))).toBeNull();
  });

  it('given a lone high or low surrogate, when checked, then it is found; a whole pair is not', () => {
    expect(unstorableText(JSON.parse('{"text":"a\\ud800b"}'))).toEqual({
      path: '/text',
      message: expect.stringContaining('surrogate'),
    });
    expect(unstorableText(JSON.parse('{"text":"\\udc00"}'))?.path).toBe('/text');
    expect(unstorableText(JSON.parse('{"text":"end\\ud83d"}'))?.path).toBe('/text');
    expect(unstorableText(JSON.parse('{"text":"\\ud83d\\ude00"}'))).toBeNull();
  });

  it('given JSON nested deeper than the limit (5,000 objects or arrays), when checked, then it is refused at the level it passes the limit, without exhausting the stack', () => {
    const deep = (n: number, open: string, close: string) => JSON.parse(`{"extra":${open.repeat(n)}1${close.repeat(n)}}`);
    expect(unstorableText(deep(5_000, '{"a":', '}'))).toEqual({
      path: `/extra${'/a'.repeat(Limits.jsonDepth)}`,
      message: `nests deeper than ${Limits.jsonDepth} levels`,
    });
    expect(unstorableText(deep(5_000, '[', ']'))?.message).toContain('nests deeper');
    // as deep as the limit is fine
    expect(unstorableText(deep(Limits.jsonDepth - 1, '{"a":', '}'))).toBeNull();
  });

  it('given a bad item of an array, when checked, then its index is named', () => {
    expect(unstorableText({ answers: { q1: 'fine', q2: ['ok', 'no\u0000'] } })?.path).toBe('/answers/q2/1');
  });

  it('given a bad key, when checked, then the key is named, escaped as a pointer step', () => {
    const found = unstorableText({ 'a/b~\u0000': 'x' });
    expect(found).toEqual({ path: '/a~1b~0\u0000', message: expect.stringMatching(/^its name holds a NUL/) });
  });

  it('given a whole value that is bad text, when checked, then the path is the root', () => {
    expect(unstorableText('\u0000')?.path).toBe('/');
  });

  it('given bytes rather than parsed JSON, when checked, then they are not walked', () => {
    expect(unstorableText(Buffer.from('\u0000'))).toBeNull();
    expect(unstorableText({ body: Buffer.from([0, 0]) })).toBeNull();
  });
});
