import { type Analyst, type CapabilityMatch, type Catalog, type DraftWorkflow, tokenMeter } from '@hireloop/analyst';
import { derivedId } from '@hireloop/platform';
import type { EmployeeGraphSpec, Gap, Workflow } from '@hireloop/schemas';
import { Annotation, END, Send, START, StateGraph } from '@langchain/langgraph';
import type { Static } from '@sinclair/typebox';
import { action, ask, selected, answers as textAnswers } from '../prompt';
import { applyAnswer, applyDefaults, followPromises, nextBatch, promptFor, reopen, skipBatch } from './asking';
import { describeCondition } from './bind';
import { paramsChecker } from './catalog';
import { compileWorkflows, mermaid } from './compile';
import {
  carryAnswers,
  chosenTriggerParamGaps,
  deriveWorkflows,
  followTaskAnswers,
  identifyGaps,
  isStepless,
  LEAVE,
  oneToolPerProvider,
} from './gaps';
import type { CatalogSource, CreationBudgets, EmployeeVersions } from './ports';
import { CreationState, type CreationStateT, type CreationUpdate, type GapState } from './state';
import { titleOf } from './title';
import { classify, validateSpec } from './validate';

export interface CreationOptions {
  analyst: Analyst;
  catalog: CatalogSource;
  versions?: EmployeeVersions;
  /** rounds of questions before defaults are applied (default 5), where the org's budgets set none */
  maxRounds?: number;
  /** routes back from a failed validation (default 3), where the org's budgets set none */
  maxRoutes?: number;
  /** the org's own bounds of the two loops (its policy's budgets), read when a creation starts */
  budgets?: CreationBudgets;
  /** tokens a creation may spend on a language model, where the org's budgets set none (default: no limit) */
  maxTokens?: number;
  /** revisions the user may ask for at the final review (default 3) */
  maxRevisions?: number;
}

/** What a creation says when its token budget is spent: the offline analyst answers from there on. */
export const tokensSpent = (limit: number | null | undefined): string =>
  `tokens on the language model: ${limit ?? 0} spent; the offline analyst answers the rest`;

/** One branch of the capability-matching fan-out: what the `Send` gives the node. */
const MatchState = Annotation.Root({
  orgId: Annotation<string>,
  workflow: Annotation<DraftWorkflow>,
  excluded: Annotation<string[]>,
  /** the creation's tokens spent when the branches set out, and its budget (none: no limit) */
  tokensUsed: Annotation<number>,
  maxTokens: Annotation<number | null>,
});

/**
 * Drops capability and trigger ids the catalog does not know (or validation excluded), falling back
 * to a known candidate; a trigger nobody knows becomes "no trigger", which gap identification asks about.
 */
function sanitize(match: CapabilityMatch, catalog: Catalog, excluded: Set<string>): CapabilityMatch {
  const known = new Set(catalog.capabilities.map((c) => c.id));
  const triggers = new Set(catalog.triggers.map((t) => t.id));
  const ok = (id: string | null): id is string => !!id && known.has(id) && !excluded.has(id);
  const trigger =
    match.trigger.triggerId && !triggers.has(match.trigger.triggerId)
      ? { ...match.trigger, triggerId: match.trigger.alternatives.find((t) => triggers.has(t)) ?? null, params: {} }
      : match.trigger;
  // A step the analyst left without a capability (checking, deciding: thinking, not a tool call) stays
  // without one while its workflow has tool steps; only an id the catalog does not know (or validation
  // excluded) falls back to a candidate — and so does every step of a workflow that would have none.
  // A step that names its product ("look it up in BambooHR") keeps that product's candidate.
  const strict = (s: CapabilityMatch['steps'][number]) =>
    s.capabilityId === null
      ? (s.candidates.find((c) => ok(c) && s.providerId !== null && c.startsWith(`${s.providerId}.`)) ?? null)
      : ok(s.capabilityId)
        ? s.capabilityId
        : (s.candidates.find(ok) ?? null);
  const anyTool = match.steps.some((s) => strict(s) !== null);
  return {
    ...match,
    trigger,
    steps: match.steps.map((s) => {
      const capabilityId = anyTool ? strict(s) : ok(s.capabilityId) ? s.capabilityId : (s.candidates.find(ok) ?? null);
      // without a capability, the product the step names stays: its missing integration is asked
      return { ...s, capabilityId, providerId: capabilityId ? (capabilityId.split('.')[0] ?? null) : s.providerId };
    }),
  };
}

/**
 * What is asked rather than defaulted: blocking gaps, and a missing integration (the user decides
 * between an alternative and connecting it). Other nice-to-haves take their defaults unasked.
 */
export const mustAsk = (g: GapState): boolean => g.gap.blocking || g.gap.category === 'missing_integration';

const toGap = (g: GapState): Static<typeof Gap> => ({
  ...g.gap,
  resolution: g.status === 'answered' ? 'answered' : g.status === 'unsatisfied' ? 'unsatisfied' : 'defaulted',
  ...(g.status === 'answered' && g.answer ? { answer: g.answer } : {}),
});

/** One step in the review: its capability, what it waits for, its condition and what is asked at run time. */
function describeStep(st: Workflow['steps'][number]): string {
  const parts = [st.capabilityId];
  if (st.dependsOn.length > 0) parts.push(`after ${st.dependsOn.map((d) => d.split('.').at(-1)).join(', ')}`);
  if (st.when) parts.push(`only when ${describeCondition(st.when)}`);
  const asked = Object.entries(st.inputs)
    .filter(([, b]) => 'ask' in b)
    .map(([name]) => name);
  if (asked.length > 0) parts.push(`asks at run time: ${asked.join(', ')}`);
  const given = Object.entries(st.inputs).flatMap(([name, b]) =>
    'value' in b && b.origin === 'user' ? [`${name}=${Array.isArray(b.value) ? b.value.join(', ') : String(b.value)}`] : [],
  );
  if (given.length > 0) parts.push(`with ${given.join(', ')}`.slice(0, 200));
  return `${st.id.split('.').at(-1)} ${parts.join('; ')}`;
}

export function summary(s: CreationStateT, workflows: ReturnType<typeof deriveWorkflows>): string {
  const lines = [`${s.name} — ${workflows.length} workflow(s):`];
  for (const wf of workflows) {
    const params = Object.entries(wf.trigger.params)
      .map(([k, v]) => `${k}=${String(v)}`)
      .join(', ');
    const roots = wf.steps.filter((st) => st.dependsOn.length === 0).length;
    lines.push(
      `• ${wf.name}: starts on ${wf.trigger.triggerId}${params ? ` (${params})` : ''}; steps${roots > 1 ? ` (${roots} start in parallel)` : ''}: ${wf.steps.map(describeStep).join(' | ') || 'none'}${wf.status === 'unsatisfied' ? ` — UNSATISFIED: ${wf.unsatisfiedReason}` : ''}`,
    );
    if (wf.waitingFor?.length)
      lines.push(
        `  waits for ${wf.waitingFor.join(', ')} to be connected: activation leaves this workflow off until the organisation connects ${wf.waitingFor.length > 1 ? 'them' : 'it'}.`,
      );
  }
  // what was assumed rather than asked, so that the review shows it and a revision can change it
  const assumed = (s.gaps ?? []).filter((g) => g.status === 'defaulted' && g.gap.default && g.target.kind !== 'describe');
  for (const g of assumed.slice(0, 8)) lines.push(`  assumed: ${g.gap.question} → ${g.gap.default}`.slice(0, 400));
  if (assumed.length > 8) lines.push(`  …and ${assumed.length - 8} more assumptions (see the spec's gaps)`);
  // a step left out because hireloop has no integration for its product: listed, so the review shows the gap
  for (const g of s.gaps ?? []) {
    const value = g.status === 'answered' ? g.answer : g.status === 'defaulted' ? g.gap.default : undefined;
    if (g.target.kind === 'step' && value?.startsWith(LEAVE))
      lines.push(`  left out: ${g.gap.question.replace(/ What should it use\?$/, '')}`.slice(0, 400));
  }
  // an answer to "what counts as urgent" that could not be read as a condition: said, not hidden
  for (const g of s.gaps ?? []) {
    if (g.target.kind !== 'condition' || g.status !== 'answered' || !g.answer) continue;
    const { workflowId, stepIds, quality } = g.target;
    const steps = workflows.find((w) => w.id === workflowId)?.steps.filter((st) => stepIds.includes(st.id)) ?? [];
    if (steps.some((st) => !st.when))
      lines.push(
        `  assumed: "${g.answer}" could not be read as a condition over the trigger's fields, so ${steps.map((st) => st.id.split('.').at(-1)).join(', ')} run every time and the employee judges what is ${quality} from your answer`.slice(
          0,
          400,
        ),
      );
  }
  const failed = s.checks.filter((c) => !c.passed);
  lines.push(
    failed.length === 0
      ? 'Validation: every check passed.'
      : `Validation: ${failed.map((c) => `${c.id}: ${c.detail}`).join('; ')}`,
  );
  return lines.join('\n');
}

/**
 * The creation graph (ARCHITECTURE §8): analyse → capability matching, one branch per workflow
 * (`Send`) → gap identification → refine ⟲ ask the human → compile and validate, one node (a failure routes
 * back to the step that owns it) → review with the user (approve / revise / cancel) → assemble.
 * Returned uncompiled: the checkpointer is given at compile time.
 */
export function buildCreationGraph(options: CreationOptions) {
  const { analyst, catalog: catalogSource } = options;
  const maxRounds = options.maxRounds ?? 5;
  const maxRoutes = options.maxRoutes ?? 3;
  const maxRevisions = options.maxRevisions ?? 3;

  const fanOut = (s: CreationStateT) =>
    s.workflows.map(
      (workflow) =>
        new Send('match_workflow', {
          orgId: s.orgId,
          workflow,
          excluded: s.excludedCapabilities,
          tokensUsed: s.tokensUsed,
          maxTokens: s.loopBudgets?.maxTokens ?? null,
        }),
    );

  /** A meter over the creation's tokens, and what a node reports of it: the tokens it spent, and a spent budget. */
  const metered = (s: CreationStateT) => tokenMeter(s.tokensUsed, s.loopBudgets?.maxTokens ?? undefined);
  const tokenUpdate = (meter: ReturnType<typeof tokenMeter>, limit: number | null | undefined): CreationUpdate => ({
    tokensUsed: meter.spent,
    ...(meter.refused ? { budgetsSpent: [tokensSpent(limit)] } : {}),
  });

  /** A task described in words is analysed again: its steps, matched against the org's connected tools. */
  const readDescriptions = async (
    gaps: GapState[],
    workflows: DraftWorkflow[],
    catalog: Catalog,
    notes: string[],
    meter: ReturnType<typeof tokenMeter>,
  ) =>
    Promise.all(
      gaps.map(async (g): Promise<GapState> => {
        if (g.target.kind !== 'describe' || g.status !== 'answered' || !g.answer || g.steps !== undefined) return g;
        const wf = workflows.find((w) => w.id === g.gap.workflowId);
        if (!wf) return g;
        const analysis = await analyst.analyse(g.answer, notes, catalog, meter);
        const steps = analysis.workflows.flatMap((w) => w.steps).slice(0, 10);
        const draft: DraftWorkflow = {
          ...wf,
          steps: steps.map((st, i) => ({ ...st, id: `${wf.id}.d${i + 1}` })),
        };
        const match = draft.steps.length > 0 ? await analyst.matchCapabilities(draft, catalog, notes, meter) : undefined;
        const connected = new Set(catalog.connected);
        const known = new Set(catalog.capabilities.map((c) => c.id));
        return {
          ...g,
          steps: draft.steps.flatMap((st) => {
            const id = match?.steps.find((m) => m.stepId === st.id)?.capabilityId;
            return id && known.has(id) && connected.has(id.split('.')[0] ?? '')
              ? [{ id: st.id, text: st.text, capabilityId: id }]
              : [];
          }),
        };
      }),
    );

  const spec = async (s: CreationStateT) => {
    const catalog = await catalogSource.forOrg(s.orgId);
    return { catalog, workflows: deriveWorkflows(s.workflows, s.matches, s.gaps, catalog, { repair: s.repair }) };
  };

  return (
    new StateGraph(CreationState)
      .addNode('analyse', async (s): Promise<CreationUpdate> => {
        const description = [s.jobDescription, ...s.revisions.map((r) => `Change requested: ${r}`)].join('\n');
        const notes: string[] = [];
        // the org's bounds, once per creation: a revision or a restart keeps the ones it started with
        const orgBudgets = s.loopBudgets ?? (options.budgets ? await options.budgets.forOrg(s.orgId) : {});
        const loopBudgets = {
          maxRounds: orgBudgets.maxRounds ?? maxRounds,
          maxRoutes: orgBudgets.maxRoutes ?? maxRoutes,
          maxTokens: orgBudgets.maxTokens ?? options.maxTokens ?? null,
        };
        const meter = tokenMeter(s.tokensUsed, loopBudgets.maxTokens ?? undefined);
        // the org's catalog: its served vocabulary's verbs and event words are read by the segmenter too
        const catalog = await catalogSource.forOrg(s.orgId);
        const analysis = await analyst.analyse(description, notes, catalog, meter);
        const name = s.name || titleOf(s.jobDescription) || 'Digital Employee';
        return {
          name,
          loopBudgets,
          ...tokenUpdate(meter, loopBudgets.maxTokens),
          workflows: analysis.workflows,
          analysisConfidence: analysis.confidence,
          matches: null,
          excludedCapabilities: [],
          gaps: s.revisions.length > 0 ? s.gaps : [],
          asked: [],
          routingTrace: s.revisions.length > 0 ? s.routingTrace : [],
          repair: false,
          fallbacks: notes,
          restarting: false,
          route: null,
          phase: 'analysis',
          progress: 10,
        };
      })
      .addNode(
        'match_workflow',
        // the branch matches in the node itself: a subgraph invoked per workflow cost a Pregel run of its own
        // (its loop, its checkpoint namespace) for one function call (docs/decisions.md, 2026-11-24)
        async (branch: typeof MatchState.State): Promise<CreationUpdate> => {
          const catalog = await catalogSource.forOrg(branch.orgId);
          const notes: string[] = [];
          const meter = tokenMeter(branch.tokensUsed ?? 0, branch.maxTokens ?? undefined);
          const match = sanitize(
            await analyst.matchCapabilities(branch.workflow, catalog, notes, meter),
            catalog,
            new Set(branch.excluded),
          );
          return {
            matches: { [branch.workflow.id]: match },
            fallbacks: notes,
            phase: 'matching',
            progress: 30,
            ...tokenUpdate(meter, branch.maxTokens),
          };
        },
        { input: MatchState },
      )
      .addNode('identify_gaps', async (s): Promise<CreationUpdate> => {
        const catalog = await catalogSource.forOrg(s.orgId);
        const notes: string[] = [];
        const meter = metered(s);
        const findings = (
          await Promise.all(
            s.workflows.map((wf) =>
              s.matches[wf.id] ? analyst.findings(wf, s.matches[wf.id] as CapabilityMatch, notes, meter) : [],
            ),
          )
        ).flat();
        const checkParams = paramsChecker(catalog);
        // a workflow no capability does is offered the org's closest tools (its words, and a description the user gave)
        const suggestions: Record<string, string[]> = {};
        const unranked = new Set<string>();
        const connected = new Set(catalog.connected);
        for (const wf of s.workflows) {
          const match = s.matches[wf.id];
          if (!match) continue;
          if (isStepless(match, connected)) {
            const words = [wf.responsibility, ...wf.steps.map((st) => st.text)].join('. ');
            const closest = await analyst.closestCapabilities(words, catalog);
            // nothing ranks: one tool of each connected provider, none of them recommended
            if (closest.length === 0) unranked.add(wf.id);
            suggestions[wf.id] = closest.length > 0 ? closest : oneToolPerProvider(catalog);
          }
          // a step naming a product the org lacks: the org's tools nearest to what it does there
          for (const st of match.steps) {
            if (st.capabilityId || !st.providerId || connected.has(st.providerId)) continue;
            const text = wf.steps.find((d) => d.id === st.stepId)?.text ?? '';
            suggestions[st.stepId] = await analyst.closestCapabilities(text, catalog, 3);
          }
        }
        const identified = carryAnswers(
          s.gaps,
          identifyGaps(s.workflows, s.matches, findings, catalog, checkParams, suggestions, unranked),
        );
        const carried = carryAnswers(s.gaps, [
          ...identified,
          ...chosenTriggerParamGaps(identified, s.workflows, checkParams, s.matches),
        ]);
        const gaps = followTaskAnswers(await readDescriptions(carried, s.workflows, catalog, notes, meter));
        return { gaps, fallbacks: notes, phase: 'gaps', progress: 45, ...tokenUpdate(meter, s.loopBudgets?.maxTokens) };
      })
      .addNode('refine', (s): CreationUpdate => {
        const openBlocking = s.gaps.filter((g) => g.status === 'open' && mustAsk(g)).length;
        const version = {
          version: s.decompositions.length + 1,
          workflowIds: s.workflows.map((w) => w.id),
          openGaps: openBlocking,
        };
        const rounds = s.loopBudgets?.maxRounds ?? maxRounds;
        const converged = openBlocking === 0 || s.round >= rounds;
        const spent = openBlocking > 0 && s.round >= rounds;
        return {
          ...(spent
            ? {
                budgetsSpent: [
                  `rounds of questions: ${rounds} spent with ${openBlocking} blocking gap(s) open; their defaults apply`,
                ],
              }
            : {}),
          decompositions: [...s.decompositions, version].slice(-20),
          iterations: s.iterations + 1,
          ...(converged ? { gaps: applyDefaults(s.gaps) } : {}),
          phase: 'refinement',
          progress: 50,
        };
      })
      .addNode('ask_human', (s): CreationUpdate => {
        const batch = nextBatch(followPromises(s.gaps).filter(mustAsk));
        const names = Object.fromEntries(s.workflows.map((w) => [w.id, w.name]));
        const answer = ask(promptFor(batch, { progress: 55, canGoBack: s.asked.length > 0, workflowNames: names }));
        const asked = { promptsAsked: s.promptsAsked + 1 };
        switch (action(answer)) {
          case 'restart':
            return { ...asked, gaps: [], asked: [], round: 0, revisions: [], decision: 'pending', restarting: true };
          case 'back': {
            const previous = s.asked.at(-1);
            return {
              ...asked,
              gaps: previous ? reopen(s.gaps, previous.gapIds) : s.gaps,
              asked: s.asked.slice(0, -1),
              round: previous ? previous.round : s.round,
            };
          }
          case 'skip':
            return {
              ...asked,
              gaps: skipBatch(s.gaps, batch),
              asked: [...s.asked, { round: s.round, gapIds: batch.map((g) => g.gap.id) }],
              round: s.round + 1,
            };
          case undefined:
            return {
              ...asked,
              gaps: applyAnswer(s.gaps, batch, answer),
              asked: [...s.asked, { round: s.round, gapIds: batch.map((g) => g.gap.id) }],
              round: s.round + 1,
            };
          default: {
            const never: never = action(answer) as never;
            throw new Error(`unknown action ${String(never)}`);
          }
        }
      })
      // compiles and validates in one superstep (one derivation of the workflows, one checkpoint): a failed
      // check routes back to the step that owns it, `compile` itself for a repair (docs/decisions.md, 2026-11-24)
      .addNode('compile', async (s): Promise<CreationUpdate> => {
        const { catalog, workflows } = await spec(s);
        const compiled = compileWorkflows(workflows, { repair: s.repair });
        const checkParams = paramsChecker(catalog);
        const checks = validateSpec(workflows, compiled, catalog, checkParams);
        // a workflow left unsatisfied by a skipped blocking question fails by the user's choice: no route fixes it
        const route = classify(
          validateSpec(
            workflows.filter((w) => w.status !== 'unsatisfied'),
            compiled,
            catalog,
            checkParams,
          ),
        );
        if (!route) return { compiled, checks, route: null, phase: 'validation', progress: 80 };
        const routes = s.loopBudgets?.maxRoutes ?? maxRoutes;
        if (s.routingTrace.length >= routes)
          return {
            compiled,
            checks,
            route: null,
            budgetsSpent: [`routes after failed checks: ${routes} spent; ${route.failedCheck} still fails`],
            phase: 'validation',
            progress: 80,
          };
        const unknown = workflows
          .flatMap((w) => w.steps.map((st) => st.capabilityId))
          .filter((id) => !catalog.capabilities.some((c) => c.id === id));
        return {
          compiled,
          checks,
          routingTrace: [
            ...s.routingTrace,
            {
              attempt: s.routingTrace.length + 1,
              failedCheck: route.failedCheck,
              routedTo: route.routeTo,
              matchedRules: route.matchedRules,
            },
          ],
          ...(route.routeTo === 'match_workflows'
            ? { excludedCapabilities: [...new Set([...s.excludedCapabilities, ...unknown])], matches: null }
            : {}),
          ...(route.routeTo === 'compile' ? { repair: true } : {}),
          route: route.routeTo,
          phase: 'validation',
        };
      })
      .addNode('review', async (s): Promise<CreationUpdate> => {
        const { workflows } = await spec(s);
        const compiled = s.compiled ?? compileWorkflows(workflows, { repair: true });
        const canRevise = s.revisions.length < maxRevisions;
        const passed = s.checks.every((c) => c.passed);
        const answer = ask({
          kind: 'options',
          messages: [summary(s, workflows), `\`\`\`mermaid\n${mermaid(compiled)}\n\`\`\``],
          options: [
            // recommended only when every check passed; otherwise the summary shows what failed and nothing is pushed
            { id: 'approve', label: 'Approve and register the employee', ...(passed ? { recommended: true } : {}) },
            ...(canRevise ? [{ id: 'revise', label: 'Revise: tell me what to change' }] : []),
            { id: 'cancel', label: 'Cancel' },
          ],
          selectionRules: { mode: 'single' },
          progress: 90,
        });
        const choice = selected(answer)[0];
        return {
          decision: choice === 'cancel' ? 'cancel' : choice === 'revise' && canRevise ? 'revise' : 'approve',
          promptsAsked: s.promptsAsked + 1,
        };
      })
      .addNode('ask_revision', (s): CreationUpdate => {
        const answer = ask({
          kind: 'questions',
          messages: ['What should change?'],
          questions: [
            {
              id: 'change',
              text: 'Describe the change (a workflow to add or drop, a different tool, another trigger…)',
              required: true,
              exampleAnswer: 'Also post a summary in #sales every Friday',
            },
          ],
          progress: 90,
        });
        const change = textAnswers(answer).change?.trim();
        return {
          revisions: change ? [...s.revisions, change] : s.revisions,
          decision: 'pending',
          promptsAsked: s.promptsAsked + 1,
        };
      })
      .addNode('assemble', async (s): Promise<CreationUpdate> => {
        const { workflows } = await spec(s);
        const compiled = s.compiled ?? compileWorkflows(workflows, { repair: true });
        const version = (await options.versions?.nextVersion(s.orgId, s.name)) ?? 1;
        const employee: EmployeeGraphSpec = {
          employeeId: derivedId(s.executionId || s.jobDescription, 'employee'),
          orgId: s.orgId,
          name: s.name,
          version,
          jobDescription: s.jobDescription,
          workflows,
          gaps: s.gaps.filter((g) => g.target.kind !== 'describe' || g.status === 'answered').map(toGap),
          compiled,
          validation: { passed: s.checks.every((c) => c.passed), checks: s.checks },
          diagram: mermaid(compiled),
          history: {
            iterations: s.iterations,
            promptsAsked: s.promptsAsked,
            routingTrace: s.routingTrace,
            ...(s.tokensUsed > 0 ? { tokensUsed: s.tokensUsed } : {}),
          },
        };
        return { employee: employee as unknown as Record<string, unknown>, phase: 'done', progress: 100 };
      })
      .addEdge(START, 'analyse')
      .addConditionalEdges('analyse', fanOut, ['match_workflow'])
      .addEdge('match_workflow', 'identify_gaps')
      .addEdge('identify_gaps', 'refine')
      .addConditionalEdges(
        'refine',
        (s: CreationStateT) => (s.gaps.some((g) => g.status === 'open' && mustAsk(g)) ? 'ask_human' : 'compile'),
        ['ask_human', 'compile'],
      )
      .addConditionalEdges('ask_human', (s: CreationStateT) => (s.restarting ? 'analyse' : 'identify_gaps'), [
        'analyse',
        'identify_gaps',
      ])
      .addConditionalEdges(
        'compile',
        (s: CreationStateT) => (s.route === null ? 'review' : s.route === 'match_workflows' ? fanOut(s) : s.route),
        ['review', 'match_workflow', 'identify_gaps', 'compile'],
      )
      .addConditionalEdges(
        'review',
        (s: CreationStateT) => (s.decision === 'approve' ? 'assemble' : s.decision === 'revise' ? 'ask_revision' : END),
        ['assemble', 'ask_revision', END],
      )
      .addEdge('ask_revision', 'analyse')
      .addEdge('assemble', END)
  );
}
