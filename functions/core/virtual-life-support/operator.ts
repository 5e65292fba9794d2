import { changeBooking } from '../bookings/change.js';
import { cancelSessionAndBookings, markAttendanceOf, markResultOf } from '../bookings/course-bookings.js';
import { findBookingIn } from '../bookings/records.js';
import { seatPool, seatUnit, sessionBookedPart, sessionFreedPart } from '../inventory/sessions.js';
import { claimUnit, freeUnit, takeFromPool } from '../inventory/units.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { cancelVls, VLS_CHANGING } from './booking-changes.js';
import { listVlsBookings, toVlsBookingView, type VlsBooking } from './bookings.js';
import { getVlsSession, loadCourses, VLS_FAMILY } from './catalogue.js';
import { daysAfter, deadlineParts, kitOut, RETURN_DAYS } from './equipment-state.js';
import { seatOf } from './timeslots.js';

/**
 * What operators do in virtual life-support (the operator CLI): attendance,
 * results, reschedules, cancellations of bookings and of whole sessions.
 * Each change is one transaction with its event.
 */

const findBooking = (deps: Deps, id: number) => findBookingIn<VlsBooking>(deps, VLS_FAMILY, id);
export const operatorView = (deps: Deps, b: VlsBooking) => ({ client_id: b.client_id, ...toVlsBookingView(b, deps.config.serviceTimeZone) });

export const markVlsAttendance = async (deps: Deps, id: number, attendance: 'attended' | 'no_show') =>
  operatorView(deps, await markAttendanceOf(deps, VLS_CHANGING, await findBooking(deps, id), attendance));

export const markVlsResult = async (deps: Deps, id: number, result: 'passed' | 'not_passed') =>
  operatorView(deps, await markResultOf(deps, VLS_CHANGING, await findBooking(deps, id), result));

/** Operator cancel: the 72-hour refund rule (decision 7), never for a no-show. */
export async function cancelVlsBooking(deps: Deps, id: number, reason?: string) {
  const b = await findBooking(deps, id);
  return operatorView(deps, await cancelVls(deps, id, b.client_id, { reason, by: 'operator' }));
}

/**
 * Moves a scheduled booking to another session of its course: the new seat
 * claimed and the old freed, both sessions' counts moved, the return due
 * date recomputed, in one transaction; `booking.rescheduled` and the
 * candidate's updated invitation with it.
 */
export async function rescheduleVls(deps: Deps, id: number, toSessionId: number) {
  return retryOnConflict(async () => {
    const booking = await findBooking(deps, id);
    if (booking.booking_status === 'cancelled' || booking.training_status !== 'scheduled')
      throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status} and ${booking.training_status}`);
    if (booking.session_id === toSessionId) return operatorView(deps, booking);
    const [session, old, courses] = await Promise.all([getVlsSession(deps, toSessionId), getVlsSession(deps, booking.session_id), loadCourses(deps)]);
    if (!session || session.course_id !== booking.course_id)
      throw new DomainError('invalid-state', `Session ${toSessionId} is not a session of course ${booking.course_id}`);
    if (session.cancelled_at || session.start_at <= deps.clock().toISOString()) throw new DomainError('invalid-state', `Session ${toSessionId} is not open`);
    const course = courses.find((c) => c.id === booking.course_id);
    const now = deps.clock();
    const e = booking.equipment;
    // Kit still out is due back a week after the new session.
    const due = kitOut(e.status) && e.status !== 'overdue' && e.return ? daysAfter(session.end_at, RETURN_DAYS) : undefined;
    const equipment = due ? { ...e, return: { ...e.return!, due_at: due }, deadline: due } : e;
    const hours = course?.free_cancellation_hours ?? 72;
    const { value } = await takeFromPool(
      deps,
      seatPool(VLS_FAMILY, session),
      (seat) =>
        changeBooking(
          deps,
          VLS_CHANGING,
          booking,
          {
            ...seatOf(session, seat),
            free_cancellation_until: new Date(Date.parse(session.start_at) - hours * 3_600_000).toISOString(),
            video_meeting: session.video_meeting,
            equipment,
          },
          'booking.rescheduled',
          [
            claimUnit(deps, seatUnit(VLS_FAMILY, session, seat), { bookingId: id, clientId: booking.client_id }, now),
            freeUnit(deps, VLS_CHANGING.unitOf(booking), { bookingId: id }, 'old unit'),
            sessionBookedPart(deps, VLS_FAMILY, session.id, {}, 'new session'),
            ...(old ? [sessionFreedPart(deps, VLS_FAMILY, old, {}, 'old session')] : []),
            ...deadlineParts(deps, booking, equipment.deadline),
          ],
        ),
      () => new DomainError('slot-unavailable', `Every seat of session ${toSessionId} is booked or held`, { reason: 'full' }),
    );
    return operatorView(deps, value);
  });
}

/** Cancels the session, then every booking on it: each refunded in full and told (`booking.cancelled`). */
export async function cancelVlsSession(deps: Deps, sessionId: number, reason = 'session cancelled') {
  if (!(await getVlsSession(deps, sessionId))) throw new DomainError('not-found', `No session ${sessionId}`);
  const cancelled = await cancelSessionAndBookings(deps, VLS_FAMILY, sessionId, {
    list: (clientId, cursor) => listVlsBookings(deps, clientId, { session_id: sessionId, limit: 100, cursor }),
    cancel: (clientId, id) => cancelVls(deps, id, clientId, { reason, by: 'operator', alwaysRefund: true }),
  });
  return { id: sessionId, cancelled_bookings: cancelled };
}
