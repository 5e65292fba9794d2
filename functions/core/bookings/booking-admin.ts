import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { planRefund, type ChargeRecord } from '../commerce/charges.js';
import { getPaymentRequest, isPayable, paymentRequestPaid } from '../commerce/payment-requests.js';
import { deleteItem, part, putItem, transact, TransactionFailed, updateItem, type Condition, type Failure, type Part } from '../platform/transact.js';
import { bookingKeys, getBookingItem, slotFree, toBookingView, type Attendance, type BookingItem } from './bookings.js';
import { CLINICAL_FAMILY, loadCatalog } from '../clinical-interview/catalog.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { candidateSlots, holdKeys } from '../inventory/holds.js';
import type { EventKindOf } from '../events/catalogue.js';
import { eventPut } from '../events/outbox.js';
import { retryOnConflict } from '../platform/db.js';

/**
 * What operators do to bookings after creation (the operator CLI, not the
 * agency API): cancel, reschedule, mark attendance, complete, attach the
 * report, and confirm a candidate's payment. Each writes its event in the
 * same transaction. Operators name bookings of the clinical interview family;
 * everything after the lookup follows the booking's own family.
 */

/** Operators know a booking by its family and id alone; the index tells whose it is. */
export async function findBooking(deps: Deps, id: number, family: FamilyId = CLINICAL_FAMILY): Promise<BookingItem> {
  const byId = bookingKeys.byId(family, id);
  const { Items = [] } = await deps.db.send(
    new QueryCommand({
      TableName: deps.table,
      IndexName: 'gsi1',
      KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk = :sk',
      ExpressionAttributeValues: { ':pk': byId.gsi1pk, ':sk': byId.gsi1sk },
    }),
  );
  if (!Items[0]) throw new DomainError('not-found', `No booking ${id}`);
  // The index may lag; read the item itself for the truth.
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: bookingKeys.booking(String(Items[0].client_id), family, id), ConsistentRead: true }),
  );
  return Item as BookingItem;
}

/** Named condition: nobody changed the booking since it was read. */
const bookingUnchanged = (booking: BookingItem): Condition => ({ expression: 'updated_at = :seen', values: { ':seen': booking.updated_at } });

/** Updates a booking conditionally on the state it was read in (part "booking"), with its event and any other parts. */
async function changeBooking(
  deps: Deps,
  booking: BookingItem,
  changes: Partial<BookingItem>,
  event: EventKindOf<'clinical-interview'> | undefined,
  others: Part[] = [],
  failures: Record<string, Failure> = {},
): Promise<BookingItem> {
  const now = deps.clock().toISOString();
  const updated: BookingItem = { ...booking, ...changes, updated_at: now };
  const parts = [part('booking', updateItem(deps, bookingKeys.booking(booking.client_id, booking.family, booking.id), { set: { ...changes, updated_at: now } }, bookingUnchanged(booking))), ...others];
  if (event) {
    parts.push(part('event', eventPut(deps, { type: event, client_id: booking.client_id, family: booking.family, data: toBookingView(updated, deps.config.serviceTimeZone) })));
  }
  await transact(deps, parts, failures);
  return updated;
}

/** What the booking's charge recorded, for its refund. */
const chargeOf = (b: BookingItem): ChargeRecord => ({
  client_id: b.client_id,
  family: b.family,
  booking_id: b.id,
  product: { kind: 'interview_type', ...b.interview_type },
  price: b.price,
  pay_option: b.pay_option,
  pay_status: b.pay_status,
  payment_token: b.payment_token,
});

/** The part that frees the booking's slot lock: only the lock this booking holds. */
const slotFreed = (deps: Deps, booking: BookingItem) =>
  part('old slot', deleteItem(deps, holdKeys.slotLock(booking.family, booking.date, booking.time, booking.interviewer.id), { expression: 'booking_id = :id', values: { ':id': booking.id } }));

function requireScheduled(booking: BookingItem) {
  if (booking.booking_status === 'cancelled' || booking.interview_status !== 'scheduled') {
    throw new DomainError('invalid-state', `Booking ${booking.id} is ${booking.booking_status} and ${booking.interview_status}`);
  }
}

/** Cancels a scheduled booking, frees its slot and gives back what was paid. */
export async function cancelBooking(deps: Deps, id: number, reason?: string) {
  return retryOnConflict(async () => {
    const booking = await findBooking(deps, id);
    requireScheduled(booking);
    const refund = await planRefund(deps, chargeOf(booking), { note: reason });
    const updated = await changeBooking(deps, booking, { booking_status: 'cancelled', interview_status: 'cancelled', pay_status: refund.payStatus }, 'booking.cancelled', [slotFreed(deps, booking), ...refund.parts]);
    return toBookingView(updated, deps.config.serviceTimeZone);
  });
}

/** Moves a scheduled booking to another free slot of its type. */
export async function rescheduleBooking(deps: Deps, id: number, to: { date: string; time: string }) {
  const booking = await findBooking(deps, id);
  requireScheduled(booking);
  const now = deps.clock();
  const catalog = await loadCatalog(deps);
  const { slots } = candidateSlots(catalog, booking.interview_type.id, to.date, to.time, deps.config.serviceTimeZone, now);
  for (const slot of slots) {
    const interviewer = catalog.interviewers.find((i) => i.id === slot.interviewerId)!;
    try {
      const updated = await changeBooking(
        deps,
        booking,
        { date: slot.date, time: slot.time, start_at: slot.startAt.toISOString(), end_at: slot.endAt.toISOString(), interviewer: { id: interviewer.id, name: interviewer.name } },
        'booking.rescheduled',
        [
          part('new slot', putItem(deps, { ...holdKeys.slotLock(booking.family, slot.date, slot.time, slot.interviewerId), entity: 'slot-lock', state: 'booked', booking_id: id, client_id: booking.client_id }, slotFree(now.toISOString()))),
          slotFreed(deps, booking),
        ],
        { booking: new DomainError('invalid-state', `Booking ${id} changed meanwhile; try again`) },
      );
      return toBookingView(updated, deps.config.serviceTimeZone);
    } catch (err) {
      if (err instanceof TransactionFailed && err.has('new slot')) continue; // that interviewer's slot is taken
      throw err;
    }
  }
  throw new DomainError('slot-unavailable', `No free slot on ${to.date} at ${to.time}`);
}

export async function markAttendance(deps: Deps, id: number, attendance: Exclude<Attendance, 'pending'>) {
  const booking = await findBooking(deps, id);
  if (booking.booking_status !== 'booked') throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status}`);
  const updated = await changeBooking(deps, booking, { attendance }, undefined);
  return toBookingView(updated, deps.config.serviceTimeZone);
}

export async function completeInterview(deps: Deps, id: number) {
  const booking = await findBooking(deps, id);
  requireScheduled(booking);
  if (booking.booking_status !== 'booked') throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status}`);
  const updated = await changeBooking(
    deps,
    booking,
    { interview_status: 'completed', attendance: booking.attendance === 'pending' ? 'attended' : booking.attendance },
    'booking.interview_completed',
  );
  return toBookingView(updated, deps.config.serviceTimeZone);
}

/** Records that the report is stored under `reportKey` and tells the agency. */
export async function markReportAvailable(deps: Deps, id: number, reportKey: string) {
  const booking = await findBooking(deps, id);
  if (booking.interview_status !== 'completed') throw new DomainError('invalid-state', `Complete the interview of booking ${id} first`);
  const updated = await changeBooking(deps, booking, { interview_report_available: true, report_key: reportKey }, 'booking.interview_report_available');
  return toBookingView(updated, deps.config.serviceTimeZone);
}

/** The payment page reported success: the booking is confirmed. Paying twice confirms once. */
export async function confirmCandidatePayment(deps: Deps, token: string, providerReference: string, family: FamilyId = CLINICAL_FAMILY) {
  const request = await getPaymentRequest(deps, family, token);
  if (!request) throw new DomainError('not-found', 'No such payment');
  const booking = (await getBookingItem(deps, request.client_id, request.booking_id, family))!;
  if (request.status === 'paid') return toBookingView(booking, deps.config.serviceTimeZone);
  const unpayable = new DomainError('invalid-state', 'This booking can no longer be paid for');
  if (!isPayable(request, deps.clock()) || booking.booking_status !== 'pending_payment') throw unpayable;
  const updated = await changeBooking(
    deps,
    booking,
    { booking_status: 'booked', pay_status: 'completed' },
    'booking.confirmed',
    [part('payment request', paymentRequestPaid(deps, family, token, providerReference))],
    { 'payment request': unpayable },
  );
  return toBookingView(updated, deps.config.serviceTimeZone);
}
