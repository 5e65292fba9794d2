import { eventPut } from '../events/outbox.js';
import { sessionBookedPart, sessionFreedPart } from '../inventory/sessions.js';
import type { Deps } from '../platform/deps.js';
import { part, type Condition, type Part } from '../platform/transact.js';
import { PRACTICAL_FAMILY, type TrainingEventItem } from './catalogue.js';

/**
 * A training event's seat count (`booked_count`, never above capacity), in
 * the transactions of its bookings, cancellations and moves, and its
 * `training_event.seats_low`, once per crossing of the event's threshold.
 */

const seatsLeft = (e: TrainingEventItem, booked: number) => e.capacity - booked;
/** `booked_count` from which one more booking leaves `seats_low_at` seats or fewer. */
const crossingAt = (e: TrainingEventItem) => e.capacity - e.seats_low_at - 1;
/** Does one more booking on the event as read send `training_event.seats_low`? */
export const bookingCrossesSeatsLow = (e: TrainingEventItem): boolean => e.seats_low_armed && e.booked_count >= crossingAt(e);

/**
 * Counts one more booking on the event. Whether this booking crosses the
 * seats-low threshold is decided from the event as read, and the condition
 * keeps that decision true, so concurrent bookings send the alert once.
 */
export function eventBookedParts(deps: Deps, e: TrainingEventItem, clientId: string, publicView: () => unknown, name: string): Part[] {
  const crosses = bookingCrossesSeatsLow(e);
  const decision = crosses
    ? 'seats_low_armed = :armed AND booked_count >= :at'
    : e.seats_low_armed
      ? 'seats_low_armed = :armed AND booked_count < :at'
      : 'seats_low_armed = :armed';
  const when: Condition = { expression: decision, values: { ':armed': e.seats_low_armed, ...(e.seats_low_armed ? { ':at': crossingAt(e) } : {}) } };
  const parts = [sessionBookedPart(deps, PRACTICAL_FAMILY, e.id, { set: crosses ? { seats_low_armed: false } : {}, when }, name)];
  if (crosses)
    parts.push(
      part(`${name} seats low`, eventPut(deps, { family: PRACTICAL_FAMILY, type: 'training_event.seats_low', client_id: clientId, data: publicView() })),
    );
  return parts;
}

/** One booking fewer on the event; back above the threshold re-arms the alert. Conditional on the count as read. */
export function eventFreedParts(deps: Deps, e: TrainingEventItem, name: string): Part[] {
  const rearm = seatsLeft(e, e.booked_count - 1) > e.seats_low_at;
  return [sessionFreedPart(deps, PRACTICAL_FAMILY, e, rearm ? { seats_low_armed: true } : {}, name)];
}
