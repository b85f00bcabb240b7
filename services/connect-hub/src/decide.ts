/** The hub's decisions, pure: who may see which org, what an org's view of the catalog is, and its ETag. */
import { HireloopError, type Principal } from '@hireloop/platform';
import type { CapabilityView, CatalogCapability, CatalogTrigger, TriggerView } from '@hireloop/schemas';

/**
 * The org a request reads: the one it names, or the token's own. Another org is NOT_FOUND, never
 * FORBIDDEN: a caller learns nothing about other tenants, not even that they exist.
 */
export function readableOrg(principal: Principal, requested: string | undefined): string {
  const orgId = requested ?? principal.orgId;
  if (orgId !== principal.orgId) throw new HireloopError('NOT_FOUND', `no organisation ${JSON.stringify(orgId)}`);
  return orgId;
}

/** Changing an org's connections: its own org (404 otherwise, as for reads), and an admin token (403). */
export function writableOrg(principal: Principal, orgId: string): string {
  readableOrg(principal, orgId);
  if (principal.role !== 'admin') {
    throw new HireloopError('FORBIDDEN', "changing an organisation's connections needs a token with role 'admin'");
  }
  return orgId;
}

/** The requested set, deduplicated and sorted, or the ids the catalog does not know (422, naming them). */
export function connectionSet(requested: readonly string[], known: ReadonlySet<string>): string[] {
  const unknown = [...new Set(requested.filter((id) => !known.has(id)))];
  if (unknown.length > 0) {
    const index = requested.indexOf(unknown[0]!);
    throw new HireloopError(
      'VALIDATION_FAILED',
      `unknown provider ${unknown.length === 1 ? 'id' : 'ids'} ${unknown.map((id) => JSON.stringify(id)).join(', ')}: ` +
        `expected ids from the catalog, e.g. ${[...known].sort().slice(0, 5).join(', ')}`,
      { field: `/providers/${index}`, unknown },
    );
  }
  return [...new Set(requested)].sort();
}

export const capabilityViews = (capabilities: readonly CatalogCapability[], connected: ReadonlySet<string>): CapabilityView[] =>
  capabilities.map((c) => ({ ...c, connected: connected.has(c.providerId) }));

export const triggerViews = (triggers: readonly CatalogTrigger[], connected: ReadonlySet<string>): TriggerView[] =>
  triggers.map((t) => ({ ...t, connected: connected.has(t.providerId) }));

/** A strong ETag of an org's view: it changes whenever the catalog or the org's connections change. */
export const viewEtag = (catalogVersion: number, orgVersion: number): string => `"c${catalogVersion}.o${orgVersion}"`;

/** Whether an `If-None-Match` header matches the current ETag (a list, weak tags or `*`, RFC 9110 §13.1.2). */
export function notModified(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const strip = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => tag.trim() === '*' || strip(tag) === strip(etag));
}
