import { type CapabilityMatch, closestCapabilities, type DraftWorkflow } from '@hireloop/analyst';
import type { AnswerPayload } from '@hireloop/schemas';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { applyAnswer } from '../src/creation/asking';
import { paramsChecker } from '../src/creation/catalog';
import {
  DESCRIBE,
  deriveWorkflows,
  followTaskAnswers,
  identifyGaps,
  inputDecided,
  oneToolPerProvider,
} from '../src/creation/gaps';
import type { PromptSpec } from '../src/prompt';
import { answering, catalogOf, create, optionIds, recommendedOf } from './creation-harness';

// Never a silent empty workflow: a workflow no capability does asks what it should do — the org's
// closest tools, or "something else — describe it" — and the answer becomes its step.

const catalog = catalogOf();
const check = paramsChecker(catalog);

const workflow: DraftWorkflow = {
  id: 'wf-1',
  name: 'Front desk',
  description: 'Look after the front desk',
  responsibility: 'Look after the front desk',
  triggerHint: { kind: 'manual', text: '' },
  steps: [{ id: 'wf-1.s1', text: 'look after the front desk', action: 'look after desk' }],
};
const noTool: CapabilityMatch = {
  workflowId: 'wf-1',
  trigger: { triggerId: 'webhook.incoming_webhook', params: {}, confidence: 0.5, alternatives: [] },
  steps: [{ stepId: 'wf-1.s1', capabilityId: null, providerId: null, confidence: 0.1, candidates: [] }],
};
const suggestions = { 'wf-1': ['slack.post_message', 'gmail.send_email'] };
const given = () => identifyGaps([workflow], { 'wf-1': noTool }, [], catalog, check, suggestions);
const task = (gaps: ReturnType<typeof given>) => gaps.find((g) => g.target.kind === 'task');
const describeGap = (gaps: ReturnType<typeof given>) => gaps.find((g) => g.target.kind === 'describe');

describe('a workflow no capability does', () => {
  it('given no step maps to a capability, when gaps are identified, then one blocking options gap offers the closest tools and "describe it"', () => {
    const gaps = given();
    const t = task(gaps);
    expect(t?.gap).toMatchObject({ category: 'underspecified_task', blocking: true, workflowId: 'wf-1' });
    expect(t?.ask).toBe('options');
    expect(t?.options?.map((o) => o.id)).toEqual(['slack.post_message', 'gmail.send_email', DESCRIBE]);
    expect(t?.recommended).toBe('slack.post_message');
    // the words prompt waits until "describe it" is picked
    expect(describeGap(gaps)?.status).not.toBe('open');
  });

  it('given "describe it" is offered, when its words are asked, then the example is the answer\'s placeholder, not words of the question', () => {
    const words = describeGap(given());
    expect(words?.exampleAnswer).toBe('email the requester a summary, then post it in #ops');
    expect(words?.gap.question).not.toMatch(/e\.g\./);
  });

  it('given a blocking "what should it do?" finding, when gaps are identified, then it is asked once, as the options prompt', () => {
    const finding = {
      category: 'underspecified_task' as const,
      workflowId: 'wf-1',
      stepId: 'wf-1.s1',
      excerpt: 'look after the front desk',
      reason: 'vague',
      question: 'What exactly should the employee do at the front desk?',
      blocking: true,
    };
    const gaps = identifyGaps([workflow], { 'wf-1': noTool }, [finding], catalog, check, suggestions);
    expect(gaps.filter((g) => g.gap.blocking && g.status === 'open').map((g) => g.target.kind)).toEqual(['task']);
    expect(task(gaps)?.gap.question).toContain('What exactly should the employee do at the front desk?');
  });

  it("given a picked capability, when the spec is derived, then it is the workflow's step", () => {
    const gaps = given();
    const answered = applyAnswer(gaps, [task(gaps) as never], { selected: ['gmail.send_email'] });
    const [wf] = deriveWorkflows([workflow], { 'wf-1': noTool }, followTaskAnswers(answered), catalog);
    expect(wf?.steps.map((s) => [s.id, s.capabilityId])).toEqual([['wf-1.s1', 'gmail.send_email']]);
  });

  it('given "describe it" is picked, then the words are asked; a description read into steps becomes them', () => {
    const gaps = given();
    const picked = followTaskAnswers(applyAnswer(gaps, [task(gaps) as never], { selected: [DESCRIBE] }));
    const words = describeGap(picked);
    expect(words?.status).toBe('open');
    expect(words?.gap.blocking).toBe(true);
    const read = picked.map((g) =>
      g === words
        ? {
            ...g,
            status: 'answered' as const,
            answer: 'open a ticket',
            steps: [{ id: 'wf-1.d1', text: 'open a ticket', capabilityId: 'zendesk.create_ticket' }],
          }
        : g,
    );
    const [wf] = deriveWorkflows([workflow], { 'wf-1': noTool }, followTaskAnswers(read), catalog);
    expect(wf?.steps.map((s) => s.capabilityId)).toEqual(['zendesk.create_ticket']);
  });

  it('given a description that maps to no tool, then the options are asked again', () => {
    const gaps = given();
    const picked = followTaskAnswers(applyAnswer(gaps, [task(gaps) as never], { selected: [DESCRIBE] }));
    const read = picked.map((g) =>
      g.target.kind === 'describe' ? { ...g, status: 'answered' as const, answer: 'be nice', steps: [] } : g,
    );
    const again = followTaskAnswers(read);
    expect(task(again)?.status).toBe('open');
    expect(describeGap(again)?.status).toBe('defaulted');
  });
});

describe('when nothing in the catalog ranks', () => {
  it('given a text no vocabulary knows, when the analyst ranks the catalog, then it names nothing', () => {
    expect(closestCapabilities('Be our SDR', catalog)).toEqual([]);
  });

  it('given the options are one tool per connected provider, when gaps are identified, then none is recommended', () => {
    const fallback = oneToolPerProvider(catalog);
    expect(new Set(fallback.map((id) => id.split('.')[0])).size).toBe(fallback.length);
    const gaps = identifyGaps([workflow], { 'wf-1': noTool }, [], catalog, check, { 'wf-1': fallback }, new Set(['wf-1']));
    expect(task(gaps)?.options?.map((o) => o.id)).toEqual([...fallback, DESCRIBE]);
    expect(task(gaps)?.recommended).toBeUndefined();
  });

  it('"Be our SDR." through the creation graph: the options prompt recommends nothing', async () => {
    const run = await create(new MemorySaver(), 'Be our SDR.');
    const prompt = run.prompts.find((p) => optionIds(p).includes(DESCRIBE));
    expect(optionIds(prompt).length).toBeGreaterThan(1);
    expect(recommendedOf(prompt)).toBeUndefined();
  });
});

describe('through the creation graph', () => {
  it('a terse role with no tool gets an options prompt from the catalog, and the pick becomes the step', async () => {
    const run = await create(new MemorySaver(), 'Be our receptionist.');
    const prompt = run.prompts.find((p) => optionIds(p).includes(DESCRIBE));
    expect(prompt).toBeDefined();
    const pick = recommendedOf(prompt) ?? optionIds(prompt)[0];
    expect(run.spec.workflows.every((w) => w.steps.length > 0)).toBe(true);
    expect(run.spec.workflows.flatMap((w) => w.steps.map((s) => s.capabilityId))).toContain(pick);
  });

  it('"something else — describe it" reads the description again into steps', async () => {
    // picks "describe it", answers the words, then as the evaluation harness does
    const describing = (p: PromptSpec, i: number): AnswerPayload =>
      optionIds(p).includes(DESCRIBE)
        ? { selected: [DESCRIBE] }
        : p.kind === 'questions' && p.questions.some((q) => q.text.includes('What should the employee do'))
          ? { answers: { q1: 'Post a message in #front-desk with the visitor name.' } }
          : answering()(p, i);
    const run = await create(new MemorySaver(), 'Be our receptionist.', describing);
    const words = run.prompts.find(
      (p) => p.kind === 'questions' && p.questions.some((q) => q.text.includes('What should the employee do')),
    );
    expect(words).toBeDefined();
    expect(run.spec.workflows.flatMap((w) => w.steps.map((s) => s.capabilityId))).toContain('slack.post_message');
  });
});

describe('organisational context that decides a binding', () => {
  const send = catalog.capabilities.find((c) => c.id === 'gmail.send_email');
  const post = catalog.capabilities.find((c) => c.id === 'slack.post_message');
  it('given a person named by role where a step sends, then it is who the step sends to', () => {
    expect(send && inputDecided('the office manager', 'email the office manager the report', send)).toMatchObject({
      input: 'to',
    });
    expect(post && inputDecided('the right channel', 'post it in the right channel', post)).toMatchObject({ input: 'channel' });
    // a title or a rota names one person too: the principal, the class teacher, the engineer on call
    for (const [phrase, step] of [
      ['the principal', 'email the principal the number of absences'],
      ['the class teacher', 'forward the news to the class teacher by email'],
      ['the engineer on call', 'email the engineer on call with the link'],
    ] as const)
      expect(send && inputDecided(phrase, step, send), phrase).toMatchObject({ input: 'to', example: 'name@yourcompany.com' });
  });

  it('given the step names the address or channel itself, or the phrase is no one, then nothing is decided', () => {
    expect(send && inputDecided('the office manager', 'email the office manager at om@acme.com', send)).toBeNull();
    expect(post && inputDecided('our escalation policy', 'post it per our escalation policy', post)).toBeNull();
  });

  it('through the creation graph: asked as a blocking question, the answer is the step’s constant input, not prose', async () => {
    const run = await create(
      new MemorySaver(),
      'Every Monday, email the office manager a summary of last week’s room bookings.',
      (p, i) =>
        p.kind === 'questions' && p.questions.some((q) => q.text.includes('the office manager'))
          ? { answers: { q1: 'maria@acme.com, ops@acme.com' } }
          : answering()(p, i),
    );
    const gap = run.spec.gaps.find((g) => g.category === 'organizational_context');
    expect(gap).toMatchObject({ blocking: true, resolution: 'answered' });
    const step = run.spec.workflows[0]?.steps[0];
    expect(step?.inputs.to).toEqual({ value: ['maria@acme.com', 'ops@acme.com'], origin: 'user' });
    expect(run.spec.workflows[0]?.behaviourPrompt).not.toContain('maria@acme.com');
  });
});
