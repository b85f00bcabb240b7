import type { CompiledGraph, ValidationCheck, Workflow } from '@hireloop/schemas';
import type { Static } from '@sinclair/typebox';
import type { Catalog } from '../analyst/types';
import { type ParamsCheck, providerOf } from './catalog';
import { cycleEdges } from './compile';
import type { Route } from './state';

type Check = Static<typeof ValidationCheck>;

const check = (id: string, problems: string[], ok: string): Check => ({
  id,
  passed: problems.length === 0,
  detail: (problems.length === 0 ? ok : problems.join('; ')).slice(0, 500),
});

/**
 * The checks a spec must pass before the user sees it (ARCHITECTURE §8): no hand-off to an undefined
 * node, no loop without a bound, every step's capability known and connected, budgets present, no
 * state key read that nothing writes, every trigger known, connected and with valid parameters.
 */
export function validateSpec(
  workflows: Workflow[],
  compiled: CompiledGraph,
  catalog: Catalog,
  checkParams: ParamsCheck,
): Check[] {
  const nodeIds = new Set(compiled.nodes.map((n) => n.id));
  const known = new Set(catalog.capabilities.map((c) => c.id));
  const connected = new Set(catalog.connected);
  const steps = workflows.flatMap((wf) => wf.steps.map((s) => ({ wf, s })));
  const written = new Set(compiled.nodes.flatMap((n) => n.writes));
  const budgets = compiled.budgets as Partial<CompiledGraph['budgets']> | undefined;

  return [
    check(
      'handoffs_defined',
      compiled.edges
        .filter((e) => !nodeIds.has(e.from) || !nodeIds.has(e.to))
        .map((e) => `hand-off ${e.from} → ${e.to} names an undefined node`),
      'every hand-off names a defined node',
    ),
    check(
      'loops_bounded',
      cycleEdges(compiled.edges)
        .filter((e) => e.maxIterations === undefined)
        .map((e) => `loop ${e.from} → ${e.to} has no bound`),
      'every loop has a bound',
    ),
    check(
      'capabilities_known',
      steps
        .filter(({ s }) => !known.has(s.capabilityId))
        .map(({ wf, s }) => `${wf.id}/${s.id}: unknown capability ${s.capabilityId}`),
      'every step calls a capability of the catalog',
    ),
    check(
      'capabilities_connected',
      steps
        .filter(({ s }) => known.has(s.capabilityId) && !connected.has(providerOf(s.capabilityId)))
        .map(({ wf, s }) => `${wf.id}/${s.id}: ${providerOf(s.capabilityId)} is not connected`),
      "every step's integration is connected",
    ),
    check(
      'budgets_present',
      budgets?.maxSteps && budgets.maxToolCalls && budgets.timeoutSeconds ? [] : ['budgets are missing'],
      'step, tool-call and time budgets set',
    ),
    check(
      'state_reads_written',
      compiled.nodes.flatMap((n) =>
        n.reads.filter((r) => !written.has(r)).map((r) => `${n.id} reads ${r}, which nothing writes`),
      ),
      'every state key read is written',
    ),
    check(
      'trigger_params_valid',
      workflows.flatMap((wf) => {
        const id = wf.trigger.triggerId;
        if (!catalog.triggers.some((t) => t.id === id)) return [`${wf.id}: unknown trigger ${id}`];
        if (!connected.has(providerOf(id))) return [`${wf.id}: ${providerOf(id)} is not connected`];
        const result = checkParams(id, wf.trigger.params);
        return result.valid ? [] : [`${wf.id}: ${id} params ${result.errors.join(', ')}`];
      }),
      "every trigger's parameters are valid",
    ),
  ];
}

/** The routing rules: which failed check is owned by which step of the creation graph. */
export const routingRules: { id: string; check: string; routeTo: Route }[] = [
  { id: 'unknown_capability_rematch', check: 'capabilities_known', routeTo: 'match_workflows' },
  { id: 'unconnected_capability_ask', check: 'capabilities_connected', routeTo: 'identify_gaps' },
  { id: 'trigger_params_ask', check: 'trigger_params_valid', routeTo: 'identify_gaps' },
  { id: 'unbounded_loop_recompile', check: 'loops_bounded', routeTo: 'compile' },
  { id: 'undefined_handoff_recompile', check: 'handoffs_defined', routeTo: 'compile' },
  { id: 'unwritten_state_recompile', check: 'state_reads_written', routeTo: 'compile' },
  { id: 'missing_budgets_recompile', check: 'budgets_present', routeTo: 'compile' },
];

/** Classifies failed checks: every rule that matches, and the route of the first (earliest owner wins). */
export function classify(checks: Check[]): { routeTo: Route; matchedRules: string[]; failedCheck: string } | null {
  const failed = new Set(checks.filter((c) => !c.passed).map((c) => c.id));
  const matched = routingRules.filter((r) => failed.has(r.check));
  const first = matched[0];
  if (!first) return null;
  return { routeTo: first.routeTo, matchedRules: matched.map((r) => r.id), failedCheck: first.check };
}
