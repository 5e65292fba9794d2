import type { Failure, Part } from '../platform/transact.js';
import type { BookingRecord } from './kind.js';

/**
 * What a family adds to one attempt at a booking's transaction, as plain
 * data: the engine (commit.ts) commits it with the booking, its charge and
 * its events. Each attempt builds its own, once the time and the payment
 * deadline are known (a seat count read again, a hold an operator moved).
 */
export interface BookingPlan {
  /** Fields this attempt decides (the seat taken, the link place held). */
  fields?: Partial<BookingRecord> & Record<string, unknown>;
  /** The parts that take the booking's unit: a hold used, or a free unit claimed, and a link place. */
  unitParts: Part[];
  /** The family's own parts: a session's seat count, an invite used, a request item that follows. */
  extraParts?: Part[];
  /** What a failed part means, by the part's name. */
  failures: Record<string, Failure>;
}

/** When an attempt runs, and the deadline it gives a candidate_pays booking. */
export interface Attempt {
  now: Date;
  paymentDueAt?: string;
}

/** Plans of one attempt as one, in order: their fields, unit parts, extra parts and failures. */
export const joinPlans = (...plans: (Partial<BookingPlan> | undefined)[]): BookingPlan => ({
  fields: Object.assign({}, ...plans.map((p) => p?.fields)) as BookingPlan['fields'],
  unitParts: plans.flatMap((p) => p?.unitParts ?? []),
  extraParts: plans.flatMap((p) => p?.extraParts ?? []),
  failures: Object.assign({}, ...plans.map((p) => p?.failures)) as Record<string, Failure>,
});
