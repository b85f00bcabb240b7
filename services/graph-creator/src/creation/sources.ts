import type { Logger } from '@hireloop/platform';
import type { OfflineAnalyst } from '../analyst/offline';
import type { Catalog } from '../analyst/types';
import type { connectHubTools } from '../connect-hub/tools';
import { LlmAnalyst, type LlmConfig } from '../llm/analyst';
import type { CatalogSource, CreationAnalyst } from './ports';

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

/** The offline analyst behind the creation graph's port: findings are its ambiguities of a matched workflow. */
export function offlineCreationAnalyst(offline: OfflineAnalyst): CreationAnalyst {
  return {
    analyse: (jobDescription) => offline.analyse(jobDescription),
    matchCapabilities: (workflow, catalog) => offline.matchCapabilities(workflow, catalog),
    findings: async (workflow, match) => offline.ambiguities(workflow, match),
    closestCapabilities: async (text, catalog, limit) => offline.closestCapabilities(text, catalog, limit),
  };
}

/** The configured analyst: a chat model when LLM_* is set (falling back to the offline one), else the offline one. */
export function creationAnalyst(offline: OfflineAnalyst, llm: LlmConfig | undefined, log: Logger): CreationAnalyst {
  const base = offlineCreationAnalyst(offline);
  return llm ? new LlmAnalyst(llm, base, log) : base;
}
