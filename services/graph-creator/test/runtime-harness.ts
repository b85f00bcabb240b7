import { randomUUID } from 'node:crypto';
import { makeFact } from '@hireloop/fact-stream';
import type { Pool } from '@hireloop/platform';
import type { EmployeeGraphSpec, RunIntent } from '@hireloop/schemas';

/** Registers a spec as the event store would, with the user who created it. */
export async function registerEmployee(pool: Pool, spec: EmployeeGraphSpec, owner = 'u-owner'): Promise<void> {
  const creation = randomUUID();
  await pool.query(
    `INSERT INTO executions (execution_id, org_id, owner_user_id, status, created_at, updated_at, last_seq)
     VALUES ($1, $2, $3, 'completed', now(), now(), 0)`,
    [creation, spec.orgId, owner],
  );
  await pool.query(
    `INSERT INTO employees (employee_id, org_id, name, version, spec, execution_id, registered_at)
     VALUES ($1, $2, $3, $4, $5, $6, now())`,
    [spec.employeeId, spec.orgId, `${spec.name} ${spec.employeeId}`, spec.version, JSON.stringify(spec), creation],
  );
}

/** The RunIntent the supervisor sends when a workflow of an employee fires. */
export const runIntent = (
  executionId: string,
  employeeId: string,
  workflowId: string,
  event: Record<string, unknown>,
): RunIntent =>
  makeFact(
    'RunIntent',
    { orgId: 'acme', correlation: { executionId, triggerId: `t-${executionId}` } },
    {
      executionId,
      employeeId,
      action: 'start',
      trigger: {
        triggerId: `t-${executionId}`,
        triggerType: 'employee_trigger',
        payload: { employeeId, version: 1, workflowId, event },
      },
    },
  );
