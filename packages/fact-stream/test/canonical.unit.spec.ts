import { describe, expect, it } from 'vitest';
import { canonicalJson, makeFact } from '../src';

/** The definition, written plainly: keys sorted at every depth, `undefined` fields left out. */
function reference(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${Array.from(value, (item) => (item === undefined ? 'null' : reference(item))).join(',')}]`;
  const record = value as Record<string, unknown>;
  const fields = Object.keys(record)
    .sort()
    .filter((key) => record[key] !== undefined)
    .map((key) => `${JSON.stringify(key)}:${reference(record[key])}`);
  return `{${fields.join(',')}}`;
}

const fact = makeFact(
  'HILPrompt',
  { orgId: 'acme', correlation: { executionId: 'e-1', conversationId: 'c-1', userId: 'u-1' } },
  {
    executionId: 'e-1',
    promptId: 'p-1',
    messages: ['Which tools?'],
    kind: 'options',
    inputSchema: { type: 'object', required: ['selected'], properties: { selected: { type: 'array' } } },
    options: [{ id: 'gmail', label: 'Gmail', recommended: true }],
    selectionRules: { mode: 'multi', min: 1 },
    progress: 40,
  },
);

describe('canonical JSON', () => {
  it('given a fact as built (keys out of order), sorts them at every depth', () => {
    const text = canonicalJson(fact);
    expect(text).toBe(reference(fact));
    expect(
      text.startsWith('{"correlation":{"conversationId":"c-1","executionId":"e-1","userId":"u-1"},"executionId":"e-1"'),
    ).toBe(true);
  });

  it('given the canonical text parsed back (keys in order), writes the same text', () => {
    const text = canonicalJson(fact);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });

  it('given values JSON.stringify would write otherwise, writes them by the definition', () => {
    const cases: unknown[] = [
      // integer-like keys: an object enumerates them first, in numeric order; canonical order is by code units
      { 10: 'a', 9: 'b', x: 1 },
      { a: { 2: true, 10: false } },
      JSON.parse('{"__proto__":{"polluted":true},"a":1}'),
      { b: () => 1, a: 1 },
      [() => 1, Symbol('s'), undefined],
      { when: new Date('2026-11-24T10:00:00.000Z') },
      { n: Object.assign(Object.create({ inherited: 1 }), { own: 2 }) },
      { nested: [{ z: 1, y: [{ b: 2, a: 1 }] }], é: 'é', E: '\u2028', emoji: '😀' },
      { a: undefined, b: null, c: Number.NaN, d: -0, e: [undefined, 1] },
      Object.assign(Object.create(null), { b: 1, a: 2 }),
      [],
      {},
      'text',
      42,
      null,
      undefined,
    ];
    for (const value of cases) expect(canonicalJson(value)).toBe(reference(value));
  });

  it('given the same value with its keys in another order, writes the same text', () => {
    expect(canonicalJson({ x: 1, y: { b: [1, { d: 1, c: 2 }], a: 0 } })).toBe(
      canonicalJson({ y: { a: 0, b: [1, { c: 2, d: 1 }] }, x: 1 }),
    );
  });
});
