import { findBooking } from './booking-admin.js';
import { type BookingFilter } from '../bookings/bookings.js';
import { listBookings } from './booking-api.js';
import { toBookingView, type BookingItem, type BookingView } from './bookings.js';
import { listClients } from '../access/clients.js';
import type { Deps } from '../platform/deps.js';
import type { Catalog, Interviewer, InterviewType } from './catalog.js';

/** What operators see of clinical interview bookings and the catalogue: views in the API's snake_case. */

export type OperatorBookingView = BookingView & { client_id: string };

const operatorView = (deps: Deps, booking: BookingItem): OperatorBookingView => ({
  client_id: booking.client_id,
  ...toBookingView(booking, deps.config.serviceTimeZone),
});

export const operatorBooking = async (deps: Deps, id: number) => operatorView(deps, await findBooking(deps, id));

/** One client's bookings (newest first), or every client's when no client is named. */
export async function operatorBookings(deps: Deps, filter: Omit<BookingFilter, 'cursor'> & { clientId?: string }): Promise<OperatorBookingView[]> {
  const clientIds = filter.clientId ? [filter.clientId] : (await listClients(deps)).map((c) => c.clientId);
  const all: OperatorBookingView[] = [];
  for (const clientId of clientIds) {
    let cursor: string | undefined;
    do {
      const page = await listBookings(deps, clientId, { ...filter, limit: Math.min(100, filter.limit - all.length), cursor });
      all.push(...page.data.map((b) => ({ client_id: clientId, ...b })));
      cursor = page.next_cursor ?? undefined;
    } while (cursor && all.length < filter.limit);
    if (all.length >= filter.limit) break;
  }
  return all;
}

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export const weekdayNumber = (day: string): number => WEEKDAYS.indexOf(day.toLowerCase() as (typeof WEEKDAYS)[number]) + 1;

/** An interview type as the API shows it. */
export const typeView = (t: InterviewType) => ({ id: t.id, name: t.name, duration_minutes: t.durationMinutes, price: t.price, active: t.active });

export const interviewerView = (i: Interviewer, catalog?: Catalog) => ({
  id: i.id,
  name: i.name,
  availability: i.availability.map((w) => ({
    interview_type: { id: w.interviewTypeId, name: catalog?.types.find((t) => t.id === w.interviewTypeId)?.name ?? null },
    day: WEEKDAYS[w.weekday - 1],
    start: w.start,
    end: w.end,
  })),
});
