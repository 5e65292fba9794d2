import { filterConditions, type BookingFilter } from '../bookings/bookings.js';
import { listBookings } from '../clinical-interview/booking-api.js';
import { type BookingView } from '../clinical-interview/bookings.js';
import { listChanges } from '../bookings/change-log.js';
import { clinicalBookings } from '../clinical-interview/bookings.js';
import { CLINICAL_FAMILY } from '../clinical-interview/catalog.js';
import type { Deps } from '../platform/deps.js';
import type { Page } from '../platform/pagination.js';

/**
 * The Services API's feed: the
 * caller's clinical interview bookings as the clinical family shows them.
 * Without `updatedSince`, the clinical list (newest first); with it, the
 * bookings engine's change log from that instant, so a poller that resumes
 * from the last `updated_at` it saw misses no booking, reschedule or
 * cancellation.
 */
export interface FeedQuery extends BookingFilter {
  updatedSince?: Date;
}

export function bookingFeed(deps: Deps, clientId: string, query: FeedQuery): Promise<Page<BookingView>> {
  if (!query.updatedSince) return listBookings(deps, clientId, query);
  return listChanges(
    deps,
    clinicalBookings(CLINICAL_FAMILY),
    clientId,
    { since: query.updatedSince, limit: query.limit, cursor: query.cursor },
    filterConditions(query),
    deps.config.feedSettleSeconds,
  );
}
