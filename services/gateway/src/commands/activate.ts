/**
 * What happens on `POST /v1/employees/:id/activate` and `/deactivate` (ARCHITECTURE §11): the
 * employee's owner or an org admin switches it on or off. Activation decides, per workflow, whether
 * it can run now — off, with the reason, while the providers it waits for (its `waitingFor`, its
 * trigger's provider) are not connected for the org, when a blocking gap was left unsatisfied, or when
 * its cron expression is invalid — and publishes `EmployeeActivated`; each webhook-started workflow
 * that is on gets a URL and a secret (hooks/secret.ts), shown in this answer only.
 */
import { makeFact, type PublishOptions } from '@hireloop/fact-stream';
import { HireloopError, isHireloopError, type Principal } from '@hireloop/platform';
import {
  type ActivationView,
  ApiLimits,
  type EmployeeActivated,
  type EmployeeDeactivated,
  type EmployeeGraphSpec,
  type Workflow,
  type WorkflowActivation,
} from '@hireloop/schemas';
import { Cron } from 'croner';
import type { ConnectHub, OrgView } from '../hooks/connect-hub';
import { hookSecret } from '../hooks/secret';
import { callerExecutions, type Employee, findEmployee, untilRecorded } from '../read-model';
import { TERMINAL_STATUSES } from './access';
import { cancel } from './cancel';
import type { CommandDeps, Minting } from './deps';

export const SCHEDULE_TRIGGER = 'schedule.cron';

const providerOf = (id: string): string => id.slice(0, id.indexOf('.') === -1 ? id.length : id.indexOf('.'));

/**
 * The providers a workflow needs before it can run and the org lacks: its trigger's and those it waits for. A step's
 * own provider is the scope rail's business at run time (a conditional step may never run). Pure.
 */
export function missingProviders(
  workflow: { trigger: { triggerId: string }; waitingFor?: readonly string[] },
  providers: Iterable<string>,
): string[] {
  const connected = new Set(providers);
  const needed = [...(workflow.waitingFor ?? []), providerOf(workflow.trigger.triggerId)];
  return [...new Set(needed)].filter((p) => !connected.has(p));
}

/**
 * The workflows of an active employee as they stand with the org's connections of now: a webhook-started one that
 * was on, and whose trigger's provider or one it waits for has been disconnected since, is off for now — as its
 * webhook answers (`stillConnected`) — until the provider is connected again. Pure.
 */
export function asConnectedNow(
  workflows: readonly WorkflowActivation[],
  spec: readonly Workflow[] | undefined,
  providers: readonly string[],
): WorkflowActivation[] {
  return workflows.map((activation) => {
    // (a schedule's slots go on firing, and its runs meet the scope rail: it is shown as it runs, on)
    if (activation.status !== 'on' || activation.triggerId === SCHEDULE_TRIGGER) return activation;
    const workflow = spec?.find((w) => w.id === activation.workflowId);
    const missing = missingProviders(workflow ?? { trigger: { triggerId: activation.triggerId } }, providers);
    if (missing.length === 0) return activation;
    const { schedule: _schedule, ...rest } = activation;
    return {
      ...rest,
      status: 'off',
      reason: `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} no longer connected for the org`,
    };
  });
}

/** Whether a cron expression (five to seven fields) and time zone are valid; the reason when not. */
export function cronProblem(expression: unknown, timezone: unknown): string | null {
  if (typeof expression !== 'string' || expression.trim() === '') return 'its schedule has no cron expression';
  if (timezone !== undefined && typeof timezone !== 'string') return 'its schedule has an invalid time zone';
  try {
    const cron = new Cron(expression, { paused: true, ...(timezone ? { timezone } : {}) });
    if (cron.nextRun() === null) return `its cron expression "${expression}" never fires`;
  } catch (error) {
    return `its cron expression "${expression}"${timezone ? ` (${timezone})` : ''} is invalid: ${(error as Error).message}`.slice(
      0,
      400,
    );
  }
  return null;
}

/** Per workflow: on, or off with the reason; a cron workflow carries its schedule. Pure. */
export function decideWorkflows(spec: EmployeeGraphSpec, org: OrgView): WorkflowActivation[] {
  const triggers = new Set(org.triggers.map((t) => t.id));
  return spec.workflows.map((workflow) => {
    const { triggerId, params } = workflow.trigger;
    const base = { workflowId: workflow.id, triggerId };
    const off = (reason: string): WorkflowActivation => ({ ...base, status: 'off', reason: reason.slice(0, 500) });
    if (workflow.status === 'unsatisfied') {
      return off(`a blocking gap was left unsatisfied${workflow.unsatisfiedReason ? `: ${workflow.unsatisfiedReason}` : ''}`);
    }
    const missing = missingProviders(workflow, org.providers);
    if (missing.length > 0) return off(`waiting for ${missing.join(', ')} to be connected for the org`);
    if (!triggers.has(triggerId)) return off(`the trigger ${triggerId} is not in the catalog`);
    if (triggerId !== SCHEDULE_TRIGGER) return { ...base, status: 'on' };
    const problem = cronProblem(params.expression, params.timezone);
    if (problem) return off(problem);
    const timezone = typeof params.timezone === 'string' && params.timezone !== '' ? params.timezone : undefined;
    return { ...base, status: 'on', schedule: { cron: params.expression as string, ...(timezone ? { timezone } : {}) } };
  });
}

/**
 * The employee, when the caller may switch it: same org (else 404) and its owner or an admin (else 403).
 */
export function manageableEmployee(employee: Employee | null, principal: Principal, employeeId: string): Employee {
  if (!employee || employee.orgId !== principal.orgId) {
    throw new HireloopError('NOT_FOUND', `employee ${employeeId} not found`, { field: '/id' });
  }
  if (employee.ownerUserId !== principal.userId && principal.role !== 'admin') {
    throw new HireloopError('FORBIDDEN', `only the employee's owner or an org admin may switch employee ${employeeId}`);
  }
  return employee;
}

/** The activation fact. Pure. */
export function decideActivate(
  employee: Employee,
  org: OrgView,
  principal: Principal,
  { ids, clock }: Minting,
): EmployeeActivated {
  return makeFact(
    'EmployeeActivated',
    { orgId: employee.orgId, correlation: { userId: principal.userId } },
    {
      employeeId: employee.employeeId,
      version: employee.version,
      activationId: ids.newId(),
      workflows: decideWorkflows(employee.spec, org),
    },
    { ids, clock },
  );
}

/** The hooks of an activation: every webhook-started workflow that is on, with its URL and secret. Pure. */
export function hooksOf(activation: EmployeeActivated, key: string, baseUrl: string): ActivationView['hooks'] {
  return activation.workflows
    .filter((w) => w.status === 'on' && w.triggerId !== SCHEDULE_TRIGGER)
    .map((w) => ({
      workflowId: w.workflowId,
      url: `${baseUrl}/v1/hooks/${encodeURIComponent(activation.employeeId)}/${encodeURIComponent(w.workflowId)}`,
      secret: hookSecret(key, {
        activationId: activation.activationId,
        employeeId: activation.employeeId,
        workflowId: w.workflowId,
      }),
    }));
}

export interface ActivationDeps extends CommandDeps {
  connectHub: ConnectHub;
  hookSecretKey: string;
}

export async function activate(
  deps: ActivationDeps,
  principal: Principal,
  employeeId: string,
  baseUrl: string,
  trace: PublishOptions = {},
): Promise<ActivationView> {
  return oneSwitchAtATime(deps, employeeId, async () => {
    const employee = manageableEmployee(await findEmployee(deps.pool, principal.orgId, employeeId), principal, employeeId);
    // read afresh: "connect the provider, activate again, and it is on" (README)
    const org = await deps.connectHub.orgView(employee.orgId, { fresh: true });
    const fact = decideActivate(employee, org, principal, deps);
    await deps.publisher.publish(fact, trace);
    await recorded(deps, fact);
    return {
      employeeId: fact.employeeId,
      version: fact.version,
      status: 'active' as const,
      hooks: hooksOf(fact, deps.hookSecretKey, baseUrl),
      workflows: fact.workflows,
    };
  });
}

/**
 * One switch of an employee at a time, across every gateway (a Postgres advisory lock): two activations sent at
 * once (a double-click) answer one after the other, so the answer that comes last holds the secret that works —
 * not one an activation already replaced. The lock goes with its connection if the gateway dies.
 */
async function oneSwitchAtATime<T>(deps: CommandDeps, employeeId: string, fn: () => Promise<T>): Promise<T> {
  const key = `employee-switch/${employeeId}`;
  const client = await deps.pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock(hashtextextended($1, 7))', [key]);
  } catch (error) {
    client.release(error as Error);
    throw error;
  }
  let broken: Error | undefined;
  try {
    return await fn();
  } finally {
    // a lock that could not be given back goes with its connection, not back to the pool held
    await client.query('SELECT pg_advisory_unlock(hashtextextended($1, 7))', [key]).catch((error: Error) => {
      broken = error;
    });
    client.release(broken);
  }
}

export async function deactivate(
  deps: CommandDeps,
  principal: Principal,
  employeeId: string,
  trace: PublishOptions = {},
): Promise<ActivationView> {
  const view = await oneSwitchAtATime(deps, employeeId, async () => {
    const employee = manageableEmployee(await findEmployee(deps.pool, principal.orgId, employeeId), principal, employeeId);
    const fact: EmployeeDeactivated = makeFact(
      'EmployeeDeactivated',
      { orgId: employee.orgId, correlation: { userId: principal.userId } },
      { employeeId: employee.employeeId, version: employee.version },
      deps,
    );
    await deps.publisher.publish(fact, trace);
    await recorded(deps, fact);
    return { employeeId: fact.employeeId, version: fact.version, status: 'inactive' as const, hooks: [] };
  });
  await cancelOpenRuns(deps, principal, employeeId, trace);
  return view;
}

/**
 * An employee switched off stops acting: each of its runs not yet ended — waiting for an approval or an answer,
 * deferred by quiet hours, running — is cancelled by the one who switched it off, as if they had pressed cancel
 * on it. A run that ends meanwhile is left as it ended.
 */
async function cancelOpenRuns(deps: CommandDeps, principal: Principal, employeeId: string, trace: PublishOptions): Promise<void> {
  // every page of its runs, newest first
  for (let after: string | undefined, pages = 0; pages < 100; pages++) {
    const runs = await callerExecutions(deps.pool, principal, { employeeId, ...(after ? { after } : {}) });
    for (const run of runs) {
      if (TERMINAL_STATUSES.has(run.status)) continue;
      try {
        await cancel(deps, principal, { executionId: run.executionId, source: 'http' }, trace);
      } catch (error) {
        if (!(isHireloopError(error) && (error.code === 'CONFLICT' || error.code === 'NOT_FOUND'))) throw error;
      }
    }
    if (runs.length < ApiLimits.list) break;
    after = runs.at(-1)?.executionId;
  }
}

/**
 * Read-your-write: the answer waits until the event store has folded the switch, so that the hook URL
 * it shows takes a delivery at once (and an old secret, or a switched-off employee, is refused at once)
 * on any gateway. An event store slower than the deadline gets the answer from the fact (it is on the
 * topic; the projection follows).
 */
async function recorded(deps: CommandDeps, fact: EmployeeActivated | EmployeeDeactivated): Promise<void> {
  if (await untilRecorded(deps.pool, fact.id, deps.recordTimeoutMs)) return;
  deps.log?.warn({ factId: fact.id, employeeId: fact.employeeId }, `${fact.type} answered before the event store recorded it`);
}
