import { clientKeys } from '../access/clients.js';
import { queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { Page } from '../platform/pagination.js';
import { allOf, type Condition } from '../platform/transact.js';
import type { BookingStatus } from '../platform/booking-vocabulary.js';
import type { BookingKind, BookingRecord } from './kind.js';
import { bookingKeys } from './records.js';

/**
 * A caller's bookings of one kind, listed and filtered. The engine
 * (commit.ts, change.ts) does the writing; each family's bookings module
 * (clinical-interview/booking-api.ts, practical-training/bookings.ts, …)
 * creates and reads its own.
 */

export { PAY_OPTIONS, BOOKING_STATUSES, type PayOption, type BookingStatus } from '../platform/booking-vocabulary.js';
export type { PayStatus } from '../commerce/charges.js';
export { bookingKeys } from './records.js';
export type { BookingLinks } from './commit.js';

export interface BookingFilter {
  status?: BookingStatus;
  from?: string;
  to?: string;
  limit: number;
  cursor?: string;
}

/** Status, and the booking's wall-clock day (`date`) between `from` and `to`, inclusive. */
export const filterConditions = (filter: Pick<BookingFilter, 'status' | 'from' | 'to'>): Condition[] => [
  ...(filter.status ? [{ expression: 'booking_status = :status', values: { ':status': filter.status } }] : []),
  ...(filter.from ? [{ expression: '#date >= :from', names: { '#date': 'date' }, values: { ':from': filter.from } }] : []),
  ...(filter.to ? [{ expression: '#date <= :to', names: { '#date': 'date' }, values: { ':to': filter.to } }] : []),
];

/** A kind's bookings of the caller, newest first, filtered by status and date (and the kind's `more` conditions). */
export function listOf<B extends BookingRecord, V>(
  deps: Deps,
  kind: BookingKind<B, V>,
  clientId: string,
  filter: BookingFilter,
  more: Condition[] = [],
): Promise<Page<V>> {
  const conditions = [...more, ...filterConditions(filter)];
  return queryFilteredPage(
    deps,
    {
      pk: clientKeys.partition(clientId),
      prefix: bookingKeys.familyPrefix(kind.family),
      limit: filter.limit,
      cursor: filter.cursor,
      filter: conditions.length ? allOf(...conditions) : undefined,
    },
    (item) => kind.view(item as B, deps.config.serviceTimeZone),
  );
}
