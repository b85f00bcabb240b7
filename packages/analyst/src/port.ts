import type { CapabilityMatch, Catalog, DraftWorkflow, Finding, JobAnalysis } from './types';

export type { Catalog } from './types';

/** Where an analyst records that it fell back to the offline answer (the creation graph keeps them in its state). */
export type AnalystNotes = string[];

/**
 * The tokens one execution may spend on a language model (ARCHITECTURE §12, budgets with an LLM):
 * a model's reply counts its usage here, and no model is asked once the budget is spent.
 */
export interface TokenMeter {
  /** the budget is spent: the offline analyst answers instead of the model */
  exhausted(): boolean;
  /** the tokens of one model reply (its usage: prompt and completion) */
  spend(tokens: number): void;
}

/** A meter that starts from the tokens already `used` of `limit` (none: no limit). */
export function tokenMeter(used: number, limit: number | undefined) {
  let spent = 0;
  let refused = false;
  return {
    exhausted(): boolean {
      const out = limit !== undefined && used + spent >= limit;
      if (out) refused = true;
      return out;
    },
    spend(tokens: number): void {
      if (Number.isFinite(tokens) && tokens > 0) spent += Math.round(tokens);
    },
    /** tokens spent through this meter */
    get spent(): number {
      return spent;
    },
    /** a model call was not made because the budget was spent */
    get refused(): boolean {
      return refused;
    },
  };
}

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
  analyse(jobDescription: string, notes?: AnalystNotes, catalog?: Catalog, meter?: TokenMeter): Promise<JobAnalysis>;
  /** one workflow → its trigger and a capability (or none) per step, from the org's view of the catalog */
  matchCapabilities(
    workflow: DraftWorkflow,
    catalog: Catalog,
    notes?: AnalystNotes,
    meter?: TokenMeter,
  ): Promise<CapabilityMatch>;
  /** what gap identification should ask about a matched workflow */
  findings(workflow: DraftWorkflow, match: CapabilityMatch, notes?: AnalystNotes, meter?: TokenMeter): Promise<Finding[]>;
  /** the org's connected capabilities closest to a task no capability clearly does, best first */
  closestCapabilities(text: string, catalog: Catalog, limit?: number): Promise<string[]>;
}
