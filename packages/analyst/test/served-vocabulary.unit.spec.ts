import { builtInCatalog, type CatalogCapability, devOrgConnections } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../src/offline';
import type { Catalog } from '../src/types';

// The vocabulary comes with the catalog the analyst receives (the Connect Hub serves it): a capability
// added to the catalog with its vocabulary is understood without touching the analyst.

const invented: CatalogCapability = {
  id: 'lunchbox.order_lunch',
  providerId: 'lunchbox',
  name: 'order_lunch',
  description: 'Place a catering order.',
  risk: 'low',
  inputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
  outputSchema: { type: 'object', properties: {}, required: [], additionalProperties: false },
  vocabulary: { verbs: ['order', 'cater'], objects: ['lunch', 'catering', 'sandwiches'], aliases: ['order food for the team'] },
};

describe('vocabulary served with the catalog', () => {
  it('given a capability the analyst has never seen, with its vocabulary, when a clause says it, then it is matched', async () => {
    const catalog: Catalog = {
      capabilities: [...builtInCatalog.capabilities, invented],
      triggers: builtInCatalog.triggers,
      connected: [...devOrgConnections, 'lunchbox'],
    };
    const analyst = new OfflineAnalyst();
    const [wf] = (await analyst.analyse('Every Friday at 11am, order sandwiches for the team.')).workflows;
    if (!wf) throw new Error('no workflow');
    const match = await analyst.matchCapabilities(wf, catalog);
    expect(match.steps.map((s) => s.capabilityId)).toEqual(['lunchbox.order_lunch']);
  });

  it('the built-in catalog carries every entry’s vocabulary, as the hub serves it', () => {
    expect(builtInCatalog.capabilities.every((c) => c.vocabulary !== undefined)).toBe(true);
    expect(builtInCatalog.triggers.filter((t) => t.vocabulary).length).toBeGreaterThan(20);
  });
});
