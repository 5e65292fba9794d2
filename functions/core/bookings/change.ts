import { planRefund, type ChargeRecord } from '../commerce/charges.js';
import { bookingCancelled, paymentSettled } from '../platform/metrics.js';
import { candidatePaymentPart } from '../commerce/refunds.js';
import { productRef } from '../commerce/ledger.js';
import { getPaymentRequest, isPayable, paymentRequestPaid } from '../commerce/payment-requests.js';
import type { EventKind } from '../events/kinds.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { deleteItem, part, transact, TransactionFailed, updateItem, type Condition, type Failure, type Part } from '../platform/transact.js';
import { freeUnit } from '../inventory/units.js';
import { linkPlaceReleased } from './booking-link.js';
import type { BookingEvent, BookingKind, BookingRecord, ChangingKind } from './kind.js';
import { agencyName, nextSequence, noticeOf, noticePart } from './calendar-notices.js';
import { emailPut } from '../events/outbox.js';
import { bookingEventPart, bookingKeys, getBookingItem, paymentDueOf } from './records.js';
import { scheduleParts } from './schedule.js';
import { changeLogParts, nextUpdatedAt } from './change-log.js';

/**
 * Changing and cancelling a booking of any kind. Each change is one
 * transaction conditional on the booking as it was read, with its event.
 */

/**
 * *bookingUnchanged*: nobody changed the booking since it was read. A version
 * count, not `updated_at`: two changes within one millisecond would carry the same time.
 */
export const bookingUnchanged = (booking: BookingRecord): Condition =>
  booking.version === undefined ? { expression: 'attribute_not_exists(version)' } : { expression: 'version = :seen', values: { ':seen': booking.version } };

/** Updates a booking as it was read (part "booking"), with its event, the candidate's notice if the event calls for one, and any other parts. */
export async function changeBooking<B extends BookingRecord>(
  deps: Deps,
  kind: ChangingKind<B>,
  booking: B,
  changes: Partial<B>,
  event: BookingEvent | EventKind | undefined,
  others: Part[] = [],
  failures: Record<string, Failure> = {},
): Promise<B> {
  const now = nextUpdatedAt(booking.updated_at, deps.clock());
  const notice = noticeOf(event, { ...booking, ...changes });
  const version = (booking.version ?? 0) + 1;
  const all = notice ? { ...changes, calendar_sequence: nextSequence(booking) } : changes;
  const updated: B = { ...booking, ...all, updated_at: now, version };
  const parts = [
    part(
      'booking',
      updateItem(
        deps,
        bookingKeys.booking(booking.client_id, booking.family, booking.id),
        { set: { ...all, updated_at: now, version } },
        bookingUnchanged(booking),
      ),
    ),
    ...changeLogParts(deps, updated, booking),
    ...scheduleParts(deps, updated, booking),
    ...others,
  ];
  if (event) parts.push(bookingEventPart(deps, kind, event as BookingEvent, updated));
  if (notice) parts.push(noticePart(deps, kind, notice, updated, { agency: await agencyName(deps, booking.client_id), before: booking }));
  // An unpaid booking moved: the candidate gets the payment e-mail again, with the new time and the same link.
  if (event === 'booking.rescheduled' && updated.booking_status === 'pending_payment' && updated.payment_url) {
    const email = kind.paymentEmail(updated, {
      agency: await agencyName(deps, booking.client_id),
      paymentUrl: updated.payment_url,
      timeZone: deps.config.serviceTimeZone,
    });
    parts.push(part('payment e-mail', emailPut(deps, email)));
  }
  await transactFollowed(deps, parts, failures, () => (kind.follow ? kind.follow(deps, booking, updated) : Promise.resolve([])));
  return updated;
}

/**
 * The change with what follows it elsewhere. When only a follower's part
 * failed (its request changed meanwhile), the booking is as read: the
 * followers are read again and the change tried again.
 */
async function transactFollowed(deps: Deps, parts: Part[], failures: Record<string, Failure>, follow: () => Promise<Part[]>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const followed = await follow();
    try {
      return await transact(deps, [...parts, ...followed], failures);
    } catch (err) {
      const onlyFollowers =
        err instanceof TransactionFailed && [...err.failed.keys(), ...err.conflicted].every((name) => followed.some((p) => p.name === name));
      if (!onlyFollowers || followed.length === 0 || attempt >= 5) throw err;
    }
  }
}

/** The parts that end a booking's wait for payment: its deadline entry and its booking link place. */
async function waitEnded(deps: Deps, booking: BookingRecord): Promise<Part[]> {
  const due = booking.payment_due_at && booking.booking_status === 'pending_payment' ? [part('payment due', deleteItem(deps, paymentDueOf(booking)))] : [];
  return [...due, ...(await linkPlaceReleased(deps, booking))];
}

/** What the booking's charge recorded, for its refund. */
const chargeOf = <B extends BookingRecord>(kind: BookingKind<B>, b: B): ChargeRecord => ({
  client_id: b.client_id,
  family: b.family,
  booking_id: b.id,
  product: kind.productOf(b),
  price: b.price,
  pay_option: b.pay_option,
  pay_status: b.pay_status,
  payment_token: b.payment_token,
});

/**
 * Decision 7: a cancellation is refunded before the booking's
 * `free_cancellation_until`, or always when the operator cancels a whole
 * session; a no-show never.
 */
export const refundDue = (b: { attendance?: string; free_cancellation_until: string }, now: Date, always = false): boolean =>
  b.attendance !== 'no_show' && (always || now.toISOString() < b.free_cancellation_until);

export interface Cancellation {
  reason?: string;
  by: 'operator' | 'agency' | 'system';
  /** false: keep what was paid (a late cancellation); an unpaid request is stopped all the same. */
  refund?: boolean;
}

/**
 * Cancels a booking as it was read: its unit freed, its charge undone by
 * commerce's `planRefund`, its wait for payment ended, `booking.cancelled`.
 */
export async function cancelBookingOf<B extends BookingRecord>(deps: Deps, kind: ChangingKind<B>, booking: B, how: Cancellation): Promise<B> {
  const refusal = kind.notCancellable(booking);
  if (refusal) throw refusal;
  const refund = await planRefund(deps, chargeOf(kind, booking), { note: how.reason, refund: how.refund });
  const cancellation = { reason: how.reason ?? null, cancelled_by: how.by, cancelled_at: deps.clock().toISOString() };
  const changes = {
    ...kind.cancelledFields,
    ...kind.cancelChanges?.(booking, deps.clock()),
    booking_status: 'cancelled',
    pay_status: refund.payStatus,
    cancellation,
  } as Partial<B>;
  const others = [
    freeUnit(deps, kind.unitOf(booking), { bookingId: booking.id }),
    ...refund.parts,
    ...(await waitEnded(deps, booking)),
    ...((await kind.cancelParts?.(deps, booking, changes)) ?? []),
  ];
  const cancelled = await changeBooking(deps, kind, booking, changes, 'booking.cancelled', others);
  bookingCancelled(kind.family);
  return cancelled;
}

/** The payment page reported success: the booking is confirmed, unless its deadline passed. Paying twice confirms once. */
export async function confirmPayment<B extends BookingRecord>(
  deps: Deps,
  kind: ChangingKind<B>,
  token: string,
  providerReference: string,
  extra: Part[] = [],
): Promise<B> {
  return retryOnConflict(async () => {
    const request = await getPaymentRequest(deps, kind.family, token);
    const booking = request && (await getBookingItem<B>(deps, request.client_id, request.booking_id, kind.family));
    if (!request || !booking) throw new DomainError('not-found', 'No such payment');
    if (request.status === 'paid') return booking;
    const unpayable = new DomainError('invalid-state', 'This booking can no longer be paid for');
    if (!isPayable(request, deps.clock()) || booking.booking_status !== 'pending_payment') throw unpayable;
    const changes = { booking_status: 'booked', pay_status: 'completed' } as Partial<B>;
    const confirmed = { ...booking, ...changes, updated_at: deps.clock().toISOString() };
    const paid = candidatePaymentPart(deps, {
      client_id: booking.client_id,
      family: kind.family,
      booking_id: booking.id,
      product: productRef(kind.productOf(booking)),
      amount: request.amount.amount,
      providerReference,
    });
    const others = [
      part('payment request', paymentRequestPaid(deps, kind.family, token, providerReference)),
      paid,
      ...(await waitEnded(deps, booking)),
      ...(kind.confirmParts?.(deps, confirmed) ?? []),
      ...extra,
    ];
    const confirmedBooking = await changeBooking(deps, kind, booking, changes, 'booking.confirmed', others, { 'payment request': unpayable });
    paymentSettled(kind.family, 'succeeded');
    return confirmedBooking;
  });
}
