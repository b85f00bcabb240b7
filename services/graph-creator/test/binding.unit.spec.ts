import type { CapabilityMatch, Catalog, DraftWorkflow } from '@hireloop/analyst';
import { builtInCatalog, type CatalogCapability, devOrgConnections, type Workflow } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { bindInputs, bindWorkflow, conditionalLead, describeCondition, fit, orderedAfter } from '../src/creation/bind';
import { coerceParam, cronProblem, paramsChecker } from '../src/creation/catalog';
import { compileWorkflows, mermaid } from '../src/creation/compile';
import { deriveWorkflows } from '../src/creation/gaps';
import { summary } from '../src/creation/graph';
import { findThreshold } from '../src/creation/phrases';
import type { CreationStateT, GapState } from '../src/creation/state';
import { classify, dependsOnCycle, runnabilityChecks, validateSpec } from '../src/creation/validate';

const capability = (id: string): CatalogCapability => {
  const found = builtInCatalog.capabilities.find((c) => c.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found;
};
const eventOf = (id: string) => {
  const found = builtInCatalog.triggers.find((t) => t.id === id);
  if (!found) throw new Error(`no ${id}`);
  return found.eventSchema;
};
const catalog: Catalog = {
  capabilities: builtInCatalog.capabilities,
  triggers: builtInCatalog.triggers,
  connected: [...devOrgConnections, 'stripe'],
};
const step = (stepId: string, capabilityId: string, text: string, answers: string[] = []) => ({
  stepId,
  capability: capability(capabilityId),
  text,
  answers,
});

describe('binding a step’s inputs', () => {
  it('given a ticket event, when replying on the ticket, then the ticket id comes from the trigger and the reply is composed', () => {
    const inputs = bindInputs(step('s1', 'zendesk.reply_ticket', 'Reply to the customer in the ticket'), {
      event: eventOf('zendesk.new_ticket'),
      earlier: [],
    });
    expect(inputs.ticketId).toEqual({ from: 'trigger', path: 'ticketId' });
    expect(inputs.body).toEqual({ value: 'Reply to the customer in the ticket', origin: 'default' });
  });

  it('given "POST it … with the event", when binding an HTTP request, then its body carries the whole trigger event', () => {
    const inputs = bindInputs(step('s1', 'http.request', 'send an HTTP POST to https://relay.example.com/in with the event'), {
      event: eventOf('zendesk.new_ticket'),
      earlier: [],
    });
    expect(inputs.body).toEqual({ from: 'trigger', path: '' });
    expect(inputs.url).toEqual(expect.objectContaining({ value: 'https://relay.example.com/in' }));
  });

  it('given an HTTP request that says nothing of the event, when binding, then no body is made up', () => {
    const inputs = bindInputs(step('s1', 'http.request', 'check the status page at https://status.example.com/api/v2.'), {
      event: eventOf('zendesk.new_ticket'),
      earlier: [],
    });
    expect(inputs.body).toBeUndefined();
  });

  it('given a web address written in the description, when calling it, then the url is the user’s constant, not asked at run time', () => {
    const inputs = bindInputs(step('s1', 'http.request', 'check the status page at https://status.example.com/api/v2.'), {
      event: eventOf('schedule.cron'),
      earlier: [],
    });
    expect(inputs.url).toEqual({ value: 'https://status.example.com/api/v2', origin: 'user' });
    // none written: asked, as before
    expect(
      bindInputs(step('s1', 'http.request', 'check the status page'), { event: eventOf('schedule.cron'), earlier: [] }).url,
    ).toMatchObject({
      ask: true,
    });
  });

  it('given a channel named in the description, when posting, then the channel is the user’s constant', () => {
    const inputs = bindInputs(step('s1', 'slack.post_message', 'post the release notes in #deploys'), {
      event: eventOf('github.pull_request_opened'),
      earlier: [],
    });
    expect(inputs.channel).toEqual({ value: '#deploys', origin: 'user' });
  });

  it('given an email the user answered, when emailing with no recipient in the event, then the recipients are that answer', () => {
    const inputs = bindInputs(step('s1', 'gmail.send_email', 'email the finance team a list', ['finance@acme.com']), {
      event: eventOf('schedule.cron'),
      earlier: [],
    });
    expect(inputs.to).toEqual({ value: ['finance@acme.com'], origin: 'user' });
  });

  it('given an earlier step that found a slot, when booking, then start and end come from that step', () => {
    const inputs = bindInputs(step('s2', 'google-calendar.create_event', 'send an invite'), {
      event: eventOf('gmail.new_email'),
      earlier: [
        {
          stepId: 's1',
          capabilityId: 'google-calendar.find_free_slot',
          output: capability('google-calendar.find_free_slot').outputSchema,
        },
      ],
    });
    expect(inputs.start).toEqual({ from: 'step', stepId: 's1', path: 'start' });
    expect(inputs.end).toEqual({ from: 'step', stepId: 's1', path: 'end' });
  });

  it('given no source for an identifier, when refunding from an issue, then it is asked at run time and never taken from another id', () => {
    const inputs = bindInputs(step('s1', 'stripe.refund_payment', 'refund it in Stripe'), {
      event: eventOf('jira.issue_created'),
      earlier: [],
    });
    expect(inputs.paymentId).toMatchObject({ ask: true });
    expect(
      fit('paymentId', { type: 'string', description: 'payment id' }, 'ticketId', { type: 'string', description: 'id' }),
    ).toBe(0);
  });

  it('given a ticket whose form carries the payment, when refunding from it, then the payment comes from the ticket', () => {
    const inputs = bindInputs(step('s1', 'stripe.refund_payment', 'refund it in Stripe'), {
      event: eventOf('zendesk.new_ticket'),
      earlier: [],
    });
    expect(inputs.paymentId).toEqual({ from: 'trigger', path: 'paymentId' });
  });

  it('given a required input with a schema default and no other source, then the default is bound', () => {
    const custom: CatalogCapability = {
      ...capability('slack.post_message'),
      id: 'x.post',
      inputSchema: {
        type: 'object',
        properties: { mode: { type: 'string', description: 'delivery mode', default: 'normal' } },
        required: ['mode'],
        additionalProperties: false,
      },
    };
    expect(
      bindInputs(
        { stepId: 's1', capability: custom, text: 'post', answers: [] },
        { event: eventOf('schedule.cron'), earlier: [] },
      ),
    ).toEqual({
      mode: { value: 'normal', origin: 'default' },
    });
  });

  it('given a target status in capitals, when transitioning, then the status is the user’s constant', () => {
    const inputs = bindInputs(step('s1', 'jira.transition_issue', 'transition the linked Jira tickets to Released'), {
      event: eventOf('jira.issue_created'),
      earlier: [],
    });
    expect(inputs).toEqual({ issueKey: { from: 'trigger', path: 'issueKey' }, toStatus: { value: 'Released', origin: 'user' } });
  });

  it('given an update, then optional inputs are not copied from the record’s current values', () => {
    const inputs = bindInputs(step('s1', 'zendesk.update_ticket', 'tag the ticket'), {
      event: eventOf('zendesk.new_ticket'),
      earlier: [],
    });
    expect(inputs).toEqual({ ticketId: { from: 'trigger', path: 'ticketId' } });
  });
});

describe('conditions from thresholds', () => {
  it('reads numbers with comparison words and their unit', () => {
    expect(findThreshold('refund it automatically when it is under $100')).toEqual({ op: 'lt', value: 100, unit: 'money' });
    expect(findThreshold('deals over 50 seats')).toEqual({ op: 'gt', value: 50, unit: 'seat' });
    expect(findThreshold('open for more than 3 days')).toEqual({ op: 'gt', value: 3, unit: 'day' });
    expect(findThreshold('at least $5k')).toEqual({ op: 'gte', value: 5000, unit: 'money' });
    expect(findThreshold('post a note in #wins')).toBeNull();
  });

  it('takes a conditional lead of the sentence, not a threshold of a sibling clause', () => {
    const context = 'Vendors email invoices. If an invoice is over $5,000, ask the finance manager to approve it. Then file it.';
    expect(conditionalLead('ask the finance manager to approve it', context)).toBe('If an invoice is over $5,000,');
    expect(conditionalLead('refund it', 'Check the order, refund it, and reply.')).toBe('');
  });

  it('given a threshold step and an "anything larger" step, then they get complementary conditions and run in parallel; the reply waits for both', () => {
    const context =
      'Check the order, refund it in Stripe automatically when it is under $100, and ask a manager in Slack to approve anything larger before refunding. Reply to the customer in the ticket with the outcome.';
    const bound = bindWorkflow(
      [
        step('s1', 'stripe.refund_payment', 'refund it in Stripe automatically when it is under $100'),
        step('s2', 'slack.post_message', 'ask a manager in Slack to approve anything larger before refunding'),
        step('s3', 'zendesk.reply_ticket', 'Reply to the customer in the ticket with the outcome'),
      ],
      eventOf('zendesk.new_ticket'),
      context,
    );
    const lt = { source: { from: 'trigger', path: 'amount' }, op: 'lt', value: 100 };
    const gte = { ...lt, op: 'gte' };
    expect(bound.map((b) => [b.stepId, b.capability.id, b.when, b.dependsOn])).toEqual([
      ['s1', 'stripe.refund_payment', lt, []],
      ['s2', 'slack.post_message', gte, []],
      // the action the approval gates, after it, under its condition
      ['s2.approved', 'stripe.refund_payment', gte, ['s2']],
      ['s3', 'zendesk.reply_ticket', undefined, ['s1', 's2', 's2.approved']],
    ]);
    expect(bound[2]?.inputs).toEqual(bound[0]?.inputs);
    expect(describeCondition(gte as never)).toBe('trigger.amount ≥ 100');
  });

  it('given an approval rule however it is said, then the refund runs under the threshold and, past it, only once approved', () => {
    const lt = { source: { from: 'trigger', path: 'amount' }, op: 'lt', value: 100 };
    const lte = { ...lt, op: 'lte' };
    const gt = { ...lt, op: 'gt' };
    const gte = { ...lt, op: 'gte' };
    const shape = (bound: ReturnType<typeof bindWorkflow>) => bound.map((b) => [b.stepId, b.capability.id, b.when]);
    // "ask a manager to approve anything larger", with no verb of what it gates
    expect(
      shape(
        bindWorkflow(
          [
            step('s1', 'stripe.refund_payment', 'refund it in Stripe under $100'),
            step('s2', 'slack.post_message', 'ask a manager to approve anything larger'),
            step('s3', 'zendesk.reply_ticket', 'reply in the ticket'),
          ],
          eventOf('zendesk.new_ticket'),
          'when a Zendesk ticket asks for a refund, refund it in Stripe under $100, ask a manager to approve anything larger, reply in the ticket',
        ),
      ),
    ).toEqual([
      ['s1', 'stripe.refund_payment', lt],
      ['s2', 'slack.post_message', gte],
      ['s2.approved', 'stripe.refund_payment', gte],
      ['s3', 'zendesk.reply_ticket', undefined],
    ]);
    // a sentence of its own that no step says: "Anything over $100 needs a manager's approval."
    expect(
      shape(
        bindWorkflow(
          [step('s1', 'stripe.refund_payment', 'refund it in Stripe'), step('s2', 'zendesk.reply_ticket', 'Reply in the ticket')],
          eventOf('zendesk.new_ticket'),
          "When a Zendesk ticket asks for a refund, refund it in Stripe. Reply in the ticket.\nConstraint: Anything over $100 needs a manager's approval.",
        ),
      ),
    ).toEqual([
      ['s1', 'stripe.refund_payment', lte],
      ['s1.approved', 'stripe.refund_payment', gt],
      ['s2', 'zendesk.reply_ticket', undefined],
    ]);
    // the gated step said under the rule ("Refunds over $100 need a manager approval first"): the other refund gets the other side
    expect(
      shape(
        bindWorkflow(
          [
            step('s1', 'stripe.refund_payment', 'refund the payment in Stripe'),
            step('s2', 'stripe.refund_payment', 'refund over $100 need a manager approval first'),
          ],
          eventOf('zendesk.new_ticket'),
          'When a Zendesk ticket asks for a refund, refund the payment in Stripe. Refunds over $100 need a manager approval first.',
        ),
      ),
    ).toEqual([
      ['s1', 'stripe.refund_payment', lte],
      ['s2', 'stripe.refund_payment', gt],
    ]);
  });

  it('given an approval said not to be needed, a threshold said again, a second step ordered after, or a count that is no amount, then no refund goes out unasked past the line and no reply is gated', () => {
    const lt = { source: { from: 'trigger', path: 'amount' }, op: 'lt', value: 100 };
    const gte = { ...lt, op: 'gte' };
    const gt = { ...lt, op: 'gt' };
    const shape = (bound: ReturnType<typeof bindWorkflow>) => bound.map((b) => [b.stepId, b.capability.id, b.when ?? null]);
    const refundAndReply = [
      step('s1', 'stripe.refund_payment', 'refund it in Stripe'),
      step('s2', 'zendesk.reply_ticket', 'reply in the ticket'),
    ];
    // "Refunds under $100 don't need approval": the approval is for $100 and more
    expect(
      shape(
        bindWorkflow(
          refundAndReply,
          eventOf('zendesk.new_ticket'),
          "Refund it in Stripe and reply in the ticket.\nConstraint: Refunds under $100 don't need approval.",
        ),
      ),
    ).toEqual([
      ['s1', 'stripe.refund_payment', lt],
      ['s1.approved', 'stripe.refund_payment', gte],
      ['s2', 'zendesk.reply_ticket', null],
    ]);
    // the line said again from the other side ("under $100" … "over $100"): the refund is gated, not the reply
    expect(
      shape(
        bindWorkflow(
          [step('s1', 'stripe.refund_payment', 'refund it in Stripe if it is under $100'), refundAndReply[1] as never],
          eventOf('zendesk.new_ticket'),
          "Refund it in Stripe if it is under $100. Anything over $100 needs a manager's approval. Reply in the ticket.",
        ),
      ),
    ).toEqual([
      ['s1', 'stripe.refund_payment', lt],
      ['s1.approved', 'stripe.refund_payment', gt],
      ['s2', 'zendesk.reply_ticket', null],
    ]);
    // "…, then ask a manager to approve anything larger": the approved branch after the asking step, no cycle
    const ordered = bindWorkflow(
      [
        step('s1', 'stripe.refund_payment', 'refund it in Stripe under $100'),
        step('s2', 'slack.post_message', 'ask a manager to approve anything larger'),
      ],
      eventOf('zendesk.new_ticket'),
      'refund it in Stripe under $100, then ask a manager to approve anything larger',
    );
    expect(ordered.map((b) => [b.stepId, b.dependsOn])).toEqual([
      ['s1', []],
      ['s2', ['s1']],
      ['s2.approved', ['s2']],
    ]);
    // a count of refunds is no amount: no condition on the amount
    expect(
      shape(
        bindWorkflow(
          refundAndReply,
          eventOf('zendesk.new_ticket'),
          "Refund it in Stripe and reply.\nConstraint: More than 3 refunds for the same customer in a month need a manager's approval.",
        ),
      ),
    ).toEqual([
      ['s1', 'stripe.refund_payment', null],
      ['s2', 'zendesk.reply_ticket', null],
    ]);
  });

  it('given no numeric field to compare, then no condition is invented', () => {
    const [only] = bindWorkflow(
      [step('s1', 'slack.post_message', 'post it in #big when over $100')],
      eventOf('slack.new_message'),
      '',
    );
    expect(only?.when).toBeUndefined();
  });
});

describe('order between steps', () => {
  it('independent steps run in parallel; "then" and "email it" order them after the previous step', () => {
    const earlier = [{ stepId: 's1', capabilityId: 'quickbooks.create_invoice' }];
    expect(orderedAfter('post in #sales', 'Create an invoice, post in #sales.', earlier)).toEqual([]);
    expect(orderedAfter('post in #sales', 'Create an invoice, then post in #sales.', earlier)).toEqual(['s1']);
    expect(
      orderedAfter('email it to their billing contact', 'Create an invoice and email it to their billing contact.', earlier),
    ).toEqual(['s1']);
  });
});

const good = (over: Partial<Workflow> = {}): Workflow => ({
  id: 'wf-1',
  name: 'Refunds',
  description: 'refunds',
  trigger: { triggerId: 'zendesk.new_ticket', params: {} },
  steps: [
    {
      id: 's1',
      capabilityId: 'stripe.refund_payment',
      purpose: 'refund',
      inputs: { paymentId: { ask: true } },
      when: { source: { from: 'trigger', path: 'amount' }, op: 'lt', value: 100 },
      risk: 'high',
      dependsOn: [],
    },
    {
      id: 's2',
      capabilityId: 'zendesk.reply_ticket',
      purpose: 'reply',
      inputs: { ticketId: { from: 'trigger', path: 'ticketId' }, body: { from: 'step', stepId: 's1', path: 'status' } },
      risk: 'high',
      dependsOn: ['s1'],
    },
  ],
  behaviourPrompt: 'be kind',
  ...over,
});
const failed = (wfs: Workflow[]) =>
  runnabilityChecks(wfs, catalog)
    .filter((c) => !c.passed)
    .map((c) => [c.id, c.detail]);

describe('runnability checks', () => {
  it('given a bound, ordered, acyclic spec, then every check passes', () => {
    expect(failed([good()])).toEqual([]);
  });

  it('given a conditional step, then its hand-offs carry the condition and the diagram shows the branch', () => {
    const compiled = compileWorkflows([good()], { repair: false });
    expect(compiled.edges).toContainEqual({ from: 'wf-1.trigger', to: 'wf-1.s1', condition: 'when trigger.amount < 100' });
    expect(compiled.edges).toContainEqual({ from: 'wf-1.s1', to: 'wf-1.s2' });
    expect(mermaid(compiled)).toContain('wf_1_trigger -->|"when trigger.amount #lt; 100"| wf_1_s1');
    const review = summary({ name: 'Refunds', checks: [] } as unknown as CreationStateT, [good()]);
    expect(review).toContain('s1 stripe.refund_payment; only when trigger.amount < 100; asks at run time: paymentId');
    expect(review).toContain('s2 zendesk.reply_ticket; after s1');
  });

  it('given a workflow without steps, then workflow_has_steps fails and routes to gap identification', () => {
    const wf = good({ steps: [] });
    expect(failed([wf])).toEqual([['workflow_has_steps', 'wf-1 ("Refunds") has no steps']]);
    const checks = validateSpec([wf], compileWorkflows([wf], { repair: false }), catalog, paramsChecker(catalog));
    expect(classify(checks)).toMatchObject({ routeTo: 'identify_gaps', failedCheck: 'workflow_has_steps' });
  });

  it('given a required input with no binding, then inputs_bound fails naming it', () => {
    const wf = good();
    (wf.steps[1] as { inputs: Record<string, unknown> }).inputs = { body: { value: 'hi' } };
    expect(failed([wf])).toEqual([['inputs_bound', 'wf-1/s2: required input ticketId of zendesk.reply_ticket is unbound']]);
  });

  it('given a binding or condition naming a later step, then references_earlier_steps fails', () => {
    const wf = good();
    (wf.steps[0] as { when: unknown }).when = { source: { from: 'step', stepId: 's2', path: 'ticketId' }, op: 'exists' };
    expect(failed([wf])[0]).toEqual([
      'references_earlier_steps',
      'wf-1/s1: its condition names s2, which is not an earlier step',
    ]);
  });

  it('given a dependsOn cycle, then depends_on_acyclic reports the cycle', () => {
    const wf = good();
    (wf.steps[0] as { dependsOn: string[] }).dependsOn = ['s2'];
    expect(dependsOnCycle(wf.steps)).toEqual(['s1', 's2', 's1']);
    expect(failed([wf]).map(([id]) => id)).toEqual(['references_earlier_steps', 'depends_on_acyclic']);
  });

  it('given an invalid cron expression, then cron_valid fails, the parameter is asked again, and words become cron', () => {
    const wf = good({ trigger: { triggerId: 'schedule.cron', params: { expression: '0 99 * * 1' } } });
    expect(failed([wf])[0]?.[0]).toBe('cron_valid');
    expect(cronProblem({ expression: '0 9 * * 1' })).toBeNull();
    expect(cronProblem({ expression: '0 9 * * 1', timezone: 'Mars/Olympus' })).toMatch(/time zone|invalid/);
    expect(paramsChecker(catalog)('schedule.cron', { expression: '0 99 * * 1' }).missing.map((m) => m.name)).toEqual([
      'expression',
    ]);
    expect(coerceParam(catalog, 'schedule.cron', 'expression', 'every Monday at 9am')).toBe('0 9 * * 1');
  });
});

describe('a missing integration the user promised to connect', () => {
  const draft: DraftWorkflow = {
    id: 'wf-1',
    name: 'Remind patients',
    description: 'The day after each appointment, text the patient a survey link.',
    responsibility: 'The day after each appointment, text the patient a survey link.',
    triggerHint: { kind: 'schedule', text: 'The day after each appointment' },
    steps: [{ id: 'wf-1.s1', text: 'text the patient a survey link', action: 'text patient' }],
  };
  const match: CapabilityMatch = {
    workflowId: 'wf-1',
    trigger: { triggerId: 'schedule.cron', params: { expression: '0 9 * * *' }, confidence: 0.9, alternatives: [] },
    steps: [{ stepId: 'wf-1.s1', capabilityId: 'twilio.send_sms', providerId: 'twilio', confidence: 0.9, candidates: [] }],
  };
  const gap = (answer: string): GapState => ({
    gap: {
      id: 'gap:wf-1:integration:twilio',
      category: 'missing_integration',
      providerId: 'twilio',
      workflowId: 'wf-1',
      stepId: 'wf-1.s1',
      blocking: true,
      question: 'twilio?',
      resolution: 'defaulted',
    },
    status: 'answered',
    answer,
    ask: 'options',
    target: { kind: 'step', workflowId: 'wf-1', stepId: 'wf-1.s1' },
  });
  const org: Catalog = { ...catalog, connected: [...devOrgConnections] };

  it('given "I will connect twilio", then the step stays, the workflow waits for twilio, and validation passes', () => {
    const [wf] = deriveWorkflows([draft], { 'wf-1': match }, [gap('connect:twilio')], org);
    expect(wf?.steps.map((s) => s.capabilityId)).toEqual(['twilio.send_sms']);
    expect(wf?.waitingFor).toEqual(['twilio']);
    const compiled = compileWorkflows(wf ? [wf] : [], { repair: false });
    expect(validateSpec(wf ? [wf] : [], compiled, org, paramsChecker(org)).filter((c) => !c.passed)).toEqual([]);
    // the edge label holds parentheses: quoted, so the chart still parses
    expect(mermaid(compiled)).toMatch(/-->\|"[^"|]*\(waits for twilio\)[^"|]*"\|/);
    const review = summary({ name: 'Clinic', checks: [] } as unknown as CreationStateT, wf ? [wf] : []);
    expect(review).toContain('waits for twilio to be connected: activation leaves this workflow off');
  });

  it('given "I will connect twilio" for the start, then the trigger the description named stays and the workflow waits', () => {
    const smsMatch: CapabilityMatch = {
      ...match,
      trigger: { triggerId: 'twilio.sms_received', params: {}, confidence: 0.9, alternatives: [] },
    };
    const startGap: GapState = {
      ...gap('connect:twilio'),
      gap: { ...gap('connect:twilio').gap, id: 'gap:wf-1:trigger', stepId: undefined as never },
      target: { kind: 'trigger', workflowId: 'wf-1' },
    };
    const [wf] = deriveWorkflows([draft], { 'wf-1': smsMatch }, [startGap, gap('connect:twilio')], org);
    expect(wf?.trigger.triggerId).toBe('twilio.sms_received');
    expect(wf?.waitingFor).toEqual(['twilio']);
    expect(wf?.steps[0]?.inputs.to).toEqual({ from: 'trigger', path: 'from' });
    const compiled = compileWorkflows(wf ? [wf] : [], { repair: false });
    expect(validateSpec(wf ? [wf] : [], compiled, org, paramsChecker(org)).filter((c) => !c.passed)).toEqual([]);
  });

  it('given no promise, then the unconnected step is left out and the empty workflow fails validation', () => {
    const [wf] = deriveWorkflows([draft], { 'wf-1': match }, [], org);
    expect(wf?.steps).toEqual([]);
    expect(wf?.waitingFor).toBeUndefined();
    expect(runnabilityChecks(wf ? [wf] : [], org).find((c) => c.id === 'workflow_has_steps')?.passed).toBe(false);
  });
});
