import type { Catalog } from '@hireloop/analyst';
import { CatalogChanges, type ReadMark } from '../connect-hub/changes';
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
 * The org's catalog read once while it is fresh (`CatalogChanges`: until the org's connections change,
 * at most its TTL; and once for callers asking at the same time): one creation asks for it in every node
 * that needs it — about eight times per run, each two HTTP revalidations at the hub — and creations of
 * one org follow each other (docs/decisions.md, 2026-11-24 and 2026-11-27). The catalog is shared by
 * every node that reads it, so it is frozen.
 * Once read, the catalog itself is kept, not the promise of the read: a promise carries the async
 * context of the run that made it (LangChain's run tree, the whole Pregel loop of that run), and a
 * promise held per org kept one finished run alive per org; and a stale org's catalog is dropped when
 * the next read comes, not kept until a thousand orgs pushed it out (docs/decisions.md, 2026-11-24).
 */
export function freshCatalogSource(source: CatalogSource, changes = new CatalogChanges(60_000)): CatalogSource {
  /** an org's catalog being read (`reading`), or read (`catalog`), from `mark` on */
  type Entry =
    | { mark: ReadMark; reading: Promise<Catalog>; catalog?: undefined }
    | { mark: ReadMark; catalog: Catalog; reading?: undefined };
  const held = new Map<string, Entry>();
  return {
    forOrg(orgId) {
      const cached = held.get(orgId);
      if (cached && changes.fresh(orgId, cached.mark)) return cached.reading ?? Promise.resolve(cached.catalog);
      const mark = changes.mark();
      const reading = source.forOrg(orgId).then(deepFreeze);
      const entry: Entry = { mark, reading };
      held.delete(orgId);
      // entries are in the order they were read: the stale ones at the front go (an org's catalog is
      // held for as long as it is fresh, not for as long as the worker runs), and never more than 1,000
      for (const [org, old] of held) {
        if (changes.fresh(org, old.mark) && held.size < 1_000) break;
        held.delete(org);
      }
      held.set(orgId, entry);
      reading.then(
        (catalog) => {
          if (held.get(orgId) === entry) held.set(orgId, { mark, catalog });
        },
        // a failed read is not kept: the next caller asks again
        () => {
          if (held.get(orgId) === entry) held.delete(orgId);
        },
      );
      return reading;
    },
  };
}
