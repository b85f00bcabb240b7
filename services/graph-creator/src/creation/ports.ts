import type { CapabilityMatch, Catalog, DraftWorkflow, Finding, JobAnalysis } from '../analyst/types';

/** What the creation graph needs understood: the analyst port (offline by default, an LLM when configured). */
export interface CreationAnalyst {
  analyse(jobDescription: string, notes?: AnalystNotes): Promise<JobAnalysis>;
  matchCapabilities(workflow: DraftWorkflow, catalog: Catalog, notes?: AnalystNotes): Promise<CapabilityMatch>;
  findings(workflow: DraftWorkflow, match: CapabilityMatch, notes?: AnalystNotes): Promise<Finding[]>;
  /** the org's connected capabilities closest to a task no capability clearly does, best first */
  closestCapabilities(text: string, catalog: Catalog, limit?: number): Promise<string[]>;
}

/** Where an analyst records that it fell back to the offline answer (the graph keeps them in its state). */
export type AnalystNotes = string[];

/** Where the org's view of the Connect Hub catalog comes from (the hub's HTTP API, cached per org). */
export interface CatalogSource {
  forOrg(orgId: string): Promise<Catalog>;
}

/** The next version of an employee of this name in this org (from the employee registry). */
export interface EmployeeVersions {
  nextVersion(orgId: string, name: string): Promise<number>;
}
