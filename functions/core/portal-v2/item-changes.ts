import { getClient } from '../access/clients.js';
import type { EventKindOf } from '../events/kinds.js';
import { eventPut } from '../events/outbox.js';
import type { Deps } from '../platform/deps.js';
import { allOf, part, type Part } from '../platform/transact.js';
import { derivedGroupStatus, waitsForBookings, type GroupItem, type GroupRequest, type ItemPlan, type ItemStatus } from '../requests/group.js';
import { toItemView, type GroupEngineKind } from '../requests/group-kind.js';
import { itemChange, itemStatusIs, requestChange, requestEvent, type Loaded } from '../requests/store.js';

/**
 * One item's change as transaction parts. Kept apart
 * from the request groups' module so that a course family's booking, which
 * moves its request item in its own transaction, does not load every
 * group's declaration, page and invite code.
 */

/** Writes the items a change brings (the request groups' newGroupItems). */
export type NewItems = (
  deps: Deps,
  kind: GroupEngineKind,
  request: GroupRequest,
  plans: ItemPlan[],
  agency: string,
  mailCandidate: boolean,
) => Promise<{ items: GroupItem[]; parts: Part[] }>;

export interface ItemChange {
  set: Partial<GroupItem>;
  /** The item event (section 1.6), named by the status it enters; none for a step that has none (an invite opened). */
  event?: ItemStatus;
  /** Further parts of the same transaction (an e-mail to the actor). */
  parts?: (request: GroupRequest, item: GroupItem) => Part[];
  /** Items the change brings (appraisal: the appraiser's confirmation). */
  follow?: ItemPlan[];
}

const itemEvent = (deps: Deps, kind: GroupEngineKind, request: GroupRequest, item: GroupItem, status: ItemStatus): Part =>
  part(
    `item event ${item.id}`,
    eventPut(deps, {
      family: 'portal-v2',
      type: `request_item.${status}` as EventKindOf<'portal-v2'>,
      client_id: request.client_id,
      // A health kind's item data never rides on a webhook: receivers GET the request.
      data: toItemView(kind.declaration, kind.links, item, request, deps.clock(), 'outcomes'),
    }),
  );

/**
 * The parts of one item's change, as the request and items were read: the
 * request's status derived again under its version, the item under its
 * status, the item event, and the request's completion in the same
 * transaction when the change makes every item final.
 */
export async function itemChangeParts(
  deps: Deps,
  kind: GroupEngineKind,
  { request, items }: Loaded<GroupRequest, GroupItem>,
  item: GroupItem,
  change: ItemChange,
  newItems?: NewItems,
): Promise<{ parts: Part[]; request: GroupRequest; items: GroupItem[] }> {
  const now = deps.clock();
  const at = now.toISOString();
  let set: Partial<GroupItem> = { ...change.set, updated_at: at };
  const client = change.follow?.length ? await getClient(deps, request.client_id) : undefined;
  if (change.follow?.length && !newItems) throw new Error(`A change that brings items needs the request groups' newItems (item ${item.id})`);
  const followed = change.follow?.length ? await newItems!(deps, kind, request, change.follow, client?.name ?? '', false) : { items: [], parts: [] };
  const others = items.filter((i) => i.id !== item.id);
  const wait = bookingWait(kind, request, [...others, { ...item, ...set }, ...followed.items], now);
  // A fresh window (see bookingWait) is the item's too: it expires by its own time.
  if (wait.expires_at && wait.expires_at !== request.expires_at) set = { ...set, expires_at: wait.expires_at };
  const changed: GroupItem = { ...item, ...set };
  const itemsAfter = [...items.map((i) => (i.id === item.id ? changed : i)), ...followed.items];
  const { status, outcome } = derivedGroupStatus(kind.declaration, itemsAfter);
  const completes = status === 'completed';
  const { after, part: requestPart } = requestChange(deps, kind, request, { status, outcome, ...wait }, completes);
  const enteredReview = kind.declaration.reviewed && status === 'awaiting_review' && request.status !== 'awaiting_review';
  const parts = [
    requestPart,
    itemChange(deps, kind, request, item, set, allOf(itemStatusIs(item.status))),
    ...followed.parts,
    ...(change.event ? [itemEvent(deps, kind, after, changed, change.event)] : []),
    ...(change.parts?.(after, changed) ?? []),
    ...(completes ? [requestEvent(deps, kind, 'completed', after, itemsAfter)] : []),
    ...(enteredReview
      ? [
          part(
            'event submitted',
            eventPut(deps, {
              family: 'portal-v2',
              type: `${kind.declaration.kind}_request.submitted` as EventKindOf<'portal-v2'>,
              client_id: request.client_id,
              data: kind.view(after, itemsAfter, now),
            }),
          ),
        ]
      : []),
  ];
  return { parts, request: after, items: itemsAfter };
}

/** Far past any sweep: a request waiting for its bookings is parked here in the open index (rule 6). */
const PARKED = '9999-12-31T23:59:59.999Z';

/**
 * A booking kind's request starts or stops waiting for its bookings (rule 6):
 * the flag reads decide expiry by, and its place in the sweep's index. A
 * booking that fails after the request's own expiry (a course weeks ahead,
 * then a no-show) would leave it expired at once, with no time to reissue:
 * it gets a fresh window as long as its first.
 */
function bookingWait(kind: GroupEngineKind, request: GroupRequest, items: GroupItem[], now: Date): Partial<GroupRequest> {
  if (!kind.declaration.bookingFamily) return {};
  const waiting = waitsForBookings(items);
  if (waiting === !!request.waiting_for_bookings) return {};
  if (waiting) return { waiting_for_bookings: true, ...kind.keys.open(PARKED, request.client_id, request.id) };
  const window = Date.parse(request.expires_at) - Date.parse(request.created_at);
  const expires_at = Date.parse(request.expires_at) > now.getTime() ? request.expires_at : new Date(now.getTime() + window).toISOString();
  return { waiting_for_bookings: false, expires_at, ...kind.keys.open(expires_at, request.client_id, request.id) };
}
