import * as v from 'valibot';
import { clientOfBookingPage } from '../../core/bookings/booking-link.js';
import { activeType, loadCatalog } from '../../core/clinical-interview/catalog.js';
import { getClient } from '../../core/access/clients.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { freeSlotsBetween } from '../../core/clinical-interview/slots.js';
import { clinicalBookings } from '../../core/clinical-interview/bookings.js';
import { leavesTimeToPay } from '../../core/bookings/kind.js';
import { addDays, isCalendarDate, wallClock } from '../../core/platform/time.js';
import { idFromString } from '../../api/schemas/fields.js';
import type { BookingPageModel } from './_pages.js';
import { CANDIDATE_FIELDS } from '../../api/schemas/clinical-interview.js';

/** What the booking page shows and accepts; shared by its GET and POST handlers. */

export const BOOKING_PAGE_DAYS = 14;

export const BookingPageForm = v.object({
  interview_type_id: idFromString,
  slot: v.pipe(
    v.string('Choose a time'),
    v.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'Choose a time'),
    v.check((s) => isCalendarDate(s.slice(0, 10)), 'Choose a time'),
  ),
  ...CANDIDATE_FIELDS,
});

export async function bookingPageModel(
  deps: Deps,
  token: string,
  typeId: string | undefined,
  action: string,
): Promise<BookingPageModel & { clientId: string }> {
  const clientId = await clientOfBookingPage(deps, 'clinical-interview', token);
  const [client, catalog] = await Promise.all([getClient(deps, clientId), loadCatalog(deps)]);
  if (!client) throw new DomainError('not-found', 'There is no booking page at this address');
  const types = catalog.types.filter((t) => t.active);
  const type = typeId ? activeType(catalog, Number(typeId)) : types.length === 1 ? types[0] : undefined;
  const now = deps.clock();
  let slots: { date: string; time: string }[] = [];
  if (type) {
    const today = wallClock(now, deps.config.serviceTimeZone).date;
    // The page books for candidate payment: only slots that leave the candidate time to pay.
    const deadline = clinicalBookings('clinical-interview').deadline;
    const free = (await freeSlotsBetween(deps, catalog, type, today, addDays(today, BOOKING_PAGE_DAYS - 1), now)).filter((s) =>
      leavesTimeToPay(now, s.startAt, deadline),
    );
    const seen = new Set<string>();
    slots = free.filter((s) => !seen.has(s.date + s.time) && seen.add(s.date + s.time)).map((s) => ({ date: s.date, time: s.time }));
  }
  return { clientId, agency: client.name, action, types, type, slots, values: {}, errors: {} };
}
