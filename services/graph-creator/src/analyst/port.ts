import type { CapabilityMatch, Catalog, DraftWorkflow, JobAnalysis } from './types';

export type { Catalog } from './types';

/**
 * The analyst behind the graph's analysis and matching nodes (ARCHITECTURE §8): the offline analyst
 * by default, a chat model when one is configured (its output validated by the schemas in types.ts).
 */
export interface Analyst {
  analyse(jobDescription: string): Promise<JobAnalysis>;
  matchCapabilities(workflow: DraftWorkflow, catalog: Catalog): Promise<CapabilityMatch>;
}
