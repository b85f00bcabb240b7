import { builtInCatalog } from '@hireloop/schemas';
import { describe, expect, it, vi } from 'vitest';
import { closestCapabilities, connectedCapabilities, triggersButSchedule } from '../src/match';
import type { Catalog } from '../src/types';
import { rankByVocabulary } from '../src/vocabulary';

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

// The vocabulary index is kept per item list: the lists the matcher ranks must be the same array each
// time for the same catalog, or the index is built again on every call.
describe('the catalog lists the matcher ranks', () => {
  it('given one trigger list, when asked twice, then the same array, without the schedule', () => {
    const first = triggersButSchedule(builtInCatalog.triggers);
    expect(triggersButSchedule(builtInCatalog.triggers)).toBe(first);
    expect(first.map((t) => t.id)).toEqual(builtInCatalog.triggers.filter((t) => t.id !== 'schedule.cron').map((t) => t.id));
    expect(first.some((t) => t.id === 'schedule.cron')).toBe(false);
  });

  it('given the same capabilities and an equal connected set in another order, then the same array', () => {
    const caps = builtInCatalog.capabilities;
    const a = connectedCapabilities(caps, new Set(['slack', 'zendesk']));
    expect(connectedCapabilities(caps, new Set(['zendesk', 'slack']))).toBe(a);
    expect(new Set(a.map((c) => c.providerId))).toEqual(new Set(['slack', 'zendesk']));
  });

  it('given another connected set or another catalog, then its own list', () => {
    const caps = builtInCatalog.capabilities;
    const slack = connectedCapabilities(caps, new Set(['slack']));
    const stripe = connectedCapabilities(caps, new Set(['stripe']));
    expect(stripe).not.toBe(slack);
    expect(stripe.every((c) => c.providerId === 'stripe')).toBe(true);
    const copy = [...caps];
    expect(connectedCapabilities(copy, new Set(['slack']))).not.toBe(slack);
    expect(connectedCapabilities(copy, new Set(['slack']))).toEqual(slack);
  });

  it('given more connected sets than are kept, then the least recently used leaves and each list is still right', () => {
    const caps = [...builtInCatalog.capabilities];
    const providers = [...new Set(caps.map((c) => c.providerId))];
    // 70 distinct sets: every provider with one of the others, and then some pairs
    const sets = providers.flatMap((a, i) => providers.slice(i + 1).map((b) => new Set([a, b]))).slice(0, 70);
    expect(sets.length).toBe(70);
    const first = connectedCapabilities(caps, sets[0] as Set<string>);
    const second = connectedCapabilities(caps, sets[1] as Set<string>);
    for (const connected of sets.slice(2, 64)) connectedCapabilities(caps, connected);
    // the first is used again: the second is now the least recently used, and the next new set pushes it out
    expect(connectedCapabilities(caps, sets[0] as Set<string>)).toBe(first);
    connectedCapabilities(caps, sets[64] as Set<string>);
    expect(connectedCapabilities(caps, sets[0] as Set<string>)).toBe(first);
    const again = connectedCapabilities(caps, sets[1] as Set<string>);
    expect(again).not.toBe(second);
    expect(again).toEqual(second);
    for (const connected of sets) {
      expect(connectedCapabilities(caps, connected)).toEqual(caps.filter((c) => connected.has(c.providerId)));
    }
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

  it('given one catalog, when the closest capabilities are asked again and again, then its index is built once', () => {
    const catalog: Catalog = { ...builtInCatalog, capabilities: [...builtInCatalog.capabilities], connected: ['slack', 'gmail'] };
    const before = built.indexes;
    for (let i = 0; i < 5; i++) closestCapabilities(`tell the team about request ${i}`, catalog);
    expect(built.indexes - before).toBe(1);
  });
});
