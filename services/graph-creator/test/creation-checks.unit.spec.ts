import type { Catalog } from '@hireloop/analyst';
import { builtInCatalog, devOrgConnections, type Workflow } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { applyAnswer, applyDefaults, followPromises, nextBatch, promptFor, reopen, skipBatch } from '../src/creation/asking';
import { paramsChecker } from '../src/creation/catalog';
import { compileWorkflows, cycleEdges, mermaid, mermaidText } from '../src/creation/compile';
import type { GapState } from '../src/creation/state';
import { classify, validateSpec } from '../src/creation/validate';

const catalog: Catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...devOrgConnections],
};
const check = paramsChecker(catalog);

const workflow = (over: Partial<Workflow> = {}): Workflow => ({
  id: 'wf-1',
  name: 'Welcome customers',
  description: 'When a deal closes, welcome the customer',
  trigger: { triggerId: 'hubspot.deal_stage_changed', params: { stage: 'Closed Won' } },
  steps: [
    {
      id: 's1',
      capabilityId: 'google-drive.create_folder',
      purpose: 'folder',
      inputs: { name: { from: 'trigger', path: 'dealName' } },
      risk: 'low',
      dependsOn: [],
    },
    {
      id: 's2',
      capabilityId: 'gmail.send_email',
      purpose: 'welcome',
      inputs: {
        to: { from: 'trigger', path: 'contactEmail' },
        subject: { value: 'Welcome', origin: 'default' },
        body: { from: 'step', stepId: 's1', path: 'url' },
      },
      risk: 'high',
      dependsOn: ['s1'],
    },
  ],
  behaviourPrompt: 'be kind',
  ...over,
});

const failedIds = (wfs: Workflow[], repair = false) => {
  const checks = validateSpec(wfs, compileWorkflows(wfs, { repair }), catalog, check);
  return { checks, failed: checks.filter((c) => !c.passed).map((c) => c.id), route: classify(checks) };
};

describe('compile and validate', () => {
  it('a sound spec passes every check, with an approval before the high-risk step', () => {
    const compiled = compileWorkflows([workflow()], { repair: false });
    expect(compiled.interruptPoints).toEqual(['wf-1.s2']);
    expect(compiled.tools).toEqual(['gmail.send_email', 'google-drive.create_folder']);
    expect(compiled.budgets.maxSteps).toBeGreaterThan(0);
    const { failed, route } = failedIds([workflow()]);
    expect(failed).toEqual([]);
    expect(route).toBeNull();
    expect(mermaid(compiled)).toContain('wf_1_s2["gmail.send_email (approval)"]');
  });

  it('an unknown capability fails and routes back to capability matching', () => {
    const wf = workflow();
    (wf.steps[0] as { capabilityId: string }).capabilityId = 'gdrive.make_folder';
    const { failed, route } = failedIds([wf]);
    expect(failed).toContain('capabilities_known');
    expect(route).toMatchObject({ routeTo: 'match_workflows', failedCheck: 'capabilities_known' });
    expect(route?.matchedRules).toContain('unknown_capability_rematch');
  });

  it('an unbounded loop fails and routes back to compile, whose repair bounds it', () => {
    const wf = workflow();
    (wf.steps[0] as { dependsOn: string[] }).dependsOn = ['s2'];
    const { failed, route } = failedIds([wf]);
    expect(failed).toContain('loops_bounded');
    expect(route).toMatchObject({ routeTo: 'compile' });
    expect(route?.matchedRules).toContain('unbounded_loop_recompile');
    const repaired = compileWorkflows([wf], { repair: true });
    expect(cycleEdges(repaired.edges).every((e) => e.maxIterations === 3)).toBe(true);
    expect(failedIds([wf], true).failed).not.toContain('loops_bounded');
  });

  it('invalid trigger parameters fail and route back to gap identification', () => {
    const { failed, route, checks } = failedIds([workflow({ trigger: { triggerId: 'schedule.cron', params: {} } })]);
    expect(failed).toContain('trigger_params_valid');
    expect(checks.find((c) => c.id === 'trigger_params_valid')?.detail).toContain('expression');
    expect(route).toMatchObject({ routeTo: 'identify_gaps' });
  });

  it('a step of an unconnected provider fails the connection check', () => {
    const wf = workflow();
    (wf.steps[1] as { capabilityId: string }).capabilityId = 'docusign.send_envelope';
    expect(failedIds([wf]).failed).toContain('capabilities_connected');
  });

  it('every matching rule is reported, the earliest owner decides the route', () => {
    const wf = workflow({ trigger: { triggerId: 'schedule.cron', params: {} } });
    (wf.steps[0] as { capabilityId: string }).capabilityId = 'nope.nothing';
    (wf.steps[0] as { dependsOn: string[] }).dependsOn = ['s2'];
    const { route } = failedIds([wf]);
    expect(route?.routeTo).toBe('match_workflows');
    expect(route?.matchedRules).toEqual([
      'unknown_capability_rematch',
      'trigger_params_ask',
      'invalid_cron_ask',
      'forward_reference_rebind',
      'dependency_cycle_rebind',
      'unbounded_loop_recompile',
    ]);
  });

  it('a hand-off to an undefined step fails three checks and routes to compile, whose repair drops it', () => {
    const wf = workflow();
    (wf.steps[1] as { dependsOn: string[] }).dependsOn = ['s9'];
    (wf.steps[1] as { inputs: Workflow['steps'][number]['inputs'] }).inputs.body = { value: 'Welcome aboard' };
    const { failed, route } = failedIds([wf]);
    expect(failed).toEqual(['handoffs_defined', 'state_reads_written', 'references_earlier_steps']);
    expect(route?.matchedRules).toEqual(['forward_reference_rebind', 'undefined_handoff_recompile', 'unwritten_state_recompile']);
    expect(route?.routeTo).toBe('compile');
    // the compiled graph's repair drops the hand-off; the spec's own repair happens when it is derived again
    expect(failedIds([wf], true).failed).toEqual(['references_earlier_steps']);
  });
});

const gap = (id: string, over: Partial<GapState> & { blocking?: boolean; workflowId?: string } = {}): GapState => ({
  gap: {
    id,
    category: 'underspecified_task',
    workflowId: over.workflowId ?? 'wf-1',
    blocking: over.blocking ?? true,
    question: `question ${id}?`,
    resolution: 'defaulted',
    ...(over.blocking === false ? { default: `default ${id}` } : {}),
  },
  status: 'open',
  ask: 'questions',
  target: { kind: 'context', workflowId: over.workflowId ?? 'wf-1' },
  ...over,
});

describe('the diagram’s text', () => {
  it('given a label holding a quote, a pipe or angle brackets, then each is an entity code and nothing else changes', () => {
    expect(mermaidText('when (amount) < 100 | "vip" > 2')).toBe('when (amount) #lt; 100 #124; #quot;vip#quot; #gt; 2');
    expect(mermaidText('plain [text] {x}')).toBe('plain [text] {x}');
  });

  it('given any condition, then every edge label is quoted and holds no bare quote or pipe', () => {
    const compiled = {
      nodes: [
        { id: 'a', kind: 'start' },
        { id: 'b', kind: 'step', capabilityId: 'x.y' },
      ],
      edges: [{ from: 'a', to: 'b', condition: 'trigger is z (waits for "stripe" | later)' }],
      interruptPoints: [],
    } as unknown as Parameters<typeof mermaid>[0];
    const edge = mermaid(compiled)
      .split('\n')
      .find((l) => l.includes('-->'));
    expect(edge).toBe('  a -->|"trigger is z (waits for #quot;stripe#quot; #124; later)"| b');
  });
});

describe('asking the human', () => {
  it('asks blocking gaps first and groups related questions of one workflow', () => {
    const gaps = [gap('a', { blocking: false }), gap('b'), gap('c', { workflowId: 'wf-2' }), gap('d')];
    expect(nextBatch(gaps).map((g) => g.gap.id)).toEqual(['b', 'd', 'c']);
  });

  it('asks an options gap alone', () => {
    const options = gap('o', { ask: 'options', options: [{ id: 'x', label: 'X' }], recommended: 'x' });
    expect(nextBatch([options, gap('b')]).map((g) => g.gap.id)).toEqual(['o']);
    const prompt = promptFor([options], { progress: 50, canGoBack: false, workflowNames: {} });
    expect(prompt.kind === 'options' && prompt.options[0]?.recommended).toBe(true);
    expect(prompt.allowedActions).toEqual(['skip', 'restart']);
  });

  it('given a provider the user said they will connect, when its trigger is asked about later, then keeping it is the recommended answer', () => {
    const connectOr = (id: string, first: string, over: Partial<GapState> = {}) =>
      gap(id, {
        ask: 'options',
        options: [
          { id: first, label: first },
          { id: 'connect:docusign', label: 'I will connect docusign' },
        ],
        recommended: first,
        ...over,
      });
    const step = connectOr('step', 'leave:docusign', { status: 'answered', answer: 'connect:docusign' });
    const trigger = connectOr('trigger', 'webhook.incoming_webhook', { target: { kind: 'trigger', workflowId: 'wf-2' } });
    const [, after] = followPromises([step, trigger]);
    expect(after?.recommended).toBe('connect:docusign');
    const prompt = promptFor([after as GapState], { progress: 50, canGoBack: true, workflowNames: {} });
    expect(prompt.kind === 'options' && prompt.options.find((o) => o.recommended)?.id).toBe('connect:docusign');
    // nothing promised, or the user's own earlier answer shown after "back": the recommendation stays
    expect(followPromises([trigger])[0]?.recommended).toBe('webhook.incoming_webhook');
    const reopened = { ...trigger, previousAnswer: 'schedule.cron' };
    expect(followPromises([step, reopened])[1]?.recommended).toBe('webhook.incoming_webhook');
  });

  it('given a question the employee cannot run without and that has no default, when asked, then it is required and the message says so, not that a skip takes a default', () => {
    const prompt = promptFor([gap('b'), gap('n', { blocking: false })], { progress: 50, canGoBack: false, workflowNames: {} });
    expect(prompt.kind === 'questions' && prompt.questions.map((q) => [q.id, q.required])).toEqual([
      ['q1', true],
      ['q2', false],
    ]);
    expect(prompt.messages[0]).toMatch(
      /required ones are needed before the employee can run; skipped answers to the others take the defaults shown/,
    );
    const optional = promptFor([gap('n', { blocking: false })], { progress: 50, canGoBack: false, workflowNames: {} });
    expect(optional.kind === 'questions' && optional.questions[0]?.required).toBe(false);
    expect(optional.messages[0]).toMatch(/Skipped answers take the defaults shown\.$/);
  });

  it('an answer resolves the batch; an empty answer takes the default or leaves it unsatisfied', () => {
    const gaps = [gap('b'), gap('n', { blocking: false })];
    const after = applyAnswer(gaps, gaps, { answers: { q1: 'the finance team', q2: '' } });
    expect(after.map((g) => [g.status, g.answer])).toEqual([
      ['answered', 'the finance team'],
      ['defaulted', undefined],
    ]);
  });

  it('skip takes defaults; a skipped blocking gap is unsatisfied', () => {
    const gaps = [gap('b'), gap('n', { blocking: false })];
    expect(skipBatch(gaps, gaps).map((g) => g.status)).toEqual(['unsatisfied', 'defaulted']);
    expect(applyDefaults(gaps).map((g) => g.status)).toEqual(['unsatisfied', 'defaulted']);
  });

  it('back reopens the previous round and shows the earlier answer', () => {
    const answered = applyAnswer([gap('b')], [gap('b')], { answers: { q1: 'Closed Won' } });
    const reopened = reopen(answered, ['b']);
    expect(reopened[0]?.status).toBe('open');
    const prompt = promptFor(reopened, { progress: 50, canGoBack: true, workflowNames: {} });
    expect(prompt.kind === 'questions' && prompt.questions[0]?.exampleAnswer).toBe('Closed Won');
    expect(prompt.allowedActions).toContain('back');
  });
});
