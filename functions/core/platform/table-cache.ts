import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ItemKey } from './db.js';
import type { Deps } from './deps.js';
import type { FamilyId } from './families.js';
import { key } from './key-registry.js';
import * as TABLE_KEYS from './table-keys.js';

/** A family's catalogue version: in the catalogue's partition, incremented by every change to it. */
export const catalogueVersionKeys = {
  version: (family: FamilyId): ItemKey => ({ pk: key(TABLE_KEYS.catalog.pk, family), sk: TABLE_KEYS.catalog.sk.version }),
};

/**
 * A small read-mostly thing (a catalogue) kept per table: every hold and
 * listing reads it, and it changes a few times a day. Beside it lives a
 * version item that every change through `changed` increments. A copy older
 * than `checkMs` is kept while the version is the one it was read at (one
 * small read instead of the whole catalogue: at scale every warm container
 * of a family reads the catalogue's partition); after `maxAgeMs` it is read
 * again whatever the version, so a change written without `changed` (by hand,
 * or a writer that stopped between its write and the increment) still shows.
 * A failed read is not kept.
 */
export function cachedPerTable<T>(read: (deps: Deps) => Promise<T>, versionKey: ItemKey, { checkMs = 2000, maxAgeMs = 60_000 } = {}) {
  type Entry = { checkedAt: number; readAt: number; version: number; value: Promise<T> };
  const cache = new Map<string, Entry>();
  const versionOf = async (deps: Deps): Promise<number> => {
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: versionKey, ConsistentRead: true }));
    return Number(Item?.version ?? 0);
  };
  const reread = (deps: Deps): Promise<T> => {
    const at = Date.now();
    // The version is read before the catalogue: a change between them makes the copy look older than it is, never newer.
    const entry: Entry = { checkedAt: at, readAt: at, version: -1, value: versionOf(deps).then((v) => ((entry.version = v), read(deps))) };
    cache.set(deps.table, entry);
    entry.value.catch(() => cache.get(deps.table) === entry && cache.delete(deps.table));
    return entry.value;
  };
  const load = async (deps: Deps): Promise<T> => {
    const hit = cache.get(deps.table);
    const now = Date.now();
    if (!hit || now - hit.readAt >= maxAgeMs) return reread(deps);
    if (now - hit.checkedAt < checkMs || hit.version < 0) return hit.value;
    hit.checkedAt = now;
    if ((await versionOf(deps)) === hit.version) return hit.value;
    return cache.get(deps.table) === hit ? reread(deps) : load(deps);
  };
  /** After a write: this container forgets its copy at once, the others at their next check. */
  const changed = async (deps: Deps): Promise<void> => {
    cache.delete(deps.table);
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: versionKey,
        UpdateExpression: 'ADD version :one SET entity = :entity',
        ExpressionAttributeValues: { ':one': 1, ':entity': 'catalogue-version' },
      }),
    );
  };
  return { load, changed };
}
