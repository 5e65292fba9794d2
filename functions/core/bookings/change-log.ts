import { clientKeys } from '../access/clients.js';
import { queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { allOf, deleteItem, part, putItem, type Condition, type Part } from '../platform/transact.js';
import type { BookingKind, BookingRecord } from './kind.js';

/**
 * The change log of a client's bookings, one family at a time: for each
 * booking, one entry keyed by its `updated_at` and id, holding the booking
 * as that change left it. Every write of the engine (commit, change) moves
 * the entry in the booking's own transaction, so the log never disagrees
 * with the bookings and is read consistently, unlike an index. A poller reads
 * it in change order from where it stopped (the Services feed).
 *
 * Timestamps are the writers' clocks, and a writer that read its clock
 * earlier can commit later than one that read it after: an entry can appear
 * behind a position a reader has already passed. So the log is only read up
 * to a settling time (`settleSeconds` ago), long after any write that read
 * its clock before then has committed or failed.
 */

const CLIENT = TABLE_KEYS.client;

export const changeKeys = {
  entry: (clientId: string, family: FamilyId, updatedAt: string, id: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.bookingChange, family, updatedAt, padId(id)),
  }),
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.bookingChange, family),
};

/**
 * A booking's `updated_at` for a change at `now`: later than the one it had,
 * even within one millisecond, so each state of a booking has its own
 * `updated_at` (pollers tell states apart by id and `updated_at`) and its
 * own place in the log.
 */
export function nextUpdatedAt(previous: string | undefined, now: Date): string {
  const floor = previous ? Date.parse(previous) + 1 : 0;
  return new Date(Math.max(now.getTime(), floor)).toISOString();
}

/** The booking's fields, without the keys of the item they were read from. */
function fieldsOf(booking: BookingRecord): Record<string, unknown> {
  const { pk, sk, gsi1pk, gsi1sk, entity, ...fields } = booking as BookingRecord & Record<string, unknown>;
  return fields;
}

/** The parts that record `after` in the log, and take `before` (the booking as read, if it existed) out of it. */
export function changeLogParts(deps: Deps, after: BookingRecord, before?: BookingRecord): Part[] {
  const entry = (b: BookingRecord) => changeKeys.entry(b.client_id, b.family, b.updated_at, b.id);
  // A booking from before the log has no entry: deleting nothing is harmless.
  const old = before ? [part('change log (before)', deleteItem(deps, entry(before)))] : [];
  return [...old, part('change log', putItem(deps, { ...entry(after), entity: 'booking-change', ...fieldsOf(after) }))];
}

export interface ChangeFilter {
  /** Inclusive: changes at this instant are answered again (pollers de-duplicate on id and updated_at). */
  since: Date;
  limit: number;
  cursor?: string;
}

/**
 * The kind's bookings of the client changed at or after `since`, in change
 * order (`updated_at`, then id), each as its latest change left it, up to
 * the settling time; `more` filters them (status, dates).
 */
export function listChanges<B extends BookingRecord, V>(
  deps: Deps,
  kind: BookingKind<B, V>,
  clientId: string,
  filter: ChangeFilter,
  more: Condition[],
  settleSeconds: number,
): Promise<Page<V>> {
  const settled = new Date(deps.clock().getTime() - settleSeconds * 1000).toISOString();
  const prefix = changeKeys.familyPrefix(kind.family);
  return queryFilteredPage(
    deps,
    {
      pk: clientKeys.partition(clientId),
      prefix,
      // The range is the request's (a cursor stays good for the same `updated_since`); the settling time moves, so it is a filter.
      range: { from: key(prefix, filter.since.toISOString()), to: `${prefix}~` },
      order: 'oldest',
      limit: filter.limit,
      cursor: filter.cursor,
      filter: allOf({ expression: 'updated_at <= :settled', values: { ':settled': settled } }, ...more),
    },
    (item) => kind.view(item as B, deps.config.serviceTimeZone),
  );
}
