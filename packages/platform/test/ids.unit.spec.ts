import { describe, expect, it } from 'vitest';
import { randomHex, traceparent } from '../src/ids';

const W3C = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

describe('traceparent', () => {
  it('given no parent, when made, then it is a W3C traceparent with a new trace, sampled', () => {
    const made = traceparent();
    expect(made).toMatch(W3C);
    expect(made.endsWith('-01')).toBe(true);
  });

  it('given a parent, when a child is made, then it keeps the trace id and the flags and gets a new span id', () => {
    const parent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-00';
    const child = traceparent(parent);
    expect(child).toMatch(/^00-0af7651916cd43dd8448eb211c80319c-[0-9a-f]{16}-00$/);
    expect(child.split('-')[2]).not.toBe('b7ad6b7169203331');
  });

  it('given a parent that is not a traceparent, when a child is made, then it starts a trace of its own', () => {
    expect(traceparent('not-a-trace')).toMatch(W3C);
  });

  it('given many made in a row, across several refills of the random pool, then no trace or span id repeats', () => {
    const traces = new Set<string>();
    const spans = new Set<string>();
    const n = 2_000; // 24 bytes each: about a dozen refills of the 4 KiB pool
    for (let i = 0; i < n; i++) {
      const [, trace, span] = traceparent().split('-');
      traces.add(trace as string);
      spans.add(span as string);
    }
    expect(traces.size).toBe(n);
    expect(spans.size).toBe(n);
  });
});

describe('randomHex', () => {
  it('given a size larger than the pool, when asked, then it answers that many random bytes', () => {
    expect(randomHex(5_000)).toMatch(/^[0-9a-f]{10000}$/);
    expect(randomHex(8)).toMatch(/^[0-9a-f]{16}$/);
  });
});
