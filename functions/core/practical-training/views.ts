import { formatWithOffset } from '../platform/time.js';
import type { Course, Location, TrainingEventItem } from './catalogue.js';
import { bookingClosesAt } from '../inventory/sessions.js';

/** How courses, locations and training events look in the API. */

export const toCourseView = (c: Course) => ({
  id: c.id,
  name: c.name,
  code: c.code,
  description: c.description,
  delivery: c.delivery,
  cstf_subject: c.cstf_subject,
  pre_attendance_notes: c.pre_attendance_notes,
  duration_minutes: c.duration_minutes,
  certificate_validity_months: c.certificate_validity_months,
  free_cancellation_hours: c.free_cancellation_hours,
  price: c.price,
});

export const toLocationView = (l: Location) => ({
  id: l.id,
  name: l.name,
  region: l.region,
  directions: l.directions,
  accessibility: l.accessibility,
  address: l.address,
});

export type TrainingEventStatus = 'cancelled' | 'completed' | 'closed' | 'full' | 'open';

const HOUR = 3600_000;

export { bookingClosesAt } from '../inventory/sessions.js';

/** Cancelling before this instant is refunded. */
export const freeCancellationUntil = (e: Pick<TrainingEventItem, 'start_at'>, course: Pick<Course, 'free_cancellation_hours'>): Date =>
  new Date(Date.parse(e.start_at) - course.free_cancellation_hours * HOUR);

/** The status an event shows, first match wins: cancelled, completed (ended), closed (past closing), full, open. */
export function eventStatus(e: Pick<TrainingEventItem, 'cancelled_at' | 'end_at' | 'start_at'>, seatsAvailable: number, now: Date): TrainingEventStatus {
  if (e.cancelled_at) return 'cancelled';
  if (Date.parse(e.end_at) <= now.getTime()) return 'completed';
  if (bookingClosesAt(e).getTime() <= now.getTime()) return 'closed';
  if (seatsAvailable <= 0) return 'full';
  return 'open';
}

export function toTrainingEventView(e: TrainingEventItem, course: Course, location: Location, seatsAvailable: number, now: Date, timeZone: string) {
  return {
    id: e.id,
    course: { id: course.id, name: course.name, code: course.code },
    location: { id: location.id, name: location.name, town: location.address.town, postcode: location.address.postcode },
    date: e.date,
    start_time: e.start_time,
    start_at: formatWithOffset(e.start_at, timeZone),
    end_at: formatWithOffset(e.end_at, timeZone),
    booking_closes_at: formatWithOffset(bookingClosesAt(e).toISOString(), timeZone),
    free_cancellation_until: formatWithOffset(freeCancellationUntil(e, course).toISOString(), timeZone),
    capacity: e.capacity,
    seats_available: Math.max(0, seatsAvailable),
    status: eventStatus(e, seatsAvailable, now),
    price: course.price,
  };
}
export type TrainingEventView = ReturnType<typeof toTrainingEventView>;
