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

const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
};

/**
 * The org's catalog read at most once per `ttlMs` (and once for callers asking at the same time): one
 * creation asks for it in every node that needs it — about eight times per run, each two HTTP
 * revalidations at the hub — and the runtime's rails already read the hub's view at most every 5 s
 * (docs/decisions.md, 2026-11-24). The catalog is shared by every node that reads it, so it is frozen.
 */
export function freshCatalogSource(source: CatalogSource, ttlMs = 5_000, now: () => number = Date.now): CatalogSource {
  const held = new Map<string, { at: number; catalog: Promise<Catalog> }>();
  return {
    forOrg(orgId) {
      const cached = held.get(orgId);
      if (cached && now() - cached.at < ttlMs) return cached.catalog;
      const catalog = source.forOrg(orgId).then(deepFreeze);
      const entry = { at: now(), catalog };
      held.delete(orgId);
      held.set(orgId, entry);
      if (held.size > 1_000) held.delete(held.keys().next().value as string);
      // a failed read is not kept: the next caller asks again
      catalog.catch(() => {
        if (held.get(orgId) === entry) held.delete(orgId);
      });
      return catalog;
    },
  };
}
