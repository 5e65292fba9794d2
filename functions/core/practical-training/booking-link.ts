import { clientOfBookingPage, linkPaymentDeadline, linkPlacePlan, withLinkPlace } from '../bookings/booking-link.js';
import type { BookingLinks } from '../bookings/commit.js';
import { leavesTimeToPay } from '../bookings/kind.js';
import { joinPlans } from '../bookings/plan.js';
import { getBookingItem } from '../bookings/records.js';
import { claimUnit, takeFromPool } from '../inventory/units.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { commitSeatBooking, PRACTICAL_BOOKINGS, type PracticalBookingView, type TraineeInput } from './bookings.js';
import { getTrainingEventItem, loadCatalogue, PRACTICAL_FAMILY, type Course } from './catalogue.js';
import { listTrainingEvents } from './events.js';
import { seatPool, seatUnit } from './seats.js';
import type { TrainingEventView } from './views.js';

/**
 * The agency's booking link in practical training (`/book/{t}`, the URL
 * `GET /client/booking-url` gives): a candidate chooses a course and one of
 * its open events, and books it for candidate payment. No hold: a free seat
 * is claimed in the booking's transaction. Like the clinical link, at most
 * five of its bookings wait for payment at once (a link place each), each
 * due within the link's payment deadline (2 hours: ../bookings/booking-link.ts).
 */

/** The agency behind the link, or not-found. */
export const clientOfLink = (deps: Deps, token: string): Promise<string> => clientOfBookingPage(deps, PRACTICAL_FAMILY, token);

/** The active courses, and the chosen course's events a candidate can still book and pay for: open, and with time to pay before the deadline. */
export async function linkChoices(deps: Deps, courseId: number | undefined): Promise<{ courses: Course[]; course?: Course; events: TrainingEventView[] }> {
  const courses = (await loadCatalogue(deps)).courses.filter((c) => c.active);
  const course = courses.find((c) => c.id === courseId) ?? (courses.length === 1 ? courses[0] : undefined);
  if (!course) return { courses, events: [] };
  const now = deps.clock();
  const page = await listTrainingEvents(deps, { course_id: course.id, available_only: true, limit: 50 });
  const deadline = linkPaymentDeadline(deps, PRACTICAL_BOOKINGS.deadline);
  return { courses, course, events: page.data.filter((e) => leavesTimeToPay(now, new Date(e.start_at), deadline)) };
}

/** POST /book/{t}: the candidate's booking of a seat of the event, to be paid on the payment page. */
export async function bookFromLink(
  deps: Deps,
  token: string,
  eventId: number,
  candidate: TraineeInput,
  links: BookingLinks,
): Promise<{ booking: PracticalBookingView; paymentToken: string }> {
  const clientId = await clientOfLink(deps, token);
  const event = await getTrainingEventItem(deps, eventId);
  const offered = event && (await linkChoices(deps, event.course_id)).events.some((e) => e.id === eventId);
  if (!event || !offered) throw new DomainError('event-unavailable', 'That date is not open for booking through this page', { pointer: '/training_event_id' });
  const full = () => new DomainError('event-full', `Every seat of training event ${eventId} is booked or held`, { pointer: '/training_event_id' });
  const booking = await withLinkPlace(deps, clientId, PRACTICAL_FAMILY, async (place) => {
    const { value } = await takeFromPool(
      deps,
      seatPool(event),
      (seat) =>
        commitSeatBooking(
          deps,
          clientId,
          eventId,
          { ...candidate, pay_option: 'candidate_pays' },
          links,
          { bookedBy: 'Candidate', deadline: linkPaymentDeadline(deps, PRACTICAL_BOOKINGS.deadline) },
          {
            seat,
            unit: ({ event: e, bookingId, now, paymentDueAt }) =>
              joinPlans(
                { unitParts: [claimUnit(deps, seatUnit(e, seat), { bookingId, clientId }, now)], failures: {} },
                linkPlacePlan(deps, clientId, place, { bookingId, dueAt: paymentDueAt!, now }),
              ),
            unknownClient: () => new DomainError('not-found', 'There is no booking page at this address'),
          },
        ),
      full,
    );
    return value;
  });
  const item = await getBookingItem(deps, clientId, booking.id, PRACTICAL_FAMILY);
  return { booking, paymentToken: String(item!.payment_token) };
}
