import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { changeBooking } from '../bookings/change.js';
import { cancelSessionAndBookings, markAttendanceOf, markResultOf } from '../bookings/course-bookings.js';
import { findBookingIn } from '../bookings/records.js';
import { eventPut } from '../events/outbox.js';
import { holderOf, moveHoldParts, releaseUnitHold } from '../inventory/holds.js';
import { claimUnit, freeUnit, lockInForce, moveUnitParts, readLocks, seatNames, takeFromPool, unitId } from '../inventory/units.js';
import type { ItemKey } from '../platform/db.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import { retryOnConflict } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { part, transact } from '../platform/transact.js';
import { cancelPractical, PRACTICAL_CHANGING } from './booking-changes.js';
import { listPracticalBookings, toPracticalBookingView, type PracticalBooking, type PracticalBookingView } from './bookings.js';
import { getTrainingEventItem, MAX_CAPACITY, PRACTICAL_FAMILY, type TrainingEventItem } from './catalogue.js';
import { eventBookedParts, eventFreedParts } from './event-count.js';
import { sessionKeys } from '../inventory/sessions.js';
import { eventInCatalogue, getSeatHold, seatHolds, seatOfHold, seatPool, seatsAvailable, seatUnit } from './seats.js';
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
  const noShow =
    attendance === 'no_show'
      ? [
          part(
            'no-show event',
            eventPut(deps, {
              family: PRACTICAL_FAMILY,
              type: 'booking.no_show',
              client_id: booking.client_id,
              data: toPracticalBookingView({ ...booking, attendance }, deps.config.serviceTimeZone),
            }),
          ),
        ]
      : [];
  return viewOf(deps, await markAttendanceOf(deps, PRACTICAL_CHANGING, booking, attendance, noShow));
}

/** The result of an attended booking; the training is then completed. */
export async function markPracticalResult(deps: Deps, id: number, result: 'passed' | 'not_passed') {
  return viewOf(deps, await markResultOf(deps, PRACTICAL_CHANGING, await findBooking(deps, id), result));
}

/** Moves a scheduled booking to another event of its course: new seat claimed, old freed, both counts moved, one transaction. */
export async function reschedulePractical(deps: Deps, id: number, toEventId: number): Promise<PracticalBookingView & { client_id: string }> {
  return retryOnConflict(async () => {
    const booking = await findBooking(deps, id);
    if (booking.booking_status === 'cancelled' || booking.training_status !== 'scheduled')
      throw new DomainError('invalid-state', `Booking ${id} is ${booking.booking_status} and ${booking.training_status}`);
    if (booking.training_event_id === toEventId) return viewOf(deps, booking);
    const { event, course, location } = await eventInCatalogue(deps, toEventId);
    if (course.id !== booking.course_id) throw new DomainError('invalid-state', `Training event ${toEventId} is not of course ${booking.course_id}`);
    if (event.cancelled_at || event.start_at <= deps.clock().toISOString())
      throw new DomainError('event-unavailable', `Training event ${toEventId} is not open`);
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
          PRACTICAL_CHANGING,
          booking,
          {
            training_event_id: event.id,
            seat,
            date: event.date,
            start_time: event.start_time,
            start_at: event.start_at,
            end_at: event.end_at,
            free_cancellation_until: freeCancellationUntil(event, course).toISOString(),
            training_event: { ...booking.training_event, id: event.id },
          },
          'booking.rescheduled',
          [
            claimUnit(deps, seatUnit(event, seat), { bookingId: id, clientId: booking.client_id }, now),
            freeUnit(deps, PRACTICAL_CHANGING.unitOf(booking), { bookingId: id }, 'old unit'),
            ...eventBookedParts(deps, event, booking.client_id, () => after, 'new event'),
            ...(old ? eventFreedParts(deps, old, 'old event') : []),
          ],
        ),
      () => new DomainError('event-full', `Every seat of training event ${toEventId} is booked or held`),
    );
    return viewOf(deps, value);
  });
}

/**
 * Raises capacity (new seats), or lowers it down to what is booked: the
 * capacity is written first, so holds and bookings from then on use the
 * smaller pool; then each booking, and each active hold, on a seat cut is
 * moved to a free seat kept. A hold that finds none ends (released): the
 * seats kept go to bookings first.
 */
export async function setEventCapacity(deps: Deps, eventId: number, capacity: number) {
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_CAPACITY) throw new DomainError('invalid-catalog', `capacity must be 1 to ${MAX_CAPACITY}`);
  const { event } = await eventInCatalogue(deps, eventId);
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
      if (isConditionalCheckFailed(err))
        throw new DomainError('invalid-state', `Training event ${eventId} has more than ${capacity} bookings; it keeps ${event.capacity} seats`);
      throw err;
    });
  const moved = capacity < event.capacity ? await clearCutSeats(deps, { ...event, capacity }, event.capacity) : { bookings: [], holds: 0, released_holds: 0 };
  return { id: eventId, capacity, moved_bookings: moved.bookings, moved_holds: moved.holds, released_holds: moved.released_holds };
}

/** Moves what is on seats above the event's (new) capacity onto seats kept; a few rounds catch a hold taken from the pool as read before the cut. */
async function clearCutSeats(deps: Deps, event: TrainingEventItem, oldCapacity: number) {
  const done = { bookings: [] as number[], holds: 0, released_holds: 0 };
  const cut = seatNames(oldCapacity)
    .slice(event.capacity)
    .map((seat) => ({ seat, unit: seatUnit(event, seat) }));
  for (let round = 0; round < 3; round++) {
    const locks = await readLocks(
      deps,
      cut.map((c) => c.unit),
    );
    const inForce = cut.flatMap((c) => {
      const lock = locks.get(unitId(c.unit));
      return lock && lockInForce(lock, deps.clock()) ? [{ ...c, lock }] : [];
    });
    if (!inForce.length) break;
    // Bookings first: they are owed a seat, a hold is not.
    for (const { unit, lock } of inForce.sort((x, y) => Number(y.lock.state === 'booked') - Number(x.lock.state === 'booked'))) {
      if (lock.state === 'booked') done.bookings.push(await moveBooking(deps, event, unit, lock, () => done.released_holds++));
      else if (await moveHold(deps, event, unit, lock)) done.holds++;
      else done.released_holds++;
    }
  }
  return done;
}

async function moveBooking(deps: Deps, event: TrainingEventItem, from: ItemKey, lock: Record<string, unknown>, released: () => void): Promise<number> {
  const booking = await findBooking(deps, Number(lock.booking_id));
  const attempt = () =>
    takeFromPool(
      deps,
      seatPool(event),
      (seat) => changeBooking(deps, PRACTICAL_CHANGING, booking, { seat }, undefined, moveUnitParts(deps, from, seatUnit(event, seat), lock, deps.clock())),
      () => new DomainError('event-full', `No seat kept for booking ${booking.id}`),
    );
  await attempt().catch(async (err: unknown) => {
    // Every seat kept is booked or held: a hold gives way to the booking.
    if (!(err instanceof DomainError && err.code === 'event-full') || !(await releaseOneHold(deps, event))) throw err;
    released();
    return attempt();
  });
  return booking.id;
}

/** Moves a hold onto a free seat kept; false when there is none and the hold was ended instead. */
async function moveHold(deps: Deps, event: TrainingEventItem, from: ItemKey, lock: Record<string, unknown>): Promise<boolean> {
  const hold = await getSeatHold(deps, String(lock.hold_hash));
  if (!hold || hold.status !== 'active') return true;
  try {
    await takeFromPool(
      deps,
      seatPool(event),
      (seat) => transact(deps, moveHoldParts(deps, seatHolds, hold, { seat }, { from, to: seatUnit(event, seat), item: lock }), {}),
      () => new DomainError('event-full', 'No seat kept for the hold'),
    );
    return true;
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'event-full')) throw err;
    await releaseUnitHold(deps, seatHolds, holderOf(hold), hold.hold_hash, seatOfHold).catch(() => undefined);
    return false;
  }
}

/** Ends one active hold on a seat kept; false if there is none. */
async function releaseOneHold(deps: Deps, event: TrainingEventItem): Promise<boolean> {
  const kept = seatNames(event.capacity).map((seat) => seatUnit(event, seat));
  const locks = await readLocks(deps, kept);
  for (const lock of locks.values()) {
    if (lock.state !== 'held' || !lockInForce(lock, deps.clock())) continue;
    const hold = await getSeatHold(deps, String(lock.hold_hash));
    if (hold?.status !== 'active') continue;
    await releaseUnitHold(deps, seatHolds, holderOf(hold), hold.hold_hash, seatOfHold).catch(() => undefined);
    return true;
  }
  return false;
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
