import { randomInt } from 'node:crypto';
import { formatMoney } from '../commerce/charges.js';
import { bookingPaymentLink } from '../messaging/email-templates.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { randomToken } from '../platform/secrets.js';
import { formatWithOffset, readableTime } from '../platform/time.js';
import type { ATTENDANCES, PayOption, SESSION_STATUSES } from '../platform/booking-vocabulary.js';
import type { BookingRecord, ChangingKind } from '../bookings/kind.js';
import { clinicalHolds } from './holds.js';
import { slotUnit } from './slots.js';

/**
 * Clinical interview bookings as a booking kind: an interviewer's slot is the
 * unit, the interview type the product; the interview's own status, its video
 * meeting and its report are this family's alone.
 */

export type InterviewStatus = (typeof SESSION_STATUSES)[number];
export type Attendance = (typeof ATTENDANCES)[number];

export interface CandidateInput {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_role: string;
  nmc_number: string;
}

export interface NewBooking extends CandidateInput {
  hold_hash: string;
  pay_option: PayOption;
  agency_contact_name?: string;
  agency_contact_email?: string;
}

export interface BookingItem extends BookingRecord {
  candidate: CandidateInput;
  agency_contact: { name: string | null; email: string | null };
  interview_type: { id: number; name: string };
  interviewer: { id: number; name: string };
  date: string;
  time: string;
  interview_status: InterviewStatus;
  attendance: Attendance;
  video_meeting: { meeting_id: string; join_link: string; password: string };
  interview_report_available: boolean;
  report_key?: string;
}

/**
 * The booking as the specification lists it, `payment_due_at` and `updated_at`:
 * nothing more (the contract test is strict).
 */
export function toBookingView(b: BookingItem, timeZone: string) {
  return {
    id: b.id,
    candidate: {
      // An erased candidate's last name is empty: the name is "Erased".
      name: `${b.candidate.first_name} ${b.candidate.last_name}`.trim(),
      email: b.candidate.email,
      phone: b.candidate.phone,
      job_role: b.candidate.job_role,
      nmc_number: b.candidate.nmc_number,
    },
    interview_type: b.interview_type,
    interviewer: b.interviewer,
    start_date: formatWithOffset(b.start_at, timeZone),
    end_date: formatWithOffset(b.end_at, timeZone),
    booking_status: b.booking_status,
    interview_status: b.interview_status,
    attendance: b.attendance,
    pay_status: b.pay_status,
    pay_option: b.pay_option,
    payment_due_at: b.booking_status === 'pending_payment' && b.payment_due_at ? formatWithOffset(b.payment_due_at, timeZone) : null,
    booked_by: b.booked_by,
    video_meeting: b.video_meeting,
    interview_report_available: b.interview_report_available,
    created_at: formatWithOffset(b.created_at, timeZone),
    // Set by every write: what the Services feed orders by and a poller
    // resumes from, so to the millisecond (a booking's updated_at grows by at least that with each change).
    updated_at: formatWithOffset(b.updated_at, timeZone, { milliseconds: true }),
  };
}
export type BookingView = ReturnType<typeof toBookingView>;

/** A video room under the configured base URL; `room` names its kind (a virtual life-support session's room too). */
export function videoMeeting(deps: Deps, room = 'clinical-interview') {
  const meetingId = Array.from({ length: 10 }, () => randomInt(10)).join('');
  return {
    meeting_id: meetingId,
    join_link: `${deps.config.videoMeetingBaseUrl}/${room}-${meetingId}`,
    password: randomToken(6).replace(/[-_]/g, 'x').slice(0, 8),
  };
}

export function pickCandidate(input: CandidateInput): CandidateInput {
  const { first_name, last_name, email, phone, job_role, nmc_number } = input;
  return { first_name, last_name, email, phone, job_role, nmc_number };
}

export const requireScheduled = (booking: BookingItem): DomainError | undefined =>
  booking.booking_status === 'cancelled' || booking.interview_status !== 'scheduled'
    ? new DomainError('invalid-state', `Booking ${booking.id} is ${booking.booking_status} and ${booking.interview_status}`)
    : undefined;

/** The clinical kind in a family (tests stand a second family in through the same kind). */
export const clinicalBookings = (family: FamilyId): ChangingKind<BookingItem, BookingView> => ({
  family,
  holds: clinicalHolds(family),
  // The payment deadline: the earlier of 24 hours after booking and 2 hours before the start.
  deadline: { afterBookingHours: 24, beforeStartHours: 2 },
  view: toBookingView,
  unitOf: (b) => slotUnit(b.family, b.date, b.time, b.interviewer.id),
  productOf: (b) => ({ kind: 'interview_type', ...b.interview_type, price: b.price }),
  cancelledFields: { interview_status: 'cancelled' },
  notCancellable: requireScheduled,
  // An interview is never booked for a portal v2 request's item: nothing follows its changes.
  follow: null,
  paymentEmail: (b, input) => ({
    to: b.candidate.email,
    ...bookingPaymentLink({
      candidateName: `${b.candidate.first_name} ${b.candidate.last_name}`,
      interviewType: b.interview_type.name,
      when: readableTime(b.start_at, input.timeZone),
      agency: input.agency,
      amount: formatMoney(b.price),
      paymentUrl: input.paymentUrl,
      payBy: b.payment_due_at && readableTime(b.payment_due_at, input.timeZone),
    }),
  }),
  calendarEntry: (b) => ({
    attendee: { name: `${b.candidate.first_name} ${b.candidate.last_name}`, email: b.candidate.email },
    title: b.interview_type.name,
    description: [
      `Your ${b.interview_type.name} with ${b.interviewer.name} is a video call.`,
      `Join: ${b.video_meeting.join_link}`,
      `Meeting ID: ${b.video_meeting.meeting_id}`,
      `Password: ${b.video_meeting.password}`,
    ].join('\n'),
    location: b.video_meeting.join_link,
  }),
});
