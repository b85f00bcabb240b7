import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HireloopError } from '@hireloop/platform';
import { ActivationView, ApiLimits, EmployeeList, EmployeeParams, EmployeeView, NoQuery } from '@hireloop/schemas';
import type { FastifyRequest } from 'fastify';
import { principalOf } from '../auth';
import { type ActivationDeps, activate, asConnectedNow, deactivate } from '../commands/activate';
import { noBodyFields } from '../errors';
import { findEmployee, orgEmployees } from '../read-model';
import { traceOf } from '../trace';
import { employeeView } from '../views';
import { COMMON_ERRORS, errorResponses } from './responses';

/** Where hooks are reached: `GATEWAY_PUBLIC_URL` when set, else the address this request came to. */
export const publicBaseUrl = (request: FastifyRequest, configured: string | undefined): string =>
  (configured ?? `${request.protocol}://${request.host}`).replace(/\/+$/, '');

export const employeeRoutes: FastifyPluginAsyncTypebox<{ commands: ActivationDeps; publicUrl?: string }> = async (
  app,
  { commands, publicUrl },
) => {
  const { pool } = commands;

  /**
   * An active employee's workflows with the org's connections of now (a workflow whose provider was disconnected
   * since activation is off, as its webhook answers); as last decided when the Connect Hub cannot say.
   */
  async function connectedNow(orgId: string, employees: EmployeeView[]): Promise<EmployeeView[]> {
    if (!employees.some((e) => e.status === 'active' && e.workflows?.some((w) => w.status === 'on'))) return employees;
    const org = await commands.connectHub.orgView(orgId).catch((error: unknown) => {
      app.log.warn({ err: error, orgId }, "the Connect Hub could not be read: employees' workflows as last activated");
      return null;
    });
    if (!org) return employees;
    return employees.map((e) =>
      e.status === 'active' && e.workflows
        ? { ...e, workflows: asConnectedNow(e.workflows, e.spec?.workflows, org.providers) }
        : e,
    );
  }

  app.get(
    '/v1/employees',
    {
      schema: {
        querystring: NoQuery,
        summary: "The org's registered employees (latest versions first, without their specs)",
        tags: ['employees'],
        response: { 200: EmployeeList, ...errorResponses(...COMMON_ERRORS) },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const employees = await orgEmployees(pool, orgId);
      return { employees: await connectedNow(orgId, employees.slice(0, ApiLimits.list).map(employeeView)) };
    },
  );

  app.get(
    '/v1/employees/:id',
    {
      schema: {
        querystring: NoQuery,
        summary: 'A registered employee with its spec, its status and (once activated) its workflows on or off',
        tags: ['employees'],
        params: EmployeeParams,
        response: { 200: EmployeeView, ...errorResponses(...COMMON_ERRORS, 404) },
      },
    },
    async (request) => {
      const { orgId } = principalOf(request);
      const employee = await findEmployee(pool, orgId, request.params.id);
      if (!employee) throw new HireloopError('NOT_FOUND', `employee ${request.params.id} not found`, { field: '/id' });
      const view = employeeView(employee);
      const [now = view] = await connectedNow(orgId, [view]);
      return now;
    },
  );

  app.post(
    '/v1/employees/:id/activate',
    {
      schema: {
        summary: 'Switch an employee on: its triggers fire runs',
        description:
          "The employee's owner or an org admin (else 403). Each workflow is on, or off with the reason (waiting for a provider to be connected, an unsatisfied gap, an invalid cron expression). Each webhook-started workflow that is on gets a URL and a secret, shown in this answer only; activating again rotates every secret.",
        tags: ['employees'],
        params: EmployeeParams,
        response: { 200: ActivationView, ...errorResponses(...COMMON_ERRORS, 403, 404, 422) },
      },
      preValidation: noBodyFields,
    },
    async (request) =>
      activate(commands, principalOf(request), request.params.id, publicBaseUrl(request, publicUrl), traceOf(request)),
  );

  app.post(
    '/v1/employees/:id/deactivate',
    {
      schema: {
        summary:
          'Switch an employee off: its webhooks answer 409 employee_inactive, its schedules stop, its runs not yet ended are cancelled',
        tags: ['employees'],
        params: EmployeeParams,
        response: { 200: ActivationView, ...errorResponses(...COMMON_ERRORS, 403, 404, 422) },
      },
      preValidation: noBodyFields,
    },
    async (request) => deactivate(commands, principalOf(request), request.params.id, traceOf(request)),
  );
};
