import type { Catalog } from '@hireloop/analyst';
import type { connectHubTools } from '../connect-hub/tools';
import type { CatalogSource } from './ports';

type Tools = ReturnType<typeof connectHubTools>;

const strip = <T extends { connected?: boolean }>({ connected: _connected, ...rest }: T) => rest;

/** The org's catalog through the two LangGraph tools over the Connect Hub (ARCHITECTURE §8). */
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
        capabilities: capabilities.capabilities.map(strip),
        triggers: triggers.triggers.map(strip),
      };
    },
  };
}
