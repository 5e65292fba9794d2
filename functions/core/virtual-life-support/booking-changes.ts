import { cancelBookingOf, refundDue } from '../bookings/change.js';
import type { ChangingKind } from '../bookings/kind.js';
import { getBookingItem } from '../bookings/records.js';
import { eventPut } from '../events/outbox.js';
import { sessionFreedPart } from '../inventory/sessions.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { part } from '../platform/transact.js';
import { bookingOutcomeParts } from '../portal-v2/booking-follow.js';
import { toVlsBookingView, VLS_BOOKINGS, VLS_PARTS, type VlsBooking, type VlsBookingView } from './bookings.js';
import { getVlsSession, VLS_FAMILY } from './catalogue.js';
import { daysAfter, deadlineParts, type Equipment } from './equipment-state.js';

/**
 * Virtual life-support bookings as changing them needs them: what a
 * cancellation does to the session and the lent kit, what a payment's
 * confirmation writes, and the portal v2 request item that follows a
 * booking's outcome. Apart from ./bookings.ts so that making a booking,
 * through the API or a page, does not load any of it.
 */

/** What cancelling does to the kit: not posted yet, it is not posted at all; posted, it is due back a week after the cancellation. */
function equipmentOnCancel(e: Equipment, now: Date): Equipment {
  if (e.status === 'awaiting_dispatch') return { ...e, status: 'cancelled', deadline: undefined };
  if (e.status !== 'dispatched' && e.status !== 'delivered') return e;
  const due = daysAfter(now.toISOString(), 7);
  return { ...e, return: { ...e.return!, due_at: due }, deadline: due };
}

export const VLS_CHANGING: ChangingKind<VlsBooking, VlsBookingView> = {
  ...VLS_BOOKINGS,
  cancelledFields: { training_status: 'cancelled' },
  cancelChanges: (b, now) => ({ equipment: equipmentOnCancel(b.equipment, now) }),
  cancelParts: async (deps, b, changes) => {
    const session = await getVlsSession(deps, b.session_id);
    return [...(session ? [sessionFreedPart(deps, VLS_FAMILY, session, {}, VLS_PARTS.session)] : []), ...deadlineParts(deps, b, changes.equipment?.deadline)];
  },
  confirmParts: (deps, b) =>
    b.certificate
      ? [
          part(
            VLS_PARTS.certificate,
            eventPut(deps, {
              family: VLS_FAMILY,
              type: 'booking.certificate_available',
              client_id: b.client_id,
              data: toVlsBookingView(b, deps.config.serviceTimeZone),
            }),
          ),
        ]
      : [],
  // A booking made for a portal v2 life_support request's item: the item takes its outcome (certified, or failed).
  follow: bookingOutcomeParts,
  notCancellable: (b) =>
    b.booking_status === 'cancelled'
      ? new DomainError('cancellation-not-allowed', `Booking ${b.id} is already cancelled`, { reason: 'already_cancelled' })
      : undefined,
};

/**
 * Operator cancel: the seat freed, the session's count down,
 * refunded before `free_cancellation_until` (or always, when the session is
 * cancelled) and never for a no-show; kit not yet posted is not posted.
 */
export async function cancelVls(
  deps: Deps,
  id: number,
  clientId: string,
  how: { reason?: string; by?: 'operator' | 'system'; alwaysRefund?: boolean } = {},
): Promise<VlsBooking> {
  return retryOnConflict(async () => {
    const booking = await getBookingItem<VlsBooking>(deps, clientId, id, VLS_FAMILY);
    if (!booking) throw new DomainError('not-found', `No booking ${id}`);
    return cancelBookingOf(deps, VLS_CHANGING, booking, {
      reason: how.reason,
      by: how.by ?? 'operator',
      refund: refundDue(booking, deps.clock(), how.alwaysRefund),
    });
  });
}
