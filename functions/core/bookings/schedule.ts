import { clientKeys } from '../access/clients.js';
import { getMany, queryFilteredPage } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { familyPrefix, key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { encodeCursor, type ListScope, type Page } from '../platform/pagination.js';
import { deleteItem, part, putItem, type Condition, type Part } from '../platform/transact.js';
import type { BookingKind, BookingRecord } from './kind.js';
import { bookingKeys } from './records.js';

/**
 * A client's bookings of a family in the order they take place: one small
 * pointer per booking, keyed by its start and id, written with the booking
 * and moved only when a reschedule moves the start. Lists by time (past,
 * upcoming, a range of days) read pointers in order and then the bookings.
 */

const CLIENT = TABLE_KEYS.client;

export const scheduleKeys = {
  entry: (clientId: string, family: FamilyId, startAt: string, id: number) => ({
    pk: clientKeys.partition(clientId),
    sk: key(CLIENT.sk.bookingStart, family, startAt, padId(id)),
  }),
  familyPrefix: (family: FamilyId) => familyPrefix(CLIENT.sk.bookingStart, family),
};

/** No booking lasts longer than this (a course is at most a day): an upcoming list looks back this far for the ones under way. */
export const LONGEST_BOOKING_MS = 24 * 3_600_000;

/** The parts that keep the booking's pointer where its start is: nothing unless the start or the end moved. */
export function scheduleParts(deps: Deps, after: BookingRecord, before?: BookingRecord): Part[] {
  if (before && before.start_at === after.start_at && before.end_at === after.end_at) return [];
  const entry = (b: BookingRecord) => scheduleKeys.entry(b.client_id, b.family, b.start_at, b.id);
  const pointer = { ...entry(after), entity: 'booking-start', booking_id: after.id, start_at: after.start_at, end_at: after.end_at };
  // The same start with another end: one put replaces the pointer (a transaction may touch an item once).
  const old = before && before.start_at !== after.start_at ? [part('schedule (before)', deleteItem(deps, entry(before)))] : [];
  return [...old, part('schedule', putItem(deps, pointer))];
}

/** Which part of the schedule: starting on a range of days (`[from, to)`), or from an instant on, or before one going back. */
export type ScheduleWindow = { starts: { from: Date; to: Date } } | { after: Date } | { before: Date };

export interface ScheduleQuery {
  window: ScheduleWindow;
  /** A condition on the pointer's `start_at` and `end_at` (under way, over). */
  filter?: Condition;
  limit: number;
  cursor?: string;
}

/**
 * The kind's bookings of the client by start, as the kind shows them:
 * soonest first, or latest first `before` an instant. A range of days is the
 * list's own range; from or before the clock, the list is the whole schedule
 * (so a cursor stays good however the clock moves by the next page) and a
 * first page begins at a cursor made here, at the clock.
 */
export async function listBySchedule<B extends BookingRecord, V>(
  deps: Deps,
  kind: BookingKind<B, V>,
  clientId: string,
  query: ScheduleQuery,
): Promise<Page<V>> {
  const pk = clientKeys.partition(clientId);
  const prefix = scheduleKeys.familyPrefix(kind.family);
  const at = (instant: Date) => key(prefix, instant.toISOString());
  const w = query.window;
  // Inclusive bounds; a start equal to `to` sorts after `at(to)` (its id follows), so it is left out.
  const scope: ListScope = 'starts' in w ? { pk, prefix, range: { from: at(w.starts.from), to: at(w.starts.to) } } : { pk, prefix };
  const edge = 'after' in w ? w.after : 'before' in w ? w.before : undefined;
  // An exclusive start key at the clock: going forward the next start is at or after it, going back before it.
  const cursor = query.cursor ?? (edge ? ((await encodeCursor(deps, scope, { pk, sk: at(edge) })) ?? undefined) : undefined);
  const order = 'before' in w ? 'newest' : 'oldest';
  const page = await queryFilteredPage(deps, { ...scope, order, limit: query.limit, cursor, filter: query.filter }, (item) => Number(item.booking_id));
  const bookings = new Map(
    (
      await getMany(
        deps,
        page.data.map((id) => bookingKeys.booking(clientId, kind.family, id)),
      )
    ).map((b) => [Number(b.id), b as unknown as B]),
  );
  // A pointer is written with its booking, so every booking is there; one that is not is left out rather than shown as nothing.
  const data = page.data.flatMap((id) => {
    const booking = bookings.get(id);
    return booking ? [kind.view(booking, deps.config.serviceTimeZone)] : [];
  });
  return { data, next_cursor: page.next_cursor };
}
