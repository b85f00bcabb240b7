/**
 * The Graph Creator's loops bounded by the org's budgets (ARCHITECTURE §12): its policy's
 * `budgets.maxCreationRounds` and `maxCreationRoutes`, read through the tool registry's policy store.
 */
import type { OrgPolicy } from '@hireloop/schemas';
import type { PolicyStore } from '../tools/guards';
import type { CreationBudgets } from './ports';

/** The loop bounds an org's policy sets, none where it sets none. Pure. */
export function creationBudgetsOf(policy: OrgPolicy): { maxRounds?: number; maxRoutes?: number; maxTokens?: number } {
  const budgets = policy.budgets ?? {};
  return {
    ...(budgets.maxTokens !== undefined ? { maxTokens: budgets.maxTokens } : {}),
    ...(budgets.maxCreationRounds !== undefined ? { maxRounds: budgets.maxCreationRounds } : {}),
    ...(budgets.maxCreationRoutes !== undefined ? { maxRoutes: budgets.maxCreationRoutes } : {}),
  };
}

export const policyBudgets = (policies: PolicyStore): CreationBudgets => ({
  forOrg: async (orgId) => creationBudgetsOf(await policies.get(orgId)),
});
