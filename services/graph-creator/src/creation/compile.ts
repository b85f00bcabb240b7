import type { CompiledGraph, Workflow } from '@hireloop/schemas';
import { bindingSteps, conditionSteps, describeCondition } from './bind';

const START = '__start__';
const END = '__end__';
const nodeId = (wf: Workflow, stepId: string) => `${wf.id}.${stepId}`;
const outputKey = (wf: Workflow, stepId: string) => `${wf.id}_${stepId}_result`.replace(/[^A-Za-z0-9_]/g, '_');

/**
 * Compiles the workflows into the runnable LangGraph description: a router from START to each
 * workflow's trigger, one tool node per step (hand-offs from `dependsOn`), an approval interrupt
 * before every high-risk step, state keys each node reads and writes, and budgets. With `repair`,
 * dependency cycles get a bound and hand-offs to unknown steps are dropped.
 */
export function compileWorkflows(workflows: Workflow[], options: { repair: boolean }): CompiledGraph {
  const nodes: CompiledGraph['nodes'] = [{ id: START, kind: 'start', reads: [], writes: ['trigger'] }];
  const edges: CompiledGraph['edges'] = [];
  const tools = new Set<string>();
  const interruptPoints: string[] = [];
  const stateProps: Record<string, unknown> = { trigger: { type: 'object', description: 'the event that started the run' } };

  for (const wf of workflows) {
    const router = `${wf.id}.trigger`;
    nodes.push({ id: router, kind: 'router', reads: ['trigger'], writes: [] });
    edges.push({
      from: START,
      to: router,
      condition: `trigger is ${wf.trigger.triggerId}${wf.waitingFor?.length ? ` (waits for ${wf.waitingFor.join(', ')})` : ''}`,
    });
    const ids = new Set(wf.steps.map((s) => s.id));
    for (const step of wf.steps) {
      const id = nodeId(wf, step.id);
      const deps = options.repair ? step.dependsOn.filter((d) => ids.has(d)) : step.dependsOn;
      // a step reads the outputs its inputs and its condition name, which its dependencies write
      const read = [...new Set([...deps, ...bindingSteps(step.inputs), ...conditionSteps(step.when)])].filter(
        (d) => !options.repair || deps.includes(d),
      );
      nodes.push({
        id,
        kind: 'tool',
        capabilityId: step.capabilityId,
        reads: ['trigger', ...read.map((d) => outputKey(wf, d))],
        writes: [outputKey(wf, step.id)],
      });
      stateProps[outputKey(wf, step.id)] = { type: 'object', description: `result of ${step.capabilityId}` };
      tools.add(step.capabilityId);
      if (step.risk === 'high') interruptPoints.push(id);
      // a conditional step's hand-offs carry its condition: the branch is taken only when it holds
      const condition = step.when ? { condition: `when ${describeCondition(step.when)}` } : {};
      if (deps.length === 0) edges.push({ from: router, to: id, ...condition });
      for (const dep of deps) edges.push({ from: nodeId(wf, dep), to: id, ...condition });
    }
    const last = wf.steps.filter((s) => !wf.steps.some((o) => o.dependsOn.includes(s.id)));
    if (wf.steps.length === 0) edges.push({ from: router, to: END });
    for (const s of last) edges.push({ from: nodeId(wf, s.id), to: END });
  }
  nodes.push({ id: END, kind: 'end', reads: [], writes: [] });

  if (options.repair) boundCycles(edges);
  const steps = workflows.reduce((n, wf) => n + wf.steps.length, 0);
  return {
    nodes,
    edges,
    stateSchema: { type: 'object', properties: stateProps, additionalProperties: false },
    tools: [...tools].sort(),
    budgets: { maxSteps: Math.max(10, steps * 3), maxToolCalls: Math.max(5, steps * 2), timeoutSeconds: 900 },
    interruptPoints,
  };
}

/** Edges that close a cycle (found by depth-first search), in order. */
export function cycleEdges(edges: CompiledGraph['edges']): CompiledGraph['edges'] {
  const out = new Map<string, CompiledGraph['edges']>();
  for (const e of edges) out.set(e.from, [...(out.get(e.from) ?? []), e]);
  const state = new Map<string, 'open' | 'done'>();
  const back: CompiledGraph['edges'] = [];
  const visit = (node: string) => {
    state.set(node, 'open');
    for (const e of out.get(node) ?? []) {
      const s = state.get(e.to);
      if (s === 'open') back.push(e);
      else if (s === undefined) visit(e.to);
    }
    state.set(node, 'done');
  };
  for (const e of edges) if (!state.has(e.from)) visit(e.from);
  return back;
}

function boundCycles(edges: CompiledGraph['edges']): void {
  for (const e of cycleEdges(edges)) e.maxIterations ??= 3;
}

/**
 * Text as Mermaid reads it inside quotes: a quote, a pipe and angle brackets as entity codes, so that
 * whatever a label says (parentheses, brackets, `|`, `"`, `<`) cannot end it or be read as markup.
 */
export const mermaidText = (text: string): string =>
  text.replace(/"/g, '#quot;').replace(/\|/g, '#124;').replace(/</g, '#lt;').replace(/>/g, '#gt;');

/** Mermaid source of the employee's graph, for the prompt that asks the user to approve it. */
export function mermaid(compiled: CompiledGraph): string {
  const safe = (id: string) => id.replace(/[^A-Za-z0-9_]/g, '_');
  const label = (n: CompiledGraph['nodes'][number]) =>
    n.kind === 'start'
      ? 'start'
      : n.kind === 'end'
        ? 'end'
        : n.kind === 'router'
          ? n.id.replace(/\.trigger$/, ' starts')
          : (n.capabilityId ?? n.id);
  const lines = ['flowchart TD'];
  for (const n of compiled.nodes) {
    const text = mermaidText(`${label(n)}${n.kind !== 'router' && compiled.interruptPoints.includes(n.id) ? ' (approval)' : ''}`);
    lines.push(`  ${safe(n.id)}${n.kind === 'router' ? `{"${text}"}` : `["${text}"]`}`);
  }
  // edge labels quoted too: unquoted, a parenthesis in a condition ("(waits for stripe)") breaks the chart
  for (const e of compiled.edges)
    lines.push(`  ${safe(e.from)} -->${e.condition ? `|"${mermaidText(e.condition)}"|` : ''} ${safe(e.to)}`);
  return lines.join('\n');
}
