import { claimUnit, freeUnit, takeFromPool } from '../inventory/units.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { cancelBookingOf, changeBooking, confirmPayment } from '../bookings/change.js';
import { findBookingIn } from '../bookings/records.js';
import { formatWithOffset } from '../platform/time.js';
import { clinicalBookings, requireScheduled, type Attendance, type BookingItem, type BookingView } from './bookings.js';
import { CLINICAL_FAMILY, loadCatalog } from './catalog.js';
import { candidateSlots, slotUnit } from './slots.js';

/**
 * What operators do to bookings after creation (the operator CLI, not the
 * agency API): cancel, reschedule, mark attendance, complete, attach the
 * report; and the candidate's payment confirmed by the payment page. Each is
 * one of the engine's changes, with its event. Operators name bookings of the
 * clinical interview family; everything after the lookup follows the
 * booking's own family.
 */

export const findBooking = (deps: Deps, id: number, family: FamilyId = CLINICAL_FAMILY) => findBookingIn<BookingItem>(deps, family, id);

const viewOf = (deps: Deps, booking: BookingItem): BookingView => clinicalBookings(booking.family).view(booking, deps.config.serviceTimeZone);

/** Cancels a scheduled booking, frees its slot and gives back what was paid. */
export function cancelBooking(deps: Deps, id: number, reason?: string): Promise<BookingView> {
  return retryOnConflict(async () => {
    const booking = await findBooking(deps, id);
    return viewOf(deps, await cancelBookingOf(deps, clinicalBookings(booking.family), booking, { reason, by: 'operator' }));
  });
}

/**
 * Moves a scheduled booking to a free interviewer's slot of its type at another
 * time: the new unit claimed, the old freed, together. To the date and time it
 * already has, nothing changes (no event, no new slot).
 */
export async function rescheduleBooking(deps: Deps, id: number, to: { date: string; time: string }): Promise<BookingView> {
  const booking = await findBooking(deps, id);
  const refusal = requireScheduled(booking);
  if (refusal) throw refusal;
  if (booking.date === to.date && booking.time === to.time) return viewOf(deps, booking);
  const now = deps.clock();
  const kind = clinicalBookings(booking.family);
  const catalog = await loadCatalog(deps);
  const { slots } = candidateSlots(catalog, booking.interview_type.id, to.date, to.time, deps.config.serviceTimeZone, now);
  const { value } = await takeFromPool(
    deps,
    { units: slots, keyOf: (s) => slotUnit(booking.family, s.date, s.time, s.interviewerId) },
    (slot) => {
      const interviewer = catalog.interviewers.find((i) => i.id === slot.interviewerId)!;
      const moved = {
        date: slot.date,
        time: slot.time,
        start_at: slot.startAt.toISOString(),
        end_at: slot.endAt.toISOString(),
        interviewer: { id: interviewer.id, name: interviewer.name },
      };
      return changeBooking(
        deps,
        kind,
        booking,
        moved,
        'booking.rescheduled',
        [
          claimUnit(deps, slotUnit(booking.family, slot.date, slot.time, slot.interviewerId), { bookingId: id, clientId: booking.client_id }, now),
          freeUnit(deps, kind.unitOf(booking), { bookingId: id }, 'old unit'),
        ],
        { booking: new DomainError('invalid-state', `Booking ${id} changed meanwhile; try again`) },
      );
    },
    () => new DomainError('slot-unavailable', `No free slot on ${to.date} at ${to.time}`),
  );
  return viewOf(deps, value);
}

/** Attendance and completion wait until the interview has started (the booking's condition on `updated_at` keeps a reschedule from slipping in between). */
function requireStarted(deps: Deps, booking: BookingItem, what: string): void {
  if (booking.start_at > deps.clock().toISOString()) {
    throw new DomainError(
      'invalid-state',
      `Booking ${booking.id} starts ${formatWithOffset(booking.start_at, deps.config.serviceTimeZone)}: ${what} once the interview has started`,
    );
  }
}

export async function markAttendance(deps: Deps, id: number, attendance: Exclude<Attendance, 'pending'>): Promise<BookingView> {
  const booking = await findBooking(deps, id);
  if (booking.booking_status !== 'booked') throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status}`);
  requireStarted(deps, booking, 'attendance can be marked');
  return viewOf(deps, await changeBooking(deps, clinicalBookings(booking.family), booking, { attendance }, undefined));
}

export async function completeInterview(deps: Deps, id: number): Promise<BookingView> {
  const booking = await findBooking(deps, id);
  const refusal = requireScheduled(booking);
  if (refusal) throw refusal;
  if (booking.booking_status !== 'booked') throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status}`);
  requireStarted(deps, booking, 'it can be completed');
  const changes = { interview_status: 'completed' as const, attendance: booking.attendance === 'pending' ? ('attended' as const) : booking.attendance };
  return viewOf(deps, await changeBooking(deps, clinicalBookings(booking.family), booking, changes, 'booking.interview_completed'));
}

/** Records that the report is stored under `reportKey` and tells the agency. */
export async function markReportAvailable(deps: Deps, id: number, reportKey: string): Promise<BookingView> {
  const booking = await findBooking(deps, id);
  if (booking.interview_status !== 'completed') throw new DomainError('invalid-state', `Complete the interview of booking ${id} first`);
  return viewOf(
    deps,
    await changeBooking(
      deps,
      clinicalBookings(booking.family),
      booking,
      { interview_report_available: true, report_key: reportKey },
      'booking.interview_report_available',
    ),
  );
}

/** The payment page reported success: the booking is confirmed (booking.confirmed). Paying twice confirms once; after the deadline, never. */
export async function confirmCandidatePayment(deps: Deps, token: string, providerReference: string, family: FamilyId = CLINICAL_FAMILY): Promise<BookingView> {
  return viewOf(deps, await confirmPayment(deps, clinicalBookings(family), token, providerReference));
}
