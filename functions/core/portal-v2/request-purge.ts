import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { transact } from '../platform/transact.js';
import type { GroupItem, GroupRequest } from '../requests/group.js';
import { purgeIndex, purgePartition, retentionEnds, type GroupEngineKind } from '../requests/group-kind.js';
import { itemChange, loadRequest, requestChange } from '../requests/store.js';
import { REFERENCE_PURGE_KIND, REFERENCE_PURGED, REFERENCE_RETENTION_DAYS, references, REQUEST_PURGED, type RequestItem } from './references.js';
import { deleteRequestFile } from './request-files.js';
import { GROUP_KINDS } from './request-groups.js';

/**
 * Retention: a closed request keeps
 * its files for the kind's `fileDays` and its item data for `dataDays` from
 * closing; then this schedule deletes the objects (`file.purged_at` set) and
 * blanks the data. Outcomes, statuses, dates and SHA-256s stay. A closed
 * reference request is kept REFERENCE_RETENTION_DAYS from closing, then the
 * candidate's name and address, the notes, and its referees' details,
 * answers and reasons are blanked; statuses, dates, counts and scores stay.
 */

async function purgeOne(deps: Deps, kind: GroupEngineKind, clientId: string, id: number): Promise<boolean> {
  return retryOnConflict(async () => {
    const loaded = await loadRequest(deps, kind, clientId, id);
    if (!loaded?.request.closed_at) return false;
    const { request, items } = loaded as { request: GroupRequest & { closed_at: string }; items: GroupItem[] };
    const { fileDays, dataDays } = kind.declaration.retention;
    const now = deps.clock().toISOString();
    const filesDue = retentionEnds(request.closed_at, fileDays) <= now;
    const dataDue = retentionEnds(request.closed_at, dataDays) <= now;
    const changes: { item: GroupItem; set: Partial<GroupItem> }[] = [];
    for (const item of items) {
      const set: Partial<GroupItem> = {};
      if (filesDue && item.file && !item.file.purged_at) {
        await deleteRequestFile(item.file.key);
        set.file = { ...item.file, purged_at: now };
      }
      if (dataDue && item.data !== null) set.data = null;
      if (Object.keys(set).length) changes.push({ item, set: { ...set, updated_at: now } });
    }
    // Next due: the data, if the files went first; nothing once both are gone.
    const next = !dataDue ? purgeIndex(kind.declaration.kind, retentionEnds(request.closed_at, dataDays), clientId, id) : undefined;
    // An undefined field is removed: once both are gone the request leaves the index.
    const { part } = requestChange(deps, kind, request, (next ?? { gsi1pk: undefined, gsi1sk: undefined }) as Partial<GroupRequest>);
    await transact(deps, [part, ...changes.map(({ item, set }) => itemChange(deps, kind, request, item, set))]);
    return changes.length > 0;
  });
}

async function purgeReferenceRequest(deps: Deps, clientId: string, id: number): Promise<boolean> {
  return retryOnConflict(async () => {
    const loaded = await loadRequest(deps, references, clientId, id);
    const now = deps.clock().toISOString();
    if (!loaded?.request.closed_at || retentionEnds(loaded.request.closed_at, REFERENCE_RETENTION_DAYS) > now) return false;
    const { request, items } = loaded;
    // Out of the purge index (an undefined field is removed): nothing is due after this.
    const { part } = requestChange(deps, references, request, {
      ...REQUEST_PURGED,
      purged_at: now,
      gsi1pk: undefined,
      gsi1sk: undefined,
    } as unknown as Partial<RequestItem>);
    await transact(deps, [part, ...items.map((r) => itemChange(deps, references, request, r, { ...REFERENCE_PURGED, updated_at: now }))]);
    return true;
  });
}

/** Up to 100 requests of a purge index partition whose retention ended by now. */
async function dueIn(deps: Deps, partition: string): Promise<{ client_id: string; id: number }[]> {
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :bound',
      ExpressionAttributeValues: { ':pk': partition, ':bound': `${deps.clock().toISOString()}~` },
      Limit: 100,
    }),
  );
  return Items.map((hit) => ({ client_id: String(hit.client_id), id: Number(hit.id) }));
}

/** Purges what is due for every request group and reference request; returns how many requests had something purged. */
export async function purgeDueRequests(deps: Deps): Promise<number> {
  let purged = 0;
  for (const kind of Object.values(GROUP_KINDS)) {
    for (const hit of await dueIn(deps, purgePartition(kind.declaration.kind))) if (await purgeOne(deps, kind, hit.client_id, hit.id)) purged++;
  }
  for (const hit of await dueIn(deps, purgePartition(REFERENCE_PURGE_KIND))) if (await purgeReferenceRequest(deps, hit.client_id, hit.id)) purged++;
  return purged;
}
