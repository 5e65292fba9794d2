import type { Product, PayStatus } from '../commerce/charges.js';
import type { Money } from '../commerce/money.js';
import type { EmailContent } from '../messaging/email-templates.js';
import type { ItemKey } from '../platform/db.js';
import type { DomainError } from '../platform/errors.js';
import type { FAMILIES, FamilyId } from '../platform/families.js';
import type { BookingStatus, PayOption } from '../platform/booking-vocabulary.js';
import type { HoldPolicy } from '../inventory/holds.js';
import type { Deps } from '../platform/deps.js';
import type { Part } from '../platform/transact.js';

/**
 * A booking kind: what the booking engine needs to know about one family's
 * bookings. The engine commits, changes and cancels; the kind says what the
 * booking's unit and product are, how it looks through the API, and the
 * family's settings (holds, payment deadline).
 */

/**
 * The families that book through this engine: those taking candidates'
 * payments (FamilySpec `candidatePayments`). Each provides what
 * core/registries/ lists for it, and the compiler holds every list whole.
 */
export type BookingFamily = { [F in FamilyId]: (typeof FAMILIES)[F] extends { candidatePayments: true } ? F : never }[FamilyId];

/** The fields every booking has, whatever its family. */
export interface BookingRecord {
  id: number;
  client_id: string;
  family: FamilyId;
  start_at: string;
  end_at: string;
  booking_status: BookingStatus;
  pay_status: PayStatus;
  pay_option: PayOption;
  booked_by: 'Agency' | 'Candidate';
  price: Money;
  payment_token?: string;
  /** Where the candidate pays (candidate_pays): kept so that a later e-mail (a reschedule) can give the same link. */
  payment_url?: string;
  /** candidate_pays only: after this instant the booking can no longer be paid for, and the expiry sweep cancels it. */
  payment_due_at?: string;
  /** Which of its booking link's unpaid places the booking holds (booked through the link, until paid). */
  link_place?: string;
  /** The SEQUENCE of the last calendar invitation sent to the candidate; absent until the first. */
  calendar_sequence?: number;
  cancellation?: { reason: string | null; cancelled_by: 'operator' | 'agency' | 'system'; cancelled_at: string };
  created_at: string;
  updated_at: string;
  /** Set when the candidate's data was erased at the agency's request: the booking keeps ids, dates and amounts only, and its links answer 410. */
  erased_at?: string;
  /** Counts the booking's changes; each change is conditional on the count it read (absent on bookings never changed). */
  version?: number;
}

/**
 * When a candidate_pays booking must be paid: `afterBookingHours` after it is
 * made, but no later than `beforeStartHours` before it starts.
 */
export interface PaymentDeadline {
  afterBookingHours: number;
  beforeStartHours: number;
}

const HOUR = 3_600_000;

/** The earlier of the two limits: the pure rule. */
export function paymentDueAt(createdAt: Date, startAt: Date, rule: PaymentDeadline): Date {
  return new Date(Math.min(createdAt.getTime() + rule.afterBookingHours * HOUR, startAt.getTime() - rule.beforeStartHours * HOUR));
}

/** A candidate is given at least this long to pay; a slot that leaves less cannot be booked for candidate payment. */
export const MIN_PAYMENT_WINDOW_MINUTES = 30;

/** Does a booking made now for a slot starting at `startAt` leave the candidate time to pay? */
export const leavesTimeToPay = (now: Date, startAt: Date, rule: PaymentDeadline): boolean =>
  paymentDueAt(now, startAt, rule).getTime() - now.getTime() >= MIN_PAYMENT_WINDOW_MINUTES * 60_000;

/** The events every booking family has (the specification names them alike in each). */
export type BookingEvent = 'booking.created' | 'booking.confirmed' | 'booking.cancelled' | 'booking.rescheduled';

/** What a booking's calendar invitation and notices say: the kind's words (the engine adds times, UID and sequence). */
export interface CalendarEntry {
  /** Who is invited (and e-mailed): the candidate. */
  attendee: { name: string; email: string };
  /** "Clinical interview: Band 5 nurse". */
  title: string;
  /** Plain text with the join link; shown in the e-mail and the calendar entry. */
  description: string;
  /** Where it happens (a video meeting's link). */
  location?: string;
}

export interface BookingKind<B extends BookingRecord = BookingRecord, V = unknown> {
  family: FamilyId;
  holds: HoldPolicy;
  deadline: PaymentDeadline;
  /** The booking as the API shows it (and as its events carry it). */
  view: (booking: B, timeZone: string) => V;
  /** The unit lock the booking holds. */
  unitOf: (booking: B) => ItemKey;
  /** What the booking was charged for. */
  productOf: (booking: B) => Product;
  /** The e-mail that asks the candidate to pay. */
  paymentEmail: (booking: B, input: { agency: string; paymentUrl: string; timeZone: string }) => EmailContent & { to: string };
  /** What the candidate's invitation says: sent on confirmation, updated on reschedule, withdrawn on cancel. */
  calendarEntry: (booking: B) => CalendarEntry;
}

/**
 * A booking kind as changing its bookings needs it (confirming, cancelling,
 * rescheduling, recording outcomes): what a change writes besides the
 * booking, and what follows it elsewhere. Apart from BookingKind so that
 * making and showing a booking, which need none of it, do not load it.
 */
export interface ChangingKind<B extends BookingRecord = BookingRecord, V = unknown> extends BookingKind<B, V> {
  /** Besides `booking_status`, what cancelling changes (clinical: the interview is cancelled too). */
  cancelledFields: Partial<B>;
  /** Besides `cancelledFields`, what cancelling this booking changes (lent equipment), given when. */
  cancelChanges?: (booking: B, now: Date) => Partial<B>;
  /** The family's own parts of every cancellation (a training event's seat count), read as the booking is; `changes` are the booking's. */
  cancelParts?: (deps: Deps, booking: B, changes: Partial<B>) => Promise<Part[]>;
  /** The family's own parts of a payment's confirmation, given the booking as confirmed (a certificate that becomes available). */
  confirmParts?: (deps: Deps, confirmed: B) => Part[];
  /**
   * Parts that follow the booking's change elsewhere, in the same
   * transaction (a portal v2 request item the booking was made for). Read
   * again when only they failed: a request changed meanwhile.
   */
  follow: ((deps: Deps, before: B, after: B) => Promise<Part[]>) | null;
  /** Why the booking cannot be cancelled now, if it cannot. */
  notCancellable: (booking: B) => DomainError | undefined;
}
