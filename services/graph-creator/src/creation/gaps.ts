import { type CapabilityMatch, type Catalog, type DraftWorkflow, type Finding, PERSON_TITLES } from '@hireloop/analyst';
import { type CatalogCapability, Limits, type ObjectJsonSchema, type Workflow } from '@hireloop/schemas';
import { exampleOf } from '../tools/examples';
import { runTimeRisks } from './approval';
import { bindWorkflow, type DraftBoundStep } from './bind';
import { coerceParam, cronProblem, type ParamsCheck, providerOf } from './catalog';
import { exampleCondition, type Gate, gateField, gateOf, parseCondition } from './conditions';
import type { GapState } from './state';

const EMPTY_EVENT: ObjectJsonSchema = { type: 'object', properties: {}, required: [], additionalProperties: true };

const unknownCapability = (id: string): CatalogCapability => ({
  id,
  providerId: providerOf(id),
  name: id.split('.').slice(1).join('.') || id,
  description: 'not in the catalog',
  risk: 'low',
  inputSchema: EMPTY_EVENT,
  outputSchema: EMPTY_EVENT,
});

const catalogHas = (catalog: Catalog, id: string) => catalog.capabilities.some((c) => c.id === id);

const slug = (s: string) => s.replace(/[^A-Za-z0-9._:@-]+/g, '-').slice(0, 100);

/** Connected capabilities that could stand in for `capabilityId` (its candidates first, then same-name ones). */
function alternatives(capabilityId: string, candidates: string[], catalog: Catalog): string[] {
  const connected = new Set(catalog.connected);
  const known = new Map(catalog.capabilities.map((c) => [c.id, c]));
  const name = known.get(capabilityId)?.name;
  const sameName = catalog.capabilities.filter((c) => c.name === name && c.id !== capabilityId).map((c) => c.id);
  return [...new Set([...candidates, ...sameName])]
    .filter((id) => id !== capabilityId && known.has(id) && connected.has(providerOf(id)))
    .slice(0, 4);
}

/** Inputs that name who receives or owns something, and the channel a message goes to. */
const RECIPIENT_INPUT = /^(to|recipients?|emails?|attendees|assignee(id)?|owner(id)?|user(id)?|phone|approver)$/i;
const PERSON = new RegExp(
  String.raw`\b(manager|leader|lead|head|director|vp|coordinator|owner|person|people|contact|department|team|group|stakeholders?|on[- ]call|duty|${PERSON_TITLES.join('|')})\b`,
);
const EXPLICIT = /[\w.+-]+@[\w-]+\.[\w.]+|(^|\s)#[\w-]+|(^|\s)@[\w-]+/;

/**
 * Whether an organisational phrase on a step ("the office manager", "the right channel") is who or
 * where one of its required inputs goes: then its answer is that input, and nothing sensible can be
 * assumed for it. Not when the step already names an address or a channel. Pure.
 */
export function inputDecided(
  phrase: string,
  stepText: string,
  capability: CatalogCapability,
): { input: string; what: string; example: string } | null {
  if (EXPLICIT.test(stepText)) return null;
  const { properties, required } = capability.inputSchema;
  const lower = phrase.toLowerCase();
  if (/\bchannel\b/.test(lower) && required.includes('channel') && properties.channel)
    return { input: 'channel', what: 'the channel to post in', example: '#general' };
  if (!PERSON.test(lower)) return null;
  const input = required.find((name) => RECIPIENT_INPUT.test(name));
  if (!input) return null;
  const prop = properties[input];
  const phone = /phone/i.test(input);
  const email = /email|to|recipient|attendee/i.test(`${input} ${prop?.description ?? ''}`);
  return {
    input,
    what: prop?.description ?? input,
    example: phone ? '+15551234567' : email ? 'name@yourcompany.com' : 'their user id or email',
  };
}

/**
 * No step of the workflow maps to a capability, and none names a product the org lacks (that one is
 * asked as a missing integration, whose alternatives give the step).
 */
export const isStepless = (match: CapabilityMatch, connected: ReadonlySet<string>): boolean =>
  match.steps.every((st) => !st.capabilityId && (!st.providerId || connected.has(st.providerId)));

/**
 * Gap identification (pure): the four categories of ARCHITECTURE §8a from the matches, the analyst's
 * findings and the trigger schemas. Each gap is blocking or nice-to-have; each nice-to-have has a default.
 */
export function identifyGaps(
  workflows: DraftWorkflow[],
  matches: Record<string, CapabilityMatch>,
  findings: Finding[],
  catalog: Catalog,
  checkParams: ParamsCheck,
  suggestions: Record<string, string[]> = {},
  unranked: ReadonlySet<string> = new Set(),
): GapState[] {
  const gaps: GapState[] = [];
  const connected = new Set(catalog.connected);
  // a stepless workflow's blocking "what should it do?" is asked once, as its task options prompt
  const stepless = new Set(
    workflows.filter((wf) => matches[wf.id] && isStepless(matches[wf.id] as CapabilityMatch, connected)).map((wf) => wf.id),
  );
  const capabilityName = new Map(catalog.capabilities.map((c) => [c.id, c.description]));

  for (const wf of workflows) {
    const match = matches[wf.id];
    if (!match) continue;
    // missing integrations: one gap per provider per workflow, offering the connected alternatives; a
    // step without a capability that names a product the org lacks ("in Workday") is one too
    const missing = new Map<string, { stepIds: string[]; capabilityId: string | null; candidates: string[] }>();
    for (const step of match.steps) {
      const provider = step.capabilityId ? providerOf(step.capabilityId) : step.providerId;
      if (!provider || connected.has(provider)) continue;
      // a product outside the catalog is asked per step: each step wants its own stand-in
      const key = step.capabilityId ? provider : `${provider}\u0000${step.stepId}`;
      const entry = missing.get(key) ?? { stepIds: [], capabilityId: step.capabilityId, candidates: [] };
      entry.stepIds.push(step.stepId);
      entry.candidates.push(...step.candidates, ...(step.capabilityId ? [] : (suggestions[step.stepId] ?? [])));
      missing.set(key, entry);
    }
    // whether the workflow keeps a step of a connected tool when steps on products hireloop lacks are left out
    const keepsSteps = match.steps.some((st) => st.capabilityId && connected.has(providerOf(st.capabilityId)));
    for (const [key, { stepIds, capabilityId, candidates }] of missing) {
      const provider = key.split('\u0000')[0] ?? key;
      const stepId = stepIds[0] ?? '';
      const inCatalog = catalog.capabilities.some((c) => c.providerId === provider);
      const alts = capabilityId
        ? alternatives(capabilityId, candidates, catalog)
        : [...new Set(candidates)].filter((id) => catalogHas(catalog, id) && connected.has(providerOf(id))).slice(0, 3);
      const text = wf.steps.find((st) => st.id === stepId)?.text ?? wf.name;
      const http = !inCatalog && connected.has('http') && catalogHas(catalog, 'http.request') ? ['http.request'] : [];
      // a product hireloop has no integration for is not quietly done by another product: what a user
      // expects by default is the step left out and listed as missing; its API over HTTP or one of the
      // org's tools stays a choice
      // (unless nothing of the workflow would be left: then its API over HTTP is what can still do it)
      const leave = inCatalog ? [] : [`${LEAVE}${provider}`];
      const recommended = inCatalog
        ? (alts[0] ?? `connect:${provider}`)
        : keepsSteps || !http[0]
          ? `${LEAVE}${provider}`
          : http[0];
      gaps.push({
        gap: {
          id: slug(`gap:${wf.id}:integration:${provider}${capabilityId ? '' : `:${stepId}`}`),
          category: 'missing_integration',
          providerId: provider,
          workflowId: wf.id,
          stepId,
          blocking: inCatalog && alts.length === 0 && http.length === 0,
          question: capabilityId
            ? `"${wf.name}" needs ${provider} (${capabilityName.get(capabilityId) ?? capabilityId}), which is not connected. What should it use?`
            : `"${wf.name}": "${text}" needs ${provider}, which ${inCatalog ? 'is not connected' : 'hireloop has no integration for'}. What should it use?`,
          resolution: 'defaulted',
          ...(inCatalog ? (alts[0] ? { default: alts[0] } : {}) : { default: recommended }),
        },
        status: 'open',
        ask: 'options',
        options: [
          ...leave.map((id) => ({
            id,
            label: `Leave it as a missing integration`,
            description: `The rest of the workflow runs; "${text}" is listed as needing ${provider}`.slice(0, 200),
          })),
          ...http.map((id) => ({ id, label: `Call ${provider}'s API over HTTP`, description: capabilityName.get(id) ?? '' })),
          ...alts.map((id) => ({ id, label: `Use ${id} instead`, description: capabilityName.get(id) ?? '' })),
          ...(inCatalog
            ? [
                {
                  id: `connect:${provider}`,
                  label: `I will connect ${provider}`,
                  description: 'Keep the step; it runs once the integration is connected',
                },
              ]
            : []),
        ],
        recommended,
        target: { kind: 'step', workflowId: wf.id, stepId },
      });
    }

    // nothing left to do: a workflow whose steps all lack a capability must not pass as an empty spec;
    // the org's closest capabilities are offered, or the user describes the task in words
    if (stepless.has(wf.id)) gaps.push(...taskGaps(wf, match, findings, suggestions[wf.id] ?? [], catalog, !unranked.has(wf.id)));

    // how the workflow starts: unknown, or a trigger of a provider the org lacks
    const trigger = match.trigger;
    // the start named a product (e.g. "a pull request is merged" → github) even when no trigger of it fits
    const triggerProvider = trigger.triggerId ? providerOf(trigger.triggerId) : (trigger.providerId ?? undefined);
    if (!trigger.triggerId || (triggerProvider && !connected.has(triggerProvider))) {
      // an event-like start falls back to a webhook, a periodic one to a schedule
      const generic =
        wf.triggerHint.kind === 'schedule'
          ? ['schedule.cron', 'webhook.incoming_webhook']
          : ['webhook.incoming_webhook', 'schedule.cron'];
      const candidates = [...new Set([...(trigger.alternatives ?? []), ...generic])].filter(
        (id) => catalog.triggers.some((t) => t.id === id) && connected.has(providerOf(id)),
      );
      const category = triggerProvider && !connected.has(triggerProvider) ? 'missing_integration' : 'workflow_ambiguity';
      gaps.push({
        gap: {
          id: slug(`gap:${wf.id}:trigger`),
          category,
          ...(triggerProvider && category === 'missing_integration' ? { providerId: triggerProvider } : {}),
          workflowId: wf.id,
          blocking: true,
          question: trigger.triggerId
            ? `"${wf.name}" starts from ${trigger.triggerId}, but ${triggerProvider} is not connected. What should start it?`
            : category === 'missing_integration'
              ? `"${wf.name}" starts on something in ${triggerProvider}, which hireloop has no integration for. What should start it?`
              : `What should start "${wf.name}"?`,
          resolution: 'defaulted',
        },
        status: 'open',
        ask: 'options',
        options: [
          ...candidates.map((id) => ({ id, label: catalog.triggers.find((t) => t.id === id)?.description ?? id })),
          // the start the description named, kept: the workflow waits until the org connects its provider
          ...(trigger.triggerId && category === 'missing_integration'
            ? [
                {
                  id: `connect:${triggerProvider}`,
                  label: `I will connect ${triggerProvider}`,
                  description: `Keep ${trigger.triggerId}; the workflow runs once the integration is connected`,
                },
              ]
            : []),
        ],
        ...(candidates[0] ? { recommended: candidates[0] } : {}),
        target: { kind: 'trigger', workflowId: wf.id },
      });
    } else {
      // trigger parameters its schema requires and the description did not give
      for (const param of checkParams(trigger.triggerId, trigger.params).missing) {
        gaps.push({
          gap: {
            id: slug(`gap:${wf.id}:param:${param.name}`),
            category: 'underspecified_task',
            workflowId: wf.id,
            blocking: param.default === undefined,
            question: `"${wf.name}" starts on ${trigger.triggerId}: ${param.description || param.name}?`,
            resolution: 'defaulted',
            ...(param.default !== undefined ? { default: String(param.default) } : {}),
          },
          status: 'open',
          ask: 'questions',
          ...exampleOf(param),
          target: { kind: 'param', workflowId: wf.id, param: param.name },
        });
      }
    }
  }

  // what counts as "urgent" decides whether a step runs: asked, its answer becomes the step's `when`
  const gated = new Set<string>();
  for (const wf of workflows) {
    const gaps_ = conditionGaps(wf, matches[wf.id], catalog);
    for (const g of gaps_) gated.add(`${wf.id}\u0000${g.target.kind === 'condition' ? g.target.quality : ''}`);
    gaps.push(...gaps_);
  }

  const capabilityOf = new Map(catalog.capabilities.map((c) => [c.id, c]));
  for (const f of findings) {
    // the same words asked as a condition are not asked again as prose
    if (
      f.category === 'organizational_context' &&
      [...gated].some(
        (k) => k.startsWith(`${f.workflowId}\u0000`) && f.excerpt.toLowerCase().includes(k.split('\u0000')[1] ?? ''),
      )
    )
      continue;
    if (f.category === 'underspecified_task' && f.blocking && stepless.has(f.workflowId)) continue;
    // who "the office manager" is decides a step's input: asked now, its answer bound as a constant
    const step = f.stepId ? matches[f.workflowId]?.steps.find((st) => st.stepId === f.stepId) : undefined;
    const capability = step?.capabilityId ? capabilityOf.get(step.capabilityId) : undefined;
    const draft = workflows.find((w) => w.id === f.workflowId)?.steps.find((st) => st.id === f.stepId);
    const decided =
      f.category === 'organizational_context' && capability && draft ? inputDecided(f.excerpt, draft.text, capability) : null;
    if (decided && f.stepId) {
      gaps.push({
        gap: {
          id: slug(`gap:${f.workflowId}:input:${f.stepId}:${decided.input}`),
          category: 'organizational_context',
          workflowId: f.workflowId,
          stepId: f.stepId,
          blocking: true,
          question:
            `Who or what is "${f.excerpt}" in your organisation? (${decided.what} for "${draft?.text ?? f.excerpt}")`.slice(
              0,
              500,
            ),
          resolution: 'defaulted',
        },
        status: 'open',
        ask: 'questions',
        exampleAnswer: decided.example,
        target: { kind: 'input', workflowId: f.workflowId, stepIds: [f.stepId], input: decided.input },
      });
      continue;
    }
    gaps.push({
      gap: {
        id: slug(`gap:${f.workflowId}:${f.category}:${f.stepId ?? ''}:${gaps.length}`),
        category: f.category,
        workflowId: f.workflowId,
        ...(f.stepId ? { stepId: f.stepId } : {}),
        blocking: f.blocking,
        question: f.question,
        resolution: 'defaulted',
        ...(f.default ? { default: f.default } : {}),
      },
      status: 'open',
      ask: 'questions',
      ...(f.default ? { exampleAnswer: f.default } : {}),
      target: { kind: 'context', workflowId: f.workflowId },
    });
  }
  gaps.push(...saidUnconnectedGaps(workflows, gaps, connected));
  return gaps;
}

/**
 * A product the description says is not connected ("Deposits are paid through Square, which isn't connected")
 * and no step or start of the org's design already asks about: listed as a missing integration of the
 * workflow that speaks of it, not asked — the user said so already — with what the employee does meanwhile
 * as its default, in the behaviour prompt and the review. Pure.
 */
export function saidUnconnectedGaps(
  workflows: readonly DraftWorkflow[],
  gaps: readonly GapState[],
  connected: ReadonlySet<string>,
): GapState[] {
  const listed = new Set(gaps.filter((g) => g.gap.category === 'missing_integration').map((g) => g.gap.providerId));
  const out: GapState[] = [];
  for (const wf of workflows) {
    for (const { providerId, excerpt } of wf.unconnected ?? []) {
      if (connected.has(providerId) || listed.has(providerId)) continue;
      listed.add(providerId);
      out.push({
        gap: {
          id: slug(`gap:${wf.id}:integration:${providerId}:said`),
          category: 'missing_integration',
          providerId,
          workflowId: wf.id,
          blocking: false,
          question:
            `"${wf.name}" speaks of ${providerId}, which you said is not connected ("${excerpt.slice(0, 200)}"). What should the employee do where it would need ${providerId}?`.slice(
              0,
              Limits.shortText,
            ),
          resolution: 'defaulted',
          default: `Leave that part to a person and say what it needs from ${providerId}; ${providerId} is listed as a missing integration`,
        },
        status: 'defaulted',
        ask: 'questions',
        target: { kind: 'context', workflowId: wf.id },
      });
    }
  }
  return out;
}

/**
 * The steps of a workflow a quality decides ("If the ticket is urgent, text …"): one blocking
 * question per quality, with an example answer over the field of the trigger's event it is read from
 * (priority, amount, tags, sender). None when the trigger's event has no field for it (the analyst's
 * context finding keeps its visible default then), or the trigger's parameters already filter on it.
 */
export function conditionGaps(wf: DraftWorkflow, match: CapabilityMatch | undefined, catalog: Catalog): GapState[] {
  const trigger = match?.trigger.triggerId ? catalog.triggers.find((t) => t.id === match.trigger.triggerId) : undefined;
  if (!match || !trigger || !catalog.connected.includes(providerOf(trigger.id))) return [];
  const context = `${wf.responsibility}\n${wf.description}`;
  const filtered = new Set(Object.values(match.trigger.params).map((v) => String(v).toLowerCase()));
  const groups = new Map<string, { gate: Gate; field: string; steps: { id: string; text: string }[] }>();
  for (const st of match.steps) {
    const draft = wf.steps.find((d) => d.id === st.stepId);
    if (!st.capabilityId || !draft) continue;
    const gate = gateOf(draft.text, context, wf.triggerHint.text);
    if (!gate || filtered.has(gate.quality)) continue;
    const field = gateField(gate.kind, trigger.eventSchema);
    if (!field) continue;
    const group = groups.get(gate.quality) ?? { gate, field, steps: [] };
    group.steps.push({ id: draft.id, text: draft.text });
    groups.set(gate.quality, group);
  }
  return [...groups.values()].map(({ gate, field, steps }) => {
    const fields = Object.keys(trigger.eventSchema.properties).slice(0, 8).join(', ');
    const what = steps.map((st) => `"${st.text}"`).join(' and ');
    return {
      gap: {
        id: slug(`gap:${wf.id}:condition:${gate.quality}`),
        category: 'organizational_context',
        workflowId: wf.id,
        ...(steps[0] ? { stepId: steps[0].id } : {}),
        blocking: true,
        question:
          `What counts as "${gate.quality}" in your organisation? It decides whether the employee does ${what}. Say it as a rule over the ${trigger.id} event (${fields}).`.slice(
            0,
            500,
          ),
        resolution: 'defaulted',
      },
      status: 'open',
      ask: 'questions',
      exampleAnswer: exampleCondition(field, gate.quality, trigger.eventSchema, trigger.paramsSchema),
      target: { kind: 'condition', workflowId: wf.id, stepIds: steps.map((st) => st.id), field, quality: gate.quality },
    } satisfies GapState;
  });
}

/** One tool of each connected provider, in catalog order: the options when nothing in the catalog ranks. */
export function oneToolPerProvider(catalog: Catalog, limit = 5): string[] {
  const connected = new Set(catalog.connected);
  const seen = new Set<string>();
  return catalog.capabilities
    .filter((c) => connected.has(c.providerId) && !seen.has(c.providerId) && seen.add(c.providerId))
    .map((c) => c.id)
    .slice(0, limit);
}

/** The option of a task prompt that asks for the task in words. */
export const DESCRIBE = 'describe';

/** The option of a missing-integration prompt that leaves a step on a product hireloop lacks out (`leave:<provider>`). */
export const LEAVE = 'leave:';

/**
 * The gaps of a workflow no capability does (pure): one blocking options prompt — the org's closest
 * capabilities, then "something else — describe it". Picking a capability makes it the step; picking
 * `describe` opens a questions gap whose answer the analyst reads again into steps (the identify_gaps
 * node fills `steps`). A description that maps to nothing asks the options again.
 */
export function taskGaps(
  wf: DraftWorkflow,
  match: CapabilityMatch,
  findings: readonly Finding[],
  suggestions: readonly string[],
  catalog: Catalog,
  ranked = true,
): GapState[] {
  const described = findings.find((f) => f.workflowId === wf.id && f.category === 'underspecified_task' && f.blocking);
  const known = new Map(catalog.capabilities.map((c) => [c.id, c]));
  const options = suggestions.filter((id) => known.has(id)).slice(0, 5);
  const stepId = match.steps[0]?.stepId;
  const what = (wf.responsibility || wf.name).slice(0, 200);
  const task: GapState = {
    gap: {
      id: slug(`gap:${wf.id}:task`),
      category: 'underspecified_task',
      workflowId: wf.id,
      ...(stepId ? { stepId } : {}),
      blocking: true,
      question: described
        ? `${described.question} Pick the closest tool, or describe it.`
        : `"${wf.name}": no tool of the catalog clearly does "${what}". Which of these should it do?`,
      resolution: 'defaulted',
    },
    status: 'open',
    ask: 'options',
    options: [
      ...options.map((id) => ({ id, label: known.get(id)?.description ?? id, description: id })),
      { id: DESCRIBE, label: 'Something else — describe it', description: 'Say in words what the employee should do here' },
    ],
    // options that merely list the org's tools (nothing ranked) recommend none of them
    ...(options[0] && ranked ? { recommended: options[0] } : {}),
    target: { kind: 'task', workflowId: wf.id, ...(stepId ? { stepId } : {}) },
  };
  return [
    task,
    {
      gap: {
        id: slug(`gap:${wf.id}:task:describe`),
        category: 'underspecified_task',
        workflowId: wf.id,
        blocking: true,
        question: `What should the employee do in "${wf.name}"? Say it as steps, with the tools.`,
        resolution: 'defaulted',
      },
      // asked only once `describe` is picked (see describeOpen)
      status: 'defaulted',
      ask: 'questions',
      // (the example is the answer box's placeholder, not words of the question)
      exampleAnswer: 'email the requester a summary, then post it in #ops',
      target: { kind: 'describe', workflowId: wf.id },
    },
  ];
}

const withoutAnswer = ({ answer: _answer, ...rest }: GapState): GapState => rest;

/**
 * The describe gap follows its task gap (pure): open while `describe` is the task's answer and no
 * steps were read from words yet, out of the way otherwise; a description that gave no step reopens
 * the task's options (the words are kept as the answer shown after it).
 */
export function followTaskAnswers(gaps: GapState[]): GapState[] {
  const task = new Map(gaps.filter((g) => g.target.kind === 'task').map((g) => [g.gap.workflowId, g]));
  const failed = new Set(
    gaps
      .filter((g) => g.target.kind === 'describe' && g.status === 'answered' && g.steps !== undefined && g.steps.length === 0)
      .map((g) => g.gap.workflowId),
  );
  return gaps.map((g) => {
    const wf = g.gap.workflowId ?? '';
    const owner = task.get(wf);
    if (g.target.kind === 'task' && failed.has(wf) && g.status === 'answered' && g.answer === DESCRIBE)
      return { ...withoutAnswer(g), status: 'open', previousAnswer: DESCRIBE };
    if (g.target.kind !== 'describe') return g;
    if (failed.has(wf)) {
      const { steps: _steps, ...rest } = withoutAnswer(g);
      return { ...rest, status: 'defaulted' };
    }
    const wanted = owner?.status === 'answered' && owner.answer === DESCRIBE;
    if (!wanted) return g.status === 'open' ? { ...g, status: 'defaulted' } : g;
    return g.status === 'defaulted' ? { ...g, status: 'open' } : g;
  });
}

/**
 * A start chosen in answer to a trigger gap may need parameters of its own (a cron expression, a
 * webhook path): those become gaps too, asked like any other.
 */
export function chosenTriggerParamGaps(
  gaps: GapState[],
  workflows: DraftWorkflow[],
  checkParams: ParamsCheck,
  matches: Record<string, CapabilityMatch> = {},
): GapState[] {
  const names = new Map(workflows.map((w) => [w.id, w.name]));
  return gaps.flatMap((g) => {
    const answer =
      g.target.kind === 'trigger'
        ? g.status === 'answered'
          ? g.answer
          : g.status === 'defaulted'
            ? g.gap.default
            : undefined
        : undefined;
    // a promised connection keeps the trigger the description named
    const chosen = answer?.startsWith('connect:') ? (matches[g.target.workflowId]?.trigger.triggerId ?? undefined) : answer;
    if (!chosen || g.target.kind !== 'trigger') return [];
    const workflowId = g.target.workflowId;
    const given = answer?.startsWith('connect:') ? (matches[workflowId]?.trigger.params ?? {}) : {};
    return checkParams(chosen, given).missing.map(
      (param): GapState => ({
        gap: {
          id: slug(`gap:${workflowId}:param:${param.name}`),
          category: 'underspecified_task',
          workflowId,
          blocking: param.default === undefined,
          question: `"${names.get(workflowId) ?? workflowId}" starts on ${chosen}: ${param.description || param.name}?`,
          resolution: 'defaulted',
          ...(param.default !== undefined ? { default: String(param.default) } : {}),
        },
        status: 'open',
        ask: 'questions',
        ...exampleOf(param),
        target: { kind: 'param', workflowId, param: param.name },
      }),
    );
  });
}

/** Keeps the answers of gaps that are still there after gaps were identified again. */
export function carryAnswers(previous: GapState[], next: GapState[]): GapState[] {
  const before = new Map(previous.map((g) => [g.gap.id, g]));
  return next.map((g) => {
    const old = before.get(g.gap.id);
    if (!old) return g;
    return {
      ...g,
      status: old.status,
      ...(old.answer !== undefined ? { answer: old.answer } : {}),
      ...(old.previousAnswer !== undefined ? { previousAnswer: old.previousAnswer } : {}),
      ...(old.steps !== undefined ? { steps: old.steps } : {}),
    };
  });
}

/**
 * An organisational-context answer bound where the step needs it: a constant replaces what would be
 * asked at run time or guessed, and an input the capability has but the binder left out is added.
 */
function withConstants(
  inputs: Workflow['steps'][number]['inputs'],
  constants: Record<string, string> | undefined,
  capability: CatalogCapability,
) {
  if (!constants) return inputs;
  const out = { ...inputs };
  for (const [name, value] of Object.entries(constants)) {
    const list = capability.inputSchema.properties[name]?.type === 'array';
    out[name] = {
      value: list
        ? value
            .split(/[,;]|\s+and\s+/)
            .map((v) => v.trim())
            .filter(Boolean)
        : value,
      origin: 'user',
    };
  }
  return out;
}

/**
 * The spec's workflows, derived from the matches and the gaps' resolutions (never edited in place,
 * so `back` and `restart` only need to change gap states).
 */
export function deriveWorkflows(
  workflows: DraftWorkflow[],
  matches: Record<string, CapabilityMatch>,
  gaps: GapState[],
  catalog: Catalog,
  { repair = false }: { repair?: boolean } = {},
): Workflow[] {
  const capabilities = new Map(catalog.capabilities.map((c) => [c.id, c]));
  return workflows.map((wf) => {
    const match = matches[wf.id];
    const mine = gaps.filter((g) => g.gap.workflowId === wf.id);
    const promised = new Set(
      mine.flatMap((g) => {
        const value = g.status === 'answered' ? g.answer : g.status === 'defaulted' ? g.gap.default : undefined;
        return (g.target.kind === 'step' || g.target.kind === 'trigger') && value?.startsWith('connect:')
          ? [value.slice('connect:'.length)]
          : [];
      }),
    );
    const replaced = new Map<string, string | null>();
    // steps that answers add: a picked capability for a stepless workflow, a described task's steps
    const added: { stepId: string; capabilityId: string; text: string }[] = [];
    // constants that answers bind: input name → value, per step
    const constants = new Map<string, Record<string, string>>();
    // conditions that answers set: step id → the answer and the field it was asked about
    const conditions = new Map<string, { answer: string; field: string; quality: string }>();
    let triggerId = match?.trigger.triggerId ?? null;
    const params: Record<string, unknown> = { ...(match?.trigger.params ?? {}) };
    const context: string[] = [];
    const unsatisfied: string[] = [];
    const pendingParams: [string, string][] = [];
    for (const g of mine) {
      const value = g.status === 'answered' ? g.answer : g.status === 'defaulted' ? g.gap.default : undefined;
      if (g.status === 'unsatisfied') unsatisfied.push(g.gap.question);
      if (value === undefined) continue;
      switch (g.target.kind) {
        case 'step':
          replaced.set(
            g.target.stepId,
            value.startsWith(LEAVE)
              ? null
              : value.startsWith('connect:')
                ? (match?.steps.find((s) => s.stepId === (g.target as { stepId: string }).stepId)?.capabilityId ?? null)
                : value,
          );
          break;
        case 'trigger':
          // "I will connect <provider>": the trigger the description named stays, and the workflow waits
          triggerId = value.startsWith('connect:') ? (match?.trigger.triggerId ?? null) : value;
          break;
        case 'param':
          pendingParams.push([g.target.param, value]);
          break;
        case 'context':
          context.push(`${g.gap.question} → ${value}`);
          break;
        case 'task': {
          if (value === DESCRIBE) break;
          const stepId = g.target.stepId;
          if (stepId && wf.steps.some((d) => d.id === stepId)) replaced.set(stepId, value);
          else added.push({ stepId: `${wf.id}.task`, capabilityId: value, text: wf.responsibility || wf.name });
          break;
        }
        case 'describe':
          for (const st of g.steps ?? []) added.push({ stepId: st.id, capabilityId: st.capabilityId, text: st.text });
          break;
        case 'input':
          for (const stepId of g.target.stepIds)
            constants.set(stepId, { ...(constants.get(stepId) ?? {}), [g.target.input]: value });
          break;
        case 'condition':
          for (const stepId of g.target.stepIds)
            conditions.set(stepId, { answer: value, field: g.target.field, quality: g.target.quality });
          break;
        default: {
          const never: never = g.target;
          throw new Error(`unknown gap target ${JSON.stringify(never)}`);
        }
      }
    }
    // parameters apply to the trigger finally chosen, typed as its schema says
    for (const [name, value] of pendingParams) params[name] = triggerId ? coerceParam(catalog, triggerId, name, value) : value;
    // a step whose provider is not connected stays only when the user promised to connect it: its
    // workflow then waits for that connection (activation leaves it off until the org has it)
    const waitingFor = new Set<string>();
    const kept: DraftBoundStep[] = [];
    for (const draft of wf.steps) {
      const m = match?.steps.find((s) => s.stepId === draft.id);
      const capabilityId = replaced.has(draft.id) ? replaced.get(draft.id) : (m?.capabilityId ?? null);
      if (!capabilityId) continue;
      // a capability the catalog does not know stays, unbound, for validation to send back to matching
      const capability = capabilities.get(capabilityId) ?? unknownCapability(capabilityId);
      const provider = providerOf(capabilityId);
      if (!catalog.connected.includes(provider)) {
        if (!promised.has(provider)) continue;
        waitingFor.add(provider);
      }
      const answers = mine
        .filter((g) => g.status === 'answered' && g.answer && g.target.kind === 'context')
        .filter((g) => g.gap.stepId === undefined || g.gap.stepId === draft.id)
        .map((g) => g.answer as string);
      kept.push({ stepId: draft.id, capability, text: draft.text, answers });
    }
    for (const a of added) {
      if (kept.some((k) => k.stepId === a.stepId)) continue;
      const capability = capabilities.get(a.capabilityId) ?? unknownCapability(a.capabilityId);
      kept.push({ stepId: a.stepId, capability, text: a.text, answers: [] });
    }
    if (triggerId && !catalog.connected.includes(providerOf(triggerId)) && promised.has(providerOf(triggerId)))
      waitingFor.add(providerOf(triggerId));
    const event = catalog.triggers.find((t) => t.id === triggerId)?.eventSchema ?? EMPTY_EVENT;
    const bound = bindWorkflow(kept, event, `${wf.responsibility}\n${wf.description}`);
    const risks = runTimeRisks(bound.map((b) => ({ stepId: b.stepId, text: b.text, risk: b.capability.risk })));
    const steps: Workflow['steps'] = bound.map((b, i) => {
      const ids = bound.slice(0, i).map((e) => e.stepId);
      // the organisation's answer to "what counts as urgent", read as a condition over the trigger's event;
      // an answer that cannot be read stays prose the employee judges by (the review says so)
      const asked = conditions.get(b.stepId);
      const when = asked ? (parseCondition(asked.answer, event, asked.field) ?? b.when) : b.when;
      if (asked && !parseCondition(asked.answer, event, asked.field))
        context.push(`Only "${b.text}" when it is ${asked.quality}, which means: ${asked.answer}`);
      return {
        id: b.stepId,
        capabilityId: b.capability.id,
        purpose: b.text.slice(0, 500),
        inputs: withConstants(b.inputs, constants.get(b.stepId), b.capability),
        ...(when ? { when } : {}),
        risk: risks[i] ?? b.capability.risk,
        // with repair (a failed validation routed here), only steps that come before are kept
        dependsOn: repair ? b.dependsOn.filter((d) => ids.includes(d)) : b.dependsOn,
      };
    });
    const cron = triggerId === 'schedule.cron' ? cronProblem(params) : null;
    if (cron) unsatisfied.push(cron);
    return {
      id: wf.id,
      name: wf.name,
      description: wf.description,
      trigger: { triggerId: triggerId ?? 'webhook.incoming_webhook', params: triggerId ? params : {} },
      steps,
      behaviourPrompt: [`You are responsible for: ${wf.responsibility}`, ...context].join('\n').slice(0, 20_000),
      ...(waitingFor.size > 0 ? { waitingFor: [...waitingFor].sort() } : {}),
      ...(cron
        ? { status: 'unsatisfied' as const, unsatisfiedReason: cron.slice(0, 500) }
        : unsatisfied.length > 0
          ? { status: 'unsatisfied' as const, unsatisfiedReason: `blocking question skipped: ${unsatisfied[0]}`.slice(0, 500) }
          : { status: 'satisfied' as const }),
    };
  });
}
