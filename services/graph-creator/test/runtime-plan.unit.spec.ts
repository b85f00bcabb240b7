import { builtInCatalog, type CatalogCapability, type Step } from '@hireloop/schemas';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import {
  batches,
  cannotRun,
  canonical,
  coerce,
  eventMatches,
  fitted,
  holds,
  idempotencyKey,
  missingInputs,
  planSteps,
  resolveArgs,
} from '../src/runtime/plan';
import { loadConnectors, parseConnectorConfig } from '../src/tools/connectors';
import { exampleOf, withoutExample } from '../src/tools/examples';
import { sandboxOutput } from '../src/tools/sandbox';
import { refundsEmployee } from './fixtures/refunds-employee';

const caps = new Map(builtInCatalog.capabilities.map((c) => [c.id, c]));
const steps = refundsEmployee('emp-1').workflows[0]?.steps as Step[];
const step = (id: string, dependsOn: string[] = [], inputs: Step['inputs'] = {}): Step => ({
  id,
  capabilityId: 'slack.post_message',
  purpose: id,
  inputs,
  risk: 'low',
  dependsOn,
});

describe('plan: the steps whose condition holds', () => {
  it('given a small refund, then the refund and the reply run and finance is not asked', () => {
    expect(planSteps(steps, { amount: 40 })).toEqual({
      planned: ['refund', 'reply'],
      notRun: { ask_finance: 'its condition does not hold' },
    });
  });
  it('given a large refund, then finance is asked and nothing is refunded', () => {
    expect(planSteps(steps, { amount: 150 }).planned).toEqual(['ask_finance', 'reply']);
  });
  it('given a condition over a step output, then plan leaves it to execute', () => {
    const later = {
      ...step('b', ['a']),
      when: { source: { from: 'step' as const, stepId: 'a', path: 'ok' }, op: 'eq' as const, value: true },
    };
    expect(planSteps([step('a'), later], {}).planned).toEqual(['a', 'b']);
  });
});

describe('conditions', () => {
  const on = (op: 'lt' | 'gte' | 'eq' | 'contains' | 'exists', value?: string | number) => ({
    source: { from: 'trigger' as const, path: 'x.y' },
    op,
    ...(value !== undefined ? { value } : {}),
  });
  it('compare numbers given as text, and a missing value makes a comparison false', () => {
    expect(holds(on('lt', 100), { event: { x: { y: '99.5' } }, outputs: {} })).toBe(true);
    expect(holds(on('gte', 100), { event: { x: {} }, outputs: {} })).toBe(false);
    expect(holds(on('exists'), { event: { x: { y: 0 } }, outputs: {} })).toBe(true);
  });
  it('all / any, and contains over text and lists', () => {
    const event = { x: { y: ['vip', 'eu'] } };
    expect(holds({ all: [on('contains', 'vip'), on('exists')] }, { event, outputs: {} })).toBe(true);
    expect(holds({ any: [on('contains', 'us'), on('eq', 'no')] }, { event, outputs: {} })).toBe(false);
  });
});

describe('bindings', () => {
  it('resolve from the trigger, a step output, a constant and an answer coerced to the schema type', () => {
    const refund = steps[0] as Step;
    const asked: Step = {
      ...refund,
      inputs: { paymentId: { from: 'step', stepId: 'find', path: 'payment.id' }, amount: { ask: true } },
    };
    const { args, unresolved } = resolveArgs(
      asked,
      caps.get('stripe.refund_payment'),
      { event: {}, outputs: { find: { payment: { id: 'pi_1' } } } },
      { 'refund.amount': '12.5' },
    );
    expect(args).toEqual({ paymentId: 'pi_1', amount: 12.5 });
    expect(unresolved).toEqual([]);
    expect(coerce(caps.get('zendesk.create_ticket'), 'tags', 'a, b')).toEqual(['a', 'b']);
  });
  it('given a trigger value in another plain shape than the input asks (one address for a list, a number for text), then it is fitted to it', () => {
    const welcome: Step = {
      id: 'welcome',
      capabilityId: 'gmail.send_email',
      purpose: 'welcome',
      inputs: {
        to: { from: 'trigger', path: 'email' },
        subject: { from: 'trigger', path: 'contactId' },
        body: { value: 'Welcome', origin: 'default' },
      },
      risk: 'low',
      dependsOn: [],
    };
    const { args } = resolveArgs(
      welcome,
      caps.get('gmail.send_email'),
      { event: { email: 'new@example.com', contactId: 42 }, outputs: {} },
      {},
    );
    expect(args).toEqual({ to: ['new@example.com'], subject: '42', body: 'Welcome' });
    expect(fitted({ type: 'number', description: 'n' }, '12.5')).toBe(12.5);
    expect(fitted({ type: 'integer', description: 'n' }, '12.5')).toBe('12.5');
    expect(fitted({ type: 'array', description: 'list' }, { a: 1 })).toEqual({ a: 1 });
    // the whole event where JSON text is asked (a request's body) is written as JSON; other text is left for the check
    expect(fitted({ type: 'string', description: 'request body (JSON text)' }, { ticketId: 7 })).toBe('{"ticketId":7}');
    expect(fitted({ type: 'string', description: 'message text' }, { ticketId: 7 })).toEqual({ ticketId: 7 });
    // an empty field of the event is nothing: the run-time answer takes its place, not [""]
    const answered = resolveArgs(
      welcome,
      caps.get('gmail.send_email'),
      { event: { email: '', contactId: 42 }, outputs: {} },
      { 'welcome.to': 'ops@example.com' },
    );
    expect(answered.args.to).toEqual(['ops@example.com']);
  });

  it('given an event field of nothing but spaces, then it is nothing: asked at run time, and a padded answer is read without its spaces', () => {
    const refund = steps[0] as Step;
    const event = { paymentId: '   ', amount: 40 };
    expect(missingInputs([refund], ['refund'], caps, event, {}).map((m) => m.id)).toEqual(['refund.paymentId']);
    expect(resolveArgs(refund, caps.get('stripe.refund_payment'), { event, outputs: {} }, {}).unresolved).toEqual(['paymentId']);
    const answered = resolveArgs(
      refund,
      caps.get('stripe.refund_payment'),
      { event, outputs: {} },
      { 'refund.paymentId': '\tpi_7\n' },
    );
    expect(answered.args).toEqual({ paymentId: 'pi_7', amount: 40 });
    expect(missingInputs([refund], ['refund'], caps, event, { 'refund.paymentId': '  ' }).map((m) => m.id)).toEqual([
      'refund.paymentId',
    ]);
  });

  it('confirm asks once for every {ask:true} input and every required input the trigger leaves empty', () => {
    const asked = steps.map((s) =>
      s.id === 'refund' ? { ...s, inputs: { ...s.inputs, reason: { ask: true as const, question: 'Why?' } } } : s,
    );
    const missing = missingInputs(asked, ['refund', 'reply'], caps, { amount: 10, paymentId: 'pi_1' }, {});
    expect(missing.map((m) => [m.id, m.text])).toEqual([
      ['refund.reason', 'Why?'],
      ['reply.ticketId', 'Tell the customer their request is handled — id of the ticket (ticketId)'],
    ]);
    expect(
      missingInputs(
        asked,
        ['refund', 'reply'],
        caps,
        { amount: 10, paymentId: 'pi_1' },
        { 'refund.reason': 'r', 'reply.ticketId': 't' },
      ),
    ).toEqual([]);
  });
});

describe('confirm: an input asked at run time shows what an answer looks like', () => {
  const jira: Step = {
    id: 'file',
    capabilityId: 'jira.create_issue',
    purpose: 'File the bug',
    inputs: {
      project: { ask: true, question: 'project key, e.g. OPS for jira.create_issue?' },
      summary: { value: 'Checkout fails' },
    },
    risk: 'low',
    dependsOn: [],
  };

  it("given an input whose description gives an example, when asked, then the example is the answer's placeholder, not words of the question", () => {
    const [asked] = missingInputs([jira], ['file'], caps, {}, {});
    expect(asked).toMatchObject({ id: 'file.project', text: 'project key for jira.create_issue?', exampleAnswer: 'OPS' });
  });

  it('given a required input nothing binds, when asked, then its question names it without the example, and the example comes apart', () => {
    const unbound = { ...jira, inputs: { summary: { value: 'Checkout fails' } } };
    const asked = missingInputs([unbound], ['file'], caps, {}, {});
    expect(asked.find((m) => m.input === 'project')).toMatchObject({
      text: 'File the bug — project key (project)',
      exampleAnswer: 'OPS',
    });
  });

  it('given an input with no example, when asked, then it has no example answer', () => {
    const [asked] = missingInputs([steps[0] as Step], ['refund'], caps, { amount: 40 }, {});
    expect(asked?.id).toBe('refund.paymentId');
    expect(asked).not.toHaveProperty('exampleAnswer');
  });
});

describe("the example a parameter's description gives (exampleOf, withoutExample)", () => {
  it.each([
    ['project key, e.g. OPS', 'OPS', 'project key'],
    ["Customer's full name, e.g. John O'Brien", "John O'Brien", "Customer's full name"],
    ['Search query (e.g. from:billing@acme.com "invoice")', 'from:billing@acme.com "invoice"', 'Search query'],
    ['Subject line, e.g. "Invoice #123 (overdue)" for reminders', 'Invoice #123 (overdue)', 'Subject line for reminders'],
    ['Recipients, e.g. a@x.com, b@x.com', 'a@x.com, b@x.com', 'Recipients'],
    ['Date (ISO 8601, e.g. 2024-01-31)', '2024-01-31', 'Date (ISO 8601)'],
    [
      'Cron expression, e.g. 0 9 * * 1. Evaluated in the org time zone.',
      '0 9 * * 1',
      'Cron expression. Evaluated in the org time zone.',
    ],
  ])('given "%s", then the example is "%s" and the question says "%s"', (description, example, question) => {
    expect(exampleOf({ description }).exampleAnswer).toBe(example);
    expect(withoutExample(description)).toBe(question);
  });

  it('given a description with no example, then none, and the description as it is', () => {
    expect(exampleOf({ description: 'id of the ticket' })).toEqual({});
    expect(withoutExample('id of the ticket')).toBe('id of the ticket');
  });
});

describe('order: topological batches', () => {
  it('independent steps share a batch; a step waits for what it depends on or reads', () => {
    const c = step('c', [], { text: { from: 'step', stepId: 'a', path: '' } });
    expect(batches([step('a'), step('b'), c, step('d', ['b', 'c'])])).toEqual([['a', 'b'], ['c'], ['d']]);
  });
  it('a cycle or an unknown step is refused', () => {
    expect(() => batches([step('a', ['b']), step('b', ['a'])])).toThrow(/cycle/);
    expect(() => batches([step('a', ['z'])])).toThrow(/unknown step z/);
  });
});

describe('idempotency keys and trigger filters', () => {
  it('the same arguments in any key order give the same key; other arguments another', () => {
    expect(canonical({ b: 1, a: { d: [1, 2], c: null } })).toBe('{"a":{"c":null,"d":[1,2]},"b":1}');
    const k = idempotencyKey('x-1', 'refund', { amount: 1, paymentId: 'p' });
    expect(k).toBe(idempotencyKey('x-1', 'refund', { paymentId: 'p', amount: 1 }));
    expect(k).toMatch(/^x-1\/refund\/[0-9a-f]{32}$/);
    expect(k).not.toBe(idempotencyKey('x-1', 'refund', { paymentId: 'p', amount: 2 }));
  });
  it('an event matches when every parameter it carries agrees', () => {
    expect(eventMatches({ priority: 'urgent' }, { priority: 'URGENT' })).toBe(true);
    expect(eventMatches({ priority: 'urgent' }, { priority: 'low' })).toBe(false);
    expect(eventMatches({ priority: 'urgent' }, {})).toBe(true);
  });
});

describe('connectors', () => {
  it('the sandbox answers a deterministic output valid against the output schema', () => {
    const capability: CatalogCapability = {
      ...(caps.get('stripe.refund_payment') as CatalogCapability),
      outputSchema: {
        type: 'object',
        properties: {
          refundId: { type: 'string', description: 'id' },
          status: { type: 'string', description: 's', enum: ['succeeded', 'pending'] },
          amount: { type: 'number', description: 'a', minimum: 0 },
          createdAt: { type: 'string', description: 'c', format: 'date-time' },
        },
        required: ['refundId', 'status'],
        additionalProperties: false,
      },
    };
    const out = sandboxOutput(capability, 'x-1/refund/abc');
    expect(new Ajv({ strict: false, validateFormats: false }).validate(capability.outputSchema as object, out)).toBe(true);
    expect(out.refundId).toMatch(/^stripe_sbx_[0-9a-f]{16}$/);
    expect(sandboxOutput(capability, 'x-1/refund/abc')).toEqual(out);
    const slack = caps.get('slack.post_message') as CatalogCapability;
    expect(
      new Ajv({ strict: false, validateFormats: false }).validate(slack.outputSchema as object, sandboxOutput(slack, 'k')),
    ).toBe(true);
    const { outputSchema: _none, ...withoutOutput } = slack;
    expect(sandboxOutput(withoutOutput as CatalogCapability, 'k')).toEqual({});
  });
  it('given a refund of a payment, then the sandbox answers with the payment and amount it was given, and the rest derived', () => {
    const refund = caps.get('stripe.refund_payment') as CatalogCapability;
    const out = sandboxOutput(refund, 'k-1', { paymentId: 'pi_250', amount: 250 });
    expect(new Ajv({ strict: false, validateFormats: false }).validate(refund.outputSchema as object, out)).toBe(true);
    expect(out).toMatchObject({ paymentId: 'pi_250', amount: 250 });
    // an argument that does not fit the output property is not echoed
    expect(sandboxOutput(refund, 'k-1', { amount: 'lots' }).amount).not.toBe('lots');
  });
  it('CONNECTORS names a module per provider; the rest stay in the sandbox', async () => {
    expect(parseConnectorConfig('stripe=./a.mjs, zendesk=@acme/zd')).toEqual({ stripe: './a.mjs', zendesk: '@acme/zd' });
    expect(parseConnectorConfig('{"stripe":"./a.mjs"}')).toEqual({ stripe: './a.mjs' });
    expect(() => parseConnectorConfig('stripe')).toThrow(/provider=module/);
    const connectors = await loadConnectors(
      { CONNECTORS: 'stripe=./fixtures/echo-connector.mjs', ECHO_TAG: 'live' },
      new URL('.', import.meta.url).pathname,
    );
    expect(connectors.sandboxed('stripe')).toBe(false);
    expect(connectors.sandboxed('http')).toBe(false);
    expect(connectors.sandboxed('zendesk')).toBe(true);
    const out = await connectors.for('stripe').call(
      caps.get('stripe.refund_payment') as CatalogCapability,
      { paymentId: 'p' },
      {
        orgId: 'acme',
        executionId: 'x',
        stepId: 's',
        idempotencyKey: 'x/s/h',
      },
    );
    expect(out).toEqual({ echoed: 'stripe.refund_payment', args: { paymentId: 'p' }, key: 'x/s/h', tag: 'live' });
    expect(connectors.extraCapabilities().map((c) => c.id)).toEqual(['webhook.send']);
  });
});

describe('confirm: the steps nobody is asked to approve', () => {
  const chain = [step('refund'), step('reply', ['refund']), step('close', ['reply']), step('tag')];
  const all = ['refund', 'reply', 'close', 'tag'];

  it('given a rejected step, when its dependents are looked at, then they cannot run, at any remove; a step apart from it can', () => {
    expect([...cannotRun(chain, all, { refund: 'rejected' })].sort()).toEqual(['close', 'reply']);
  });

  it('given a step the org refuses outright, when the steps are looked at in the order the run calls them, then none after it can run', () => {
    // (tag waits for nothing: it is called in the first batch, before reply — and after refund, in that batch)
    expect([...cannotRun(chain, all, { reply: 'moot' })]).toEqual(['close']);
    expect([...cannotRun(chain, all, { refund: 'moot' })].sort()).toEqual(['close', 'reply', 'tag']);
  });

  it('given approvals given or none yet, or a dependency off its branch, then every step can run', () => {
    expect(cannotRun(chain, all, { refund: 'approved' }).size).toBe(0);
    expect(cannotRun(chain, all, {}).size).toBe(0);
    expect(cannotRun(chain, ['reply', 'close', 'tag'], { refund: 'rejected' }).size).toBe(0);
  });

  it('given a budget of two calls, when four steps would act, then the steps past the second in calling order cannot run', () => {
    // calling order: refund, tag (first batch), reply, close
    expect([...cannotRun(chain, all, {}, 2)].sort()).toEqual(['close', 'reply']);
    expect([...cannotRun(chain, all, {}, 0)].sort()).toEqual(all.slice().sort());
    expect(cannotRun(chain, all, {}, 4).size).toBe(0);
  });

  it('given a budget, when an earlier step is rejected, then it spends nothing and a later step comes back within reach', () => {
    const apart = [step('refund'), step('tag'), step('reply'), step('close')];
    expect([...cannotRun(apart, all, {}, 2)].sort()).toEqual(['close', 'reply']);
    expect([...cannotRun(apart, all, { refund: 'rejected' }, 2)]).toEqual(['close']);
  });

  it('given a budget, when a step waits on an earlier output to decide whether it acts, then it spends nothing of the reach', () => {
    const gated = {
      ...step('tag', ['refund']),
      when: { source: { from: 'step' as const, stepId: 'refund', path: 'status' }, op: 'eq' as const, value: 'ok' },
    };
    const flow = [step('refund'), gated, step('reply', ['tag'])];
    expect(cannotRun(flow, ['refund', 'tag', 'reply'], {}, 2).size).toBe(0);
    expect([...cannotRun(flow, ['refund', 'tag', 'reply'], {}, 1)].sort()).toEqual(['reply', 'tag']);
  });

  it('given steps that form no order, then nothing is blocked (plan fails such a spec)', () => {
    expect(cannotRun([step('a', ['b']), step('b', ['a'])], ['a', 'b'], { a: 'rejected' }).size).toBe(0);
  });
});
