/**
 * Catalog lists shared across orgs. Every org's view of the catalog holds the same items — only which
 * providers the org has connected differs — so an item list is kept once per distinct content, frozen,
 * and every org whose view has that content holds the same array. A worker that has served thousands
 * of orgs then holds each catalog version once, not once per org (docs/decisions.md, 2026-11-24), and
 * what is derived from a list (the analyst's vocabulary index, the registry's map by id) is derived once.
 */

/** Distinct lists kept: a few catalog versions are live at once (the current one, one being replaced). */
const MAX_LISTS = 16;
const lists = new Map<string, readonly object[]>();

/** Freezes a value and everything in it (what is frozen already, with what it holds, is left as it is). */
export const deepFreeze = <T>(value: T): T => {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
};

/** Drops the `connected` mark of an org's view item: what is left is the same for every org. */
export const unmarked = <T extends { connected?: boolean }>({ connected: _connected, ...item }: T): Omit<T, 'connected'> => item;

/**
 * The shared, deeply frozen list with the same content as `items` (compared as JSON, so a fresh parse
 * of an unchanged view finds the list already held); when nothing like it is held yet, a frozen copy of
 * `items` (its items frozen in place) becomes the shared one.
 */
export function sharedList<T extends object>(items: readonly T[]): readonly T[] {
  const key = JSON.stringify(items);
  const held = lists.get(key);
  if (held) {
    lists.delete(key); // re-inserted: least recently used first
    lists.set(key, held);
    return held as readonly T[];
  }
  const list = deepFreeze([...items]);
  lists.set(key, list);
  while (lists.size > MAX_LISTS) lists.delete(lists.keys().next().value as string);
  return list;
}

const marked = new WeakMap<readonly object[], Map<string, readonly object[]>>();

/**
 * The shared list with each item marked `connected` by its provider, built once per list and set of
 * connected providers (orgs that connected the same providers share it).
 */
export function markedList<T extends { providerId: string }>(
  items: readonly T[],
  connected: readonly string[],
): readonly (T & { connected: boolean })[] {
  const key = connected.join(' ');
  let byConnected = marked.get(items);
  if (!byConnected) {
    byConnected = new Map();
    marked.set(items, byConnected);
  }
  let list = byConnected.get(key);
  if (!list) {
    const set = new Set(connected);
    list = deepFreeze(items.map((item) => ({ ...item, connected: set.has(item.providerId) })));
    if (byConnected.size >= MAX_LISTS) byConnected.clear();
    byConnected.set(key, list);
  }
  return list as readonly (T & { connected: boolean })[];
}
