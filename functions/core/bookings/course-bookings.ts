import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { failedItem, isConditionalCheckFailed } from '../platform/conditions.js';
import { listClients } from '../access/clients.js';
import type { Money } from '../commerce/money.js';
import type { RESULTS, SESSION_STATUSES } from '../platform/booking-vocabulary.js';
import { sessionKeys } from '../inventory/sessions.js';
import type { FamilyId } from '../platform/families.js';
import type { Page } from '../platform/pagination.js';
import { formatMoney } from '../commerce/charges.js';
import { certificateAvailable, type Certificate } from '../documents/certificates.js';
import { bookingPaymentLink, type EmailContent } from '../messaging/email-templates.js';
import { formatWithOffset, readableTime } from '../platform/time.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { TransactionFailed, type Part } from '../platform/transact.js';
import type { BookingPlan } from './plan.js';
import type { Holder } from '../inventory/holds.js';
import type { RequestSource } from '../requests/shapes.js';
import { changeBooking } from './change.js';
import type { BookingRecord, ChangingKind, PaymentDeadline } from './kind.js';

/**
 * What course bookings (practical training, virtual life-support) have in
 * common beyond every booking's fields: a trainee, a refund window, the
 * training's outcome and its certificate; and how those look in the API.
 */

export type Attendance = 'pending' | 'attended' | 'no_show';
export type Result = (typeof RESULTS)[number];

export interface CourseBookingRecord extends BookingRecord {
  candidate: { first_name: string; last_name: string; email: string; phone: string; job_role: string; nmc_number: string | null };
  agency_contact: { name: string | null; email: string | null };
  course: { id: number; name: string; code?: string };
  course_id: number;
  /** The course day (service time zone). */
  date: string;
  free_cancellation_until: string;
  training_status: (typeof SESSION_STATUSES)[number];
  attendance: Attendance;
  result: Result;
  booking_invite_id: number | null;
  certificate?: Certificate;
  /** The portal v2 request item this booking was made for (through its invite): it follows the booking's outcome. */
  source?: RequestSource;
}

/** How a course booking is made besides its input: whose hold, who booked, and through which invite, for which request item. */
export interface BookingOptions {
  /** Whose hold it is: the agency's (default) or an invite's. */
  holder?: Holder;
  bookedBy?: 'Agency' | 'Candidate';
  bookingInviteId?: number | null;
  /** The portal v2 request item the booking is made for (its invite's). */
  source?: RequestSource;
  /** Further parts of the booking's transaction (an invite marked used), with their failures; read again on each attempt. */
  extra?: (at: { now: Date; bookingId: number }) => Promise<Pick<BookingPlan, 'extraParts' | 'failures'>>;
  /** A candidate_pays deadline other than the family's (an anonymous booking through a public link). */
  deadline?: PaymentDeadline;
}

/** The fields of a course booking every course family shows alike. */
export function courseBookingView(b: CourseBookingRecord, timeZone: string) {
  const at = (instant: string) => formatWithOffset(instant, timeZone);
  return {
    id: b.id,
    booking_invite_id: b.booking_invite_id,
    candidate: {
      name: `${b.candidate.first_name} ${b.candidate.last_name}`.trim(),
      email: b.candidate.email,
      phone: b.candidate.phone,
      job_role: b.candidate.job_role,
      nmc_number: b.candidate.nmc_number,
    },
    agency_contact: b.agency_contact,
    start_date: at(b.start_at),
    end_date: at(b.end_at),
    free_cancellation_until: at(b.free_cancellation_until),
    payment_due_at: b.booking_status === 'pending_payment' && b.payment_due_at ? at(b.payment_due_at) : null,
    booking_status: b.booking_status,
    training_status: b.training_status,
    attendance: b.attendance,
    result: b.result,
    pay_status: b.pay_status,
    pay_option: b.pay_option,
    booked_by: b.booked_by,
    price: b.price,
    certificate_available: certificateAvailable(b),
    certificate: b.certificate ? { number: b.certificate.number, issued_at: at(b.certificate.issued_at), valid_until: b.certificate.valid_until } : null,
    cancellation: b.cancellation
      ? {
          reason: b.cancellation.reason,
          refunded: b.pay_status === 'refunded',
          cancelled_by: b.cancellation.cancelled_by,
          cancelled_at: at(b.cancellation.cancelled_at),
        }
      : null,
    created_at: at(b.created_at),
    updated_at: at(b.updated_at),
  };
}

/** The e-mail that asks the candidate to pay for a booking, named `what` ("BLS course"). */
export function paymentEmailFor(
  b: Pick<BookingRecord, 'start_at' | 'payment_due_at'> & { candidate: { first_name: string; last_name: string; email: string }; price: Money },
  what: string,
  input: { agency: string; paymentUrl: string; timeZone: string },
): EmailContent & { to: string } {
  return {
    to: b.candidate.email,
    ...bookingPaymentLink({
      candidateName: `${b.candidate.first_name} ${b.candidate.last_name}`,
      interviewType: what,
      when: readableTime(b.start_at, input.timeZone),
      agency: input.agency,
      amount: formatMoney(b.price),
      paymentUrl: input.paymentUrl,
      payBy: b.payment_due_at && readableTime(b.payment_due_at, input.timeZone),
    }),
  };
}

/** Attendance and results are recorded once the training has started, on a booked (paid) booking. */
export function requireStarted(deps: Deps, b: BookingRecord, what: string): void {
  if (b.booking_status !== 'booked') throw new DomainError('invalid-state', `Booking ${b.id} is ${b.booking_status}`);
  if (b.start_at > deps.clock().toISOString())
    throw new DomainError(
      'invalid-state',
      `Booking ${b.id} starts ${formatWithOffset(b.start_at, deps.config.serviceTimeZone)}: ${what} once the training has started`,
    );
}

/** `booking.attendance_marked`; a no-show has not passed and its training is over. `others` ride along (practical training's `booking.no_show`). */
export async function markAttendanceOf<B extends CourseBookingRecord>(
  deps: Deps,
  kind: ChangingKind<B>,
  booking: B,
  attendance: 'attended' | 'no_show',
  others: Part[] = [],
): Promise<B> {
  requireStarted(deps, booking, 'attendance can be marked');
  const changes = { attendance, ...(attendance === 'no_show' ? { result: 'not_passed', training_status: 'completed' } : {}) } as Partial<B>;
  return changeBooking(deps, kind, booking, changes, 'booking.attendance_marked', others);
}

/** The result of an attended booking; the training is then completed. */
export async function markResultOf<B extends CourseBookingRecord>(deps: Deps, kind: ChangingKind<B>, booking: B, result: 'passed' | 'not_passed'): Promise<B> {
  requireStarted(deps, booking, 'a result can be recorded');
  if (booking.attendance !== 'attended') throw new DomainError('invalid-state', `Mark booking ${booking.id} attended first`);
  return changeBooking(deps, kind, booking, { result, training_status: 'completed' } as Partial<B>, undefined);
}

/**
 * Cancels a session (a training event, a virtual session) that has not
 * started, then every booking on it, client by client: holds and bookings
 * refuse the session from the first write on; each booking is cancelled as
 * the family says (refunded in full, told by `booking.cancelled`). A session
 * that has started is refused: its training was given, and its bookings'
 * attendance, results and certificates stand (cancel a booking alone).
 */
export async function cancelSessionAndBookings(
  deps: Deps,
  family: FamilyId,
  sessionId: number,
  bookings: {
    list: (clientId: string, cursor?: string) => Promise<Page<{ id: number; booking_status: string }>>;
    cancel: (clientId: string, id: number) => Promise<unknown>;
  },
): Promise<number[]> {
  const now = deps.clock().toISOString();
  try {
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: sessionKeys.session(family, sessionId),
        UpdateExpression: 'SET cancelled_at = if_not_exists(cancelled_at, :now), updated_at = :now',
        ConditionExpression: 'attribute_exists(pk) AND start_at > :now',
        ExpressionAttributeValues: { ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
  } catch (err) {
    if (!isConditionalCheckFailed(err)) throw err;
    const session = failedItem(err);
    if (!session) throw new DomainError('not-found', `No session ${sessionId}`);
    throw new DomainError(
      'invalid-state',
      `Session ${sessionId} started ${formatWithOffset(String(session.start_at), deps.config.serviceTimeZone)}: it can no longer be cancelled`,
    );
  }
  const cancelled: number[] = [];
  for (const client of await listClients(deps)) {
    let cursor: string | undefined;
    do {
      const page = await bookings.list(client.clientId, cursor);
      for (const b of page.data.filter((b) => b.booking_status !== 'cancelled')) {
        await bookings.cancel(client.clientId, b.id);
        cancelled.push(b.id);
      }
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
  return cancelled;
}

/**
 * Demo data: a hold and its booking made as of `then`. A hold made in the
 * past carries a TTL long gone, and DynamoDB (Local too) may delete it, or
 * its unit lock, between the hold and the booking (seen on a loaded CI
 * machine): the pair is then made again, 31 minutes "later", so the lost
 * hold's marker has expired. A failed transaction wrote nothing.
 */
export async function bookAsOf<T>(deps: Deps, then: Date, make: (past: Deps) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const at = new Date(then.getTime() + (attempt - 1) * 31 * 60_000);
    try {
      return await make({ ...deps, clock: () => at });
    } catch (err) {
      const holdLost =
        (err instanceof DomainError && err.code === 'hold-not-found') || (err instanceof TransactionFailed && (err.has('hold') || err.has('unit')));
      if (!holdLost || attempt >= 5) throw err;
    }
  }
}
