import { describe, expect, it } from 'vitest';
import { creationBudgetsOf, policyBudgets } from '../src/creation/budgets';
import { memoryPolicies } from '../src/tools/guards';

describe("the Graph Creator's bounds from the org's policy", () => {
  it('given budgets for the loops and tokens, then each is the bound; the run budgets are not the creation’s', () => {
    expect(
      creationBudgetsOf({ budgets: { maxCreationRounds: 2, maxCreationRoutes: 1, maxTokens: 9_000, maxToolCalls: 4 } }),
    ).toEqual({ maxRounds: 2, maxRoutes: 1, maxTokens: 9_000 });
  });

  it('given no budgets, or only some, then only those are set (the worker’s defaults fill the rest)', () => {
    expect(creationBudgetsOf({})).toEqual({});
    expect(creationBudgetsOf({ budgets: { maxCreationRounds: 3 } })).toEqual({ maxRounds: 3 });
  });

  it('reads the org’s own policy: another org has its own', async () => {
    const budgets = policyBudgets(memoryPolicies({ acme: { budgets: { maxCreationRoutes: 1 } } }));
    expect(await budgets.forOrg('acme')).toEqual({ maxRoutes: 1 });
    expect(await budgets.forOrg('globex')).toEqual({});
  });
});
