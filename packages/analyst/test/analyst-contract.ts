import { builtInCatalog, devOrgConnections, validate } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import type { Analyst, AnalystNotes } from '../src/port';
import { CapabilityMatch, type Catalog, Finding, JobAnalysis } from '../src/types';

// One contract for every implementation of the analyst port (STYLE: one suite, every implementation),
// the way langgraphjs runs one checkpoint suite against every saver. Given a job description and the
// org's catalog, whatever the analyst is made of, the creation graph can rely on these answers.

export const contractCatalog: Catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...devOrgConnections],
};

const REFUNDS =
  'Refunds Assistant. When a ticket arrives in Zendesk, reply to the customer and post a note in #support. ' +
  'Every Friday at 4pm, email the finance lead a summary of the week.';
const OUTSIDE = 'When a deal closes in HubSpot, add the customer in Personio.';

/**
 * Runs the contract against one implementation. `make` gives a fresh analyst and the notes it fell
 * back in; `fallbacks` says whether this implementation may fall back (the LLM one must not, here).
 */
export function analystContract(name: string, make: () => { analyst: Analyst; notes: AnalystNotes }) {
  describe(`analyst contract: ${name}`, () => {
    it('given a job description, then workflows valid against the schema, each with a start and steps', async () => {
      const { analyst, notes } = make();
      const analysis = await analyst.analyse(REFUNDS, notes);
      expect(validate(JobAnalysis, analysis).ok).toBe(true);
      expect(analysis.workflows.length).toBeGreaterThanOrEqual(2);
      for (const wf of analysis.workflows) expect(wf.steps.length).toBeGreaterThan(0);
      expect(notes).toEqual([]);
    });

    it('given a workflow and the catalog, then a match valid against the schema that names only catalog ids', async () => {
      const { analyst, notes } = make();
      const [wf] = (await analyst.analyse(REFUNDS, notes)).workflows;
      if (!wf) throw new Error('no workflow');
      const match = await analyst.matchCapabilities(wf, contractCatalog, notes);
      expect(validate(CapabilityMatch, match).ok).toBe(true);
      expect(match.workflowId).toBe(wf.id);
      expect(match.steps.map((s) => s.stepId)).toEqual(wf.steps.map((s) => s.id));
      const capabilities = new Set(contractCatalog.capabilities.map((c) => c.id));
      for (const s of match.steps) if (s.capabilityId) expect(capabilities.has(s.capabilityId)).toBe(true);
      expect(match.trigger.triggerId).toBe('zendesk.new_ticket');
      expect(match.steps.map((s) => s.capabilityId)).toEqual(['zendesk.reply_ticket', 'slack.post_message']);
      expect(notes).toEqual([]);
    });

    it('given a step in a product the catalog lacks, then no look-alike capability but that product', async () => {
      const { analyst, notes } = make();
      const [wf] = (await analyst.analyse(OUTSIDE, notes)).workflows;
      if (!wf) throw new Error('no workflow');
      const match = await analyst.matchCapabilities(wf, contractCatalog, notes);
      expect(match.steps[0]).toMatchObject({ capabilityId: null, providerId: 'personio' });
    });

    it('given a matched workflow, then findings valid against the schema, each with a default unless blocking', async () => {
      const { analyst, notes } = make();
      const [wf] = (await analyst.analyse('Helper. When a ticket arrives in Zendesk, handle it per our policy.', notes))
        .workflows;
      if (!wf) throw new Error('no workflow');
      const findings = await analyst.findings(wf, await analyst.matchCapabilities(wf, contractCatalog, notes), notes);
      expect(findings.length).toBeGreaterThan(0);
      for (const f of findings) {
        expect(validate(Finding, f).ok).toBe(true);
        expect(f.blocking || f.default !== undefined).toBe(true);
      }
      expect(findings.map((f) => f.category)).toEqual(expect.arrayContaining(['underspecified_task', 'organizational_context']));
    });

    it('given a task no capability clearly does, then the closest connected capabilities, best first', async () => {
      const { analyst } = make();
      const closest = await analyst.closestCapabilities('keep the customer in the loop by email', contractCatalog, 3);
      expect(closest.length).toBeGreaterThan(0);
      expect(closest.length).toBeLessThanOrEqual(3);
      expect(closest[0]).toBe('gmail.send_email');
      for (const id of closest) expect(contractCatalog.connected).toContain(id.split('.')[0]);
    });
  });
}
