import { randomUUID } from 'node:crypto';
import type { Analyst } from '@hireloop/analyst';
import { type CaseScore, type GoldenCase, scoreCase, type Totals, totals } from '@hireloop/analyst';
import { builtInCatalog } from '@hireloop/schemas';
import type { BaseCheckpointSaver } from '@langchain/langgraph';
import { scriptedAnswer } from './answerer';
import { driveCreation } from './creation/drive';

// One evaluation for `make eval` and for the floors `make test` holds: every golden case through the
// real creation graph, prompts answered by the scripted answerer, the spec scored against the case.

export type CaseRun = { score: CaseScore; prompts: number; converged: boolean; ms: number };
export type GoldenRun = { cases: CaseRun[]; totals: Totals; maxPrompts: number };

export async function evaluateGolden(
  cases: readonly GoldenCase[],
  checkpointer: BaseCheckpointSaver,
  analyst: Analyst,
): Promise<GoldenRun> {
  const rows: CaseRun[] = [];
  for (const golden of cases) {
    const catalog = {
      capabilities: builtInCatalog.capabilities,
      triggers: builtInCatalog.triggers,
      connected: golden.org.connected,
    };
    const started = performance.now();
    const run = await driveCreation(
      checkpointer,
      { analyst, catalog: { forOrg: async () => catalog } },
      { executionId: randomUUID(), orgId: `eval-${golden.id}`, jobDescription: golden.jobDescription },
      (prompt) => scriptedAnswer(prompt),
    );
    const employee = run.employee;
    const spec = employee ?? { workflows: [], gaps: [] };
    const converged =
      !!employee &&
      employee.validation.passed &&
      employee.workflows.every((w) => w.status !== 'unsatisfied') &&
      run.state.gaps.every((g) => g.status !== 'open');
    rows.push({ score: scoreCase(golden, spec), prompts: run.prompts.length, converged, ms: performance.now() - started });
  }
  return {
    cases: rows,
    totals: totals(
      cases,
      rows.map((r) => r.score),
    ),
    maxPrompts: Math.max(0, ...rows.map((r) => r.prompts)),
  };
}
