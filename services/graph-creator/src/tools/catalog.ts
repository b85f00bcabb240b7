import type { CatalogCapability } from '@hireloop/schemas';
import { CatalogChanges, freshPerOrg } from '../connect-hub/changes';
import type { ConnectHubClient } from '../connect-hub/client';
import { sharedList, unmarked } from '../connect-hub/shared';

/** Where the tool registry finds a capability's schemas: the Connect Hub's catalog (§8a). */
export interface CapabilityCatalog {
  capabilities(orgId: string): Promise<ReadonlyMap<string, CatalogCapability>>;
}

const byId = (items: readonly CatalogCapability[]) => new Map(items.map((c) => [c.id, c]));

/** A fixed list (tests, and the built-in catalog when no hub is configured). */
export const staticCatalog = (capabilities: readonly CatalogCapability[]): CapabilityCatalog => {
  const map = byId(capabilities);
  return { capabilities: async () => map };
};

/**
 * The hub's view of an org, cached by the client and revalidated by ETag — read again only once the
 * org's connections changed or the view is older than the TTL (`CatalogChanges`), since every run asks
 * several times; the map is rebuilt only when the view changed.
 */
export function hubCatalog(hub: Pick<ConnectHubClient, 'capabilities'>, changes = new CatalogChanges(60_000)): CapabilityCatalog {
  const built = new WeakMap<object, Map<string, CatalogCapability>>();
  return {
    capabilities: freshPerOrg(changes, async (orgId) => {
      const items = await hub.capabilities(orgId);
      let map = built.get(items);
      if (!map) {
        map = byId(sharedList(items.map(unmarked)));
        built.set(items, map);
      }
      return map;
    }),
  };
}

/** A catalog with the capabilities connectors bring (e.g. `webhook.send`); the catalog's own win. */
export function withExtra(catalog: CapabilityCatalog, extra: readonly CatalogCapability[]): CapabilityCatalog {
  if (extra.length === 0) return catalog;
  const cache = new WeakMap<object, Map<string, CatalogCapability>>();
  return {
    capabilities: async (orgId) => {
      const base = await catalog.capabilities(orgId);
      let map = cache.get(base);
      if (!map) {
        map = new Map([...byId(extra), ...base]);
        cache.set(base, map);
      }
      return map;
    },
  };
}
