import { randomUUID } from 'node:crypto';
import { createPool } from '@hireloop/platform';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { postgresVersions } from '../src/runtime/specs';

/** The version an assembled spec says: the one the employees projection will give it (real Postgres). */
describe('postgresVersions (real Postgres)', () => {
  const pool = createPool(inject('databaseUrl'), 2);
  afterAll(() => pool.end());
  const versions = postgresVersions(pool);

  const registered = (orgId: string, name: string, version: number) =>
    pool.query(
      `INSERT INTO employees (employee_id, org_id, name, version, spec, execution_id, registered_at)
       VALUES ($1, $2, $3, $4, '{}'::jsonb, $5, now())`,
      [randomUUID(), orgId, name, version, randomUUID()],
    );

  it('given no employee of the name in the org, then 1', async () => {
    expect(await versions.nextVersion(`org-${randomUUID()}`, 'Support Agent')).toBe(1);
  });

  it('given versions 1 and 2 of the name, then 3; another name or another org still starts at 1', async () => {
    const orgId = `org-${randomUUID()}`;
    await registered(orgId, 'Support Agent', 1);
    await registered(orgId, 'Support Agent', 2);
    expect(await versions.nextVersion(orgId, 'Support Agent')).toBe(3);
    expect(await versions.nextVersion(orgId, 'Refunds Specialist')).toBe(1);
    expect(await versions.nextVersion(`org-${randomUUID()}`, 'Support Agent')).toBe(1);
  });
});
