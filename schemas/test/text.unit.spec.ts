import { describe, expect, it } from 'vitest';
import { firstUnits, isDateTime, Limits, storable, unstorableText } from '../src';

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

describe('storable: what comes from outside, made storable rather than refused', () => {
  it('given a provider answer with a NUL and half a surrogate pair, in values and keys, when made storable, then each is U+FFFD and nothing else changes', () => {
    const answer = { body: 'a\u0000b', 'k\u0000': ['ok 😀', '\ud800x', 3, null, true], nested: { x: '\udc00' } };
    const out = storable(answer);
    expect(out).toEqual({ body: 'a\ufffdb', 'k\ufffd': ['ok 😀', '\ufffdx', 3, null, true], nested: { x: '\ufffd' } });
    expect(unstorableText(out)).toBeNull();
    expect(answer.body).toBe('a\u0000b');
  });

  it('given a number too large to be finite, or nesting past the limit, when made storable, then null, and a cut said so', () => {
    expect(storable({ n: Number.POSITIVE_INFINITY })).toEqual({ n: null });
    let deep: unknown = 'leaf';
    for (let i = 0; i < Limits.jsonDepth + 5; i++) deep = { d: deep };
    expect(unstorableText(storable(deep))).toBeNull();
    expect(JSON.stringify(storable(deep))).toContain('cut');
  });
});

describe('firstUnits: a cut that never splits an emoji', () => {
  it('given a cut that would fall inside a surrogate pair, when cut, then the pair is left out whole', () => {
    expect(firstUnits('ab😀cd', 3)).toBe('ab');
    expect(firstUnits('ab😀cd', 4)).toBe('ab😀');
    expect(unstorableText(firstUnits('😀'.repeat(10), 7))).toBeNull();
  });

  it('given a text no longer than the cut, then it is as it was', () => {
    expect(firstUnits('short', 10)).toBe('short');
    expect(firstUnits('', 0)).toBe('');
  });
});

describe('isDateTime: a date-time the edge takes is one Postgres holds', () => {
  it('given ISO 8601 date-times of real instants, then they are taken', () => {
    for (const v of [
      '2026-11-30T10:00:00Z',
      '2026-11-30T10:00:00.123456Z',
      '2024-02-29T23:59:59+05:30',
      '9999-12-31T23:59:59-15:59',
      // what ISO 8601 and Postgres take too: an offset without its colon, none, no seconds, midnight as 24:00
      '2026-11-30T12:00:00+0000',
      '2026-11-30T12:00:00',
      '2026-11-30T12:00Z',
      '2026-11-30T24:00:00Z',
    ])
      expect(isDateTime(v), v).toBe(true);
  });

  it('given a day not in its month, year 0, a time past 24:00, an offset past ±15:59 or of hours alone, or no time, then they are refused', () => {
    for (const v of [
      '2026-02-30T00:00:00Z',
      '2025-02-29T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '2026-11-30T24:00:01Z',
      '2026-11-30T10:00:00+23:59',
      '2026-11-30T10:00:00+05',
      '2026-11-30',
      'yesterday',
    ])
      expect(isDateTime(v), v).toBe(false);
  });
});
