import { eventPut } from '../events/outbox.js';
import { getHold, holdUnit, releaseUnitHold, sweepExpiredHolds, type Hold, type Holder, type HoldPolicy } from '../inventory/holds.js';
import { HOLD_SECONDS } from '../inventory/hold-time.js';
import type { Pool, Tally } from '../inventory/units.js';
import { seatPool as sessionPool, seatsAvailable as sessionSeatsAvailable, seatUnit as sessionSeat } from '../inventory/sessions.js';
import type { ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { formatWithOffset } from '../platform/time.js';
import { getTrainingEventItem, loadCatalogue, PRACTICAL_FAMILY, type Catalogue, type Course, type Location, type TrainingEventItem } from './catalogue.js';
import { eventStatus, toTrainingEventView } from './views.js';

/**
 * Seats of training events as unit locks: an event of capacity C is the pool S01…S<C>; a seat is free, held for
 * 30 minutes, or booked. What is available is counted from the locks in
 * force, never from a counter.
 */

/** A seat's lock: in the event's day partition, named `E<event>S<nn>`. */
export const seatUnit = (event: Pick<TrainingEventItem, 'id' | 'date' | 'start_time'>, seat: string): ItemKey => sessionSeat(PRACTICAL_FAMILY, event, seat);

export const seatPool = (event: TrainingEventItem): Pool<string> => sessionPool(PRACTICAL_FAMILY, event);

export type SeatHold = Hold & {
  training_event_id: number;
  seat: string;
  date: string;
  start_time: string;
  start_at: string;
  end_at: string;
  course: { id: number; name: string; code: string };
  location: { id: number; name: string; town: string; postcode: string };
};

const holdSummary = (hold: Pick<SeatHold, 'training_event_id' | 'course' | 'location' | 'start_at' | 'end_at'>, timeZone: string) => ({
  id: hold.training_event_id,
  course: hold.course,
  location: hold.location,
  start_at: formatWithOffset(hold.start_at, timeZone),
  end_at: formatWithOffset(hold.end_at, timeZone),
});

/** A seat hold as the API shows it: the clinical hold's shape, with the training event instead of the slot. */
export const toSeatHoldView = (hold: SeatHold, now: Date, timeZone: string) => ({
  hold_hash: hold.hold_hash,
  expires_at: formatWithOffset(hold.expires_at, timeZone),
  expires_in_seconds: Math.max(0, Math.ceil((Date.parse(hold.expires_at) - now.getTime()) / 1000)),
  training_event: holdSummary(hold, timeZone),
});
export type SeatHoldView = ReturnType<typeof toSeatHoldView>;

/** HOLD_MINUTES, one active hold per holder (an invite's apart from its agency's), expiry announced by the sweep. */
export const seatHolds: HoldPolicy = {
  family: PRACTICAL_FAMILY,
  seconds: HOLD_SECONDS,
  onePerHolder: true,
  announce: (deps, hold) => {
    const h = hold as SeatHold;
    const tz = deps.config.serviceTimeZone;
    return eventPut(deps, {
      family: PRACTICAL_FAMILY,
      type: 'seat_hold.expired',
      client_id: h.client_id,
      data: {
        hold_hash: h.hold_hash,
        training_event: holdSummary(h, tz),
        holder: { type: h.invite_id === undefined ? 'client' : 'booking_invite', booking_invite_id: h.invite_id ?? null },
        expires_at: formatWithOffset(h.expires_at, tz),
      },
    });
  },
};

export const seatOfHold = (hold: Hold): ItemKey => {
  const h = hold as SeatHold;
  return seatUnit({ id: h.training_event_id, date: h.date, start_time: h.start_time }, h.seat);
};

/** Seats neither booked nor held by an unexpired hold, for events read together (one query per day). */
export const seatsAvailable = (deps: Deps, events: TrainingEventItem[], now: Date = deps.clock()): Promise<Map<number, number>> =>
  sessionSeatsAvailable(deps, PRACTICAL_FAMILY, events, now);

/** The event with its course and location, or not-found (an unknown id, like a malformed one, is 404). */
export async function eventInCatalogue(
  deps: Deps,
  id: number,
  catalogue?: Catalogue,
): Promise<{ event: TrainingEventItem; course: Course; location: Location }> {
  const [event, cat] = await Promise.all([getTrainingEventItem(deps, id), catalogue ?? loadCatalogue(deps)]);
  const course = event && cat.courses.find((c) => c.id === event.course_id);
  const location = event && cat.locations.find((l) => l.id === event.location_id);
  if (!event || !course || !location) throw new DomainError('not-found', `No training event ${id}`);
  return { event, course, location };
}

/** Why no seat of this event can be held or booked now, if none can (full aside: the locks decide that). */
export function eventRefusal(event: TrainingEventItem, course: Course, now: Date): DomainError | undefined {
  const status = eventStatus(event, 1, now);
  const pointer = { pointer: '/training_event_id' };
  if (status === 'cancelled' || status === 'completed' || !course.active)
    return new DomainError('event-unavailable', `Training event ${event.id} is not open for booking`, pointer);
  if (status === 'closed') return new DomainError('booking-closed', `Booking for training event ${event.id} closed 24 hours before its start`, pointer);
  return undefined;
}

/** POST /seats/hold: a free seat of the event for 30 minutes. */
/** `tally` counts the transactions the hold took (the benchmark's contention measure). */
export async function holdSeat(deps: Deps, holder: Holder, eventId: number, tally?: Tally): Promise<SeatHoldView> {
  const tz = deps.config.serviceTimeZone;
  const { event, course, location } = await eventInCatalogue(deps, eventId).catch((err: unknown) => {
    if (err instanceof DomainError && err.code === 'not-found')
      throw new DomainError('event-unavailable', `No training event ${eventId}`, { pointer: '/training_event_id' });
    throw err;
  });
  const refusal = eventRefusal(event, course, deps.clock());
  if (refusal) throw refusal;
  const view = toTrainingEventView(event, course, location, 0, deps.clock(), tz);
  const { hold, at } = await holdUnit(
    deps,
    seatHolds,
    holder,
    seatPool(event),
    (seat) => ({
      training_event_id: event.id,
      seat,
      date: event.date,
      start_time: event.start_time,
      start_at: event.start_at,
      end_at: event.end_at,
      course: view.course,
      location: view.location,
    }),
    {
      conflict: (existing) =>
        new DomainError('hold-conflict', 'This client already has an active seat hold; book or release it first', {
          hold: toSeatHoldView(existing as SeatHold, deps.clock(), tz),
        }),
      unavailable: () => new DomainError('event-full', `Every seat of training event ${event.id} is booked or held`, { pointer: '/training_event_id' }),
    },
    tally,
    // An invite's hold counts against its client's invites' seats of this event.
    `E${event.id}`,
  );
  return toSeatHoldView(hold, at, tz);
}

/** DELETE /seats/hold/{hash}: only the holder's active hold; anything else is not-found. */
export const releaseSeat = (deps: Deps, holder: Holder, hash: string, read?: { hold: Hold | undefined }): Promise<void> =>
  releaseUnitHold(deps, seatHolds, holder, hash, seatOfHold, read);

export const getSeatHold = (deps: Deps, hash: string) => getHold<SeatHold>(deps, PRACTICAL_FAMILY, hash);

/** The schedule: each hold that expired unused goes `expired`, with `seat_hold.expired`, once. */
export const sweepSeatHolds = (deps: Deps): Promise<number> => sweepExpiredHolds(deps, seatHolds);
