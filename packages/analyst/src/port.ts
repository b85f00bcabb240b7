import type { CapabilityMatch, Catalog, DraftWorkflow, Finding, JobAnalysis } from './types';

export type { Catalog } from './types';

/** Where an analyst records that it fell back to the offline answer (the creation graph keeps them in its state). */
export type AnalystNotes = string[];

/**
 * The one analyst port behind the creation graph's nodes (ARCHITECTURE §8): understanding a job
 * description, matching it to the org's catalog, and finding what to ask. The offline analyst is the
 * default; an OpenAI-compatible chat model is used when configured, its replies validated by the same
 * schemas (types.ts) and replaced by the offline answer when unusable — each such fallback is noted.
 */
export interface Analyst {
  /**
   * job description → workflows with their start and ordered steps; with the org's catalog, the verbs
   * and event words of its served vocabulary are read too
   */
  analyse(jobDescription: string, notes?: AnalystNotes, catalog?: Catalog): Promise<JobAnalysis>;
  /** one workflow → its trigger and a capability (or none) per step, from the org's view of the catalog */
  matchCapabilities(workflow: DraftWorkflow, catalog: Catalog, notes?: AnalystNotes): Promise<CapabilityMatch>;
  /** what gap identification should ask about a matched workflow */
  findings(workflow: DraftWorkflow, match: CapabilityMatch, notes?: AnalystNotes): Promise<Finding[]>;
  /** the org's connected capabilities closest to a task no capability clearly does, best first */
  closestCapabilities(text: string, catalog: Catalog, limit?: number): Promise<string[]>;
}
