/**
 * An org's rules for its employees' tool calls (ARCHITECTURE §12): `GET/PUT /v1/orgs/:orgId/policy`.
 * A PUT is a `PolicyChanged` fact; the event store folds it into the `org_policies` projection, which
 * GET answers from and the worker's tool registry reads before every call. Another org is 404 (a caller
 * learns nothing of other tenants); changing it needs a token with role `admin` (403).
 */
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { getOrgPolicy } from '@hireloop/event-store';
import { makeFact } from '@hireloop/fact-stream';
import { HireloopError, isHireloopError, type Principal } from '@hireloop/platform';
import {
  builtInCatalog,
  connectorCapabilities,
  NoQuery,
  OrgPolicy,
  OrgPolicyParams,
  OrgPolicyView,
  type PolicyChanged,
} from '@hireloop/schemas';
import { principalOf } from '../auth';
import type { CommandDeps, Minting } from '../commands/deps';
import type { ConnectHub, HubCapability } from '../hooks/connect-hub';
import { RECORD_TIMEOUT_MS, untilRecorded } from '../read-model';
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

/** A catalog with the tools hireloop's connectors bring that it lacks; the catalog's own win. Pure. */
export function withConnectors(capabilities: readonly HubCapability[]): readonly HubCapability[] {
  const listed = new Set(capabilities.map((c) => c.id));
  const brought = connectorCapabilities.filter((c) => !listed.has(c.id));
  return brought.length === 0 ? capabilities : [...capabilities, ...brought];
}

/**
 * What in a policy could never apply, against the catalog's tools: a tool or provider id it does not have, a limit on
 * an argument the tool does not take or that is no number (limits are maxima), a rate of an unknown tool, quiet hours
 * that start when they end. The first one, with its field; null when every rule can apply. Pure.
 */
export function policyProblem(
  policy: OrgPolicy,
  capabilities: readonly HubCapability[],
): { field: string; message: string } | null {
  const byId = new Map(capabilities.map((c) => [c.id, c]));
  const providers = new Set(capabilities.map((c) => c.providerId));
  for (const list of ['allowedTools', 'deniedTools'] as const) {
    const i = (policy[list] ?? []).findIndex((id) => !byId.has(id) && !providers.has(id));
    if (i >= 0)
      return {
        field: `/${list}/${i}`,
        message: `${policy[list]?.[i]} is neither a tool nor a provider of the catalog (e.g. stripe.refund_payment or stripe)`,
      };
  }
  // a tool both allowed and denied: which one holds would be a guess
  const allowed = new Set(policy.allowedTools ?? []);
  // (a provider denied holds its tools: "stripe" denied and "stripe.refund_payment" allowed contradict; "stripe" allowed
  // but "stripe.refund_payment" denied is a refinement)
  const providerOf = (id: string): string => byId.get(id)?.providerId ?? id;
  const both = (policy.deniedTools ?? []).findIndex((id) => allowed.has(id) || [...allowed].some((a) => providerOf(a) === id));
  if (both >= 0)
    return {
      field: `/deniedTools/${both}`,
      message: `${policy.deniedTools?.[both]} is both allowed and denied: name it in one list`,
    };
  const limited = new Set<string>();
  for (const [i, limit] of (policy.argumentLimits ?? []).entries()) {
    // a second limit of the same argument: which one holds would be a guess
    const which = `${limit.capabilityId}/${limit.argument}`;
    if (limited.has(which))
      return {
        field: `/argumentLimits/${i}`,
        message: `${limit.capabilityId}'s ${limit.argument} is limited twice: give one limit an argument`,
      };
    limited.add(which);
    const capability = byId.get(limit.capabilityId);
    if (!capability)
      return { field: `/argumentLimits/${i}/capabilityId`, message: `${limit.capabilityId} is not a tool of the catalog` };
    const argument = capability.inputSchema.properties[limit.argument] as { type?: unknown } | undefined;
    if (!argument)
      return {
        field: `/argumentLimits/${i}/argument`,
        message: `${limit.capabilityId} takes no argument ${limit.argument}; it takes ${Object.keys(capability.inputSchema.properties).join(', ')}`,
      };
    const type = [argument.type].flat();
    if (!type.includes('number') && !type.includes('integer'))
      return {
        field: `/argumentLimits/${i}/argument`,
        message: `${limit.capabilityId}'s ${limit.argument} is no number: a limit is a maximum of a numeric argument`,
      };
    // a maximum under the least the argument may be refuses every call: that is denying the tool
    const least = (argument as { minimum?: unknown }).minimum;
    if (typeof least === 'number' && limit.max < least)
      return {
        field: `/argumentLimits/${i}/max`,
        message: `${limit.max} is under ${limit.capabilityId}'s least ${limit.argument} (${least}), so it would refuse every call: deny the tool instead`,
      };
  }
  const rate = (policy.rates ?? []).findIndex((r) => !byId.has(r.capabilityId));
  if (rate >= 0)
    return {
      field: `/rates/${rate}/capabilityId`,
      message: `${policy.rates?.[rate]?.capabilityId} is not a tool of the catalog`,
    };
  if (policy.quietHours && policy.quietHours.start === policy.quietHours.end)
    return { field: '/quietHours/end', message: 'quiet hours end when they start: give a window, such as 22:00 to 07:00' };
  return null;
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

/** The policy a fact sets, as the API shows it (what the projection holds once it has folded the fact). */
export const policyViewOf = (fact: PolicyChanged): OrgPolicyView => ({
  orgId: fact.orgId,
  policy: fact.policy,
  updatedAt: new Date(fact.ts).toISOString(),
});

export interface PolicyRouteOptions {
  commands: CommandDeps;
  /** the catalog a policy's tools are checked against (the hub's, as the worker's registry sees it) */
  connectHub: ConnectHub;
  /** how long a PUT waits for the event store to record its fact before it answers from the fact alone */
  recordTimeoutMs?: number;
}

export const policyRoutes: FastifyPluginAsyncTypebox<PolicyRouteOptions> = async (
  app,
  { commands, connectHub, recordTimeoutMs = commands.recordTimeoutMs ?? RECORD_TIMEOUT_MS },
) => {
  const { pool, publisher } = commands;
  // the hub's catalog in the org's view; with the hub away, the built-in one it is seeded from (a policy is no less
  // checked for it, and an admin is not kept from changing it)
  // (and the tools hireloop's own connectors bring, which the catalog does not list: `webhook.send`)
  const catalogFor = async (orgId: string): Promise<readonly HubCapability[]> => withConnectors(await hubCatalogFor(orgId));
  const hubCatalogFor = async (orgId: string): Promise<readonly HubCapability[]> => {
    try {
      return await connectHub.capabilities(orgId);
    } catch (error) {
      if (!isHireloopError(error) || error.code !== 'UNAVAILABLE') throw error;
      commands.log?.warn({ err: error, orgId }, 'policy checked against the built-in catalog: the Connect Hub did not answer');
      return builtInCatalog.capabilities;
    }
  };
  const read = (orgId: string): Promise<OrgPolicyView> => getOrgPolicy(pool, orgId);

  /**
   * Read-your-write: the answer to a PUT is the projection once it holds the fact (the event store
   * records a fact and folds it in one transaction), so a GET after it — on any gateway — and the next
   * tool call of the org's workers see the new policy. An event store slower than `recordTimeoutMs`
   * gets the answer from the fact itself (it is on the topic; the projection follows).
   */
  const afterRecorded = async (fact: PolicyChanged): Promise<OrgPolicyView> => {
    if (await untilRecorded(pool, fact.id, recordTimeoutMs)) return read(fact.orgId);
    commands.log?.warn(
      { factId: fact.id, orgId: fact.orgId, recordTimeoutMs },
      'policy answered before the event store recorded it',
    );
    return policyViewOf(fact);
  };

  app.get(
    '/v1/orgs/:orgId/policy',
    {
      schema: {
        querystring: NoQuery,
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
      const problem = policyProblem(request.body, await catalogFor(orgId));
      if (problem) throw new HireloopError('VALIDATION_FAILED', `${problem.field}: ${problem.message}`, { field: problem.field });
      // the fact is the change (a broker away changes nothing); the event store makes it the policy
      const fact = decidePolicyChange(principal, orgId, request.body, commands);
      await publisher.publish(fact, traceOf(request));
      return afterRecorded(fact);
    },
  );
};
