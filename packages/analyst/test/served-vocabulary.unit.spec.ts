import { builtInCatalog, type CatalogCapability, devOrgConnections } from '@hireloop/schemas';
import { describe, expect, it } from 'vitest';
import { OfflineAnalyst } from '../src/offline';
import { servedWords } from '../src/segment';
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

  it('given a capability with a verb the built-in lexicon lacks, when the segmenter reads the served catalog, then its clause is a step of its own', async () => {
    const kudos: CatalogCapability = {
      ...invented,
      id: 'kudosboard.give_kudos',
      providerId: 'kudosboard',
      name: 'give_kudos',
      description: 'Give someone a public shout-out.',
      vocabulary: { verbs: ['kudos'], objects: ['kudos', 'shout-out'], aliases: [] },
    };
    const catalog: Catalog = {
      capabilities: [...builtInCatalog.capabilities, kudos],
      triggers: builtInCatalog.triggers,
      connected: [...devOrgConnections, 'kudosboard'],
    };
    const analyst = new OfflineAnalyst();
    const text = 'When a deal closes in HubSpot, kudos the owner and email the customer.';
    // the built-in lexicon alone does not know "kudos" as a verb: the clause stays in the start's words
    const [builtIn] = (await analyst.analyse(text)).workflows;
    expect(builtIn?.steps.map((s) => s.text)).toEqual(['email the customer']);
    const [wf] = (await analyst.analyse(text, [], catalog)).workflows;
    if (!wf) throw new Error('no workflow');
    expect(wf.triggerHint.text).toBe('When a deal closes in HubSpot');
    expect(wf.steps.map((s) => s.text)).toEqual(['kudos the owner', 'email the customer']);
    const match = await analyst.matchCapabilities(wf, catalog);
    expect(match.steps.map((s) => s.capabilityId)).toEqual(['kudosboard.give_kudos', 'gmail.send_email']);
  });

  it('given a served catalog, then its verbs and event words are what the segmenter adds', () => {
    const words = servedWords({
      capabilities: [{ vocabulary: { verbs: ['kudos', 'shout out'] } }],
      triggers: [{ vocabulary: { verbs: ['dock'] } }],
    });
    expect([...words.verbs]).toEqual(['kudos', 'shout']);
    expect([...words.events]).toEqual(['dock']);
    expect(servedWords(undefined).verbs.size).toBe(0);
  });

  it('the built-in catalog carries every entry’s vocabulary, as the hub serves it', () => {
    expect(builtInCatalog.capabilities.every((c) => c.vocabulary !== undefined)).toBe(true);
    expect(builtInCatalog.triggers.filter((t) => t.vocabulary).length).toBeGreaterThan(20);
  });
});
