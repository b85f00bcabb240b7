import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { canonicalJson, chainHash, chainKeyOf, LOCK_BUCKETS, lockBucket, summarize, whoOf } from '../src';
import { creation, employeeFacts, factsFor, script } from './builders';

describe('canonical JSON', () => {
  it('sorts keys at every depth and drops undefined fields, so equal facts serialise equally', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: null, y: 'é"' }], c: undefined } })).toBe(
      '{"a":{"d":[3,{"y":"é\\"","z":null}]},"b":1}',
    );
    expect(canonicalJson({ x: 1, y: 2 })).toBe(canonicalJson({ y: 2, x: 1 }));
  });

  it('is what JSON.parse reads back (a stored payload hashes as the fact did)', () => {
    const fact = creation(script()).at(-1);
    const text = canonicalJson(fact);
    expect(canonicalJson(JSON.parse(text))).toBe(text);
  });
});

describe('hash chain', () => {
  it('hashes sha256(prev_hash + canonical fact), with nothing before the first', () => {
    const [a, b] = creation(script());
    const first = chainHash(null, canonicalJson(a));
    expect(first).toBe(createHash('sha256').update(canonicalJson(a)).digest('hex'));
    expect(chainHash(first, canonicalJson(b))).toBe(
      createHash('sha256')
        .update(first + canonicalJson(b))
        .digest('hex'),
    );
  });

  it('chains per execution, else per conversation within the org, else per org', () => {
    const s = script({ executionId: 'e-1', conversationId: 'c-1', orgId: 'acme' });
    const f = factsFor(s);
    expect(chainKeyOf(f.prompt('p'))).toBe('execution/e-1');
    expect(chainKeyOf(f.uiMessage())).toBe('conversation/acme/c-1');
    const bare = { ...f.trigger(), correlation: {} };
    expect(chainKeyOf(bare)).toBe('org/acme');
  });

  it('spreads keys over a bounded number of lock buckets', () => {
    const buckets = new Set(Array.from({ length: 10_000 }, (_, i) => lockBucket(`execution/${i}`)));
    expect(Math.max(...buckets)).toBeLessThan(LOCK_BUCKETS);
    expect(buckets.size).toBe(LOCK_BUCKETS);
  });
});

describe('timeline lines', () => {
  it('say who did what for every fact of a creation', () => {
    const s = script({ userId: 'ada' });
    const lines = creation(s).map((f) => `${f.type} | ${whoOf(f)} | ${summarize(f)}`);
    expect(lines).toEqual([
      'UIMessage | ada | user: I need a support agent',
      'TriggerCreated | ada | create_graph: a support agent',
      `RunIntent | supervisor | start employee ${s.employeeId} (trigger ${s.triggerId})`,
      'ExecutionEvent | graph-creator | phase, phase analysis, 10%',
      `HILPrompt | graph-creator | options prompt ${s.executionId}-p1 (2 options): Pick one (${s.executionId}-p1)`,
      `HILResponse | ada | answer to ${s.executionId}-p1: selected a`,
      'ExecutionEvent | graph-creator | phase, phase matching, 50%',
      `HILPrompt | graph-creator | options prompt ${s.executionId}-p2 (2 options): Pick one (${s.executionId}-p2)`,
      `HILResponse | ada | answer to ${s.executionId}-p2: selected b`,
      'ExecutionEvent | graph-creator | phase, phase assembly, 100%',
      'ExecutionResult | graph-creator | completed: employee "Support agent"',
    ]);
  });

  it('say of a step’s event which step, which tool and why it failed or was refused', () => {
    const run = employeeFacts('acme', 'emp-1');
    const refused = { ...run.effect('e-1', 'refund', 'failed'), reason: 'policy_denied' };
    expect(summarize(refused)).toBe('tool_failed, step refund, zendesk.reply_ticket, (policy_denied), zendesk said no');
    expect(summarize(run.effect('e-1', 'reply', 'succeeded'))).toBe('tool_succeeded, step reply, zendesk.reply_ticket');
  });
});
