import { createHmac } from 'node:crypto';
import type { Principal } from '@hireloop/platform';
import type { EmployeeGraphSpec } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import {
  asConnectedNow,
  cronProblem,
  decideActivate,
  decideWorkflows,
  hooksOf,
  manageableEmployee,
} from '../src/commands/activate';
import { admitDelivery, checkEvent, decideHookTrigger, hookTriggerId, stillConnected } from '../src/commands/hook';
import type { OrgView } from '../src/hooks/connect-hub';
import { hookSecret, loadHookSecretKey, signatureMatches, signBody } from '../src/hooks/secret';
import type { Employee } from '../src/read-model';

const KEY = 'unit-test-hook-secret-key';
const owner: Principal = { userId: 'alice', orgId: 'acme' };

function workflow(id: string, triggerId: string, params: Record<string, unknown> = {}, extra: object = {}) {
  return {
    id,
    name: id,
    description: id,
    trigger: { triggerId, params },
    steps: [{ id: 's1', capabilityId: 'slack.post_message', purpose: 'tell', inputs: {}, risk: 'low' as const, dependsOn: [] }],
    behaviourPrompt: 'be brief',
    ...extra,
  };
}

const spec = {
  employeeId: 'emp-1',
  orgId: 'acme',
  name: 'Support agent',
  version: 1,
  jobDescription: 'answers tickets',
  workflows: [
    workflow('tickets', 'zendesk.new_ticket'),
    workflow('mail', 'gmail.new_email'),
    workflow('daily', 'schedule.cron', { expression: '0 9 * * 1-5', timezone: 'Europe/Paris' }),
    workflow('broken', 'schedule.cron', { expression: 'every day at nine' }),
    workflow('promised', 'webhook.incoming_webhook', {}, { waitingFor: ['hubspot'] }),
    workflow('gap', 'webhook.incoming_webhook', {}, { status: 'unsatisfied', unsatisfiedReason: 'no refund limit given' }),
  ],
} as unknown as EmployeeGraphSpec;

const org: OrgView = {
  providers: ['zendesk', 'slack', 'schedule', 'webhook'],
  triggers: ['zendesk.new_ticket', 'gmail.new_email', 'schedule.cron', 'webhook.incoming_webhook'].map((id) => ({
    id,
    providerId: id.split('.')[0] as string,
  })),
};

const employee = (over: Partial<Employee> = {}): Employee => ({
  employeeId: 'emp-1',
  orgId: 'acme',
  name: 'Support agent',
  version: 1,
  executionId: 'creation-1',
  registeredAt: '2026-11-24T00:00:00.000Z',
  ownerUserId: 'alice',
  status: 'inactive',
  activationId: null,
  workflows: [],
  spec,
  ...over,
});

const minting = {
  ids: { newId: () => '01900000-0000-7000-8000-000000000001' },
  clock: { now: () => new Date('2026-11-24T10:00:00Z') },
};

describe('activation: which workflows run (decideWorkflows)', () => {
  const decided = new Map(decideWorkflows(spec, org).map((w) => [w.workflowId, w]));

  it('turns on a workflow whose trigger provider is connected', () => {
    expect(decided.get('tickets')).toEqual({ workflowId: 'tickets', triggerId: 'zendesk.new_ticket', status: 'on' });
  });

  it('leaves off, and says so, a workflow whose trigger provider the org has not connected', () => {
    expect(decided.get('mail')).toMatchObject({ status: 'off', reason: 'waiting for gmail to be connected for the org' });
  });

  it('leaves off a workflow waiting for a provider the user promised to connect', () => {
    expect(decided.get('promised')).toMatchObject({ status: 'off', reason: expect.stringContaining('hubspot') });
  });

  it('leaves off a workflow with an unsatisfied blocking gap', () => {
    expect(decided.get('gap')).toMatchObject({ status: 'off', reason: expect.stringContaining('no refund limit given') });
  });

  it('gives a cron workflow its schedule, and leaves off one whose expression is invalid', () => {
    expect(decided.get('daily')).toEqual({
      workflowId: 'daily',
      triggerId: 'schedule.cron',
      status: 'on',
      schedule: { cron: '0 9 * * 1-5', timezone: 'Europe/Paris' },
    });
    expect(decided.get('broken')).toMatchObject({
      status: 'off',
      reason: expect.stringMatching(/cron expression .* is invalid/),
    });
  });

  it('turns on the workflow once the org connects the provider it waited for', () => {
    const connected = decideWorkflows(spec, { ...org, providers: [...org.providers, 'hubspot', 'gmail'] });
    expect(connected.find((w) => w.workflowId === 'promised')?.status).toBe('on');
    expect(connected.find((w) => w.workflowId === 'mail')?.status).toBe('on');
  });

  it('validates cron expressions and time zones with croner', () => {
    expect(cronProblem('*/5 * * * *', undefined)).toBeNull();
    expect(cronProblem('61 * * * *', undefined)).toMatch(/invalid/);
    expect(cronProblem('* * * * *', 'Mars/Olympus')).toMatch(/invalid/);
    expect(cronProblem(undefined, undefined)).toMatch(/no cron expression/);
  });
});

describe('activation: who and what (decideActivate, hooksOf)', () => {
  it('lets the owner or an org admin switch an employee; another member 403, another org 404', () => {
    expect(manageableEmployee(employee(), owner, 'emp-1').employeeId).toBe('emp-1');
    expect(manageableEmployee(employee(), { userId: 'root', orgId: 'acme', role: 'admin' }, 'emp-1').employeeId).toBe('emp-1');
    expect(() => manageableEmployee(employee(), { userId: 'bob', orgId: 'acme' }, 'emp-1')).toThrow(
      expect.objectContaining({ code: 'FORBIDDEN' }),
    );
    expect(() => manageableEmployee(employee({ orgId: 'acme' }), { userId: 'alice', orgId: 'evil' }, 'emp-1')).toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }),
    );
  });

  it('publishes EmployeeActivated with a new activation id, and a hook with a secret per webhook workflow that is on', () => {
    const fact = decideActivate(employee(), org, owner, minting);
    expect(fact).toMatchObject({ type: 'EmployeeActivated', orgId: 'acme', employeeId: 'emp-1', version: 1 });
    expect(fact.activationId).toBe(minting.ids.newId());
    const hooks = hooksOf(fact, KEY, 'https://hooks.example');
    // tickets only: mail, promised and gap are off, daily and broken are schedules
    expect(hooks).toEqual([
      {
        workflowId: 'tickets',
        url: 'https://hooks.example/v1/hooks/emp-1/tickets',
        secret: hookSecret(KEY, { activationId: fact.activationId, employeeId: 'emp-1', workflowId: 'tickets' }),
      },
    ]);
  });
});

describe('webhook secrets and signatures', () => {
  const ref = { activationId: 'act-1', employeeId: 'emp-1', workflowId: 'tickets' };

  it('derives a secret per activation and workflow: a new activation rotates it', () => {
    expect(hookSecret(KEY, ref)).toMatch(/^[0-9a-f]{64}$/);
    expect(hookSecret(KEY, ref)).toBe(hookSecret(KEY, { ...ref }));
    expect(hookSecret(KEY, { ...ref, activationId: 'act-2' })).not.toBe(hookSecret(KEY, ref));
    expect(hookSecret(KEY, { ...ref, workflowId: 'daily' })).not.toBe(hookSecret(KEY, ref));
  });

  it('accepts sha256=<hex HMAC of the raw body> and nothing else', () => {
    const secret = hookSecret(KEY, ref);
    const body = Buffer.from('{"ticket":{"id":1}}');
    const header = `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
    expect(signBody(secret, body)).toBe(header);
    expect(signatureMatches(secret, body, header)).toBe(true);
    expect(signatureMatches(secret, Buffer.from('{"ticket":{"id":2}}'), header)).toBe(false);
    expect(signatureMatches('other', body, header)).toBe(false);
    expect(signatureMatches(secret, body, undefined)).toBe(false);
    expect(signatureMatches(secret, body, 'sha256=00')).toBe(false);
  });

  it('requires HOOK_SECRET_KEY in production, defaults it elsewhere', () => {
    expect(() => loadHookSecretKey({ NODE_ENV: 'production' })).toThrow(/HOOK_SECRET_KEY is required/);
    expect(loadHookSecretKey({})).toMatch(/dev/);
    expect(loadHookSecretKey({ HOOK_SECRET_KEY: 'a-long-enough-hook-key' })).toBe('a-long-enough-hook-key');
    expect(() => loadHookSecretKey({ HOOK_SECRET_KEY: 'short' })).toThrow(/at least 16/);
  });
});

describe('webhook deliveries (admitDelivery, checkEvent, hookTriggerId)', () => {
  const active = employee({
    status: 'active',
    activationId: 'act-1',
    workflows: [
      { workflowId: 'tickets', triggerId: 'zendesk.new_ticket', status: 'on' },
      {
        workflowId: 'mail',
        triggerId: 'gmail.new_email',
        status: 'off',
        reason: 'waiting for gmail to be connected for the org',
      },
    ],
  });
  const body = Buffer.from('{"ticket":{"id":1,"subject":"help"}}');
  const signed = (workflowId: string, e = active) => ({
    employeeId: 'emp-1',
    workflowId,
    body,
    signature: signBody(hookSecret(KEY, { activationId: e.activationId ?? '', employeeId: 'emp-1', workflowId }), body),
  });

  it('admits a signed delivery to a workflow that is on', () => {
    expect(admitDelivery(active, signed('tickets'), KEY).workflow.id).toBe('tickets');
  });

  it('refuses a delivery to no webhook with 404 naming what is unknown: the employee, the workflow, or a workflow started by its schedule (signed or not)', () => {
    const found = (fn: () => unknown) => {
      try {
        fn();
      } catch (error) {
        return error;
      }
      return undefined;
    };
    expect(found(() => admitDelivery(null, signed('tickets'), KEY))).toMatchObject({
      code: 'NOT_FOUND',
      details: { field: '/employeeId' },
    });
    expect(found(() => admitDelivery(active, signed('nope'), KEY))).toMatchObject({
      code: 'NOT_FOUND',
      details: { field: '/workflowId' },
    });
    expect(found(() => admitDelivery(active, { ...signed('daily'), signature: undefined }, KEY))).toMatchObject({
      code: 'NOT_FOUND',
      details: { field: '/workflowId' },
      message: expect.stringContaining('runs on its schedule'),
    });
  });

  it('refuses: unknown 404, bad signature 401, inactive 409 employee_inactive, workflow off 409', () => {
    expect(() => admitDelivery(null, signed('tickets'), KEY)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => admitDelivery(active, signed('nope'), KEY)).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => admitDelivery(active, { ...signed('tickets'), signature: 'sha256=beef' }, KEY)).toThrow(
      expect.objectContaining({ code: 'UNAUTHORIZED' }),
    );
    expect(() => admitDelivery(active, { ...signed('tickets'), signature: undefined }, KEY)).toThrow(
      expect.objectContaining({ code: 'UNAUTHORIZED' }),
    );
    const inactive = { ...active, status: 'inactive' as const };
    expect(() => admitDelivery(inactive, signed('tickets', inactive), KEY)).toThrow(
      expect.objectContaining({ code: 'EMPLOYEE_INACTIVE', status: 409 }),
    );
    expect(() => admitDelivery(employee(), signed('tickets'), KEY)).toThrow(
      expect.objectContaining({ code: 'EMPLOYEE_INACTIVE' }),
    );
    expect(() => admitDelivery(active, signed('mail'), KEY)).toThrow(
      expect.objectContaining({ code: 'CONFLICT', message: expect.stringContaining('waiting for gmail') }),
    );
  });

  it('checks the body against the trigger event schema, naming the field', () => {
    const schema = {
      type: 'object',
      required: ['ticket'],
      properties: { ticket: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } } },
    };
    expect(checkEvent(body, schema)).toEqual({ ticket: { id: 1, subject: 'help' } });
    expect(() => checkEvent(Buffer.from('{"ticket":{"id":"one"}}'), schema)).toThrow(
      expect.objectContaining({ code: 'VALIDATION_FAILED', details: { field: '/ticket/id' } }),
    );
    expect(() => checkEvent(Buffer.from('{"ticket":{}}'), schema)).toThrow(
      expect.objectContaining({ details: { field: '/ticket/id' } }),
    );
    expect(() => checkEvent(Buffer.from('[1]'), undefined)).toThrow(expect.objectContaining({ code: 'VALIDATION_FAILED' }));
    expect(() => checkEvent(Buffer.from('{'), undefined)).toThrow(expect.objectContaining({ code: 'BAD_REQUEST' }));
    expect(checkEvent(Buffer.from('{"anything":true}'), undefined)).toEqual({ anything: true });
  });

  it('derives the trigger from the delivery id: the same delivery twice is the same trigger and fact', () => {
    const fresh = () => 'fresh-id';
    const a = hookTriggerId('emp-1', 'tickets', 'd-1', fresh);
    expect(hookTriggerId('emp-1', 'tickets', 'd-1', fresh)).toBe(a);
    expect(hookTriggerId('emp-1', 'tickets', 'd-2', fresh)).not.toBe(a);
    expect(hookTriggerId('emp-1', 'tickets', undefined, fresh)).toBe('fresh-id');
    const clock = { now: () => new Date() };
    const first = decideHookTrigger(active, 'tickets', { x: 1 }, a, 'd-1', clock);
    const second = decideHookTrigger(active, 'tickets', { x: 1 }, a, 'd-1', clock);
    expect(second.id).toBe(first.id);
    expect(first).toMatchObject({
      triggerType: 'employee_trigger',
      source: 'webhook',
      orgId: 'acme',
      payload: { employeeId: 'emp-1', version: 1, workflowId: 'tickets', event: { x: 1 }, deliveryId: 'd-1' },
    });
  });
});

describe('webhook deliveries after a disconnect (stillConnected)', () => {
  const tickets = spec.workflows[0] as EmployeeGraphSpec['workflows'][number];
  it('given every provider of the workflow still connected, when a delivery comes, then it is let through', () => {
    expect(() => stillConnected(tickets, ['zendesk', 'slack'])).not.toThrow();
  });
  it('given the trigger’s provider disconnected since activation, when a delivery comes, then 409 naming it', () => {
    expect(() => stillConnected(tickets, ['slack'])).toThrow(/zendesk is no longer connected/);
  });
  it('given a provider the workflow waits for disconnected since, when a delivery comes, then 409 naming it', () => {
    const promised = spec.workflows.find((w) => w.id === 'promised') as EmployeeGraphSpec['workflows'][number];
    expect(() => stillConnected(promised, ['webhook'])).toThrow(
      expect.objectContaining({ code: 'CONFLICT', details: { field: '/workflowId' } }),
    );
    expect(() => stillConnected(promised, ['webhook', 'hubspot'])).not.toThrow();
  });
  it('given only a step’s provider missing, as activation allowed it, when a delivery comes, then it is let through (the scope rail decides that step)', () => {
    expect(() => stillConnected(tickets, ['zendesk'])).not.toThrow();
  });
});

describe("an active employee's workflows as the org is connected now (asConnectedNow)", () => {
  const tickets = spec.workflows[0] as EmployeeGraphSpec['workflows'][number];
  const on = { workflowId: tickets.id, triggerId: tickets.trigger.triggerId, status: 'on' as const };
  it('given every provider still connected, when shown, then the workflow is on as activated', () => {
    expect(asConnectedNow([on], spec.workflows, ['zendesk', 'slack'])).toEqual([on]);
  });
  it('given the trigger’s provider disconnected since activation, when shown, then it is off for now, saying which', () => {
    expect(asConnectedNow([on], spec.workflows, ['slack'])).toEqual([
      { ...on, status: 'off', reason: 'zendesk is no longer connected for the org' },
    ]);
  });
  it('given no spec at hand (the list), when shown, then the trigger’s provider alone decides', () => {
    expect(asConnectedNow([on], undefined, ['slack'])[0]?.status).toBe('off');
    expect(asConnectedNow([on], undefined, ['zendesk'])[0]?.status).toBe('on');
  });
  it('given a schedule-started workflow, when a provider it waits for is disconnected, then it stays on (its slots still fire)', () => {
    const nightly = {
      workflowId: 'nightly',
      triggerId: 'schedule.cron',
      status: 'on' as const,
      schedule: { cron: '0 22 * * *' },
    };
    expect(asConnectedNow([nightly], undefined, [])).toEqual([nightly]);
  });
  it('given a workflow off at activation, when shown, then its own reason stays', () => {
    const off = { ...on, status: 'off' as const, reason: 'waiting for zendesk to be connected for the org' };
    expect(asConnectedNow([off], spec.workflows, [])).toEqual([off]);
  });
});
