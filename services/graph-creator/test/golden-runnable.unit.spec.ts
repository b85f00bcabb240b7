import { fileURLToPath } from 'node:url';
import { loadGolden, OfflineAnalyst } from '@hireloop/analyst';
import { builtInCatalog } from '@hireloop/schemas';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { scriptedAnswer } from '../src/answerer';
import { driveCreation } from '../src/creation/drive';

// Every golden job description, created as the evaluation harness does (scripted answers, offline
// analyst, in-memory checkpoints): the spec is runnable — every required input of every step bound
// to a source or asked at run time, references only to earlier steps, no dependsOn cycle — and a
// workflow left without steps never passes validation.

const dirs = [
  fileURLToPath(new URL('../../../../shared/golden', import.meta.url)),
  fileURLToPath(new URL('../../../golden', import.meta.url)),
];
const cases = dirs.flatMap((dir) => loadGolden(dir).map((golden) => ({ dir, golden })));
const analyst = new OfflineAnalyst();
const required = new Map(builtInCatalog.capabilities.map((c) => [c.id, c.inputSchema.required]));

describe('golden cases yield runnable specs', () => {
  it('finds both golden sets', () => {
    expect(cases.length).toBeGreaterThanOrEqual(40);
  });

  it.each(cases.map((c) => [c.golden.id, c] as const))('%s', async (_id, { golden }) => {
    const catalog = {
      capabilities: builtInCatalog.capabilities,
      triggers: builtInCatalog.triggers,
      connected: golden.org.connected,
    };
    const run = await driveCreation(
      new MemorySaver(),
      { analyst, catalog: { forOrg: async () => catalog } },
      { executionId: `golden-${golden.id}`, orgId: 'golden', jobDescription: golden.jobDescription },
      (prompt) => scriptedAnswer(prompt),
    );
    const spec = run.employee;
    expect(spec, 'the scripted answerer approves').not.toBeNull();
    if (!spec) return;
    for (const wf of spec.workflows) {
      const ids = wf.steps.map((s) => s.id);
      wf.steps.forEach((step, i) => {
        for (const name of required.get(step.capabilityId) ?? [])
          expect(step.inputs[name], `${wf.id}/${step.id} ${name}`).toBeDefined();
        for (const dep of step.dependsOn) expect(ids.slice(0, i), `${wf.id}/${step.id} dependsOn ${dep}`).toContain(dep);
      });
      for (const provider of wf.waitingFor ?? []) expect(golden.org.connected).not.toContain(provider);
    }
    const check = (id: string) => spec.validation.checks.find((c) => c.id === id);
    expect(check('inputs_bound')?.passed).toBe(true);
    expect(check('references_earlier_steps')?.passed).toBe(true);
    expect(check('depends_on_acyclic')?.passed).toBe(true);
    expect(check('cron_valid')?.passed).toBe(true);
    // an empty workflow is a failed check, never a silent pass
    const empty = spec.workflows.some((w) => w.steps.length === 0);
    expect(check('workflow_has_steps')?.passed).toBe(!empty);
    if (empty) expect(spec.validation.passed).toBe(false);
  });
});
