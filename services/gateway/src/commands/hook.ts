/**
 * What happens on `POST /v1/hooks/:employeeId/:workflowId` (ARCHITECTURE §11): a signed webhook
 * fires one workflow of an active employee. In order: an unknown employee or workflow, or a workflow started by
 * its schedule (it has no webhook), is 404 naming which; a
 * missing or bad `x-hireloop-signature` 401 (checked before anything else about the employee is told);
 * an inactive employee 409 `employee_inactive`, a workflow that is off 409 `conflict` with its reason;
 * a body that is not a JSON object or breaks the trigger's event schema 422 naming the field. Then
 * `TriggerCreated{triggerType:'employee_trigger', source:'webhook'}` is published and the answer names
 * the trigger and the execution the supervisor will run it as.
 */
import { makeFact, type PublishOptions } from '@hireloop/fact-stream';
import { type Clock, derivedId, executionIdOf, HireloopError } from '@hireloop/platform';
import { Limits, type TriggerCreated, unstorableText, type Workflow } from '@hireloop/schemas';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { validationFailed } from '../errors';
import type { ConnectHub } from '../hooks/connect-hub';
import { hookSecret, signatureMatches } from '../hooks/secret';
import type { Employee } from '../read-model';
import { findEmployeeById } from '../read-model';
import { missingProviders, SCHEDULE_TRIGGER } from './activate';
import type { CommandDeps } from './deps';
import { claimRequestKey, releaseRequestKey } from './request-keys';

export interface HookDelivery {
  employeeId: string;
  workflowId: string;
  body: Buffer;
  signature: string | undefined;
  deliveryId: string | undefined;
}

/**
 * The trigger a delivery becomes. With a delivery id the trigger id derives from the employee, the
 * workflow and that id, so the same delivery twice is the same trigger, the same execution, one run;
 * without one every delivery is new (`fresh`). The fact id derives from the trigger id, so a repeat is
 * the same fact and the event store keeps one.
 */
export function hookTriggerId(
  employeeId: string,
  workflowId: string,
  deliveryId: string | undefined,
  fresh: () => string,
): string {
  return deliveryId === undefined ? fresh() : derivedId(`${employeeId}/${workflowId}/${deliveryId}`, 'hook');
}

const ajv = new Ajv({ allErrors: false, strict: false });
addFormats(ajv);
const compiled = new WeakMap<object, ValidateFunction>();
const eventValidator = (schema: Record<string, unknown>): ValidateFunction => {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
};

const fieldOf = (error: ErrorObject): string => {
  const missing = error.keyword === 'required' ? (error.params as { missingProperty?: string }).missingProperty : undefined;
  const extra =
    error.keyword === 'additionalProperties' ? (error.params as { additionalProperty?: string }).additionalProperty : undefined;
  const leaf = missing ?? extra;
  return `${error.instancePath}${leaf ? `/${leaf}` : ''}` || '/';
};

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });
const MAX_EVENT_PROPERTIES = 100;

/** The body as a JSON object, valid against the trigger's event schema when the catalog has one; else 422 naming the field. */
export function checkEvent(body: Buffer, eventSchema: Record<string, unknown> | undefined): Record<string, unknown> {
  let text: string;
  try {
    // JSON is UTF-8 (RFC 8259): bytes that are not are refused, not replaced and passed on to a tool
    text = STRICT_UTF8.decode(body);
  } catch {
    throw new HireloopError('BAD_REQUEST', 'the body is not UTF-8: JSON must be sent as UTF-8');
  }
  let event: unknown;
  try {
    event = JSON.parse(text);
  } catch (error) {
    throw new HireloopError('BAD_REQUEST', `the body is not JSON: ${(error as Error).message}`);
  }
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw validationFailed([{ path: '/', message: 'the trigger event must be a JSON object' }]);
  }
  // what a trigger event may hold (the fact's JsonObject): at most 100 properties, names of at most 200 characters
  const names = Object.keys(event);
  if (names.length > MAX_EVENT_PROPERTIES)
    throw validationFailed([
      { path: '/', message: `the trigger event may hold at most ${MAX_EVENT_PROPERTIES} properties, not ${names.length}` },
    ]);
  const long = names.find((n) => n.length > Limits.name);
  if (long !== undefined)
    throw validationFailed([
      { path: `/${long.slice(0, 40)}`, message: `a property name may be at most ${Limits.name} characters` },
    ]);
  const unstorable = unstorableText(event);
  if (unstorable) throw validationFailed([unstorable]);
  if (eventSchema) {
    const validate = eventValidator(eventSchema);
    if (!validate(event)) {
      const errors = (validate.errors ?? []).map((e) => ({ path: fieldOf(e), message: e.message ?? 'invalid' }));
      throw validationFailed(errors.length > 0 ? errors : [{ path: '/', message: 'invalid' }]);
    }
  }
  return event as Record<string, unknown>;
}

/** Who the delivery is for, and whether it may fire: everything but the body's schema. Pure. */
export function admitDelivery(employee: Employee | null, delivery: Omit<HookDelivery, 'deliveryId'>, key: string) {
  const unknown = (field: '/employeeId' | '/workflowId', why: string) =>
    new HireloopError('NOT_FOUND', `no webhook at /v1/hooks/${delivery.employeeId}/${delivery.workflowId}: ${why}`, { field });
  if (!employee) throw unknown('/employeeId', 'no such employee');
  const workflow = employee.spec.workflows.find((w) => w.id === delivery.workflowId);
  if (!workflow) throw unknown('/workflowId', 'the employee has no such workflow');
  // a workflow started by its schedule has no webhook (activation gives it no secret)
  if (workflow.trigger.triggerId === SCHEDULE_TRIGGER)
    throw unknown('/workflowId', 'the workflow runs on its schedule, not by a webhook');
  if (employee.activationId === null) {
    throw new HireloopError('EMPLOYEE_INACTIVE', `employee ${employee.employeeId} has never been activated`);
  }
  const secret = hookSecret(key, {
    activationId: employee.activationId,
    employeeId: employee.employeeId,
    workflowId: workflow.id,
  });
  if (!signatureMatches(secret, delivery.body, delivery.signature)) {
    throw new HireloopError(
      'UNAUTHORIZED',
      delivery.signature
        ? 'x-hireloop-signature does not match the body: sign the raw body with the workflow secret of the latest activation'
        : 'send x-hireloop-signature: sha256=<hex HMAC-SHA256 of the raw body with the workflow secret>',
    );
  }
  if (employee.status !== 'active') {
    throw new HireloopError('EMPLOYEE_INACTIVE', `employee ${employee.employeeId} is inactive: activate it first`);
  }
  const activation = employee.workflows.find((w) => w.workflowId === workflow.id);
  if (activation?.status !== 'on') {
    throw new HireloopError('CONFLICT', `workflow ${workflow.id} is off${activation?.reason ? `: ${activation.reason}` : ''}`, {
      field: '/workflowId',
    });
  }
  return { employee, workflow };
}

export function decideHookTrigger(
  employee: Employee,
  workflowId: string,
  event: Record<string, unknown>,
  triggerId: string,
  deliveryId: string | undefined,
  clock: Clock,
): TriggerCreated {
  return makeFact(
    'TriggerCreated',
    { orgId: employee.orgId, correlation: { triggerId } },
    {
      triggerId,
      triggerType: 'employee_trigger',
      payload: {
        employeeId: employee.employeeId,
        version: employee.version,
        workflowId,
        event,
        ...(deliveryId !== undefined ? { deliveryId } : {}),
      },
      source: 'webhook',
    },
    { ids: { newId: () => derivedId(triggerId, 'fact') }, clock },
  );
}

/**
 * A workflow that activation would now turn off — its trigger's provider, or one it waits for, disconnected since —
 * is off for now: a delivery is refused (409, as for a workflow off) before the run could act halfway (refund the
 * money, then fail to answer the Zendesk ticket it came from). The same test as activation's (`decideWorkflows`), on
 * the org's connections of now; connecting the provider again lets deliveries in (as soon as this gateway reads the hub's `ConnectionsChanged`, which
 * drops the org's view it kept). Pure.
 */
export function stillConnected(workflow: Workflow, providers: readonly string[]): void {
  const missing = missingProviders(workflow, providers);
  if (missing.length > 0)
    throw new HireloopError(
      'CONFLICT',
      `workflow ${workflow.id} is off: ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} no longer connected for the org`,
      { field: '/workflowId' },
    );
}

export interface HookDeps extends CommandDeps {
  connectHub: ConnectHub;
  hookSecretKey: string;
}

export async function acceptHook(
  deps: HookDeps,
  delivery: HookDelivery,
  trace: PublishOptions = {},
): Promise<{ triggerId: string; executionId: string }> {
  const { employee, workflow } = admitDelivery(
    await findEmployeeById(deps.pool, delivery.employeeId),
    delivery,
    deps.hookSecretKey,
  );
  const org = await deps.connectHub.orgView(employee.orgId);
  stillConnected(workflow, org.providers);
  const eventSchema = org.triggers.find((t) => t.id === workflow.trigger.triggerId)?.eventSchema;
  const event = checkEvent(delivery.body, eventSchema);
  // a delivery id names one event: sent again with another, it is refused (422), not dropped as a repeat
  const key =
    delivery.deliveryId === undefined
      ? undefined
      : { orgId: employee.orgId, scope: `hook:${employee.employeeId}/${workflow.id}`, key: delivery.deliveryId };
  const claimed = key ? await claimRequestKey(deps.pool, { ...key, request: event, field: 'x-hireloop-delivery' }) : undefined;
  const triggerId = hookTriggerId(employee.employeeId, workflow.id, delivery.deliveryId, () => deps.ids.newId());
  const fact = decideHookTrigger(employee, workflow.id, event, triggerId, delivery.deliveryId, deps.clock);
  try {
    await deps.publisher.publish(fact, trace);
  } catch (error) {
    // nothing was sent on: the id is given back, so that a retry of the sender's, whatever it carries, is taken
    if (key && claimed?.fresh) await releaseRequestKey(deps.pool, key).catch(() => undefined);
    throw error;
  }
  return { triggerId, executionId: executionIdOf(triggerId) };
}
