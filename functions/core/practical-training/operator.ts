import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeBooking } from '../bookings/change.js';
import { cancelSessionAndBookings, markAttendanceOf, markResultOf } from '../bookings/course-bookings.js';
import { findBookingIn } from '../bookings/records.js';
import { eventPut } from '../events/outbox.js';
import { claimUnit, freeUnit, lockInForce, readLocks, seatNames, takeFromPool, unitId } from '../inventory/units.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { part } from '../platform/transact.js';
import { cancelPractical, eventBookedParts, eventFreedParts, listPracticalBookings, PRACTICAL_BOOKINGS, toPracticalBookingView, type PracticalBooking, type PracticalBookingView } from './bookings.js';
import { getTrainingEventItem, MAX_CAPACITY, PRACTICAL_FAMILY } from './catalogue.js';
import { sessionKeys } from '../inventory/sessions.js';
import { eventInCatalogue, seatPool, seatsAvailable, seatUnit } from './seats.js';
import { freeCancellationUntil, toTrainingEventView } from './views.js';

/**
 * What operators do in practical training (the operator CLI): event capacity
 * and cancellation, attendance, results and reschedules. Each change is one
 * transaction with its event.
 */

const findBooking = (deps: Deps, id: number) => findBookingIn<PracticalBooking>(deps, PRACTICAL_FAMILY, id);
const viewOf = (deps: Deps, b: PracticalBooking) => ({ client_id: b.client_id, ...toPracticalBookingView(b, deps.config.serviceTimeZone) });

/** `booking.attendance_marked`, and `booking.no_show` too when the candidate did not come. */
export async function markPracticalAttendance(deps: Deps, id: number, attendance: 'attended' | 'no_show') {
  const booking = await findBooking(deps, id);
  const noShow = attendance === 'no_show' ? [part('no-show event', eventPut(deps, { family: PRACTICAL_FAMILY, type: 'booking.no_show', client_id: booking.client_id, data: toPracticalBookingView({ ...booking, attendance }, deps.config.serviceTimeZone) }))] : [];
  return viewOf(deps, await markAttendanceOf(deps, PRACTICAL_BOOKINGS, booking, attendance, noShow));
}

/** The result of an attended booking; the training is then completed. */
export async function markPracticalResult(deps: Deps, id: number, result: 'passed' | 'not_passed') {
  return viewOf(deps, await markResultOf(deps, PRACTICAL_BOOKINGS, await findBooking(deps, id), result));
}

/** Moves a scheduled booking to another event of its course: new seat claimed, old freed, both counts moved, one transaction. */
export async function reschedulePractical(deps: Deps, id: number, toEventId: number): Promise<PracticalBookingView & { client_id: string }> {
  return retryOnConflict(async () => {
    const booking = await findBooking(deps, id);
    if (booking.booking_status === 'cancelled' || booking.training_status !== 'scheduled') throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status} and ${booking.training_status}`);
    if (booking.training_event_id === toEventId) return viewOf(deps, booking);
    const { event, course, location } = await eventInCatalogue(deps, toEventId);
    if (course.id !== booking.course_id) throw new DomainError('invalid-state', `Training event ${toEventId} is not of course ${booking.course_id}`);
    if (event.cancelled_at || event.start_at <= deps.clock().toISOString()) throw new DomainError('event-unavailable', `Training event ${toEventId} is not open`);
    const old = await getTrainingEventItem(deps, booking.training_event_id);
    const now = deps.clock();
    const seats = (await seatsAvailable(deps, [event], now)).get(event.id) ?? 1;
    const after = toTrainingEventView({ ...event, booked_count: event.booked_count + 1 }, course, location, seats - 1, now, deps.config.serviceTimeZone);
    const { value } = await takeFromPool(
      deps,
      seatPool(event),
      (seat) =>
        changeBooking(
          deps,
          PRACTICAL_BOOKINGS,
          booking,
          { training_event_id: event.id, seat, date: event.date, start_time: event.start_time, start_at: event.start_at, end_at: event.end_at, free_cancellation_until: freeCancellationUntil(event, course).toISOString(), training_event: { ...booking.training_event, id: event.id } },
          'booking.rescheduled',
          [
            claimUnit(deps, seatUnit(event, seat), { bookingId: id, clientId: booking.client_id }, now),
            freeUnit(deps, PRACTICAL_BOOKINGS.unitOf(booking), { bookingId: id }, 'old unit'),
            ...eventBookedParts(deps, event, booking.client_id, () => after, 'new event'),
            ...(old ? eventFreedParts(deps, old, 'old event') : []),
          ],
        ),
      () => new DomainError('event-full', `Every seat of training event ${toEventId} is booked or held`),
    );
    return viewOf(deps, value);
  });
}

/** Raises capacity (new seats), or lowers it where the seats cut are free. */
export async function setEventCapacity(deps: Deps, eventId: number, capacity: number) {
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY) throw new DomainError('invalid-catalog', `capacity must be 1 to ${MAX_CAPACITY}`);
  const { event } = await eventInCatalogue(deps, eventId);
  if (capacity < event.capacity) {
    const cut = seatNames(event.capacity).slice(capacity).map((s) => seatUnit(event, s));
    const locks = await readLocks(deps, cut);
    const taken = cut.filter((k) => lockInForce(locks.get(unitId(k)), deps.clock())).length;
    if (taken > 0 || event.booked_count > capacity) throw new DomainError('invalid-state', `Training event ${eventId} has ${taken} booked or held seats above ${capacity}; it keeps ${event.capacity}`);
  }
  await deps.db
    .send(
      new UpdateCommand({
        TableName: deps.table,
        Key: sessionKeys.session(PRACTICAL_FAMILY, eventId),
        UpdateExpression: 'SET #capacity = :c, updated_at = :now',
        ConditionExpression: 'booked_count <= :c',
        ExpressionAttributeNames: { '#capacity': 'capacity' },
        ExpressionAttributeValues: { ':c': capacity, ':now': deps.clock().toISOString() },
      }),
    )
    .catch((err: unknown) => {
      if (isConditionalCheckFailed(err)) throw new DomainError('invalid-state', `Training event ${eventId} has more than ${capacity} bookings`);
      throw err;
    });
  return { id: eventId, capacity };
}

/** Cancels the event, then every booking on it: each refunded in full, each told (`booking.cancelled`). */
export async function cancelTrainingEvent(deps: Deps, eventId: number, reason = 'training event cancelled') {
  await eventInCatalogue(deps, eventId);
  const cancelled = await cancelSessionAndBookings(deps, PRACTICAL_FAMILY, eventId, {
    list: (clientId, cursor) => listPracticalBookings(deps, clientId, { training_event_id: eventId, limit: 100, cursor }),
    cancel: (clientId, id) => cancelPractical(deps, clientId, id, { by: 'operator', reason, alwaysRefund: true }),
  });
  return { id: eventId, cancelled_bookings: cancelled };
}

/** Operators' view of an event's raw counters. */
export const eventCounters = async (deps: Deps, id: number) => {
  const e = await getTrainingEventItem(deps, id);
  if (!e) throw new DomainError('not-found', `No training event ${id}`);
  return { id, capacity: e.capacity, booked_count: e.booked_count, seats_low_at: e.seats_low_at, seats_low_armed: e.seats_low_armed, cancelled_at: e.cancelled_at ?? null };
};
