import { builtInCatalog, devOrgConnections } from '@hireloop/schemas';
import { analyseJob, type Catalog, matchWorkflow } from '../src';

/** The dev org's connections and a few more: the products the analyst tests' job descriptions name. */
export const catalog: Catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...devOrgConnections, 'greenhouse', 'twilio', 'notion', 'quickbooks'],
};

/** Each workflow of a description: its lead, its trigger, parameters and cron, its steps and their capabilities. */
export const workflowsOf = (text: string) => workflowsIn(catalog, text);

/** The same, for an org with only the given products connected. */
export const workflowsFor = (connected: string[], text: string) => workflowsIn({ ...catalog, connected }, text);

const workflowsIn = (catalog: Catalog, text: string) =>
  analyseJob(text).workflows.map((w) => {
    const m = matchWorkflow(w, catalog);
    return {
      lead: w.triggerHint.text,
      triggerId: m.trigger.triggerId,
      params: m.trigger.params,
      cron: m.trigger.params.expression,
      steps: w.steps.map((s) => s.text),
      capabilities: m.steps.map((s) => s.capabilityId),
    };
  });
