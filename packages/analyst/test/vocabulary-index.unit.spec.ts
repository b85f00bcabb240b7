import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it, vi } from 'vitest';
import { closestCapabilities, matchTrigger } from '../src/match';
import type { Catalog, DraftWorkflow } from '../src/types';
import { INDEXES_KEPT, rankByVocabulary } from '../src/vocabulary';

// how many vocabulary indexes were built: MiniSearch counted as it is constructed
const built = vi.hoisted(() => ({ indexes: 0 }));
vi.mock('minisearch', async (importOriginal) => {
  const MiniSearch = ((await importOriginal()) as { default: new (...args: never[]) => object }).default;
  class Counted extends MiniSearch {
    constructor(...args: never[]) {
      super(...args);
      built.indexes++;
    }
  }
  return { default: Counted };
});

/** indexes built while `run` runs */
const buildsOf = (run: () => void): number => {
  const before = built.indexes;
  run();
  return built.indexes - before;
};

// The vocabulary index of a list of catalog items is found again for the same items, however the list
// was made: callers filter the catalog afresh on every call (the connected capabilities, the triggers
// but the schedule), and must not pay for a new index each time.
describe('the vocabulary index of a list of catalog items', () => {
  it('given one catalog, when the closest capabilities are asked again and again, then its index is built once', () => {
    const catalog: Catalog = { ...builtInCatalog, capabilities: [...builtInCatalog.capabilities], connected: ['slack', 'gmail'] };
    expect(
      buildsOf(() => {
        for (let i = 0; i < 5; i++) closestCapabilities(`tell the team about request ${i}`, catalog);
      }),
    ).toBe(1);
  });

  it('given a trigger the hand table does not know, when matched again and again, then the triggers are indexed once', () => {
    const catalog: Catalog = { ...builtInCatalog, triggers: [...builtInCatalog.triggers], connected: ['slack', 'zendesk'] };
    const workflow: DraftWorkflow = {
      id: 'w',
      name: 'demo requests',
      description: 'Follow up on demo bookings',
      responsibility: 'When a customer books a demo on the website, follow up',
      triggerHint: { kind: 'event', text: 'a customer books a demo on the website' },
      steps: [],
    };
    let first: ReturnType<typeof matchTrigger> | undefined;
    // no trigger of the hand table: the first match reads the catalog's vocabulary, one index over the triggers
    expect(buildsOf(() => (first = matchTrigger(workflow, catalog)))).toBe(1);
    expect(
      buildsOf(() => {
        for (let i = 0; i < 5; i++) expect(matchTrigger(workflow, catalog)).toEqual(first);
      }),
    ).toBe(0);
  });

  it('given fresh copies of the same items, then one index; given an item changed, then a new one that ranks by it', () => {
    const caps = builtInCatalog.capabilities;
    const text = 'post the summary to the team chat';
    const once = rankByVocabulary(text, [...caps]);
    expect(buildsOf(() => expect(rankByVocabulary(text, [...caps])).toEqual(once))).toBe(0);
    // the same ids, but the top item now says something else entirely: its new vocabulary counts
    const top = caps.find((c) => c.id === once[0]?.id);
    expect(top).toBeDefined();
    const changed = caps.map((c) =>
      c === top ? { ...c, vocabulary: { verbs: ['archive'], objects: ['invoice'], aliases: ['file the invoice away'] } } : c,
    );
    expect(buildsOf(() => expect(rankByVocabulary(text, changed)[0]?.id).not.toBe(top?.id))).toBe(1);
    expect(rankByVocabulary('archive the invoice', changed)[0]?.id).toBe(top?.id);
  });

  it('given more lists than are kept, then the least recently used is built again and the others are not', () => {
    const caps = builtInCatalog.capabilities;
    const lists = Array.from({ length: INDEXES_KEPT + 1 }, (_, i) => caps.filter((_, j) => j !== i));
    const text = 'open a ticket for it';
    expect(
      buildsOf(() => {
        for (const list of lists.slice(0, INDEXES_KEPT)) rankByVocabulary(text, list);
      }),
    ).toBe(INDEXES_KEPT);
    // the first used again (now the most recent); the one past the limit pushes out the second
    expect(buildsOf(() => rankByVocabulary(text, lists[0] as typeof caps))).toBe(0);
    expect(buildsOf(() => rankByVocabulary(text, lists[INDEXES_KEPT] as typeof caps))).toBe(1);
    expect(buildsOf(() => rankByVocabulary(text, [...(lists[0] as typeof caps)]))).toBe(0);
    expect(buildsOf(() => rankByVocabulary(text, [...(lists[1] as typeof caps)]))).toBe(1);
  });

  it('given a catalog, when the closest capabilities are asked, then they are the ranking of the connected ones', () => {
    const catalog: Catalog = { ...builtInCatalog, connected: ['slack', 'zendesk', 'gmail'] };
    const text = 'let the customer know what happened with their request';
    const connected = new Set(catalog.connected);
    const expected = rankByVocabulary(
      text,
      catalog.capabilities.filter((c) => connected.has(c.providerId)),
      { connected, accept: (h) => h.verb || h.object || h.alias },
    ).map((h) => h.id);
    expect(closestCapabilities(text, catalog)).toEqual([...new Set(expected)].slice(0, 4));
    expect(closestCapabilities(text, catalog).length).toBeGreaterThan(0);
  });
});
