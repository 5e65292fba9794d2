import { cancelBookingOf, refundDue } from '../bookings/change.js';
import type { ChangingKind } from '../bookings/kind.js';
import { getBookingItem } from '../bookings/records.js';
import { eventPut } from '../events/outbox.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { part } from '../platform/transact.js';
import { bookingOutcomeParts } from '../portal-v2/booking-follow.js';
import {
  cancellationRefusal,
  PRACTICAL_BOOKINGS,
  PRACTICAL_PARTS,
  toPracticalBookingView,
  type PracticalBooking,
  type PracticalBookingView,
} from './bookings.js';
import { getTrainingEventItem, PRACTICAL_FAMILY } from './catalogue.js';
import { eventFreedParts } from './event-count.js';

/**
 * Practical training bookings as changing them needs them: what a
 * cancellation and a payment's confirmation write besides the booking, and
 * the portal v2 request item that follows a booking's outcome. Apart from
 * ./bookings.ts so that making a booking, through the API or a page, does
 * not load any of it.
 */
export const PRACTICAL_CHANGING: ChangingKind<PracticalBooking, PracticalBookingView> = {
  ...PRACTICAL_BOOKINGS,
  cancelledFields: { training_status: 'cancelled' },
  cancelParts: async (deps, b) => {
    const event = await getTrainingEventItem(deps, b.training_event_id);
    return event ? eventFreedParts(deps, event, PRACTICAL_PARTS.event) : [];
  },
  // A certificate issued before the candidate paid becomes available with the payment, in its transaction.
  confirmParts: (deps, b) =>
    b.certificate
      ? [
          part(
            PRACTICAL_PARTS.certificate,
            eventPut(deps, {
              family: PRACTICAL_FAMILY,
              type: 'booking.certificate_available',
              client_id: b.client_id,
              data: toPracticalBookingView(b, deps.config.serviceTimeZone),
            }),
          ),
        ]
      : [],
  // A booking made for a portal v2 request's item: the item takes its outcome (certified, or failed).
  follow: bookingOutcomeParts,
  // Operators and the payment sweep may cancel whatever is not cancelled; the agency's own rule is `cancellationRefusal`.
  notCancellable: (b) =>
    b.booking_status === 'cancelled'
      ? new DomainError('cancellation-not-allowed', `Booking ${b.id} is already cancelled`, { reason: 'already_cancelled' })
      : undefined,
};

export interface CancelOptions {
  by: 'agency' | 'operator' | 'system';
  reason?: string;
  /** Operators cancelling an event refund everyone, whatever the time. */
  alwaysRefund?: boolean;
}

/**
 * Cancels a booking: the seat freed, the event's count down (re-arming its
 * seats-low alert), refunded only before `free_cancellation_until` and never
 * for a no-show (decision 7), `booking.cancelled`.
 */
export async function cancelPractical(deps: Deps, clientId: string, id: number, how: CancelOptions): Promise<PracticalBookingView> {
  const kind = PRACTICAL_CHANGING;
  return retryOnConflict(async () => {
    const booking = await getBookingItem<PracticalBooking>(deps, clientId, id, PRACTICAL_FAMILY);
    if (!booking) throw new DomainError('not-found', `No booking ${id}`);
    const now = deps.clock();
    const refusal = how.by === 'agency' ? cancellationRefusal(booking, now) : kind.notCancellable(booking);
    if (refusal) throw refusal;
    const refund = refundDue(booking, now, how.alwaysRefund);
    const cancelled = await cancelBookingOf(deps, kind, booking, { reason: how.reason, by: how.by, refund });
    return toPracticalBookingView(cancelled, deps.config.serviceTimeZone);
  });
}
