import type { Money } from '../commerce/money.js';
import { formatMoney } from '../commerce/charges.js';
import { certificateAvailable, type Certificate } from '../documents/certificates.js';
import { bookingPaymentLink, type EmailContent } from '../messaging/email-templates.js';
import { formatWithOffset, readableTime } from '../platform/time.js';
import type { BookingRecord } from './kind.js';

/**
 * What course bookings (practical training, virtual life-support) have in
 * common beyond every booking's fields: a trainee, a refund window, the
 * training's outcome and its certificate; and how those look in the API.
 */

export type Attendance = 'pending' | 'attended' | 'no_show';
export type Result = 'pending' | 'passed' | 'not_passed';

export interface CourseBookingRecord extends BookingRecord {
  candidate: { first_name: string; last_name: string; email: string; phone: string; job_role: string; nmc_number: string | null };
  agency_contact: { name: string | null; email: string | null };
  course: { id: number; name: string; code?: string };
  course_id: number;
  /** The course day (service time zone). */
  date: string;
  free_cancellation_until: string;
  training_status: 'scheduled' | 'completed' | 'cancelled';
  attendance: Attendance;
  result: Result;
  booking_invite_id: number | null;
  certificate?: Certificate;
}

/** The fields of a course booking every course family shows alike. */
export function courseBookingView(b: CourseBookingRecord, timeZone: string) {
  const at = (instant: string) => formatWithOffset(instant, timeZone);
  return {
    id: b.id,
    booking_invite_id: b.booking_invite_id,
    candidate: { name: `${b.candidate.first_name} ${b.candidate.last_name}`, email: b.candidate.email, phone: b.candidate.phone, job_role: b.candidate.job_role, nmc_number: b.candidate.nmc_number },
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
    cancellation: b.cancellation ? { reason: b.cancellation.reason, refunded: b.pay_status === 'refunded', cancelled_by: b.cancellation.cancelled_by, cancelled_at: at(b.cancellation.cancelled_at) } : null,
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
