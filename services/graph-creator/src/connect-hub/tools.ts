/**
 * The capability-matching tools over the Connect Hub (ARCHITECTURE §8): `get_capabilities` and
 * `get_triggers`, each answering with the org's view of the catalog as JSON.
 */

import type { Catalog } from '@hireloop/analyst';
import { HireloopError } from '@hireloop/platform';
import { type ToolRunnableConfig, tool } from '@langchain/core/tools';
import { z } from 'zod';

/** What the tools need of the client: an org's catalog (ConnectHubClient has it). */
export interface CatalogSource {
  catalog(orgId: string): Promise<Catalog>;
}

const input = z.object({
  orgId: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[A-Za-z0-9._:@-]+$/)
    .describe('the organisation whose integrations to list'),
});

/**
 * A run's own org, when its config names one (`configurable.orgId`): a tool asked about another org
 * refuses, so that nothing a model writes can read another tenant's connections.
 */
function checkScope(orgId: string, config: ToolRunnableConfig | undefined): void {
  const scope: unknown = config?.configurable?.orgId;
  if (typeof scope === 'string' && scope !== orgId) {
    throw new HireloopError(
      'NOT_FOUND',
      `no organisation ${JSON.stringify(orgId)}: this run may only read ${JSON.stringify(scope)}`,
    );
  }
}

/** A tool answering with one list of the org's catalog view, each item marked `connected`. */
function catalogTool<K extends 'capabilities' | 'triggers'>(source: CatalogSource, list: K, name: string, description: string) {
  return tool(
    async ({ orgId }, config) => {
      checkScope(orgId, config);
      const catalog = await source.catalog(orgId);
      const connected = new Set(catalog.connected);
      const items = (catalog[list] as Catalog[K]).map((item) => ({ ...item, connected: connected.has(item.providerId) }));
      return JSON.stringify({ orgId, connected: catalog.connected, [list]: items });
    },
    { name, description, schema: input },
  );
}

export function connectHubTools(source: CatalogSource) {
  const getCapabilities = catalogTool(
    source,
    'capabilities',
    'get_capabilities',
    "Lists every action an employee can take through the organisation's integrations (id <provider>.<name>, description, " +
      'risk, JSON Schema of its inputs), each marked connected when the organisation has connected its provider.',
  );
  const getTriggers = catalogTool(
    source,
    'triggers',
    'get_triggers',
    'Lists every event or schedule that can start a workflow (id <provider>.<name>, description, JSON Schema of its ' +
      'parameters), each marked connected when the organisation has connected its provider.',
  );
  return { getCapabilities, getTriggers, all: [getCapabilities, getTriggers] as const };
}
