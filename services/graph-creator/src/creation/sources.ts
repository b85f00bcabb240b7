import type { Catalog } from '@hireloop/analyst';
import { CatalogChanges, freshPerOrg } from '../connect-hub/changes';
import { deepFreeze, sharedList, unmarked } from '../connect-hub/shared';
import type { connectHubTools } from '../connect-hub/tools';
import type { CatalogSource } from './ports';

type Tools = ReturnType<typeof connectHubTools>;

/**
 * The org's catalog through the two LangGraph tools over the Connect Hub (ARCHITECTURE §8). The lists
 * read are the ones every org with the same catalog shares (`sharedList`), so what the analyst derives
 * from a list is derived once, not once per org.
 */
export function toolCatalogSource(tools: Tools): CatalogSource {
  return {
    async forOrg(orgId) {
      const config = { configurable: { orgId } };
      const [caps, trigs] = await Promise.all([
        tools.getCapabilities.invoke({ orgId }, config),
        tools.getTriggers.invoke({ orgId }, config),
      ]);
      const capabilities = JSON.parse(String(caps)) as {
        connected: string[];
        capabilities: (Catalog['capabilities'][number] & { connected?: boolean })[];
      };
      const triggers = JSON.parse(String(trigs)) as { triggers: (Catalog['triggers'][number] & { connected?: boolean })[] };
      return {
        connected: capabilities.connected,
        // frozen, like every catalog a creation reads (freshCatalogSource)
        capabilities: sharedList(capabilities.capabilities.map(unmarked)) as Catalog['capabilities'],
        triggers: sharedList(triggers.triggers.map(unmarked)) as Catalog['triggers'],
      };
    },
  };
}

/**
 * The org's catalog read once while it is fresh (`freshPerOrg`: until the org's connections change, at
 * most its TTL; and once for callers asking at the same time): one creation asks for it in every node
 * that needs it — about eight times per run, each two HTTP revalidations at the hub — and creations of
 * one org follow each other (docs/decisions.md, 2026-11-24 and 2026-11-27). The catalog is shared by
 * every node that reads it, so it is frozen.
 */
export function freshCatalogSource(source: CatalogSource, changes = new CatalogChanges(60_000)): CatalogSource {
  return { forOrg: freshPerOrg(changes, (orgId) => source.forOrg(orgId).then(deepFreeze)) };
}
