import { ambiguities, vagueness } from './findings';
import { closestCapabilities, matchWorkflow } from './match';
import type { Analyst } from './port';
import { analyseJob, servedWords } from './segment';
import type { CapabilityMatch, Catalog, DraftStep, DraftWorkflow, Finding, JobAnalysis } from './types';

/**
 * The deterministic analyst: no network, no model, the same output for the same input.
 * The sync methods are the decisions; the Analyst port's async methods wrap them.
 */
export class OfflineAnalyst implements Analyst {
  /** With a catalog, its served vocabulary adds verbs and event words to the built-in lexicon. */
  analyseSync(jobDescription: string, catalog?: Catalog): JobAnalysis {
    return analyseJob(jobDescription, servedWords(catalog));
  }

  matchCapabilitiesSync(workflow: DraftWorkflow, catalog: Catalog): CapabilityMatch {
    return matchWorkflow(workflow, catalog);
  }

  analyse(jobDescription: string, _notes?: string[], catalog?: Catalog): Promise<JobAnalysis> {
    return Promise.resolve(this.analyseSync(jobDescription, catalog));
  }

  matchCapabilities(workflow: DraftWorkflow, catalog: Catalog): Promise<CapabilityMatch> {
    return Promise.resolve(this.matchCapabilitiesSync(workflow, catalog));
  }

  /** The org's connected capabilities nearest to a task no capability clearly does (for the task prompt's options). */
  closestCapabilities(text: string, catalog: Catalog, limit?: number): Promise<string[]> {
    return Promise.resolve(closestCapabilities(text, catalog, limit));
  }

  /** Findings are the ambiguities of the matched workflow. */
  findings(workflow: DraftWorkflow, match: CapabilityMatch): Promise<Finding[]> {
    return Promise.resolve(ambiguities(workflow, match));
  }

  /** An underspecified step: a vague verb ("handle follow-ups"), a vague object, a message with no recipient. */
  vagueness(step: DraftStep): Finding[] {
    return vagueness(step);
  }

  /** What to ask about a workflow: its start, its vague steps, organisational context; sharper with a match. */
  ambiguities(workflow: DraftWorkflow, match?: CapabilityMatch): Finding[] {
    return ambiguities(workflow, match);
  }
}

/** The offline analyst as a plain port object (its methods bound), to spread and override in tests. */
export function offlineAnalyst(): Analyst {
  const offline = new OfflineAnalyst();
  return {
    analyse: (jobDescription, notes, catalog) => offline.analyse(jobDescription, notes, catalog),
    matchCapabilities: (workflow, catalog) => offline.matchCapabilities(workflow, catalog),
    findings: (workflow, match) => offline.findings(workflow, match),
    closestCapabilities: (text, catalog, limit) => offline.closestCapabilities(text, catalog, limit),
  };
}
