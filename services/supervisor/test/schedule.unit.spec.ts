import { makeFact } from '@hireloop/fact-stream';
import { executionIdOf } from '@hireloop/platform';
import { builtInCatalog, type EmployeeActivated, validateFact } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { executionIdOf as deciderExecutionIdOf } from '../src/decider';
import { dueSlots, evolveSchedules, MAX_SLOTS_PER_WORKFLOW, type Schedules, slotTrigger, slotTriggerId } from '../src/schedule';

const at = (iso: string) => ({ now: () => new Date(iso) });

function activated(
  employeeId: string,
  workflows: EmployeeActivated['workflows'],
  ts = '2026-11-24T10:00:30.000Z',
  orgId = 'acme',
) {
  return makeFact(
    'EmployeeActivated',
    { orgId, correlation: { userId: 'alice' } },
    { employeeId, version: 2, activationId: '01900000-0000-7000-8000-000000000001', workflows },
    { clock: at(ts) },
  );
}
const perMinute = { workflowId: 'tick', triggerId: 'schedule.cron', status: 'on' as const, schedule: { cron: '* * * * *' } };

describe('cron schedules (evolveSchedules)', () => {
  it('given an activation, holds its cron workflows that are on', () => {
    const schedules = evolveSchedules(
      new Map(),
      activated('emp-1', [
        perMinute,
        { workflowId: 'off', triggerId: 'schedule.cron', status: 'off', reason: 'invalid', schedule: { cron: '* * * * *' } },
        { workflowId: 'hook', triggerId: 'zendesk.new_ticket', status: 'on' },
      ]),
    );
    expect(schedules.get('emp-1')).toEqual([
      {
        orgId: 'acme',
        employeeId: 'emp-1',
        version: 2,
        workflowId: 'tick',
        cron: '* * * * *',
        activatedAt: '2026-11-24T10:00:30.000Z',
      },
    ]);
  });

  it('given a deactivation, fires nothing more for the employee; another org’s fact changes nothing', () => {
    const on = evolveSchedules(new Map(), activated('emp-1', [perMinute]));
    const foreign = makeFact('EmployeeDeactivated', { orgId: 'evil', correlation: {} }, { employeeId: 'emp-1', version: 2 });
    expect(evolveSchedules(on, foreign).get('emp-1')).toHaveLength(1);
    const off = makeFact('EmployeeDeactivated', { orgId: 'acme', correlation: {} }, { employeeId: 'emp-1', version: 2 });
    expect(evolveSchedules(on, off).has('emp-1')).toBe(false);
  });
});

describe('due slots (dueSlots)', () => {
  const schedules: Schedules = evolveSchedules(new Map(), activated('emp-1', [perMinute]));

  it('fires each slot in (from, to], none before the activation', () => {
    const slots = dueSlots(schedules, new Date('2026-11-24T09:00:00Z'), new Date('2026-11-24T10:03:00Z'));
    expect(slots.map((s) => s.at)).toEqual(['2026-11-24T10:01:00.000Z', '2026-11-24T10:02:00.000Z', '2026-11-24T10:03:00.000Z']);
    expect(dueSlots(schedules, new Date('2026-11-24T10:03:00Z'), new Date('2026-11-24T10:03:59Z'))).toEqual([]);
  });

  it('honours the time zone of the schedule', () => {
    const paris = evolveSchedules(
      new Map(),
      activated('emp-2', [
        {
          workflowId: 'daily',
          triggerId: 'schedule.cron',
          status: 'on',
          schedule: { cron: '0 9 * * *', timezone: 'Europe/Paris' },
        },
      ]),
    );
    const slots = dueSlots(paris, new Date('2026-11-24T00:00:00Z'), new Date('2026-11-26T00:00:00Z'));
    expect(slots.map((s) => s.at)).toEqual(['2026-11-25T08:00:00.000Z']); // 09:00 in Paris, the first after the activation
  });

  it('after a long outage fires only the latest slots', () => {
    const slots = dueSlots(schedules, new Date('2026-11-24T10:00:00Z'), new Date('2026-11-24T12:00:00Z'));
    expect(slots).toHaveLength(MAX_SLOTS_PER_WORKFLOW);
    expect(slots.at(-1)?.at).toBe('2026-11-24T12:00:00.000Z');
  });
});

describe('the fact of a slot (slotTrigger)', () => {
  const [slot] = dueSlots(
    evolveSchedules(new Map(), activated('emp-1', [perMinute])),
    new Date('2026-11-24T10:00:30Z'),
    new Date('2026-11-24T10:01:00Z'),
  );

  it('is a valid employee_trigger from the schedule, everything derived from employee, workflow and slot', () => {
    if (!slot) throw new Error('no slot');
    const fact = slotTrigger(slot);
    expect(validateFact(fact).ok).toBe(true);
    expect(fact).toMatchObject({
      type: 'TriggerCreated',
      orgId: 'acme',
      ts: '2026-11-24T10:01:00.000Z',
      triggerId: slotTriggerId('emp-1', 'tick', '2026-11-24T10:01:00.000Z'),
      triggerType: 'employee_trigger',
      source: 'schedule',
      payload: {
        employeeId: 'emp-1',
        version: 2,
        workflowId: 'tick',
        event: { firedAt: '2026-11-24T10:01:00.000Z', expression: slot.workflow.cron },
      },
    });
    // the event is the catalog's event of schedule.cron: a step may bind `firedAt` or `expression`
    const cronEvent = builtInCatalog.triggers.find((t) => t.id === 'schedule.cron')?.eventSchema;
    const event = (fact.payload as { event: Record<string, unknown> }).event;
    expect(cronEvent?.required.filter((field) => !(field in event))).toEqual([]);
    expect(Object.keys(event).filter((field) => !(field in (cronEvent?.properties ?? {})))).toEqual([]);
    // two supervisors, or one firing the slot again after a restart: the very same fact
    expect(slotTrigger({ ...slot })).toEqual(fact);
  });

  it('runs as the execution the decider derives (one shared derivation)', () => {
    if (!slot) throw new Error('no slot');
    const { triggerId } = slotTrigger(slot);
    expect(deciderExecutionIdOf(triggerId)).toBe(executionIdOf(triggerId));
  });
});
