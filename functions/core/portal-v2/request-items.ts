import { getClient } from '../access/clients.js';
import type { EventKindOf } from '../events/catalogue.js';
import { emailPut, eventPut } from '../events/outbox.js';
import { requestItemRejected } from '../messaging/email-templates.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { allOf, part, transact, type Part } from '../platform/transact.js';
import { derivedGroupStatus, waitsForBookings, type GroupItem, type GroupRequest, type ItemPlan, type ItemStatus } from '../requests/group.js';
import { toGroupView, toItemView, type GroupEngineKind, type GroupRequestView } from '../requests/group-kind.js';
import { isOpen } from '../requests/status.js';
import { itemChange, itemStatusIs, requestChange, requestEvent, requireOpen, requireRequest, type Loaded } from '../requests/store.js';
import { actorUrl, groupLinks, kindOf, newGroupItems } from './request-groups.js';

/**
 * An item's changes: submitted by its actor, accepted or rejected by the
 * agency, confirmed or denied by a third party. Each is one transaction
 * under the request's version and the item's status (design 1.3 rule 3): the
 * request's status is derived again from its items, and the change that
 * makes the last item final completes the request in the same transaction.
 * Of two concurrent changes to one item, one wins; the other reads the new
 * state and is refused.
 */

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
      // A health kind's item data never rides on a webhook: receivers GET the request (design 1.5 rule 3).
      data: toItemView(kind.declaration, groupLinks, item, request, deps.clock(), 'outcomes'),
    }),
  );

/**
 * Changes one item of an open request, if it is in one of `from`; else
 * 409 invalid-state with `refusal`. Returns the request after the change.
 */
export async function changeItem(
  deps: Deps,
  kind: GroupEngineKind,
  loaded: () => Promise<Loaded<GroupRequest, GroupItem>>,
  itemId: number,
  from: readonly ItemStatus[],
  decide: (request: GroupRequest, item: GroupItem, items: GroupItem[]) => ItemChange,
): Promise<{ request: GroupRequest; items: GroupItem[] }> {
  return retryOnConflict(async () => {
    const { request, items } = await loaded();
    requireOpen(kind, request, deps.clock());
    if (!isOpen(request.status)) throw new DomainError('invalid-state', kind.texts.closed(request.id, request.status));
    const item = items.find((i) => i.id === itemId);
    if (!item) throw new DomainError('not-found', kind.texts.noItem(itemId));
    if (!from.includes(item.status)) throw new DomainError('invalid-state', `Item ${itemId} is ${item.status}, not ${from.join(' or ')}`);
    const { parts, request: after, items: itemsAfter } = await itemChangeParts(deps, kind, { request, items }, item, decide(request, item, items));
    await transact(deps, parts);
    return { request: after, items: itemsAfter };
  });
}

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
): Promise<{ parts: Part[]; request: GroupRequest; items: GroupItem[] }> {
  const now = deps.clock();
  const at = now.toISOString();
  let set: Partial<GroupItem> = { ...change.set, updated_at: at };
  const client = change.follow?.length ? await getClient(deps, request.client_id) : undefined;
  const followed = change.follow?.length ? await newGroupItems(deps, kind, request, change.follow, client?.name ?? '', false) : { items: [], parts: [] };
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
    ...(enteredReview ? [part('event submitted', eventPut(deps, { family: 'portal-v2', type: `${kind.declaration.kind}_request.submitted` as EventKindOf<'portal-v2'>, client_id: request.client_id, data: kind.view(after, itemsAfter, now) }))] : []),
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
  if (waiting) return { waiting_for_bookings: true, ...kind.keys.open(PARKED, request.client_id, request.id) } as Partial<GroupRequest>;
  const window = Date.parse(request.expires_at) - Date.parse(request.created_at);
  const expires_at = Date.parse(request.expires_at) > now.getTime() ? request.expires_at : new Date(now.getTime() + window).toISOString();
  return { waiting_for_bookings: false, expires_at, ...kind.keys.open(expires_at, request.client_id, request.id) } as Partial<GroupRequest>;
}

/** The agency accepts or rejects a submitted item (design 1.3 rule 4); a rejected actor is e-mailed the reason and the same link. */
export async function reviewItem(
  deps: Deps,
  clientId: string,
  segment: string,
  id: number,
  itemId: number,
  verdict: { accept: true } | { accept: false; reason: string },
  reviewer: number | null,
): Promise<GroupRequestView> {
  const kind = kindOf(segment);
  const decl = kind.declaration;
  if (!decl.reviewed) throw new DomainError('invalid-state', `${decl.title}s are not reviewed: their items are answered by a third party`);
  const client = await getClient(deps, clientId);
  const at = deps.clock().toISOString();
  const { request, items } = await changeItem(deps, kind, () => requireRequest(deps, kind, clientId, id), itemId, ['submitted'], (_request, item) =>
    verdict.accept
      ? { set: { status: 'accepted', rejection_reason: null, reviewed_at: at, reviewed_by: reviewer }, event: 'accepted' }
      : {
          set: { status: 'rejected', rejection_reason: verdict.reason, reviewed_at: at, reviewed_by: reviewer },
          event: 'rejected',
          parts: (r, i) => [
            part(
              'rejection email',
              emailPut(deps, {
                to: i.actor.email,
                // Health data stays out of e-mails: the reason may speak of it, so the page shows it instead.
                ...requestItemRejected({ name: i.actor.name, agency: client?.name ?? '', item: decl.itemType(item.type).label, reason: decl.special_category ? 'The reason is shown on the page.' : verdict.reason, url: actorUrl(r, i) }),
              }),
            ),
          ],
        },
  );
  return toGroupView(decl, groupLinks, request, items, deps.clock());
}
