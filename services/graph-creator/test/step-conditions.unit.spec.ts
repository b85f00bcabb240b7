import type { CapabilityMatch, DraftWorkflow } from '@hireloop/analyst';
import { builtInCatalog, type ObjectJsonSchema } from '@hireloop/schemas';
import { MemorySaver } from '@langchain/langgraph';
import { describe, expect, it } from 'vitest';
import { findEquality } from '../src/creation/bind';
import { paramsChecker } from '../src/creation/catalog';
import { exampleCondition, gateField, gateOf, parseCondition } from '../src/creation/conditions';
import { conditionGaps, deriveWorkflows, identifyGaps } from '../src/creation/gaps';
import type { PromptSpec } from '../src/prompt';
import { holds } from '../src/runtime/plan';
import { allProviders, answering, catalogOf, create, memoryCatalog } from './creation-harness';

// What counts as "urgent" decides whether a step runs: asked with an example, and the answer becomes
// the step's `when` over the trigger's event, in the shape the runtime evaluates.

const eventOf = (id: string): ObjectJsonSchema => {
  const t = builtInCatalog.triggers.find((x) => x.id === id);
  if (!t) throw new Error(id);
  return t.eventSchema;
};
const ticket = eventOf('zendesk.new_ticket');
const email = eventOf('gmail.new_email');
const payment = eventOf('stripe.payment_failed');

describe('reading an answer as a condition', () => {
  it('given "priority is high or urgent", then any of two comparisons on priority', () => {
    expect(parseCondition('priority is high or urgent', ticket)).toEqual({
      any: [
        { source: { from: 'trigger', path: 'priority' }, op: 'eq', value: 'high' },
        { source: { from: 'trigger', path: 'priority' }, op: 'eq', value: 'urgent' },
      ],
    });
  });

  it('given "amount over 500", then amount greater than 500', () => {
    expect(parseCondition('amount over 500', payment)).toEqual({
      source: { from: 'trigger', path: 'amount' },
      op: 'gt',
      value: 500,
    });
  });

  it('given only a threshold ("anything above $1,000"), then the field the question was about', () => {
    expect(parseCondition('anything above $1,000', payment, 'amount')).toEqual({
      source: { from: 'trigger', path: 'amount' },
      op: 'gt',
      value: 1000,
    });
  });

  it('given only values ("high or urgent"), then the field the question was about', () => {
    expect(parseCondition('high or urgent', ticket, 'priority')).toMatchObject({ any: [{ value: 'high' }, { value: 'urgent' }] });
  });

  it('given a tag, a sender and two clauses, then contains, contains and all', () => {
    expect(parseCondition('tagged vip', ticket)).toEqual({
      source: { from: 'trigger', path: 'tags' },
      op: 'contains',
      value: 'vip',
    });
    expect(parseCondition('from contains @bigcustomer.com', email)).toEqual({
      source: { from: 'trigger', path: 'from' },
      op: 'contains',
      value: '@bigcustomer.com',
    });
    expect(parseCondition('urgent means priority is urgent and amount at least 100', ticket)).toEqual({
      all: [
        { source: { from: 'trigger', path: 'priority' }, op: 'eq', value: 'urgent' },
        { source: { from: 'trigger', path: 'amount' }, op: 'gte', value: 100 },
      ],
    });
  });

  it('given words that name no field of the event, then nothing is read', () => {
    expect(parseCondition('whatever the CEO personally cares about this quarter', ticket)).toBeNull();
    expect(parseCondition('the weather is bad', ticket)).toBeNull();
    expect(parseCondition('over 500', ticket, 'priority')).toBeNull();
    expect(parseCondition('', ticket, 'priority')).toBeNull();
  });

  it('given a condition read from an answer, then the runtime evaluates it as the organisation meant', () => {
    const when = parseCondition('priority is high or urgent', ticket);
    expect(holds(when ?? undefined, { event: { priority: 'urgent' }, outputs: {} })).toBe(true);
    expect(holds(when ?? undefined, { event: { priority: 'low' }, outputs: {} })).toBe(false);
    const big = parseCondition('amount over 500', payment);
    expect(holds(big ?? undefined, { event: { amount: 900 }, outputs: {} })).toBe(true);
    expect(holds(big ?? undefined, { event: { amount: 20 }, outputs: {} })).toBe(false);
  });
});

describe('which steps a quality decides', () => {
  const context =
    'Every new Zendesk ticket gets a reply. If the ticket is urgent, also text the technician on duty and open a Jira issue.';
  it('given a conditional lead before the steps, then both steps are gated by it', () => {
    expect(gateOf('also text the technician on duty', context)).toMatchObject({ quality: 'urgent', kind: 'urgency' });
    expect(gateOf('open a Jira issue', context)).toMatchObject({ quality: 'urgent' });
  });

  it('given the quality in the step or in how the workflow starts, then the step is gated', () => {
    expect(gateOf('alert the on-call engineer in Slack if it is urgent', '')).toMatchObject({ quality: 'urgent' });
    expect(gateOf('flag large refunds to #finance', '')).toMatchObject({ quality: 'large', kind: 'size' });
    expect(gateOf('create a task in HubSpot', '', 'When a request arrives by email from a VIP guest')).toMatchObject({
      quality: 'vip',
      kind: 'importance',
    });
  });

  it('given the text says it explicitly, or says nothing of it, then nothing is asked', () => {
    expect(gateOf('open a Jira issue', 'If the ticket is marked urgent, open a Jira issue.')).toBeNull();
    expect(gateOf('ask the CFO to approve it', 'If the expense is over $500, ask the CFO to approve it.')).toBeNull();
    expect(gateOf('reply to the requester', 'Every new ticket: reply to the requester.')).toBeNull();
  });

  it('given the trigger event, then the field is the one the quality is read from', () => {
    expect(gateField('urgency', ticket)).toBe('priority');
    expect(gateField('size', payment)).toBe('amount');
    expect(gateField('importance', ticket)).toBe('tags');
    expect(gateField('importance', email)).toBe('from');
    expect(gateField('size', eventOf('schedule.cron'))).toBeNull();
  });

  it('given the field, then the example answer is one the parser reads', () => {
    for (const [field, event] of [
      ['priority', ticket],
      ['amount', payment],
      ['tags', ticket],
      ['from', email],
    ] as const) {
      const example = exampleCondition(field, 'urgent', event);
      expect(parseCondition(example, event, field), example).not.toBeNull();
    }
  });
});

const workflow: DraftWorkflow = {
  id: 'wf-1',
  name: 'Urgent tickets',
  description: 'When a ticket comes in on Zendesk, reply to it. If the ticket is urgent, also text the technician on duty.',
  responsibility: 'When a ticket comes in on Zendesk, reply to it. If the ticket is urgent, also text the technician on duty',
  triggerHint: { kind: 'event', text: 'When a ticket comes in on Zendesk' },
  steps: [
    { id: 'wf-1.s1', text: 'reply to it', action: 'reply' },
    { id: 'wf-1.s2', text: 'also text the technician on duty', action: 'text technician' },
  ],
};
const match: CapabilityMatch = {
  workflowId: 'wf-1',
  trigger: { triggerId: 'zendesk.new_ticket', params: {}, confidence: 0.9, alternatives: [] },
  steps: [
    { stepId: 'wf-1.s1', capabilityId: 'zendesk.reply_ticket', providerId: 'zendesk', confidence: 0.9, candidates: [] },
    { stepId: 'wf-1.s2', capabilityId: 'twilio.send_sms', providerId: 'twilio', confidence: 0.9, candidates: [] },
  ],
};
const catalog = catalogOf(allProviders);

describe('the condition gap', () => {
  it('given a step gated by "urgent", when gaps are identified, then one blocking question with an example over priority', () => {
    const gaps = identifyGaps([workflow], { 'wf-1': match }, [], catalog, paramsChecker(catalog));
    const condition = gaps.filter((g) => g.target.kind === 'condition');
    expect(condition).toHaveLength(1);
    expect(condition[0]?.gap).toMatchObject({ category: 'organizational_context', blocking: true });
    expect(condition[0]?.gap.question).toContain('"urgent"');
    expect(condition[0]?.exampleAnswer).toBe('priority is high or urgent');
    expect(condition[0]?.target).toMatchObject({ stepIds: ['wf-1.s2'], field: 'priority' });
  });

  it('given the trigger already filters on it, or its event has no field for it, then nothing is asked', () => {
    const filtered = { ...match, trigger: { ...match.trigger, params: { priority: 'urgent' } } };
    expect(conditionGaps(workflow, filtered, catalog)).toEqual([]);
    const scheduled = { ...match, trigger: { ...match.trigger, triggerId: 'schedule.cron' } };
    expect(conditionGaps(workflow, scheduled, catalog)).toEqual([]);
  });

  it('given the answer, then the gated step carries the condition and the other does not', () => {
    const gaps = identifyGaps([workflow], { 'wf-1': match }, [], catalog, paramsChecker(catalog)).map((g) =>
      g.target.kind === 'condition' ? { ...g, status: 'answered' as const, answer: 'priority is urgent' } : g,
    );
    const [wf] = deriveWorkflows([workflow], { 'wf-1': match }, gaps, catalog);
    expect(wf?.steps.find((s) => s.id === 'wf-1.s2')?.when).toEqual({
      source: { from: 'trigger', path: 'priority' },
      op: 'eq',
      value: 'urgent',
    });
    expect(wf?.steps.find((s) => s.id === 'wf-1.s1')?.when).toBeUndefined();
  });

  it('given an answer that cannot be read, then the step runs every time and the answer is kept for the employee', () => {
    const gaps = identifyGaps([workflow], { 'wf-1': match }, [], catalog, paramsChecker(catalog)).map((g) =>
      g.target.kind === 'condition' ? { ...g, status: 'answered' as const, answer: 'when the CEO is unhappy' } : g,
    );
    const [wf] = deriveWorkflows([workflow], { 'wf-1': match }, gaps, catalog);
    expect(wf?.steps.find((s) => s.id === 'wf-1.s2')?.when).toBeUndefined();
    expect(wf?.behaviourPrompt).toContain('when the CEO is unhappy');
  });
});

describe('through the creation graph', () => {
  const jd =
    'IT service desk dispatcher. Every new Zendesk ticket gets a reply from us. If the ticket is urgent, also text the technician on duty.';
  const isCondition = (p: PromptSpec) => p.kind === 'questions' && p.questions.some((q) => q.text.includes('What counts as'));

  it('the answer becomes the step’s `when`, the compiled spec carries it, and validation accepts it', async () => {
    const run = await create(new MemorySaver(), jd, answering(), { catalog: memoryCatalog(allProviders) });
    const asked = run.prompts.find(isCondition);
    expect(asked?.kind === 'questions' ? asked.questions[0]?.exampleAnswer : undefined).toBe('priority is high or urgent');
    const steps = run.spec.workflows.flatMap((w) => w.steps);
    const text = steps.find((s) => s.capabilityId === 'twilio.send_sms');
    expect(text?.when).toEqual({
      any: [
        { source: { from: 'trigger', path: 'priority' }, op: 'eq', value: 'high' },
        { source: { from: 'trigger', path: 'priority' }, op: 'eq', value: 'urgent' },
      ],
    });
    // the compiled graph's hand-off to the step is taken only when the condition holds
    const edge = run.spec.compiled.edges.find((e) => e.to.endsWith(`.${text?.id}`));
    expect(edge?.condition).toContain('priority');
    expect(run.spec.validation.passed).toBe(true);
    const review = run.prompts.at(-1);
    expect(review?.messages.join('\n')).toContain('only when');
  });

  it('an answer that cannot be read is said in the review, and the step stays without a condition', async () => {
    const answer = (p: PromptSpec, i: number) =>
      isCondition(p) ? { answers: { q1: 'whatever the CEO personally cares about' } } : answering()(p, i);
    const run = await create(new MemorySaver(), jd, answer, { catalog: memoryCatalog(allProviders) });
    const text = run.spec.workflows.flatMap((w) => w.steps).find((s) => s.capabilityId === 'twilio.send_sms');
    expect(text?.when).toBeUndefined();
    expect(run.prompts.at(-1)?.messages.join('\n')).toContain('could not be read as a condition');
    expect(run.spec.validation.passed).toBe(true);
  });
});

describe('an approval rule in the job description, through the whole creation', () => {
  it.each([
    'Refunds specialist: when a Zendesk ticket asks for a refund, refund it in Stripe under $100, ask a manager to approve anything larger, reply in the ticket',
    "When a Zendesk ticket asks for a refund, refund it in Stripe. Anything over $100 needs a manager's approval. Reply in the ticket.",
    "When a Zendesk ticket asks for a refund, refund it in Stripe if it is under $100; anything larger needs a manager's approval first. Always reply in the ticket.",
  ])(
    'given "%s", then small refunds run on their own, larger ones only once approved, and the reply asks nothing',
    async (job) => {
      const run = await create(new MemorySaver(), job, answering(), {
        catalog: memoryCatalog(['zendesk', 'stripe', 'slack', 'schedule', 'webhook', 'http']),
      });
      const steps = run.spec.workflows[0]?.steps ?? [];
      const refunds = steps.filter((s) => s.capabilityId === 'stripe.refund_payment');
      const at = (amount: number) =>
        refunds.filter((s) => !s.when || holds(s.when, { event: { amount }, outputs: {} })).map((s) => s.risk);
      // exactly one refund at every amount: on its own below the line, behind an approval above it
      expect(at(40)).toEqual(['low']);
      expect(at(250)).toEqual(['high']);
      expect(steps.filter((s) => s.capabilityId === 'zendesk.reply_ticket').map((s) => s.risk)).toEqual(['low']);
    },
  );
});

describe('a case and its "otherwise", said inside the event, through the whole creation', () => {
  it.each([
    'When a new Zendesk ticket arrives: if its priority is urgent, post a message in Slack #urgent; otherwise reply to the ticket saying we will get back within a day.',
    'When a new Zendesk ticket comes in, if the priority is urgent, post it in #urgent on Slack, otherwise reply to the ticket that we will answer within a day.',
  ])('given "%s", then every ticket starts it, the urgent one is posted and any other answered', async (job) => {
    const run = await create(new MemorySaver(), job, answering(), {
      catalog: memoryCatalog(['zendesk', 'slack', 'schedule', 'webhook', 'http']),
    });
    const [workflow] = run.spec.workflows;
    // the case is not a filter of the trigger: a ticket of any priority starts the workflow
    expect(workflow?.trigger).toMatchObject({ triggerId: 'zendesk.new_ticket' });
    expect(workflow?.trigger.params.priority).toBeUndefined();
    const made = (priority: string) =>
      (workflow?.steps ?? [])
        .filter((s) => !s.when || holds(s.when, { event: { priority }, outputs: {} }))
        .map((s) => s.capabilityId);
    expect(made('urgent')).toEqual(['slack.post_message']);
    expect(made('low')).toEqual(['zendesk.reply_ticket']);
    expect(run.spec.validation.passed).toBe(true);
  });
});

describe('an equality said before a step (findEquality)', () => {
  it('given "its priority is urgent" or "the status is open or pending", then the field equals the value, or any of them', () => {
    expect(findEquality('if its priority is urgent,', ticket)).toEqual({
      source: { from: 'trigger', path: 'priority' },
      op: 'eq',
      value: 'urgent',
    });
    expect(findEquality("When a ticket's priority is urgent in Zendesk,", ticket)).toMatchObject({ value: 'urgent' });
    expect(findEquality('if the status is open or pending,', ticket)).toMatchObject({
      any: [{ value: 'open' }, { value: 'pending' }],
    });
  });

  it('given a phrase where a value would be ("about a refund", "an invoice", "of the order is shipped"), then no condition', () => {
    for (const said of [
      'if the subject is about a refund,',
      'if the subject is an invoice,',
      'if the status of the order is shipped,',
    ])
      expect(findEquality(said, ticket), said).toBeNull();
  });
});
