import { describe, expect, it } from 'vitest';
import { PersistentMap } from '../src/pmap';

describe('PersistentMap', () => {
  it('agrees with a Map over many sets, and every older version stays as it was', () => {
    let map = PersistentMap.empty<number>();
    const reference = new Map<string, number>();
    const versions: [PersistentMap<number>, Map<string, number>][] = [];
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 20_000; i++) {
      const key = `k${random() % 5_000}`;
      map = map.set(key, i);
      reference.set(key, i);
      if (i % 2_000 === 0) versions.push([map, new Map(reference)]);
    }
    expect(map.size).toBe(reference.size);
    for (const [key, value] of reference) expect(map.get(key)).toBe(value);
    expect(map.get('absent')).toBeUndefined();
    expect(new Map(map.entries())).toEqual(reference);
    for (const [old, snapshot] of versions) {
      expect(old.size).toBe(snapshot.size);
      for (const [key, value] of snapshot) expect(old.get(key)).toBe(value);
    }
  });

  it('keeps keys whose hashes collide apart', () => {
    // "costarring" and "liquid" collide under FNV-1a 32
    const map = PersistentMap.empty<string>().set('costarring', 'a').set('liquid', 'b');
    expect([map.get('costarring'), map.get('liquid'), map.size]).toEqual(['a', 'b', 2]);
    expect(map.set('liquid', 'c').get('liquid')).toBe('c');
    expect(map.get('liquid')).toBe('b');
  });
});
