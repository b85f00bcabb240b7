/**
 * `schedule.cron` workflows (ARCHITECTURE §11): the supervisor fires each slot of each active cron
 * workflow as `TriggerCreated{triggerType:'employee_trigger', source:'schedule'}`. Pure: the schedules
 * are a fold of the employees topic, and the facts of a slot derive from employee, workflow and slot
 * alone — trigger id, fact id and `ts` (the slot) — so two supervisors, or one that fires a slot again
 * after a restart, publish the very same fact, which the event store and the decider keep once.
 */
import { makeFact } from '@hireloop/fact-stream';
import { derivedId } from '@hireloop/platform';
import type { EmployeeActivated, EmployeeDeactivated, TriggerCreated } from '@hireloop/schemas';
import { Cron } from 'croner';

export interface CronWorkflow {
  orgId: string;
  employeeId: string;
  version: number;
  workflowId: string;
  cron: string;
  timezone?: string;
  /** no slot before the activation fires */
  activatedAt: string;
}

/** The active cron workflows, by employee. */
export type Schedules = ReadonlyMap<string, readonly CronWorkflow[]>;

export type EmployeeFact = EmployeeActivated | EmployeeDeactivated;

/** The schedules after an activation (its cron workflows that are on replace the employee's) or a deactivation. */
export function evolveSchedules(schedules: Schedules, fact: EmployeeFact): Schedules {
  const next = new Map(schedules);
  const previous = schedules.get(fact.employeeId);
  // another tenant's fact never touches an employee
  if (previous?.[0] && previous[0].orgId !== fact.orgId) return schedules;
  if (fact.type === 'EmployeeDeactivated') {
    next.delete(fact.employeeId);
    return next;
  }
  const workflows = fact.workflows.flatMap((w): CronWorkflow[] =>
    w.status === 'on' && w.schedule
      ? [
          {
            orgId: fact.orgId,
            employeeId: fact.employeeId,
            version: fact.version,
            workflowId: w.workflowId,
            cron: w.schedule.cron,
            ...(w.schedule.timezone ? { timezone: w.schedule.timezone } : {}),
            activatedAt: fact.ts,
          },
        ]
      : [],
  );
  if (workflows.length === 0) next.delete(fact.employeeId);
  else next.set(fact.employeeId, workflows);
  return next;
}

/** At most this many slots of one workflow per call: a long outage does not flood the stream. */
export const MAX_SLOTS_PER_WORKFLOW = 10;

const cronCache = new Map<string, Cron | null>();
function cronOf(workflow: CronWorkflow): Cron | null {
  const key = `${workflow.cron}\n${workflow.timezone ?? ''}`;
  if (!cronCache.has(key)) {
    let cron: Cron | null = null;
    try {
      cron = new Cron(workflow.cron, { paused: true, ...(workflow.timezone ? { timezone: workflow.timezone } : {}) });
    } catch {
      cron = null; // the gateway validated it; an invalid one (a fact from elsewhere) never fires
    }
    cronCache.set(key, cron);
  }
  return cronCache.get(key) ?? null;
}

export interface Slot {
  workflow: CronWorkflow;
  /** the slot's time, ISO */
  at: string;
}

/** The slots in (from, to] of every schedule, each not before its activation; the latest ones when too many. */
export function dueSlots(schedules: Schedules, from: Date, to: Date): Slot[] {
  const slots: Slot[] = [];
  for (const workflows of schedules.values()) {
    for (const workflow of workflows) {
      const cron = cronOf(workflow);
      if (!cron) continue;
      const activated = new Date(workflow.activatedAt);
      let cursor = from > activated ? from : activated;
      const found: Slot[] = [];
      for (;;) {
        const next = cron.nextRun(cursor);
        if (!next || next > to) break;
        found.push({ workflow, at: next.toISOString() });
        cursor = next;
      }
      slots.push(...found.slice(-MAX_SLOTS_PER_WORKFLOW));
    }
  }
  return slots.sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0));
}

/** The trigger id of a slot: from employee, workflow and slot only. */
export const slotTriggerId = (employeeId: string, workflowId: string, slot: string): string =>
  derivedId(`${employeeId}/${workflowId}/${slot}`, 'cron');

/** The fact a slot fires: everything in it derives from the slot, so every supervisor publishes the same one. */
export function slotTrigger(slot: Slot): TriggerCreated {
  const { workflow, at } = slot;
  const triggerId = slotTriggerId(workflow.employeeId, workflow.workflowId, at);
  return makeFact(
    'TriggerCreated',
    { orgId: workflow.orgId, correlation: { triggerId } },
    {
      triggerId,
      triggerType: 'employee_trigger',
      payload: {
        employeeId: workflow.employeeId,
        version: workflow.version,
        workflowId: workflow.workflowId,
        // the catalog's event of schedule.cron: the slot fired and the expression that fired it
        event: { firedAt: at, expression: workflow.cron },
        deliveryId: at,
      },
      source: 'schedule',
    },
    { ids: { newId: () => derivedId(triggerId, 'fact') }, clock: { now: () => new Date(at) } },
  );
}
