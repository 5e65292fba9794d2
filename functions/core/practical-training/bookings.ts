import { getClient } from '../access/clients.js';
import type { CandidateInput } from '../clinical-interview/bookings.js';
import { listOf } from '../bookings/bookings.js';
import { commitBooking, holdRefusal, usableHold, type BookingLinks } from '../bookings/commit.js';
import { joinPlans, type Attempt, type BookingPlan } from '../bookings/plan.js';
import type { BookingKind } from '../bookings/kind.js';
import { getBookingView } from '../bookings/records.js';
import {
  courseBookingView,
  paymentEmailFor,
  type Attendance,
  type BookingOptions,
  type CourseBookingRecord,
  type Result,
} from '../bookings/course-bookings.js';
import { consumeHoldParts } from '../inventory/holds.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import type { Page } from '../platform/pagination.js';
import { formatWithOffset } from '../platform/time.js';
import type { Condition } from '../platform/transact.js';
import type { BookingStatus, PayOption } from '../platform/booking-vocabulary.js';
import { balanceAlertPolicies, balanceAlertSettings } from './account.js';
import { getTrainingEventItem, loadCatalogue, PRACTICAL_FAMILY, type TrainingEventItem } from './catalogue.js';
import { bookingCrossesSeatsLow, eventBookedParts } from './event-count.js';
import { eventInCatalogue, eventRefusal, getSeatHold, seatHolds, seatsAvailable, seatUnit } from './seats.js';
import { freeCancellationUntil, toTrainingEventView } from './views.js';

/**
 * Practical training bookings as a booking kind: a seat of a training event
 * is the unit, the course the product. Besides the engine's parts, a booking
 * counts itself on its event (`booked_count`, never above capacity) and sends
 * `training_event.seats_low` once per crossing of the event's threshold.
 */

export type { Attendance, Result };

/** The clinical candidate, whose `nmc_number` is optional here: carers have none. */
export type TraineeInput = Omit<CandidateInput, 'nmc_number'> & { nmc_number?: string | null };

/** A booking's candidate and payment, whichever way its seat is taken. */
export interface PracticalBookingInput extends TraineeInput {
  pay_option: PayOption;
  agency_contact_name?: string;
  agency_contact_email?: string;
}

export interface NewPracticalBooking extends PracticalBookingInput {
  hold_hash: string;
}

export interface PracticalBooking extends CourseBookingRecord {
  course: { id: number; name: string; code: string };
  training_event: { id: number; location: { id: number; name: string; town: string; postcode: string } };
  training_event_id: number;
  seat: string;
  /** The event's wall-clock day and time: the seat's lock lives under them. */
  start_time: string;
}

export { certificateAvailable } from '../documents/certificates.js';

export function toPracticalBookingView(b: PracticalBooking, timeZone: string) {
  const at = (instant: string) => formatWithOffset(instant, timeZone);
  const { id, booking_invite_id, candidate, ...rest } = courseBookingView(b, timeZone);
  return {
    id,
    booking_invite_id,
    candidate,
    course: b.course,
    training_event: {
      id: b.training_event.id,
      date: b.date,
      start_time: b.start_time,
      start_at: at(b.start_at),
      end_at: at(b.end_at),
      location: b.training_event.location,
    },
    ...rest,
  };
}
export type PracticalBookingView = ReturnType<typeof toPracticalBookingView>;

/** Why the booking cannot be cancelled now: `reason` says which rule. */
export function cancellationRefusal(b: PracticalBooking, now: Date): DomainError | undefined {
  const refuse = (reason: string, detail: string) => new DomainError('cancellation-not-allowed', detail, { reason });
  if (b.booking_status === 'cancelled') return refuse('already_cancelled', `Booking ${b.id} is already cancelled`);
  if (b.training_status !== 'scheduled') return refuse('not_scheduled', `Booking ${b.id} is ${b.training_status}`);
  if (b.start_at <= now.toISOString()) return refuse('started', `Booking ${b.id}'s training event has started`);
  return undefined;
}

/** The parts practical training adds to its bookings' transactions, by the names their failures are known by. */
export const PRACTICAL_PARTS = { event: 'training event', certificate: 'certificate event' } as const;

/** What making and showing a practical booking needs; changing one takes PRACTICAL_CHANGING (./booking-changes.ts). */
export const practicalBookings = (): BookingKind<PracticalBooking, PracticalBookingView> => ({
  family: PRACTICAL_FAMILY,
  holds: seatHolds,
  // Design practical-training 5.3: the earlier of 48 hours after booking and 12 hours before the start.
  deadline: { afterBookingHours: 48, beforeStartHours: 12 },
  view: toPracticalBookingView,
  unitOf: (b) => seatUnit({ id: b.training_event_id, date: b.date, start_time: b.start_time }, b.seat),
  productOf: (b) => ({ kind: 'course', ...b.course, price: b.price }),
  paymentEmail: (b, input) => paymentEmailFor(b, `${b.course.name} course`, input),
  calendarEntry: (b) => {
    const place = b.training_event.location;
    return {
      attendee: { name: `${b.candidate.first_name} ${b.candidate.last_name}`, email: b.candidate.email },
      title: `${b.course.name} course`,
      description: [
        `Your ${b.course.name} course (${b.course.code}) is a classroom session.`,
        `Where: ${place.name}, ${place.town} ${place.postcode}`,
        'Please arrive 15 minutes early.',
      ].join('\n'),
      location: `${place.name}, ${place.town} ${place.postcode}`,
    };
  },
});

export const PRACTICAL_BOOKINGS = practicalBookings();

/**
 * POST /bookings: books the held seat, in one transaction: the hold used,
 * the seat booked, the event's count up, the charge (with balance alerts),
 * the booking, `booking.created` and any alert.
 */
export async function createPracticalBooking(deps: Deps, clientId: string, input: NewPracticalBooking, links: BookingLinks, options: BookingOptions = {}) {
  const holder = options.holder ?? ({ type: 'client', clientId } as const);
  const hold = usableHold(await getSeatHold(deps, input.hold_hash), holder, deps.clock());
  let held = hold;
  const explainHold = async () => {
    const now = await getSeatHold(deps, hold.hold_hash);
    const refusal = holdRefusal(now, holder, deps.clock());
    // Still usable: an operator's capacity cut moved it to another seat, which the next attempt takes.
    if (!refusal && now) held = now;
    return refusal;
  };
  return commitSeatBooking(deps, clientId, hold.training_event_id, input, links, options, {
    get seat() {
      return held.seat;
    },
    unit: ({ event, bookingId }) => ({
      unitParts: consumeHoldParts(deps, seatHolds, holder, hold.hold_hash, seatUnit(event, held.seat), bookingId, held.invite_place),
      failures: { hold: explainHold, unit: explainHold },
    }),
    unknownClient: () => new DomainError('hold-not-found', 'No hold with that hold_hash'),
  });
}

/** How a booking gets its seat: the seat (read at each attempt), and the plan that takes it in each attempt's transaction. */
export interface SeatTaking {
  seat: string;
  unit: (at: Attempt & { event: TrainingEventItem; bookingId: number }) => BookingPlan;
  unknownClient: () => DomainError;
}

/** Books a seat of the event however it is taken (a hold used, or a free seat claimed): everything but the taking is here once. */
export async function commitSeatBooking(
  deps: Deps,
  clientId: string,
  eventId: number,
  input: PracticalBookingInput,
  links: BookingLinks,
  options: BookingOptions,
  seat: SeatTaking,
) {
  const tz = deps.config.serviceTimeZone;
  const [catalogue, client, settings] = await Promise.all([loadCatalogue(deps), getClient(deps, clientId), balanceAlertSettings(deps, clientId)]);
  const { event, course, location } = await eventInCatalogue(deps, eventId, catalogue);
  const closed = eventRefusal(event, course, deps.clock());
  if (closed) throw closed;
  if (!client) throw seat.unknownClient();
  const bookingId = await nextId(deps, PRACTICAL_FAMILY, 'booking');
  const explainEvent = async () => {
    const now = await getTrainingEventItem(deps, event.id);
    if (!now || now.cancelled_at)
      return new DomainError('event-unavailable', `Training event ${event.id} is not open for booking`, { pointer: '/training_event_id' });
    return undefined; // the count moved: read it again
  };
  const candidate = {
    first_name: input.first_name,
    last_name: input.last_name,
    email: input.email,
    phone: input.phone,
    job_role: input.job_role,
    nmc_number: input.nmc_number ?? null,
  };
  const { view } = await commitBooking(deps, PRACTICAL_BOOKINGS, {
    client,
    bookingId,
    payOption: input.pay_option,
    product: { kind: 'course', id: course.id, name: course.name, price: course.price },
    links,
    deadline: options.deadline,
    alerts: balanceAlertPolicies(deps, clientId, settings, { id: course.id, name: course.name, code: course.code }),
    fields: {
      candidate,
      agency_contact: { name: input.agency_contact_name ?? null, email: input.agency_contact_email ?? null },
      course: { id: course.id, name: course.name, code: course.code },
      training_event: { id: event.id, location: { id: location.id, name: location.name, town: location.address.town, postcode: location.address.postcode } },
      training_event_id: event.id,
      course_id: course.id,
      seat: seat.seat,
      date: event.date,
      start_time: event.start_time,
      start_at: event.start_at,
      end_at: event.end_at,
      free_cancellation_until: freeCancellationUntil(event, course).toISOString(),
      training_status: 'scheduled',
      attendance: 'pending',
      result: 'pending',
      booking_invite_id: options.bookingInviteId ?? null,
      ...(options.source ? { source: options.source } : {}),
      booked_by: options.bookedBy ?? 'Agency',
    },
    plan: async (at) => {
      // Read each attempt: the seat count and the seats-low decision condition on it.
      const current = (await getTrainingEventItem(deps, event.id)) ?? event;
      // The alert carries the event as the API shows it, after this booking.
      const publicView = async () =>
        toTrainingEventView(
          { ...current, booked_count: current.booked_count + 1 },
          course,
          location,
          (await seatsAvailable(deps, [current], at.now)).get(current.id) ?? 0,
          at.now,
          tz,
        );
      const view = bookingCrossesSeatsLow(current) ? await publicView() : undefined;
      const unit = seat.unit({ ...at, event, bookingId });
      return joinPlans(
        unit,
        // The seat as this attempt takes it (a hold an operator moved is booked where it now is).
        {
          fields: { seat: seat.seat },
          extraParts: eventBookedParts(deps, current, clientId, () => view, PRACTICAL_PARTS.event),
          failures: { [PRACTICAL_PARTS.event]: explainEvent },
        },
        await options.extra?.({ now: at.now, bookingId }),
      );
    },
  });
  return view;
}

export const getPracticalBooking = (deps: Deps, clientId: string, id: number): Promise<PracticalBookingView> =>
  getBookingView(deps, PRACTICAL_BOOKINGS, clientId, id);

export interface PracticalBookingFilter {
  status?: BookingStatus;
  attendance?: Attendance;
  course_id?: number;
  training_event_id?: number;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /bookings (and /bookings/no-shows): the caller's bookings, newest first. */
export function listPracticalBookings(deps: Deps, clientId: string, filter: PracticalBookingFilter): Promise<Page<PracticalBookingView>> {
  const more: Condition[] = [
    ...(filter.attendance ? [{ expression: 'attendance = :attendance', values: { ':attendance': filter.attendance } }] : []),
    ...(filter.course_id ? [{ expression: 'course_id = :course', values: { ':course': filter.course_id } }] : []),
    ...(filter.training_event_id ? [{ expression: 'training_event_id = :event', values: { ':event': filter.training_event_id } }] : []),
  ];
  return listOf(deps, PRACTICAL_BOOKINGS, clientId, filter, more);
}
