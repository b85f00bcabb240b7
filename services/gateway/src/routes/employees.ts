import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { HireloopError } from '@hireloop/platform';
import { ApiLimits, EmployeeList, EmployeeParams, EmployeeView } from '@hireloop/schemas';
import { principalOf } from '../auth';
import type { CommandDeps } from '../commands/deps';
import { findEmployee, orgEmployees } from '../read-model';
import { employeeView } from '../views';
import { COMMON_ERRORS, errorResponses } from './responses';

export const employeeRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  const { pool } = commands;

  app.get(
    '/v1/employees',
    {
      schema: {
        summary: "The org's registered employees (latest versions first, without their specs)",
        tags: ['employees'],
        response: { 200: EmployeeList, ...errorResponses(...COMMON_ERRORS) },
      },
    },
    async (request) => {
      const employees = await orgEmployees(pool, principalOf(request).orgId);
      return { employees: employees.slice(0, ApiLimits.list).map(employeeView) };
    },
  );

  app.get(
    '/v1/employees/:id',
    {
      schema: {
        summary: 'A registered employee with its spec',
        tags: ['employees'],
        params: EmployeeParams,
        response: { 200: EmployeeView, ...errorResponses(...COMMON_ERRORS, 404) },
      },
    },
    async (request) => {
      const employee = await findEmployee(pool, principalOf(request).orgId, request.params.id);
      if (!employee) throw new HireloopError('NOT_FOUND', `employee ${request.params.id} not found`, { field: '/id' });
      return employeeView(employee);
    },
  );
};
