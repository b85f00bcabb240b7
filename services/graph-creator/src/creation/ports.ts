import type { Catalog } from '@hireloop/analyst';

// The analyst's port is the analyst package's own (`Analyst` in @hireloop/analyst); these are the
// creation graph's other ports.

/** Where the org's view of the Connect Hub catalog comes from (the hub's HTTP API, cached per org). */
export interface CatalogSource {
  forOrg(orgId: string): Promise<Catalog>;
}

/** The org's budgets for the Graph Creator's own loops (its policy's `budgets`), where it set them. */
export interface CreationBudgets {
  forOrg(orgId: string): Promise<{ maxRounds?: number; maxRoutes?: number; maxTokens?: number }>;
}

/** The next version of an employee of this name in this org (from the employee registry). */
export interface EmployeeVersions {
  nextVersion(orgId: string, name: string): Promise<number>;
}
