import { getClient } from '../access/clients.js';
import { clientOfBookingPage, linkPaymentDeadline } from '../bookings/booking-link.js';
import type { BookingLinks } from '../bookings/commit.js';
import { leavesTimeToPay } from '../bookings/kind.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { addDays, wallClock, zonedInstant } from '../platform/time.js';
import { createVlsLinkBooking, VLS_BOOKINGS, type NewVlsBooking, type VlsBookingView } from './bookings.js';
import { loadCourses, VLS_FAMILY, type VlsCourse } from './catalogue.js';
import { listTimeslots, MAX_RANGE_DAYS, offeredSlot } from './timeslots.js';

/**
 * The agency's booking link in virtual life support (`/book/{t}`, the URL
 * `GET /client/booking-url` gives): a candidate chooses a course and one of
 * its timeslots, and books a seat for candidate payment. No hold: a free seat
 * is claimed in the booking's transaction. As in the other families, at most
 * five of its bookings wait for payment at once (a link place each), each due
 * within the link's payment deadline (2 hours: ../bookings/booking-link.ts).
 */

export type LinkSlot = Awaited<ReturnType<typeof listTimeslots>>[number];

/** The agency behind the link: not-found for an unknown or rotated token, 410 for a disabled agency. */
export const clientOfVlsLink = (deps: Deps, token: string): Promise<string> => clientOfBookingPage(deps, VLS_FAMILY, token);

/** The active courses, and the chosen course's timeslots a candidate can still book and pay for (seats free, time to pay before the deadline). */
export async function vlsLinkChoices(deps: Deps, courseId: number | undefined): Promise<{ courses: VlsCourse[]; course?: VlsCourse; slots: LinkSlot[] }> {
  const courses = (await loadCourses(deps)).filter((c) => c.active);
  const course = courses.find((c) => c.id === courseId) ?? (courses.length === 1 ? courses[0] : undefined);
  if (!course) return { courses, slots: [] };
  const now = deps.clock();
  const tz = deps.config.serviceTimeZone;
  const today = wallClock(now, tz).date;
  const deadline = linkPaymentDeadline(deps, VLS_BOOKINGS.deadline);
  const slots = await listTimeslots(deps, { courseId: course.id, from: today, to: addDays(today, MAX_RANGE_DAYS - 1) });
  return { courses, course, slots: slots.filter((s) => leavesTimeToPay(now, zonedInstant(s.date, s.time, tz)!, deadline)) };
}

export type VlsLinkBooking = Omit<NewVlsBooking, 'hold_hash' | 'pay_option'> & { course_id: number; date: string; time: string };

/** POST /book/{t}: the candidate's booking of a seat of the timeslot, to be paid on the payment page. */
export async function bookVlsFromLink(
  deps: Deps,
  token: string,
  input: VlsLinkBooking,
  links: BookingLinks,
): Promise<{ booking: VlsBookingView; paymentToken: string }> {
  const clientId = await clientOfVlsLink(deps, token);
  const client = await getClient(deps, clientId);
  if (!client) throw new DomainError('not-found', 'There is no booking page at this address');
  const { course_id, date, time, ...candidate } = input;
  const offered = (await vlsLinkChoices(deps, course_id)).slots.some((s) => s.date === date && s.time === time);
  const slot = await offeredSlot(deps, { courseId: course_id, date, time });
  if (!offered) throw new DomainError('slot-unavailable', 'That time is not open for booking through this page', { reason: 'closed' });
  const { view, paymentToken } = await createVlsLinkBooking(deps, client, { ...slot, date, time }, candidate, links);
  return { booking: view, paymentToken: String(paymentToken) };
}
