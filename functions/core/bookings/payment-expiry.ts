import { queryAll, retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { TransactionFailed } from '../platform/transact.js';
import { cancelBookingOf } from './change.js';
import type { BookingRecord, ChangingKind } from './kind.js';
import { bookingKeys, getBookingItem } from './records.js';

/**
 * The payment-expiry sweep (every 5 minutes): cancels each candidate_pays
 * booking still unpaid at its `payment_due_at`, with reason
 * `payment_expired` — unit freed, payment request cancelled,
 * `booking.cancelled` — in one transaction conditional on the booking as
 * read, so two sweeps (or a sweep and a late payment) change it once. The
 * payment page refuses after the deadline whether or not this has run.
 */
export async function expireUnpaidBookings<B extends BookingRecord>(deps: Deps, kind: ChangingKind<B>): Promise<number> {
  const now = deps.clock().toISOString();
  const due = await queryAll(deps, {
    // Entries are `<due_at>#<client>#<id>`; every one before `<now>$` fell due at or before now ('$' follows '#').
    KeyConditionExpression: 'pk = :pk AND sk < :after',
    ExpressionAttributeValues: { ':pk': bookingKeys.paymentDuePartition(kind.family), ':after': `${now}$` },
    ConsistentRead: true,
  });
  let cancelled = 0;
  for (const entry of due) {
    const done = await retryOnConflict(async () => {
      const booking = await getBookingItem<B>(deps, String(entry.client_id), Number(entry.booking_id), kind.family);
      if (!booking || booking.booking_status !== 'pending_payment' || !booking.payment_due_at || booking.payment_due_at > deps.clock().toISOString())
        return false;
      try {
        await cancelBookingOf(deps, kind, booking, { reason: 'payment_expired', by: 'system' });
        return true;
      } catch (err) {
        // The booking changed: another sweep or the payment came first. Another part (a seat count another booking moved) is read again.
        if (err instanceof TransactionFailed && err.has('booking')) return false;
        throw err;
      }
    });
    if (done) cancelled++;
  }
  return cancelled;
}
