import type { CourseBookingRecord } from '../bookings/course-bookings.js';
import { certificateAvailable } from '../documents/certificates.js';
import type { Deps } from '../platform/deps.js';
import type { Part } from '../platform/transact.js';
import type { GroupItem, ItemStatus } from '../requests/group.js';
import type { RequestSource } from '../requests/shapes.js';
import { effectiveStatus, isOpen } from '../requests/status.js';
import { loadRequest } from '../requests/store.js';
import { BOOKING_KINDS } from './booking-kinds.js';
import type { BookingItemData } from './groups/booking.js';
import { itemChangeParts, type ItemChange } from './item-changes.js';

/**
 * A booking kind's item follows its invite and the booking made with it
 *: each step of the family adds the
 * item's change to its own transaction, under the request's version, so the
 * two never disagree. The invite and the booking carry the item as `source`.
 * The course families load this module, not the request groups'.
 */

/**
 * The parts that change a sourced item, if its request is still open and
 * the item is in one of `from`; `decide` may still decline (the item moved on
 * to another invite or booking). None otherwise.
 */
async function sourcedItemParts(
  deps: Deps,
  clientId: string,
  source: RequestSource,
  from: readonly ItemStatus[],
  decide: (item: GroupItem) => ItemChange | undefined,
): Promise<Part[]> {
  const kind = BOOKING_KINDS[source.kind];
  const loaded = kind && (await loadRequest(deps, kind, clientId, source.request_id));
  if (!kind || !loaded || !isOpen(effectiveStatus(loaded.request, deps.clock()))) return [];
  const item = loaded.items.find((i) => i.id === source.item_id);
  const change = item && from.includes(item.status) ? decide(item) : undefined;
  return item && change ? (await itemChangeParts(deps, kind, loaded, item, change)).parts : [];
}

interface SourcedInvite {
  id: number;
  client_id: string;
  source?: RequestSource;
}

/** The invite page was opened the first time: the item is `opened` (no item event: the family's `booking_invite.opened` tells). */
export const inviteOpenedParts = (deps: Deps, invite: SourcedInvite, at: string): Promise<Part[]> =>
  invite.source
    ? sourcedItemParts(deps, invite.client_id, invite.source, ['sent'], (item) =>
        item.booking_invite_id === invite.id ? { set: { status: 'opened', opened_at: at } } : undefined,
      )
    : Promise.resolve([]);

/**
 * The candidate booked with the invite: the item is `booked`, in the
 * booking's transaction. Undefined when the item can no longer be booked
 * (its request closed): the caller refuses the booking.
 */
export async function inviteUsedParts(deps: Deps, invite: SourcedInvite, bookingId: number): Promise<Part[] | undefined> {
  if (!invite.source) return [];
  const parts = await sourcedItemParts(deps, invite.client_id, invite.source, ['sent', 'opened'], (item) =>
    item.booking_invite_id === invite.id ? { set: { status: 'booked', booking_id: bookingId }, event: 'booked' } : undefined,
  );
  return parts.length > 0 ? parts : undefined;
}

/** What a booking's state means for its item: certified (the certificate is available), failed (cancelled, no-show, not passed), or nothing yet. */
export function bookingOutcome(b: CourseBookingRecord): 'certified' | 'failed' | undefined {
  if (certificateAvailable(b)) return 'certified';
  if (b.booking_status === 'cancelled' || b.attendance === 'no_show' || b.result === 'not_passed') return 'failed';
  return undefined;
}

const dataOf = (b: CourseBookingRecord): BookingItemData => ({
  booking_id: b.id,
  attendance: b.attendance,
  result: b.result,
  certificate: b.certificate ? { number: b.certificate.number, issued_at: b.certificate.issued_at, valid_until: b.certificate.valid_until } : null,
});

/**
 * A sourced booking changed (any change, from `changeBooking`): when it
 * reaches an outcome, its item takes it with the booking's data, and a
 * certificate completes the request. Only the item's current booking counts.
 */
export async function bookingOutcomeParts(deps: Deps, before: CourseBookingRecord, after: CourseBookingRecord): Promise<Part[]> {
  const outcome = after.source && bookingOutcome(after);
  if (!outcome || bookingOutcome(before) === outcome) return [];
  return sourcedItemParts(deps, after.client_id, after.source!, ['booked'], (item) =>
    item.booking_id !== after.id
      ? undefined
      : outcome === 'certified'
        ? { set: { status: 'certified', data: { ...dataOf(after) }, valid_until: after.certificate!.valid_until }, event: 'certified' }
        : { set: { status: 'failed', data: { ...dataOf(after) } }, event: 'failed' },
  );
}
