import { GetCommand, QueryCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { bookingKeys, getBookingItem, toBookingView, type Attendance, type BookingItem } from './bookings.js';
import { CLINICAL_FAMILY, loadCatalog } from '../clinical-interview/catalog.js';
import { cancellationReasons, failedCondition } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { candidateSlots, holdKeys, SLOT_FREE } from '../inventory/holds.js';
import type { EventKindOf } from '../events/catalogue.js';
import { eventPut } from '../events/outbox.js';
import { ledgerPut, newLedgerEntry, readWallet, walletChange, walletKeys } from '../commerce/wallets.js';
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

/** Updates a booking conditionally on the state it was read in, with its event and any extra items. */
async function changeBooking(
  deps: Deps,
  booking: BookingItem,
  changes: Partial<BookingItem>,
  event: EventKindOf<'clinical-interview'> | undefined,
  extraItems: object[] = [],
): Promise<BookingItem> {
  const now = deps.clock().toISOString();
  const updated: BookingItem = { ...booking, ...changes, updated_at: now };
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ':seen': booking.updated_at };
  const sets = Object.entries({ ...changes, updated_at: now }).map(([field, value], i) => {
    names[`#f${i}`] = field;
    values[`:v${i}`] = value;
    return `#f${i} = :v${i}`;
  });
  const items: object[] = [
    {
      Update: {
        TableName: deps.table,
        Key: bookingKeys.booking(booking.client_id, booking.family, booking.id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        // Nobody else changed it since we read it.
        ConditionExpression: 'updated_at = :seen',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      },
    },
    ...extraItems,
  ];
  if (event) {
    items.push(eventPut(deps, { type: event, client_id: booking.client_id, family: booking.family, data: toBookingView(updated, deps.config.serviceTimeZone) }));
  }
  await deps.db.send(new TransactWriteCommand({ TransactItems: items as never }));
  return updated;
}

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
    const { client_id, family } = booking;
    const ledger = { client_id, family, kind: 'refund' as const, booking_id: id, interview_type: booking.interview_type, note: reason };
    const refund: object[] = [];
    let payStatus = booking.pay_status;
    if (booking.pay_status === 'completed' && booking.pay_option === 'credits') {
      const wallet = await readWallet(deps, walletKeys.credits(client_id, family, booking.interview_type.id));
      refund.push(...walletChange(deps, wallet, 1, { ...ledger, unit: 'credits' }));
      payStatus = 'refunded';
    } else if (booking.pay_status === 'completed' && booking.pay_option === 'balance') {
      const wallet = await readWallet(deps, walletKeys.money(client_id, family));
      refund.push(...walletChange(deps, wallet, booking.price.amount, { ...ledger, unit: 'GBP' }));
      payStatus = 'refunded';
    } else if (booking.pay_status === 'invoiced') {
      // A credit note against the invoice.
      refund.push(ledgerPut(deps, newLedgerEntry(deps, { ...ledger, amount: -booking.price.amount, unit: 'GBP', balance_after: null })));
      payStatus = 'refunded';
    } else if (booking.payment_token) {
      // Unpaid: the payment link stops working.
      refund.push({
        Update: {
          TableName: deps.table,
          Key: bookingKeys.paymentRequest(family, booking.payment_token),
          UpdateExpression: 'SET #status = :cancelled',
          ConditionExpression: '#status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':cancelled': 'cancelled', ':pending': 'pending' },
        },
      });
    }
    const freeSlot = {
      Delete: {
        TableName: deps.table,
        Key: holdKeys.slotLock(family, booking.date, booking.time, booking.interviewer.id),
        ConditionExpression: 'booking_id = :id',
        ExpressionAttributeValues: { ':id': id },
      },
    };
    const updated = await changeBooking(deps, booking, { booking_status: 'cancelled', interview_status: 'cancelled', pay_status: payStatus }, 'booking.cancelled', [freeSlot, ...refund]);
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
          {
            Put: {
              TableName: deps.table,
              Item: { ...holdKeys.slotLock(booking.family, slot.date, slot.time, slot.interviewerId), entity: 'slot-lock', state: 'booked', booking_id: id, client_id: booking.client_id },
              ConditionExpression: SLOT_FREE,
              ExpressionAttributeNames: { '#state': 'state' },
              ExpressionAttributeValues: { ':held': 'held', ':now': now.toISOString() },
            },
          },
          {
            Delete: {
              TableName: deps.table,
              Key: holdKeys.slotLock(booking.family, booking.date, booking.time, booking.interviewer.id),
              ConditionExpression: 'booking_id = :id',
              ExpressionAttributeValues: { ':id': id },
            },
          },
        ],
      );
      return toBookingView(updated, deps.config.serviceTimeZone);
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (failedCondition(reasons?.[1])) continue; // that interviewer's slot is taken
      if (failedCondition(reasons?.[0])) throw new DomainError('invalid-state', `Booking ${id} changed meanwhile; try again`);
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

export interface PaymentRequest {
  token: string;
  client_id: string;
  family: FamilyId;
  booking_id: number;
  amount: { amount: number; currency: string };
  status: 'pending' | 'paid' | 'cancelled';
}

export async function getPaymentRequest(deps: Deps, token: string, family: FamilyId = CLINICAL_FAMILY): Promise<PaymentRequest | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: bookingKeys.paymentRequest(family, token), ConsistentRead: true }));
  return Item as PaymentRequest | undefined;
}

/** The payment page reported success: the booking is confirmed. Paying twice confirms once. */
export async function confirmCandidatePayment(deps: Deps, token: string, providerReference: string, family: FamilyId = CLINICAL_FAMILY) {
  const request = await getPaymentRequest(deps, token, family);
  if (!request) throw new DomainError('not-found', 'No such payment');
  const booking = (await getBookingItem(deps, request.client_id, request.booking_id, family))!;
  if (request.status === 'paid') return toBookingView(booking, deps.config.serviceTimeZone);
  if (request.status !== 'pending' || booking.booking_status !== 'pending_payment') {
    throw new DomainError('invalid-state', 'This booking can no longer be paid for');
  }
  const updated = await changeBooking(deps, booking, { booking_status: 'booked', pay_status: 'completed' }, 'booking.confirmed', [
    {
      Update: {
        TableName: deps.table,
        Key: bookingKeys.paymentRequest(family, token),
        UpdateExpression: 'SET #status = :paid, paid_at = :now, provider_reference = :ref',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':paid': 'paid', ':pending': 'pending', ':now': deps.clock().toISOString(), ':ref': providerReference },
      },
    },
  ]);
  return toBookingView(updated, deps.config.serviceTimeZone);
}
