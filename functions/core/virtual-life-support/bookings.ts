import { getClient, type ClientAccount } from '../access/clients.js';
import { linkPaymentDeadline, linkPlacePlan, withLinkPlace } from '../bookings/booking-link.js';
import { listOf } from '../bookings/bookings.js';
import { commitBooking, holdRefusal, usableHold, type BookingLinks } from '../bookings/commit.js';
import { joinPlans, type Attempt, type BookingPlan } from '../bookings/plan.js';
import type { BookingKind } from '../bookings/kind.js';
import { getBookingView } from '../bookings/records.js';
import { courseBookingView, paymentEmailFor, type Attendance, type BookingOptions, type CourseBookingRecord } from '../bookings/course-bookings.js';
import { consumeHoldParts } from '../inventory/holds.js';
import { seatUnit, sessionBookedPart } from '../inventory/sessions.js';
import { claimUnit, takeFromPool } from '../inventory/units.js';
import type { Deps } from '../platform/deps.js';
import { DomainError, fieldRefusal } from '../platform/errors.js';
import { nextId } from '../platform/ids.js';
import type { Page } from '../platform/pagination.js';
import type { Condition } from '../platform/transact.js';
import type { BookingStatus, PayOption } from '../platform/booking-vocabulary.js';
import { getVlsSession, loadCourses, VLS_FAMILY, type VlsCourse, type VlsSession } from './catalogue.js';
import { toEquipmentView, type Equipment, type EquipmentStatus } from './equipment-state.js';
import { getSlotHold, seatOf, seatPool, slotFull, vlsHolds } from './timeslots.js';

/**
 * Virtual life-support bookings as a booking kind: a seat
 * of a session is the unit, the course the product. Besides the engine's
 * parts a booking counts itself on its session and carries its lent
 * equipment; a cancellation frees both.
 */

export interface DeliveryAddress {
  line1: string;
  line2: string | null;
  town: string;
  postcode: string;
}

export interface NewVlsBooking {
  hold_hash: string;
  pay_option: PayOption;
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  job_role: string;
  nmc_number?: string | null;
  agency_contact_name?: string;
  agency_contact_email?: string;
  delivery_address?: { line1: string; line2?: string | null; town: string; postcode: string };
}

export interface VlsBooking extends CourseBookingRecord {
  course: { id: number; name: string };
  session_id: number;
  seat: string;
  /** The session's wall-clock time: the seat's lock lives under its day and this. */
  time: string;
  video_meeting: { meeting_id: string; join_link: string; password: string };
  delivery_address: DeliveryAddress | null;
  equipment: Equipment;
}

export function toVlsBookingView(b: VlsBooking, timeZone: string) {
  const { id, booking_invite_id, candidate, ...rest } = courseBookingView(b, timeZone);
  return {
    id,
    booking_invite_id,
    candidate,
    course: b.course,
    timeslot: { date: b.date, time: b.time },
    ...rest,
    // The room is the candidate's once the booking is paid for.
    video_meeting: b.booking_status === 'pending_payment' ? null : b.video_meeting,
    delivery_address: b.delivery_address,
    equipment: toEquipmentView(b.equipment, timeZone),
  };
}
export type VlsBookingView = ReturnType<typeof toVlsBookingView>;

/** The parts virtual life support adds to its bookings' transactions, by the names their failures are known by. */
export const VLS_PARTS = { session: 'session', certificate: 'certificate event' } as const;

/** What making and showing a life-support booking needs; changing one takes VLS_CHANGING (./booking-changes.ts). */
export const vlsBookings = (): BookingKind<VlsBooking, VlsBookingView> => ({
  family: VLS_FAMILY,
  holds: vlsHolds,
  // As clinical: the earlier of 24 hours after booking and 2 hours before the start.
  deadline: { afterBookingHours: 24, beforeStartHours: 2 },
  view: toVlsBookingView,
  unitOf: (b) => seatUnit(VLS_FAMILY, { id: b.session_id, date: b.date, start_time: b.time }, b.seat),
  productOf: (b) => ({ kind: 'course', ...b.course, price: b.price }),
  paymentEmail: (b, input) => paymentEmailFor(b, `${b.course.name} (virtual session)`, input),
  calendarEntry: (b) => ({
    attendee: { name: `${b.candidate.first_name} ${b.candidate.last_name}`, email: b.candidate.email },
    title: `${b.course.name} (virtual session)`,
    description: [
      `Your ${b.course.name} session is live by video: camera and microphone on throughout, and a short test at the end.`,
      `Join: ${b.video_meeting.join_link}`,
      `Meeting ID: ${b.video_meeting.meeting_id}`,
      `Password: ${b.video_meeting.password}`,
      ...(b.equipment.status === 'not_required'
        ? []
        : [
            `A feedback manikin is posted to ${b.delivery_address?.line1}, ${b.delivery_address?.postcode} before the session; please post it back within 7 days after it.`,
          ]),
    ].join('\n'),
    location: b.video_meeting.join_link,
  }),
});

export const VLS_BOOKINGS = vlsBookings();

const HOUR = 3_600_000;

/** A seat of a session of the course, and the booking's candidate and pay option: what a booking is written from, however its seat is taken. */
interface SeatBooking {
  client: ClientAccount;
  bookingId: number;
  course: VlsCourse;
  session: VlsSession;
  seat: string;
  input: Omit<NewVlsBooking, 'hold_hash'>;
}

/**
 * Writes the booking of the seat in one transaction with what `unit` plans
 * (a hold used, or a free seat claimed): the session's count up (never above
 * its seats), the charge, the booking with its kit and address, `booking.created`.
 */
async function commitVlsSeat(deps: Deps, b: SeatBooking, links: BookingLinks, options: BookingOptions, unit: (at: Attempt) => BookingPlan) {
  const { client, bookingId, course, session, seat, input } = b;
  if (course.equipment_required && !input.delivery_address)
    throw fieldRefusal('/delivery_address', `${course.name} posts a manikin to the candidate: delivery_address is required`);
  const address = course.equipment_required && input.delivery_address ? { ...input.delivery_address, line2: input.delivery_address.line2 ?? null } : null;
  const explainSession = async () =>
    (await getVlsSession(deps, session.id))?.cancelled_at ? new DomainError('slot-unavailable', 'The session was cancelled', { reason: 'unknown' }) : undefined;
  const status: EquipmentStatus = course.equipment_required ? 'awaiting_dispatch' : 'not_required';
  return commitBooking(deps, VLS_BOOKINGS, {
    client,
    bookingId,
    payOption: input.pay_option,
    product: { kind: 'course', id: course.id, name: course.name, price: course.price },
    links,
    deadline: options.deadline,
    fields: {
      candidate: {
        first_name: input.first_name,
        last_name: input.last_name,
        email: input.email,
        phone: input.phone,
        job_role: input.job_role,
        nmc_number: input.nmc_number ?? null,
      },
      agency_contact: { name: input.agency_contact_name ?? null, email: input.agency_contact_email ?? null },
      course: { id: course.id, name: course.name },
      course_id: course.id,
      ...seatOf(session, seat),
      free_cancellation_until: new Date(Date.parse(session.start_at) - course.free_cancellation_hours * HOUR).toISOString(),
      training_status: 'scheduled',
      attendance: 'pending',
      result: 'pending',
      booking_invite_id: options.bookingInviteId ?? null,
      ...(options.source ? { source: options.source } : {}),
      video_meeting: session.video_meeting,
      delivery_address: address,
      equipment: { status, dispatch: null, return: null, fees: [], fee_schedule: course.equipment_fees },
      booked_by: options.bookedBy ?? 'Agency',
    },
    plan: async (at) =>
      joinPlans(
        unit(at),
        { extraParts: [sessionBookedPart(deps, VLS_FAMILY, session.id, {}, VLS_PARTS.session)], failures: { [VLS_PARTS.session]: explainSession } },
        await options.extra?.({ now: at.now, bookingId }),
      ),
  });
}

/** POST /bookings: books the held seat in one transaction: the hold used, and all commitVlsSeat writes. */
export async function createVlsBooking(
  deps: Deps,
  clientId: string,
  input: NewVlsBooking,
  links: BookingLinks,
  options: BookingOptions = {},
): Promise<VlsBookingView> {
  const holder = options.holder ?? ({ type: 'client', clientId } as const);
  const hold = usableHold(await getSlotHold(deps, input.hold_hash), holder, deps.clock());
  const [courses, client, session] = await Promise.all([loadCourses(deps), getClient(deps, clientId), getVlsSession(deps, hold.session_id)]);
  const course = courses.find((c) => c.id === hold.course_id);
  if (!client || !course || !session) throw new DomainError('hold-not-found', 'No hold with that hold_hash');
  if (course.equipment_required && !input.delivery_address)
    throw fieldRefusal('/delivery_address', `${course.name} posts a manikin to the candidate: delivery_address is required`);
  const bookingId = await nextId(deps, VLS_FAMILY, 'booking');
  const explainHold = async () => holdRefusal(await getSlotHold(deps, hold.hold_hash), holder, deps.clock());
  const { view } = await commitVlsSeat(deps, { client, bookingId, course, session, seat: hold.seat, input }, links, options, () => ({
    unitParts: consumeHoldParts(deps, vlsHolds, holder, hold.hold_hash, seatUnit(VLS_FAMILY, session, hold.seat), bookingId, hold.invite_place),
    failures: { hold: explainHold, unit: explainHold },
  }));
  return view;
}

/**
 * A candidate books a free seat of the timeslot through the agency's booking
 * link (`/book/{t}`): no hold, candidate pays within the link's deadline, and
 * the booking takes one of the link's places for unpaid bookings (at most
 * five at once), all in the booking's transaction, as in the other families.
 */
export async function createVlsLinkBooking(
  deps: Deps,
  client: ClientAccount,
  slot: { course: VlsCourse; sessions: VlsSession[]; date: string; time: string },
  input: Omit<NewVlsBooking, 'hold_hash' | 'pay_option'>,
  links: BookingLinks,
): Promise<{ view: VlsBookingView; paymentToken?: string }> {
  if (slot.course.equipment_required && !input.delivery_address)
    throw fieldRefusal('/delivery_address', `${slot.course.name} posts a manikin to you: give the address to send it to`);
  const clientId = client.clientId;
  const bookingId = await nextId(deps, VLS_FAMILY, 'booking');
  const taken = new DomainError('slot-unavailable', 'That seat was just taken', { reason: 'full' });
  const options: BookingOptions = { bookedBy: 'Candidate', deadline: linkPaymentDeadline(deps, VLS_BOOKINGS.deadline) };
  const { value } = await withLinkPlace(deps, clientId, VLS_FAMILY, (place) =>
    takeFromPool(
      deps,
      seatPool(slot.sessions),
      ({ session, seat }) =>
        commitVlsSeat(
          deps,
          { client, bookingId, course: slot.course, session, seat, input: { ...input, pay_option: 'candidate_pays' } },
          links,
          options,
          ({ now, paymentDueAt }) =>
            joinPlans(
              { unitParts: [claimUnit(deps, seatUnit(VLS_FAMILY, session, seat), { bookingId, clientId }, now)], failures: { unit: taken } },
              linkPlacePlan(deps, clientId, place, { bookingId, dueAt: paymentDueAt!, now }),
            ),
        ),
      () => slotFull(slot),
      { lost: (err) => err === taken },
    ),
  );
  return { view: value.view, paymentToken: value.paymentToken };
}

export const getVlsBooking = (deps: Deps, clientId: string, id: number): Promise<VlsBookingView> => getBookingView(deps, VLS_BOOKINGS, clientId, id);

export interface VlsBookingFilter {
  status?: BookingStatus;
  attendance?: Attendance;
  equipment_status?: EquipmentStatus;
  course_id?: number;
  session_id?: number;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** GET /bookings: the caller's bookings, newest first. */
export function listVlsBookings(deps: Deps, clientId: string, filter: VlsBookingFilter): Promise<Page<VlsBookingView>> {
  const more: Condition[] = [
    ...(filter.attendance ? [{ expression: 'attendance = :attendance', values: { ':attendance': filter.attendance } }] : []),
    ...(filter.equipment_status ? [{ expression: 'equipment.#kit = :kit', names: { '#kit': 'status' }, values: { ':kit': filter.equipment_status } }] : []),
    ...(filter.course_id ? [{ expression: 'course_id = :course', values: { ':course': filter.course_id } }] : []),
    ...(filter.session_id ? [{ expression: 'session_id = :session', values: { ':session': filter.session_id } }] : []),
  ];
  return listOf(deps, VLS_BOOKINGS, clientId, filter, more);
}
