import type { Catalog } from '@hireloop/analyst';
import type { CompiledGraph, ValidationCheck, Workflow } from '@hireloop/schemas';
import type { Static } from '@sinclair/typebox';
import { bindingSteps, conditionSteps } from './bind';
import { cronProblem, type ParamsCheck, providerOf } from './catalog';
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
        // a provider the user promised to connect: the workflow waits for it, activation leaves it off
        .filter(({ wf, s }) => !wf.waitingFor?.includes(providerOf(s.capabilityId)))
        .map(({ wf, s }) => `${wf.id}/${s.id}: ${providerOf(s.capabilityId)} is not connected`),
      "every step's integration is connected (or its workflow waits for it)",
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
        if (!connected.has(providerOf(id)) && !wf.waitingFor?.includes(providerOf(id)))
          return [`${wf.id}: ${providerOf(id)} is not connected`];
        const result = checkParams(id, wf.trigger.params);
        return result.valid ? [] : [`${wf.id}: ${id} params ${result.errors.join(', ')}`];
      }),
      "every trigger's parameters are valid",
    ),
    ...runnabilityChecks(workflows, catalog),
  ];
}

/**
 * What makes a spec runnable (ARCHITECTURE §11): every workflow has steps; every required input of
 * every step is bound (or asked at run time); bindings, conditions and `dependsOn` name only steps
 * that come before; `dependsOn` has no cycle; every schedule is a cron expression croner accepts.
 */
export function runnabilityChecks(workflows: Workflow[], catalog: Catalog): Check[] {
  const capabilities = new Map(catalog.capabilities.map((c) => [c.id, c]));
  return [
    check(
      'workflow_has_steps',
      workflows.filter((wf) => wf.steps.length === 0).map((wf) => `${wf.id} ("${wf.name}") has no steps`),
      'every workflow has at least one step',
    ),
    check(
      'inputs_bound',
      workflows.flatMap((wf) =>
        wf.steps.flatMap((s) =>
          (capabilities.get(s.capabilityId)?.inputSchema.required ?? [])
            .filter((name) => s.inputs[name] === undefined)
            .map((name) => `${wf.id}/${s.id}: required input ${name} of ${s.capabilityId} is unbound`),
        ),
      ),
      'every required input is bound to a source or asked at run time',
    ),
    check(
      'references_earlier_steps',
      workflows.flatMap((wf) =>
        wf.steps.flatMap((s, i) => {
          const before = new Set(wf.steps.slice(0, i).map((e) => e.id));
          const named = [
            ...bindingSteps(s.inputs).map((id) => ['an input', id] as const),
            ...conditionSteps(s.when).map((id) => ['its condition', id] as const),
            ...s.dependsOn.map((id) => ['dependsOn', id] as const),
          ];
          return named
            .filter(([, id]) => !before.has(id))
            .map(([what, id]) => `${wf.id}/${s.id}: ${what} names ${id}, which is not an earlier step`);
        }),
      ),
      'every binding, condition and dependency names an earlier step',
    ),
    check(
      'depends_on_acyclic',
      workflows.flatMap((wf) => {
        const cycle = dependsOnCycle(wf.steps);
        return cycle ? [`${wf.id}: dependsOn cycle ${cycle.join(' → ')}`] : [];
      }),
      'no step depends on itself, directly or through others',
    ),
    check(
      'cron_valid',
      workflows
        .filter((wf) => wf.trigger.triggerId === 'schedule.cron')
        .flatMap((wf) => {
          const problem = cronProblem(wf.trigger.params);
          return problem ? [`${wf.id}: ${problem}`] : [];
        }),
      'every schedule is a valid cron expression',
    ),
  ];
}

/** A cycle of `dependsOn` among the steps (the ids in order, the first repeated at the end), or null. */
export function dependsOnCycle(steps: readonly { id: string; dependsOn: readonly string[] }[]): string[] | null {
  const deps = new Map(steps.map((s) => [s.id, s.dependsOn]));
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (id: string): string[] | null => {
    state.set(id, 'open');
    path.push(id);
    for (const next of deps.get(id) ?? []) {
      if (!deps.has(next)) continue;
      if (state.get(next) === 'open') return [...path.slice(path.indexOf(next)), next];
      if (state.get(next) === undefined) {
        const found = visit(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(id, 'done');
    return null;
  };
  for (const s of steps) {
    if (state.has(s.id)) continue;
    const found = visit(s.id);
    if (found) return found;
  }
  return null;
}

/** The routing rules: which failed check is owned by which step of the creation graph. */
export const routingRules: { id: string; check: string; routeTo: Route }[] = [
  { id: 'unknown_capability_rematch', check: 'capabilities_known', routeTo: 'match_workflows' },
  { id: 'unconnected_capability_ask', check: 'capabilities_connected', routeTo: 'identify_gaps' },
  { id: 'trigger_params_ask', check: 'trigger_params_valid', routeTo: 'identify_gaps' },
  { id: 'invalid_cron_ask', check: 'cron_valid', routeTo: 'identify_gaps' },
  { id: 'empty_workflow_ask', check: 'workflow_has_steps', routeTo: 'identify_gaps' },
  { id: 'unbound_input_rematch', check: 'inputs_bound', routeTo: 'match_workflows' },
  { id: 'forward_reference_rebind', check: 'references_earlier_steps', routeTo: 'compile' },
  { id: 'dependency_cycle_rebind', check: 'depends_on_acyclic', routeTo: 'compile' },
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
