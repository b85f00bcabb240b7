/**
 * Activation, signed webhooks, a run's effects and the inbox through `app.inject()`, on real Postgres
 * and Kafka: facts the gateway publishes are projected with the event store's own projector.
 */
import { randomUUID } from 'node:crypto';
import { projectBatch } from '@hireloop/event-store';
import { makeFact } from '@hireloop/fact-stream';
import { executionIdOf, type Principal } from '@hireloop/platform';
import { type AnyFact, type EmployeeGraphSpec, inputSchemaJson } from '@hireloop/schemas';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { employeeSpec, recorded, step, workflow } from '../../../packages/event-store/test/builders';
import { hookSecret, signBody } from '../src/hooks/secret';
import { bearerOf, HOOK_KEY, uid } from './fixtures';
import { type Harness, harness, recording } from './harness';

const alice: Principal = { userId: 'alice', orgId: 'acme' };
const bob: Principal = { userId: 'bob', orgId: 'acme' };
const admin: Principal = { userId: 'root', orgId: 'acme', role: 'admin' };
const mallory: Principal = { userId: 'mallory', orgId: 'evil-corp', role: 'admin' };

const project = (pool: Harness['pool'], ...facts: AnyFact[]) =>
  projectBatch(
    pool,
    facts.map((fact) => recorded(fact, inject('topicPrefix'))),
  );

/** A workflow whose one step replies to the ticket that started it. */
const replying = (id: string, triggerId: string) =>
  workflow(id, triggerId, {
    steps: [step('s1', 'zendesk.reply_ticket', { inputs: { ticketId: { from: 'trigger', path: 'ticket.id' } } })],
  });

const spec = (employeeId: string): EmployeeGraphSpec =>
  employeeSpec(
    'acme',
    `Support ${employeeId.slice(0, 8)}`,
    employeeId,
    [
      replying('tickets', 'zendesk.new_ticket'),
      replying('mail', 'gmail.new_email'),
      replying('inbound', 'webhook.incoming_webhook'),
    ],
    'answers support tickets',
  );

/** Alice's creation that registered the employee, as the projector would have it. */
async function givenEmployee(pool: Harness['pool']): Promise<string> {
  const employeeId = randomUUID();
  const executionId = randomUUID();
  const correlation = { conversationId: uid('conv'), userId: alice.userId, executionId };
  const trigger = { triggerId: uid('trg'), triggerType: 'create_graph' as const, payload: { jobDescription: 'support' } };
  await project(
    pool,
    makeFact('RunIntent', { orgId: 'acme', correlation }, { executionId, employeeId: 'graph-creator', action: 'start', trigger }),
    makeFact(
      'ExecutionResult',
      { orgId: 'acme', correlation },
      { executionId, status: 'completed', output: { employee: spec(employeeId) } },
    ),
  );
  return employeeId;
}

describe('activation, webhooks, effects and the inbox (app.inject, real Postgres and Kafka)', () => {
  let h: Harness;
  let app: FastifyInstance;
  let employeeId: string;
  let hooks: Record<string, { url: string; secret: string }>;
  let activationId: string;

  beforeAll(async () => {
    h = await harness();
    // what the gateway publishes is recorded by the event store's own projector before a switch answers
    app = await h.build({ bodyLimit: 4096 }, undefined, recording(h), { publicUrl: 'https://hooks.example/' });
    employeeId = await givenEmployee(h.pool);
  });
  afterAll(async () => {
    await h.close();
  });

  const post = (url: string, who: Principal) => app.inject({ method: 'POST', url, headers: bearerOf(who) });
  const get = (url: string, who: Principal) => app.inject({ method: 'GET', url, headers: bearerOf(who) });
  /** the lifecycle fact the gateway published for the employee */
  const published = <T extends 'EmployeeActivated' | 'EmployeeDeactivated'>(type: T, seen: number) =>
    h.collector.until(
      () => h.collector.of(type, (f) => (f as { employeeId?: string }).employeeId === employeeId)[seen],
      `${type} of ${employeeId} published`,
    );
  const hook = (workflowId: string, body: string, headers: Record<string, string> = {}) =>
    app.inject({
      method: 'POST',
      url: `/v1/hooks/${employeeId}/${workflowId}`,
      payload: body,
      headers: { 'content-type': 'application/json', ...headers },
    });
  const signed = (workflowId: string, body: string, delivery?: string) =>
    hook(workflowId, body, {
      'x-hireloop-signature': signBody(hooks[workflowId]?.secret ?? '', body),
      ...(delivery ? { 'x-hireloop-delivery': delivery } : {}),
    });
  const ticket = JSON.stringify({ ticket: { id: 42, subject: 'refund please' } });

  it('GET /v1/employees/:id shows a registered employee as inactive', async () => {
    const res = await get(`/v1/employees/${employeeId}`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ employeeId, status: 'inactive' });
  });

  it('lets only the owner or an admin of its org activate: another member 403, another org 404', async () => {
    expect((await post(`/v1/employees/${employeeId}/activate`, bob)).statusCode).toBe(403);
    const foreign = await post(`/v1/employees/${employeeId}/activate`, mallory);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 'not_found' });
  });

  it('a switch takes no body fields: an unknown one is a 422 naming it, for activate and deactivate alike', async () => {
    for (const action of ['activate', 'deactivate']) {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/employees/${employeeId}/${action}`,
        headers: { ...bearerOf(alice), 'content-type': 'application/json' },
        payload: '{"force":true}',
      });
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'validation_failed', field: '/force' });
    }
    expect((await get(`/v1/employees/${employeeId}`, alice)).json()).toMatchObject({ status: 'inactive' });
  });

  it('activates: 200 with a hook and secret per webhook workflow that is on, and the workflow waiting for gmail off', async () => {
    const res = await post(`/v1/employees/${employeeId}/activate`, alice);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ employeeId, version: 1, status: 'active' });
    expect(body.hooks.map((x: { workflowId: string }) => x.workflowId)).toEqual(['tickets', 'inbound']);
    expect(body.hooks[0].url).toBe(`https://hooks.example/v1/hooks/${employeeId}/tickets`);
    expect(body.workflows).toContainEqual({
      workflowId: 'mail',
      triggerId: 'gmail.new_email',
      status: 'off',
      reason: 'waiting for gmail to be connected for the org',
    });
    hooks = Object.fromEntries(body.hooks.map((x: { workflowId: string; url: string; secret: string }) => [x.workflowId, x]));
    const fact = await published('EmployeeActivated', 0);
    activationId = fact.activationId;
    expect(fact).toMatchObject({ orgId: 'acme', correlation: { userId: 'alice' }, workflows: body.workflows });
    const view = (await get(`/v1/employees/${employeeId}`, alice)).json();
    expect(view).toMatchObject({ status: 'active', workflows: body.workflows });
  });

  it('the same delivery id twice → 202 with the same triggerId and executionId, and the same fact', async () => {
    const delivery = uid('delivery');
    const first = await signed('tickets', ticket, delivery);
    expect(first.statusCode).toBe(202);
    const { triggerId, executionId } = first.json();
    expect(executionId).toBe(executionIdOf(triggerId));
    const second = await signed('tickets', ticket, delivery);
    expect(second.statusCode).toBe(202);
    expect(second.json()).toEqual({ triggerId, executionId });
    const published = await h.collector.until(() => {
      const facts = h.collector.of('TriggerCreated', (f) => f.triggerId === triggerId);
      return facts.length === 2 && facts;
    }, 'both deliveries published');
    expect(published[0]?.id).toBe(published[1]?.id);
    expect(published[0]).toMatchObject({
      orgId: 'acme',
      triggerType: 'employee_trigger',
      source: 'webhook',
      payload: { employeeId, version: 1, workflowId: 'tickets', event: JSON.parse(ticket), deliveryId: delivery },
    });
    // another delivery is another run
    const other = await signed('tickets', ticket, uid('delivery'));
    expect(other.json().triggerId).not.toBe(triggerId);
  });

  it('the same delivery id with another event → 422 naming x-hireloop-delivery, and nothing published; the first event sent again still answers its ids', async () => {
    const delivery = uid('delivery');
    const first = await signed('tickets', ticket, delivery);
    expect(first.statusCode).toBe(202);
    const other = JSON.stringify({ ticket: { id: 43, subject: 'a different ticket' } });
    const refused = await signed('tickets', other, delivery);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'validation_failed', field: 'x-hireloop-delivery' });
    // the same event, its keys in another order, is the same delivery sent again
    const again = await signed('tickets', JSON.stringify({ ticket: { subject: 'refund please', id: 42 } }), delivery);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    // nothing of the refused event is published: the facts of this delivery id are all of ticket 42
    await h.collector.caughtUp();
    const ofThisId = h.collector.of('TriggerCreated', (f) => (f.payload as { deliveryId?: string }).deliveryId === delivery);
    expect(ofThisId.length).toBeGreaterThan(0);
    const tickets = ofThisId.map((f) => (f.payload as { event?: { ticket?: { id?: number } } }).event?.ticket?.id ?? 0);
    expect(tickets).not.toContain(43);
  });

  it('a bad or missing signature → 401', async () => {
    const bad = await hook('tickets', ticket, { 'x-hireloop-signature': signBody('not-the-secret', ticket) });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toMatchObject({ code: 'unauthorized' });
    expect((await hook('tickets', ticket)).statusCode).toBe(401);
    // signed for another body
    const tampered = await hook('tickets', ticket.replace('42', '43'), {
      'x-hireloop-signature': signBody(hooks.tickets?.secret ?? '', ticket),
    });
    expect(tampered.statusCode).toBe(401);
  });

  it('a body that breaks the trigger event schema → 422 naming the field', async () => {
    const body = JSON.stringify({ ticket: { id: 'forty-two', subject: 'x' } });
    const res = await signed('tickets', body);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'validation_failed', field: '/ticket/id' });
    const missing = await signed('tickets', JSON.stringify({ ticket: { id: 1 } }));
    expect(missing.json()).toMatchObject({ code: 'validation_failed', field: '/ticket/subject' });
  });

  it('an event holding text no fact can carry (a NUL, a lone surrogate) → 422 naming the field, nothing fired', async () => {
    const before = h.collector.of('TriggerCreated').length;
    const nul = await signed('inbound', '{"note":{"text":"refund\\u0000 now"}}');
    expect(nul.statusCode).toBe(422);
    expect(nul.json()).toMatchObject({ code: 'validation_failed', field: '/note/text' });
    const half = await signed('inbound', '{"lines":["ok","\\udc00"]}');
    expect(half.json()).toMatchObject({ code: 'validation_failed', field: '/lines/1' });
    await h.collector.caughtUp();
    expect(h.collector.of('TriggerCreated').length).toBe(before);
  });

  it('a compressed body or one in another charset → 415, bytes that are not UTF-8 → 400, more than 100 properties → 422 naming "/"; nothing fired', async () => {
    const before = h.collector.of('TriggerCreated').length;
    const secret = hooks.inbound?.secret ?? '';
    const body = JSON.stringify({ anything: 1 });
    const gzip = await hook('inbound', body, { 'content-encoding': 'gzip', 'x-hireloop-signature': signBody(secret, body) });
    expect(gzip.statusCode).toBe(415);
    expect(gzip.json()).toMatchObject({ message: expect.stringContaining('Content-Encoding') });
    const latin = await hook('inbound', body, {
      'content-type': 'application/json; charset=iso-8859-1',
      'x-hireloop-signature': signBody(secret, body),
    });
    expect(latin.statusCode).toBe(415);
    const bytes = Buffer.concat([Buffer.from('{"note":"U8'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
    const notUtf8 = await app.inject({
      method: 'POST',
      url: `/v1/hooks/${employeeId}/inbound`,
      payload: bytes,
      headers: { 'content-type': 'application/json', 'x-hireloop-signature': signBody(secret, bytes) },
    });
    expect(notUtf8.statusCode).toBe(400);
    expect(notUtf8.json().message).toContain('UTF-8');
    const wide = await signed('inbound', JSON.stringify(Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]))));
    expect(wide.statusCode).toBe(422);
    expect(wide.json()).toMatchObject({ code: 'validation_failed', field: '/', message: expect.stringContaining('100') });
    await h.collector.caughtUp();
    expect(h.collector.of('TriggerCreated').length).toBe(before);
  });

  it('any JSON object when the trigger has no event schema; too large → 413; unknown → 404; a workflow off → 409', async () => {
    expect((await signed('inbound', JSON.stringify({ anything: [1, 2] }))).statusCode).toBe(202);
    const large = JSON.stringify({ ticket: { id: 1, subject: 'x'.repeat(5000) } });
    const tooLarge = await signed('tickets', large);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ code: 'payload_too_large' });
    const unknownEmployee = await app.inject({
      method: 'POST',
      url: `/v1/hooks/${randomUUID()}/tickets`,
      payload: ticket,
      headers: { 'content-type': 'application/json', 'x-hireloop-signature': signBody('x', ticket) },
    });
    expect(unknownEmployee.statusCode).toBe(404);
    expect((await signed('nope', ticket)).statusCode).toBe(404);
    // signed with the secret the mail workflow would have: it is off, so no hook was handed out for it
    const mailSecret = hookSecret(HOOK_KEY, { activationId, employeeId, workflowId: 'mail' });
    const off = await hook('mail', ticket, { 'x-hireloop-signature': signBody(mailSecret, ticket) });
    expect(off.statusCode).toBe(409);
    expect(off.json()).toMatchObject({ code: 'conflict', message: expect.stringContaining('waiting for gmail') });
  });

  // a run of the employee that waits at an approval (projected below): switching the employee off cancels it
  const runId = randomUUID();

  describe('a run of the employee', () => {
    const promptId = uid('approve');
    const correlation = { executionId: runId };

    beforeAll(async () => {
      const trigger = {
        triggerId: uid('hook'),
        triggerType: 'employee_trigger' as const,
        payload: { employeeId, version: 1, workflowId: 'tickets', event: { ticket: { id: 42 } } },
      };
      const options = [
        { id: 'approve', label: 'Approve' },
        { id: 'reject', label: 'Reject' },
      ];
      const selectionRules = { mode: 'single' as const };
      const effect = {
        stepId: 's1',
        capabilityId: 'zendesk.reply_ticket',
        args: { ticketId: 42 },
        idempotencyKey: `${runId}/s1/abc`,
        status: 'succeeded' as const,
        output: { replied: true },
        at: new Date().toISOString(),
      };
      await project(
        h.pool,
        makeFact('RunIntent', { orgId: 'acme', correlation }, { executionId: runId, employeeId, action: 'start', trigger }),
        makeFact(
          'ExecutionEvent',
          { orgId: 'acme', correlation },
          { executionId: runId, event: 'tool_succeeded', stepId: 's1', effect },
        ),
        makeFact(
          'HILPrompt',
          { orgId: 'acme', correlation },
          {
            executionId: runId,
            promptId,
            kind: 'options',
            messages: ['Approve zendesk.reply_ticket {"ticketId":42}?'],
            inputSchema: inputSchemaJson({ kind: 'options', options, selectionRules }),
            options,
            selectionRules,
          },
        ),
      );
    });

    it('GET /v1/executions/:id/effects → what it did, for the employee owner and an org admin', async () => {
      for (const who of [alice, admin]) {
        const res = await get(`/v1/executions/${runId}/effects`, who);
        expect(res.statusCode).toBe(200);
        // an array, as the contract names it
        expect(res.json()).toEqual([
          expect.objectContaining({
            stepId: 's1',
            capabilityId: 'zendesk.reply_ticket',
            idempotencyKey: `${runId}/s1/abc`,
            status: 'succeeded',
            output: { replied: true },
          }),
        ]);
      }
    });

    it('another org → 404 on the run, its effects and its prompts; so does a member who neither owns it nor administers', async () => {
      for (const who of [mallory, bob]) {
        expect((await get(`/v1/executions/${runId}`, who)).statusCode).toBe(404);
        expect((await get(`/v1/executions/${runId}/effects`, who)).statusCode).toBe(404);
        expect((await get(`/v1/executions/${runId}/events`, who)).statusCode).toBe(404);
        const answer = await app.inject({
          method: 'POST',
          url: `/v1/executions/${runId}/respond`,
          headers: bearerOf(who),
          payload: { promptId, kind: 'options', payload: { selected: ['approve'] } },
        });
        expect(answer.statusCode).toBe(404);
        const inbox = (await get('/v1/executions?status=awaiting_input', who)).json();
        expect(inbox.executions.map((e: { executionId: string }) => e.executionId)).not.toContain(runId);
      }
    });

    it('shows in the inbox of the employee owner and of an admin, and in the employee’s runs', async () => {
      for (const who of [alice, admin]) {
        const inbox = (await get('/v1/executions?status=awaiting_input', who)).json();
        const run = inbox.executions.find((e: { executionId: string }) => e.executionId === runId);
        expect(run).toMatchObject({ status: 'waiting', currentPrompt: { promptId } });
        expect(inbox.executions.every((e: { status: string }) => e.status === 'waiting')).toBe(true);
      }
      const runs = (await get(`/v1/executions?employeeId=${employeeId}`, alice)).json();
      expect(runs.executions.map((e: { executionId: string }) => e.executionId)).toEqual([runId]);
    });

    it('the employee owner answers the run prompt over HTTP → 202 HILResponse', async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/executions/${runId}/respond`,
        headers: bearerOf(alice),
        payload: { promptId, kind: 'options', payload: { selected: ['approve'] } },
      });
      expect(res.statusCode).toBe(202);
    });
  });

  it('deactivates: 200 inactive, then a signed delivery → 409 employee_inactive', async () => {
    const res = await post(`/v1/employees/${employeeId}/deactivate`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ employeeId, status: 'inactive', hooks: [] });
    await published('EmployeeDeactivated', 0);
    const view = (await get(`/v1/employees/${employeeId}`, alice)).json() as { status: string; workflows: { status: string }[] };
    expect(view).toMatchObject({ status: 'inactive' });
    // none of its workflows runs while it is inactive: each reads off, saying why
    expect(view.workflows.length).toBeGreaterThan(0);
    expect(view.workflows).toEqual(
      view.workflows.map(() => expect.objectContaining({ status: 'off', reason: expect.stringContaining('inactive') })),
    );
    const refused = await signed('tickets', ticket, uid('delivery'));
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'employee_inactive' });
    // its run that waited for an approval is cancelled by the one who switched it off: nothing it would do is done
    const cancelled = await h.collector.until(
      () =>
        h.collector.of(
          'TriggerCreated',
          (f) => f.triggerType === 'cancel_execution' && 'executionId' in f.payload && f.payload.executionId === runId,
        )[0],
      `cancel of ${runId}`,
    );
    expect(cancelled.correlation.userId).toBe(admin.userId);
  });

  it('activations sent at once (a double-click) answer one after the other: the answer that comes last holds the secret that works', async () => {
    let release = () => {};
    const later = new Promise<void>((resolve) => {
      release = resolve;
    });
    // an event store that records nothing until released: the first activation waits for it, holding the switch
    const slow = await h.build({ bodyLimit: 4096 }, undefined, recording(h, later), { publicUrl: 'https://hooks.example/' });
    const before = h.collector.of('EmployeeActivated', (f) => f.employeeId === employeeId).length;
    const order: string[] = [];
    const click = (name: string) =>
      slow.inject({ method: 'POST', url: `/v1/employees/${employeeId}/activate`, headers: bearerOf(alice) }).then((res) => {
        order.push(name);
        return res;
      });
    const first = click('first');
    await published('EmployeeActivated', before);
    const second = click('second');
    // the second waits for the first to be answered: it publishes nothing meanwhile
    await new Promise((r) => setTimeout(r, 300));
    expect(h.collector.of('EmployeeActivated', (f) => f.employeeId === employeeId)).toHaveLength(before + 1);
    release();
    const answers = await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    const body = JSON.stringify({ ticket: { id: 44, subject: 'refund please' } });
    const statuses: number[] = [];
    for (const res of answers) {
      const tickets = res.json().hooks.find((x: { workflowId: string }) => x.workflowId === 'tickets');
      statuses.push((await hook('tickets', body, { 'x-hireloop-signature': signBody(tickets.secret, body) })).statusCode);
    }
    // the second rotated the first's secrets: the answer that came last is the one taken
    expect(statuses).toEqual([401, 202]);
  });

  it('a switch answers once the event store has recorded it: the hook it shows takes a delivery at once', async () => {
    let release = () => {};
    const later = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow = await h.build({ bodyLimit: 4096 }, undefined, recording(h, later), { publicUrl: 'https://hooks.example/' });
    let answered = false;
    const answer = slow
      .inject({ method: 'POST', url: `/v1/employees/${employeeId}/activate`, headers: bearerOf(alice) })
      .then((res) => {
        answered = true;
        return res;
      });
    // on the topic, not yet in the event store: the activation has not answered
    await published('EmployeeActivated', 1);
    await new Promise((r) => setTimeout(r, 200));
    expect(answered).toBe(false);
    release();
    const res = await answer;
    expect(res.statusCode).toBe(200);
    const tickets = res.json().hooks.find((x: { workflowId: string }) => x.workflowId === 'tickets');
    const body = JSON.stringify({ ticket: { id: 43, subject: 'refund please' } });
    const taken = await hook('tickets', body, { 'x-hireloop-signature': signBody(tickets.secret, body) });
    expect(taken.statusCode).toBe(202);
  });
});
