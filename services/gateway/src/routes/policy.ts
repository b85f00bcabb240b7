/**
 * An org's rules for its employees' tool calls (ARCHITECTURE §12): `GET/PUT /v1/orgs/:orgId/policy`.
 * The worker's tool registry reads the same `org_policies` row before every call. Another org is
 * 404 (a caller learns nothing of other tenants); changing it needs a token with role `admin` (403).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { makeFact } from '@hireloop/fact-stream';
import { HireloopError, type Principal } from '@hireloop/platform';
import { OrgPolicy, OrgPolicyParams, OrgPolicyView, type PolicyChanged } from '@hireloop/schemas';
import { principalOf } from '../auth';
import type { CommandDeps, Minting } from '../commands/deps';
import { traceOf } from '../trace';
import { COMMON_ERRORS, errorResponses } from './responses';

/** The org a caller may read: its own; any other is NOT_FOUND. */
export function policyReader(principal: Principal, orgId: string): string {
  if (orgId !== principal.orgId)
    throw new HireloopError('NOT_FOUND', `no organisation ${JSON.stringify(orgId)}`, { field: '/orgId' });
  return orgId;
}

/** The org a caller may change: its own, with an admin token. */
export function policyWriter(principal: Principal, orgId: string): string {
  policyReader(principal, orgId);
  if (principal.role !== 'admin')
    throw new HireloopError('FORBIDDEN', "changing an organisation's policy needs a token with role 'admin'");
  return orgId;
}

/** Whether the runtime knows an IANA time zone (the worker reads quiet hours on its clock). */
export function knownTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** A policy set by an admin, as the fact the audit and replay keep. */
export function decidePolicyChange(principal: Principal, orgId: string, policy: OrgPolicy, minting: Minting): PolicyChanged {
  return makeFact(
    'PolicyChanged',
    { orgId, correlation: { userId: principal.userId } },
    { policy, changedBy: principal.userId },
    minting,
  );
}

export const policyRoutes: FastifyPluginAsyncTypebox<{ commands: CommandDeps }> = async (app, { commands }) => {
  const { pool, publisher } = commands;
  const read = async (orgId: string): Promise<OrgPolicyView> => {
    const { rows } = await pool.query<{ policy: OrgPolicy; updated_at: Date }>(
      'SELECT policy, updated_at FROM org_policies WHERE org_id = $1',
      [orgId],
    );
    const row = rows[0];
    return row ? { orgId, policy: row.policy, updatedAt: row.updated_at.toISOString() } : { orgId, policy: {}, updatedAt: null };
  };

  app.get(
    '/v1/orgs/:orgId/policy',
    {
      schema: {
        summary: "The org's policy for its employees' tool calls (no rules: `{}`)",
        tags: ['policy'],
        params: OrgPolicyParams,
        response: { 200: OrgPolicyView, ...errorResponses(...COMMON_ERRORS, 404) },
      },
    },
    async (request) => read(policyReader(principalOf(request), request.params.orgId)),
  );

  app.put(
    '/v1/orgs/:orgId/policy',
    {
      schema: {
        summary: "Replaces the org's policy (admins only): allowed tools, argument limits, quiet hours, rates, budgets",
        tags: ['policy'],
        params: OrgPolicyParams,
        body: OrgPolicy,
        response: { 200: OrgPolicyView, ...errorResponses(...COMMON_ERRORS, 403, 404, 422) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const orgId = policyWriter(principal, request.params.orgId);
      const zone = request.body.quietHours?.timeZone;
      if (zone && !knownTimeZone(zone))
        throw new HireloopError(
          'VALIDATION_FAILED',
          `unknown time zone ${JSON.stringify(zone)}: expected an IANA name such as Europe/Paris`,
          {
            field: '/quietHours/timeZone',
          },
        );
      // the fact first (the audit and replay keep it; a broker away changes nothing), then the row the
      // worker reads before every call, stamped with the fact's time
      const fact = decidePolicyChange(principal, orgId, request.body, commands);
      await publisher.publish(fact, traceOf(request));
      await pool.query(
        `INSERT INTO org_policies (org_id, policy, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (org_id) DO UPDATE SET policy = EXCLUDED.policy, updated_at = EXCLUDED.updated_at
         WHERE org_policies.updated_at <= EXCLUDED.updated_at`,
        [orgId, JSON.stringify(request.body), fact.ts],
      );
      return read(orgId);
    },
  );
};
