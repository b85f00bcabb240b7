import type { Catalog } from '@hireloop/analyst';
import { describe, expect, it } from 'vitest';
import { freshCatalogSource } from '../src/creation/sources';

const catalog = (connected: string[]): Catalog => ({ capabilities: [], triggers: [], connected });

describe('the creation graph reads an org’s catalog at most once per freshness window', () => {
  it('given a read within the window, when nodes ask again, then the hub is not asked and they share one frozen catalog', async () => {
    let now = 0;
    let reads = 0;
    const source = freshCatalogSource(
      {
        forOrg: async () => {
          reads++;
          return catalog(['gmail']);
        },
      },
      5_000,
      () => now,
    );
    const [a, b] = await Promise.all([source.forOrg('acme'), source.forOrg('acme')]);
    now = 4_999;
    const c = await source.forOrg('acme');
    expect(reads).toBe(1);
    expect(b).toBe(a);
    expect(c).toBe(a);
    expect(Object.isFrozen(a.connected)).toBe(true);
  });

  it('when the window has passed, or for another org, then it reads again', async () => {
    let now = 0;
    const asked: string[] = [];
    const source = freshCatalogSource(
      {
        forOrg: async (org) => {
          asked.push(org);
          return catalog([]);
        },
      },
      5_000,
      () => now,
    );
    await source.forOrg('acme');
    await source.forOrg('globex');
    now = 5_000;
    await source.forOrg('acme');
    expect(asked).toEqual(['acme', 'globex', 'acme']);
  });

  it('when a read fails, then the next caller asks again instead of getting the failure', async () => {
    let fail = true;
    const source = freshCatalogSource(
      {
        forOrg: async () => {
          if (fail) throw new Error('hub away');
          return catalog(['slack']);
        },
      },
      5_000,
      () => 0,
    );
    await expect(source.forOrg('acme')).rejects.toThrow('hub away');
    fail = false;
    expect((await source.forOrg('acme')).connected).toEqual(['slack']);
  });
});

describe('the creation graph’s catalog cache holds only fresh catalogs', () => {
  // what the cache drops is not visible through the port; what is: a stale org is never served from its old entry
  it('given orgs read long ago, when another org is read and then a stale one asked, then the stale one is read again', async () => {
    let now = 0;
    const asked: string[] = [];
    const source = freshCatalogSource(
      {
        forOrg: async (org) => {
          asked.push(org);
          return catalog([org]);
        },
      },
      5_000,
      () => now,
    );
    const first = await source.forOrg('acme');
    await source.forOrg('globex');
    now = 6_000;
    await source.forOrg('initech');
    now = 6_001;
    // globex and acme were stale when initech was read: each is read afresh, not served from the old entry
    const again = await source.forOrg('acme');
    expect(again).not.toBe(first);
    expect(asked).toEqual(['acme', 'globex', 'initech', 'acme']);
  });

  it('given a read that has settled, when a node asks again, then it gets the catalog read, not the first caller’s promise', async () => {
    const source = freshCatalogSource({ forOrg: async () => catalog(['gmail']) }, 5_000, () => 0);
    const reading = source.forOrg('acme');
    const read = await reading;
    const later = source.forOrg('acme');
    expect(later).not.toBe(reading);
    expect(await later).toBe(read);
  });
});
