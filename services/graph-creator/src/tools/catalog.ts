import type { CatalogCapability } from '@hireloop/schemas';
import type { ConnectHubClient } from '../connect-hub/client';

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

/** The hub's view of an org, cached by the client and revalidated by ETag; the map is rebuilt only when it changed. */
export function hubCatalog(hub: Pick<ConnectHubClient, 'capabilities'>): CapabilityCatalog {
  const built = new WeakMap<object, Map<string, CatalogCapability>>();
  return {
    capabilities: async (orgId) => {
      const items = await hub.capabilities(orgId);
      let map = built.get(items);
      if (!map) {
        map = byId(items.map(({ connected: _connected, ...capability }) => capability));
        built.set(items, map);
      }
      return map;
    },
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
