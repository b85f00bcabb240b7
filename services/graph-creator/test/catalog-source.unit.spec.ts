import type { Catalog } from '@hireloop/analyst';
import { describe, expect, it } from 'vitest';
import { CatalogChanges } from '../src/connect-hub/changes';
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
      new CatalogChanges(5_000, () => now),
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
      new CatalogChanges(5_000, () => now),
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
      new CatalogChanges(5_000, () => 0),
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
      new CatalogChanges(5_000, () => now),
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
    const source = freshCatalogSource({ forOrg: async () => catalog(['gmail']) }, new CatalogChanges(5_000, () => 0));
    const reading = source.forOrg('acme');
    const read = await reading;
    const later = source.forOrg('acme');
    expect(later).not.toBe(reading);
    expect(await later).toBe(read);
  });
});

describe('the creation graph’s catalog cache is dropped for an org whose connections changed', () => {
  const counting = () => {
    const asked: string[] = [];
    let version = 0;
    const source = {
      forOrg: async (org: string) => {
        asked.push(org);
        return catalog([`${org}-v${version}`]);
      },
    };
    return { asked, source, bump: () => (version += 1) };
  };

  it('given catalogs read within the TTL, when one org’s connections change, then only that org is read again', async () => {
    const { asked, source } = counting();
    const changes = new CatalogChanges(60_000, () => 0);
    const cached = freshCatalogSource(source, changes);
    await cached.forOrg('acme');
    await cached.forOrg('globex');
    changes.change('acme');
    await cached.forOrg('acme');
    await cached.forOrg('globex');
    await cached.forOrg('acme');
    expect(asked).toEqual(['acme', 'globex', 'acme']);
  });

  it('given a read under way, when the org’s connections change before it ends, then what it brings is not kept', async () => {
    const { asked, source, bump } = counting();
    const changes = new CatalogChanges(60_000, () => 0);
    const cached = freshCatalogSource(source, changes);
    const reading = cached.forOrg('acme');
    changes.change('acme');
    bump();
    expect((await reading).connected).toEqual(['acme-v0']);
    expect((await cached.forOrg('acme')).connected).toEqual(['acme-v1']);
    expect(asked).toEqual(['acme', 'acme']);
  });
});

describe('CatalogChanges', () => {
  it('given a read, then it is fresh until its org changes or the TTL passes, whichever comes first', () => {
    let now = 0;
    const changes = new CatalogChanges(1_000, () => now);
    const read = changes.mark();
    changes.change('globex');
    expect(changes.fresh('acme', read)).toBe(true);
    expect(changes.fresh('globex', read)).toBe(false);
    const later = changes.mark();
    expect(changes.fresh('globex', later)).toBe(true);
    now = 999;
    expect(changes.fresh('acme', read)).toBe(true);
    now = 1_000;
    expect(changes.fresh('acme', read)).toBe(false);
  });

  it('given changes older than the TTL, then they are forgotten: what it remembers is bounded by one TTL of changes', () => {
    let now = 0;
    const changes = new CatalogChanges(1_000, () => now);
    for (let i = 0; i < 100; i++) changes.change(`org-${i}`);
    expect(changes.remembered).toBe(100);
    now = 1_000;
    // a change now forgets the hundred, whose reads from before them are stale by their age anyway
    changes.change('globex');
    expect(changes.remembered).toBe(1);
    const after = changes.mark();
    expect(changes.fresh('org-1', after)).toBe(true);
    expect(changes.fresh('globex', after)).toBe(true);
    // a change of one org again moves it to the end, where it is kept as long as it is young
    now = 1_500;
    changes.change('acme');
    changes.change('globex');
    now = 2_200;
    changes.change('initech');
    expect(changes.remembered).toBe(3);
  });

  it('given reads of several orgs, when every org may have changed unseen (the consumer joined again), then all are stale, and reads after it are fresh', () => {
    const changes = new CatalogChanges(60_000, () => 0);
    const before = changes.mark();
    changes.changeAll();
    expect(changes.fresh('acme', before)).toBe(false);
    expect(changes.fresh('globex', before)).toBe(false);
    const after = changes.mark();
    expect(changes.fresh('acme', after)).toBe(true);
    expect(changes.remembered).toBe(0);
  });

  it('given a read, then a rail that wants it younger than the TTL gets a shorter freshness, never a longer one', () => {
    let now = 0;
    const changes = new CatalogChanges(10_000, () => now);
    const read = changes.mark();
    now = 4_999;
    expect(changes.fresh('acme', read, 5_000)).toBe(true);
    now = 5_000;
    expect(changes.fresh('acme', read, 5_000)).toBe(false);
    expect(changes.fresh('acme', read)).toBe(true);
    now = 10_000;
    expect(changes.fresh('acme', read, 60_000)).toBe(false);
  });
});
