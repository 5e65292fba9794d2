import * as v from 'valibot';
import { int, nullable, str, timestamp } from './response-fields.js';
import { EQUIPMENT_STATUSES } from '../../core/virtual-life-support/equipment-vocabulary.js';
import { ATTENDANCES, BOOKING_STATUSES, PAY_STATUSES, RESULTS, SESSION_STATUSES } from '../../core/platform/booking-vocabulary.js';

/**
 * Response shapes, for the OpenAPI documents and the contract test. Strict
 * objects: a field the document does not name fails the contract test. Portal
 * v2's (and v1's) are in ./portal-v2-responses.ts, registration monitoring's in
 * ./registration-monitoring-responses.ts.
 */

export const Problem = v.looseObject({
  type: str,
  title: str,
  status: int,
  detail: str,
  errors: v.optional(v.array(v.looseObject({ detail: str, pointer: v.optional(str), parameter: v.optional(str), header: v.optional(str) }))),
});

export const page = <T extends v.GenericSchema>(item: T) => v.strictObject({ data: v.array(item), next_cursor: nullable(str) });
export const envelope = <T extends v.GenericSchema>(item: T) => v.strictObject({ data: item, message: str });

export const Money = v.strictObject({ amount: int, currency: str });
const Ref = v.strictObject({ id: int, name: str });

export const TokenPair = v.strictObject({ token_type: v.literal('Bearer'), access_token: str, expires_in: int, refresh_token: str, refresh_expires_in: int });
export const TokenInfo = v.strictObject({ active: v.boolean(), client_id: str, family: str, issued_at: timestamp, expires_at: timestamp });

export const InterviewType = v.strictObject({ id: int, name: str, duration_minutes: int, price: Money });
export const Timeslot = v.strictObject({ date: str, time: str, interview_type: Ref });
export const Hold = v.strictObject({
  hold_hash: str,
  expires_at: timestamp,
  expires_in_seconds: int,
  slot: v.strictObject({ date: str, time: str, interview_type: Ref }),
});
export const HoldConflict = v.looseObject({ ...Problem.entries, hold: Hold });
export const Booking = v.strictObject({
  id: int,
  // Null once the candidate's data was erased (POST /data-subjects/erasures).
  candidate: v.strictObject({ name: str, email: nullable(str), phone: nullable(str), job_role: nullable(str), nmc_number: nullable(str) }),
  interview_type: Ref,
  interviewer: Ref,
  start_date: timestamp,
  end_date: timestamp,
  booking_status: v.picklist(BOOKING_STATUSES),
  interview_status: v.picklist(SESSION_STATUSES),
  attendance: v.picklist(ATTENDANCES),
  pay_status: v.picklist(PAY_STATUSES),
  pay_option: str,
  payment_due_at: nullable(timestamp),
  booked_by: str,
  video_meeting: v.strictObject({ meeting_id: str, join_link: v.pipe(str, v.url()), password: str }),
  interview_report_available: v.boolean(),
  created_at: timestamp,
  updated_at: timestamp,
});
export const Balances = v.strictObject({ credits: v.array(v.strictObject({ interview_type: Ref, credits: int })), money: Money });
export const LedgerEntry = v.strictObject({
  id: str,
  client_id: str,
  created_at: timestamp,
  kind: v.picklist(['credit_debit', 'credit_topup', 'money_debit', 'money_topup', 'invoice', 'refund', 'monitoring_usage', 'candidate_payment']),
  amount: int,
  unit: str,
  balance_after: nullable(int),
  booking_id: nullable(int),
  interview_type: nullable(Ref),
  note: nullable(str),
  // For finance: every entry's family and product, and a booking's pay option and provider payment.
  family: str,
  product: nullable(v.strictObject({ kind: v.picklist(['interview_type', 'course']), id: int, name: str })),
  pay_option: nullable(v.picklist(['credits', 'balance', 'invoice', 'candidate_pays'])),
  provider_reference: nullable(str),
  refund_status: nullable(v.picklist(['pending', 'sent', 'settled', 'failed'])),
});
export const BookingUrl = v.strictObject({ booking_url: v.pipe(str, v.url()) });

export const WebhookEndpoint = v.strictObject({
  id: int,
  name: str,
  url: str,
  events: v.array(str),
  secret_prefix: str,
  is_active: v.boolean(),
  timeout_seconds: int,
  last_delivered_at: nullable(timestamp),
  last_response_code: nullable(int),
  consecutive_failures: int,
  created_at: timestamp,
});
export const WebhookEndpointWithSecret = v.strictObject({ ...WebhookEndpoint.entries, secret: str });
export const TestEventQueued = v.strictObject({ event_id: str, status: v.literal('queued') });
export const ReplayQueued = v.strictObject({ replayed: int, event_ids: v.array(str) });
export const DeliveryAttempt = v.strictObject({
  event_id: str,
  event_type: str,
  attempt: int,
  attempted_at: timestamp,
  outcome: v.picklist(['delivered', 'failed', 'dead_lettered', 'endpoint_disabled']),
  response_status: nullable(int),
  error: nullable(str),
  duration_ms: int,
  next_attempt_at: nullable(timestamp),
});

// Practical training.

const CourseRef = v.strictObject({ id: int, name: str, code: str });
const LocationRef = v.strictObject({ id: int, name: str, town: str, postcode: str });
export const Course = v.strictObject({
  id: int,
  name: str,
  code: str,
  description: nullable(str),
  delivery: str,
  cstf_subject: nullable(str),
  pre_attendance_notes: nullable(str),
  duration_minutes: int,
  certificate_validity_months: int,
  free_cancellation_hours: int,
  price: Money,
});
export const Location = v.strictObject({
  id: int,
  name: str,
  region: nullable(str),
  directions: nullable(str),
  accessibility: nullable(str),
  address: v.strictObject({ line1: str, line2: nullable(str), town: str, postcode: str }),
});
export const TrainingEvent = v.strictObject({
  id: int,
  course: CourseRef,
  location: LocationRef,
  date: str,
  start_time: str,
  start_at: timestamp,
  end_at: timestamp,
  booking_closes_at: timestamp,
  free_cancellation_until: timestamp,
  capacity: int,
  seats_available: int,
  status: v.picklist(['open', 'full', 'closed', 'completed', 'cancelled']),
  price: Money,
});
export const SeatHold = v.strictObject({
  hold_hash: str,
  expires_at: timestamp,
  expires_in_seconds: int,
  training_event: v.strictObject({ id: int, course: CourseRef, location: LocationRef, start_at: timestamp, end_at: timestamp }),
});
export const SeatHoldConflict = v.looseObject({ ...Problem.entries, hold: SeatHold });
export const PracticalBooking = v.strictObject({
  id: int,
  booking_invite_id: nullable(int),
  // Contact details are null once the candidate's data was erased (POST /data-subjects/erasures).
  candidate: v.strictObject({ name: str, email: nullable(str), phone: nullable(str), job_role: nullable(str), nmc_number: nullable(str) }),
  course: CourseRef,
  training_event: v.strictObject({ id: int, date: str, start_time: str, start_at: timestamp, end_at: timestamp, location: LocationRef }),
  agency_contact: v.strictObject({ name: nullable(str), email: nullable(str) }),
  start_date: timestamp,
  end_date: timestamp,
  free_cancellation_until: timestamp,
  payment_due_at: nullable(timestamp),
  booking_status: v.picklist(BOOKING_STATUSES),
  training_status: v.picklist(SESSION_STATUSES),
  attendance: v.picklist(ATTENDANCES),
  result: v.picklist(RESULTS),
  pay_status: v.picklist(PAY_STATUSES),
  pay_option: str,
  booked_by: str,
  price: Money,
  certificate_available: v.boolean(),
  certificate: nullable(v.strictObject({ number: str, issued_at: timestamp, valid_until: str })),
  cancellation: nullable(v.strictObject({ reason: nullable(str), refunded: v.boolean(), cancelled_by: str, cancelled_at: timestamp })),
  created_at: timestamp,
  updated_at: timestamp,
});
export const CourseBalances = v.strictObject({ credits: v.array(v.strictObject({ course: Ref, credits: int })), money: Money });
export const Account = v.strictObject({
  client_id: str,
  name: str,
  created_at: timestamp,
  invoice_enabled: v.boolean(),
  balance_alerts: v.strictObject({ credits_low_at: int, money_low_at: Money }),
});
export const CourseLedgerEntry = v.strictObject({ ...v.omit(LedgerEntry, ['interview_type']).entries, course: nullable(Ref) });

// Virtual life-support.

const Address = v.strictObject({ line1: str, line2: nullable(str), town: str, postcode: str });
export const VlsCourse = v.strictObject({
  id: int,
  name: str,
  code: str,
  description: nullable(str),
  delivery: v.literal('virtual'),
  cstf_subject: nullable(str),
  pre_attendance_notes: nullable(str),
  duration_minutes: int,
  certificate_validity_months: int,
  free_cancellation_hours: int,
  seats_per_session: int,
  equipment_required: v.boolean(),
  price: Money,
  equipment_fees: nullable(v.strictObject({ late_return: Money, lost: Money })),
});
export const VlsTimeslot = v.strictObject({ date: str, time: str, course: Ref, seats_available: int });
export const VlsHold = v.strictObject({
  hold_hash: str,
  expires_at: timestamp,
  expires_in_seconds: int,
  slot: v.strictObject({ date: str, time: str, course: Ref }),
});
export const VlsHoldConflict = v.looseObject({ ...Problem.entries, hold: VlsHold });
const Equipment = v.strictObject({
  status: v.picklist(EQUIPMENT_STATUSES),
  dispatch: nullable(
    v.strictObject({ carrier: str, tracking_number: str, tracking_url: nullable(str), dispatched_at: timestamp, delivered_at: nullable(timestamp) }),
  ),
  return: nullable(
    v.strictObject({
      due_at: timestamp,
      carrier: nullable(str),
      tracking_number: nullable(str),
      shipped_at: nullable(timestamp),
      returned_at: nullable(timestamp),
    }),
  ),
  fees: v.array(
    v.strictObject({ kind: v.picklist(['late_return', 'lost']), amount: Money, ledger_entry_id: str, charged_at: timestamp, refunded: v.boolean() }),
  ),
});
export const VlsBooking = v.strictObject({
  ...v.omit(PracticalBooking, ['course', 'training_event']).entries,
  course: Ref,
  timeslot: v.strictObject({ date: str, time: str }),
  video_meeting: nullable(v.strictObject({ meeting_id: str, join_link: v.pipe(str, v.url()), password: str })),
  delivery_address: nullable(Address),
  equipment: Equipment,
});
/** A course ledger entry; fee entries (late or lost kit) also say which fee. */
export const VlsLedgerEntry = v.strictObject({ ...CourseLedgerEntry.entries, fee: v.optional(v.picklist(['equipment_late', 'equipment_lost'])) });
/** Practical training legacy: the agency's booking page with a course chosen. */
export const BookingLink = v.strictObject({ course: CourseRef, booking_url: v.pipe(str, v.url()) });
