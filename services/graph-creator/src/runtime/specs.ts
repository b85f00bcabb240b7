import type { Pool } from '@hireloop/platform';
import type { EmployeeGraphSpec } from '@hireloop/schemas';
import type { EmployeeVersions } from '../creation/ports';

/** Registered employees, read from the event store's `employees` projection (ARCHITECTURE §6). */
export interface EmployeeSpecs {
  /** The employee's spec, only within its org. */
  load(employeeId: string, orgId: string): Promise<EmployeeGraphSpec | undefined>;
  /** Who created the employee: its run prompts are theirs (and an org admin's). */
  owner(employeeId: string, orgId: string): Promise<string | undefined>;
}

export function postgresSpecs(pool: Pool): EmployeeSpecs {
  return {
    load: async (employeeId, orgId) => {
      const { rows } = await pool.query<{ spec: EmployeeGraphSpec }>(
        'SELECT spec FROM employees WHERE employee_id = $1 AND org_id = $2',
        [employeeId, orgId],
      );
      return rows[0]?.spec;
    },
    owner: async (employeeId, orgId) => {
      const { rows } = await pool.query<{ owner_user_id: string | null }>(
        `SELECT x.owner_user_id FROM employees e JOIN executions x ON x.execution_id = e.execution_id
         WHERE e.employee_id = $1 AND e.org_id = $2`,
        [employeeId, orgId],
      );
      return rows[0]?.owner_user_id ?? undefined;
    },
  };
}

/**
 * The version the event store's `employees` projection will give an org's next employee of a name (it
 * numbers them per org and name, ARCHITECTURE §6): the assembled spec says it too, so the creation's
 * result and the registry agree. Two creations of one name finishing at once may both read the same
 * number; the registry then gives the later one the next, and stays the reference.
 */
export function postgresVersions(pool: Pool): EmployeeVersions {
  return {
    nextVersion: async (orgId, name) => {
      const { rows } = await pool.query<{ next: number }>(
        'SELECT coalesce(max(version), 0) + 1 AS next FROM employees WHERE org_id = $1 AND name = $2',
        [orgId, name],
      );
      return Number(rows[0]?.next ?? 1);
    },
  };
}
