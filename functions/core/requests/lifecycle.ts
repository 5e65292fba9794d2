import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { transact } from '../platform/transact.js';
import type { RequestKind, StoredItem, StoredRequest } from './kind.js';
import { isOpen } from './status.js';
import { itemChange, loadRequest, requestChange, requestEvent, requireOpen, requireRequest, type Loaded } from './store.js';

/** How requests close: cancelled by the agency, or expired by the sweep. Both close outstanding items and links. */

type Ending = 'cancelled' | 'expired';

/**
 * Closes a request: outstanding items take the ending; the request takes it
 * too (an expiring request only while it is open: a completed one stays
 * completed) and leaves the open index. Tells the agency when the request
 * took the ending.
 */
async function close<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  { request, items }: Loaded<R, I>,
  ending: Ending,
): Promise<Loaded<R, I>> {
  const at = deps.clock().toISOString();
  const status = ending === 'cancelled' || isOpen(request.status) ? ending : request.status;
  const { after, part: requestPart } = requestChange(deps, kind, request, { status } as Partial<R>, true);
  const outstanding = items.filter((i) => kind.outstanding.includes(i.status));
  const closed = { status: ending, updated_at: at } as Partial<I>;
  const itemsAfter = items.map((i) => (outstanding.includes(i) ? { ...i, ...closed } : i));
  await transact(deps, [
    requestPart,
    ...outstanding.map((i) => itemChange(deps, kind, request, i, closed)),
    ...((await kind.closeParts?.(deps, request, outstanding, ending)) ?? []),
    ...(status === ending ? [requestEvent(deps, kind, ending, after, itemsAfter)] : []),
  ]);
  return { request: after, items: itemsAfter };
}

/** Cancels an open request: outstanding items are cancelled and their links stop working. */
export async function cancelRequest<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
  clientId: string,
  id: number,
): Promise<V> {
  return retryOnConflict(async () => {
    const loaded = await requireRequest(deps, kind, clientId, id);
    requireOpen(kind, loaded.request, deps.clock());
    const { request, items } = await close(deps, kind, loaded, 'cancelled');
    return kind.view(request, items, deps.clock());
  });
}

/**
 * Closes a kind's requests whose time is up. Reads already treat them as
 * expired by the clock; this makes it so in the table, closes the links and
 * tells the agency. Returns how many requests became expired.
 */
export async function expireDueRequests<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(
  deps: Deps,
  kind: RequestKind<F, R, I, V>,
): Promise<number> {
  let total = 0;
  // Each pass removes what it handled from the index; a bounded number of passes keeps a bad item from looping.
  for (let pass = 0; pass < 20; pass++) {
    const { expired, handled } = await expireOnePage(deps, kind);
    total += expired;
    if (handled < 100) break;
  }
  return total;
}

async function expireOnePage<F extends FamilyId, R extends StoredRequest, I extends StoredItem, V>(deps: Deps, kind: RequestKind<F, R, I, V>) {
  const now = deps.clock();
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      // Sort keys are `<expires_at>#<client>#<id>`: '~' sorts after '#', so this takes everything due by now, inclusive.
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :bound',
      ExpressionAttributeValues: { ':pk': kind.keys.openPartition, ':bound': `${now.toISOString()}~` },
      Limit: 100,
    }),
  );
  let expired = 0;
  for (const hit of Items as R[]) {
    await retryOnConflict(async () => {
      const loaded = await loadRequest(deps, kind, hit.client_id, hit.id);
      if (!loaded || loaded.request.status === 'cancelled' || loaded.request.status === 'expired') return;
      // Its items were all booked since the index was read: it waits for the bookings.
      if (loaded.request.waiting_for_bookings && isOpen(loaded.request.status)) return;
      const { request } = await close(deps, kind, loaded, 'expired');
      if (request.status === 'expired') expired++;
    });
  }
  return { expired, handled: Items.length };
}
