import type { Deps } from './deps.js';

/**
 * A small read-mostly thing (a catalogue) kept per table for a couple of
 * seconds: every hold and listing reads it, and it changes a few times a day.
 * Writes through the owning module `forget` it at once; a change made
 * elsewhere shows within `ms`. A failed read is not kept.
 */
export function cachedPerTable<T>(read: (deps: Deps) => Promise<T>, ms = 2000) {
  const cache = new Map<string, { at: number; value: Promise<T> }>();
  const forget = (deps: Deps) => void cache.delete(deps.table);
  const load = (deps: Deps): Promise<T> => {
    const hit = cache.get(deps.table);
    if (hit && Date.now() - hit.at < ms) return hit.value;
    const value = read(deps);
    cache.set(deps.table, { at: Date.now(), value });
    value.catch(() => forget(deps));
    return value;
  };
  return { load, forget };
}
