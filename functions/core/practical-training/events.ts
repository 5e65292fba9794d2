import type { Deps } from '../platform/deps.js';
import type { Page } from '../platform/pagination.js';
import { addDays, wallClock, zonedInstant } from '../platform/time.js';
import { locksOfDays, seatsFree } from '../inventory/sessions.js';
import { loadCatalogue, PRACTICAL_FAMILY, trainingEventsStarting } from './catalogue.js';
import { eventInCatalogue, seatsAvailable } from './seats.js';
import { EVENT_RANGE_DAYS } from '../platform/listing-windows.js';
import { toTrainingEventView, type TrainingEventView } from './views.js';

export { EVENT_RANGE_DAYS } from '../platform/listing-windows.js';

/** Training events as agencies read them: with live `seats_available` and `status`. */

export interface EventFilter {
  course_id?: number;
  location_id?: number;
  /** Calendar days, by start, inclusive; today and 92 days on when left out. */
  from?: string;
  to?: string;
  available_only?: boolean;
  limit: number;
  cursor?: string;
}

/** The longest range whose locks a listing reads beside its events. */
const LOCKS_BESIDE_DAYS = 31;

/** The start of a service-time-zone day, as an instant. */
const dayStart = (date: string, timeZone: string) => zonedInstant(date, '00:00', timeZone)!.toISOString();

export async function listTrainingEvents(deps: Deps, filter: EventFilter): Promise<Page<TrainingEventView>> {
  const tz = deps.config.serviceTimeZone;
  const now = deps.clock();
  const from = filter.from ?? wallClock(now, tz).date;
  const to = filter.to ?? addDays(from, EVENT_RANGE_DAYS - 1);
  const catalogue = await loadCatalogue(deps);
  const courses = new Map(catalogue.courses.map((c) => [c.id, c]));
  const locations = new Map(catalogue.locations.map((l) => [l.id, l]));
  // A range of a month or less has its locks read beside its events (one round trip, whatever its length); a
  // longer one (the default is 92 days, of which a page shows the first) reads them for the page's days, after it.
  const [page, rangeLocks] = await Promise.all([
    trainingEventsStarting(
      deps,
      { from: dayStart(from, tz), to: dayStart(addDays(to, 1), tz), limit: filter.limit, cursor: filter.cursor },
      (e) =>
        (!filter.course_id || e.course_id === filter.course_id) &&
        (!filter.location_id || e.location_id === filter.location_id) &&
        courses.has(e.course_id) &&
        locations.has(e.location_id),
    ),
    to <= addDays(from, LOCKS_BESIDE_DAYS - 1) ? locksOfDays(deps, PRACTICAL_FAMILY, from, to) : undefined,
  ]);
  const seats = rangeLocks ? seatsFree(PRACTICAL_FAMILY, page.data, rangeLocks, now) : await seatsAvailable(deps, page.data, now);
  const views = page.data.map((e) => toTrainingEventView(e, courses.get(e.course_id)!, locations.get(e.location_id)!, seats.get(e.id) ?? 0, now, tz));
  // A page may come out short when only available events are asked for; the cursor still reads on.
  return { data: filter.available_only ? views.filter((v) => v.status === 'open') : views, next_cursor: page.next_cursor };
}

export async function getTrainingEvent(deps: Deps, id: number): Promise<TrainingEventView> {
  const { event, course, location } = await eventInCatalogue(deps, id);
  const now = deps.clock();
  const seats = await seatsAvailable(deps, [event], now);
  return toTrainingEventView(event, course, location, seats.get(event.id) ?? 0, now, deps.config.serviceTimeZone);
}
