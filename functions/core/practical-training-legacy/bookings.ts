import { bookingPageToken } from '../bookings/booking-link.js';
import { LONGEST_BOOKING_MS, listBySchedule, type ScheduleWindow } from '../bookings/schedule.js';
import type { Deps } from '../platform/deps.js';
import type { Page } from '../platform/pagination.js';
import { addDays, zonedInstant } from '../platform/time.js';
import { PRACTICAL_BOOKINGS, type PracticalBookingView } from '../practical-training/bookings.js';
import { loadCatalogue, PRACTICAL_FAMILY } from '../practical-training/catalogue.js';

/**
 * The deprecated practical training legacy API over the practical training family's bookings: the same
 * booking objects, listed by when they take place.
 */

interface PageRequest {
  limit: number;
  cursor?: string;
}

const list = (deps: Deps, clientId: string, window: ScheduleWindow, page: PageRequest, over: 'ended' | 'not ended' | 'any') => {
  const now = deps.clock().toISOString();
  const filter = over === 'any' ? undefined : { expression: over === 'ended' ? 'end_at <= :now' : 'end_at > :now', values: { ':now': now } };
  return listBySchedule(deps, PRACTICAL_BOOKINGS, clientId, { window, filter, ...page });
};

/** GET /bookings/past: bookings whose training has ended, the latest first. */
export const pastBookings = (deps: Deps, clientId: string, page: PageRequest): Promise<Page<PracticalBookingView>> =>
  list(deps, clientId, { before: deps.clock() }, page, 'ended');

/** GET /bookings/upcoming: bookings whose training has not ended (under way included), the soonest first. */
export const upcomingBookings = (deps: Deps, clientId: string, page: PageRequest): Promise<Page<PracticalBookingView>> =>
  list(deps, clientId, { after: new Date(deps.clock().getTime() - LONGEST_BOOKING_MS) }, page, 'not ended');

/** The instant a day begins in the service time zone (midnight is never in a clock change's gap in the zones we serve; 01:00 is the fallback). */
const dayStart = (date: string, timeZone: string): Date => zonedInstant(date, '00:00', timeZone) ?? zonedInstant(date, '01:00', timeZone)!;

/** GET /bookings/search: bookings starting on the days `from` to `to` (inclusive) in the service time zone, the soonest first. */
export function searchBookings(deps: Deps, clientId: string, days: { from: string; to: string }, page: PageRequest): Promise<Page<PracticalBookingView>> {
  const tz = deps.config.serviceTimeZone;
  return list(deps, clientId, { starts: { from: dayStart(days.from, tz), to: dayStart(addDays(days.to, 1), tz) } }, page, 'any');
}

/** GET /booking-links: the agency's booking page token, and the active courses a link presets. */
export async function bookingLinks(deps: Deps, clientId: string): Promise<{ token: string; courses: { id: number; name: string; code: string }[] }> {
  const [token, catalogue] = await Promise.all([bookingPageToken(deps, clientId, PRACTICAL_FAMILY), loadCatalogue(deps)]);
  return { token, courses: catalogue.courses.filter((c) => c.active).map((c) => ({ id: c.id, name: c.name, code: c.code })) };
}
