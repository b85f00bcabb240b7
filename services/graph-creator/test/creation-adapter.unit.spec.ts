import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { creationAdapter } from '../src/creation/adapter';
import { memoryCatalog, offlineAnalyst } from './creation-harness';

describe("the creation's events from its nodes' updates", () => {
  const adapter = creationAdapter(new MemorySaver(), { analyst: offlineAnalyst(), catalog: memoryCatalog() });

  it('given a loop budget spent, then a budget_exceeded event saying which, keyed by what it says', () => {
    const events =
      adapter.events?.({ budgetsSpent: ['routes after failed checks: 3 spent; capabilities_known still fails'] }) ?? [];
    expect(events).toEqual([
      {
        key: expect.stringMatching(/^budget_exceeded:[0-9a-f]{16}$/),
        event: 'budget_exceeded',
        reason: 'budget_exceeded',
        detail: 'routes after failed checks: 3 spent; capabilities_known still fails',
      },
    ]);
    // the same budget said again is the same event (same key: one fact)
    expect(adapter.events?.({ budgetsSpent: [events[0]?.detail as string] })?.[0]?.key).toBe(events[0]?.key);
  });

  it('given an update with neither fallbacks nor budgets, then no event', () => {
    expect(adapter.events?.({ phase: 'gaps' })).toEqual([]);
    expect(adapter.events?.(null)).toEqual([]);
  });
});
