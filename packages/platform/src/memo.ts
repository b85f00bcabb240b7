/**
 * Caches a pure function of one string. The analyst and the creation graph call the same few helpers on
 * the same clauses, field names and descriptions many times per job; the cache is bounded so a
 * long-running worker does not grow without end (the oldest entry goes first). Callers share the cached
 * value: treat it as read-only.
 */
export function memo<T>(fn: (text: string) => T, size = 2000): (text: string) => T {
  const cache = new Map<string, T>();
  return (text: string): T => {
    const hit = cache.get(text);
    if (hit !== undefined) return hit;
    const value = fn(text);
    if (cache.size >= size) cache.delete(cache.keys().next().value as string);
    cache.set(text, value);
    return value;
  };
}
