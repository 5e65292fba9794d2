import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { queryFilteredPage, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import type { FamilyId } from '../platform/families.js';
import { padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import type { Page } from '../platform/pagination.js';
import { part, updateItem, type Condition, type Part } from '../platform/transact.js';
import { lockInForce, locksBetween, locksOn, readPool, seatNames, unitId, unitKeys, type Pool } from './units.js';

/**
 * Sessions: a course at a date and time with `capacity` seats (a practical
 * training event, a virtual life-support session). Each seat is a unit lock
 * `E<session>S<nn>` in the family's day partition; what is available is
 * counted from the locks in force, never from a counter. `booked_count` only
 * guards capacity inside the booking's and the cancellation's transactions.
 */

export interface SessionItem {
  id: number;
  course_id: number;
  /** Wall clock in the service time zone. */
  date: string;
  start_time: string;
  start_at: string;
  end_at: string;
  capacity: number;
  booked_count: number;
  cancelled_at?: string;
  created_at: string;
  updated_at: string;
}

const EVENT = TABLE_KEYS.trainingEvent;
const BY_START = GSI1_KEYS.trainingEventsByStart;
const byCoursePartition = (family: FamilyId, courseId: number) => key(BY_START.pk, family, padId(courseId));
/** Both start-order partitions sort a session the same way: by its start, then its id. */
const startOrder = (startAt: string, id: number) => key(BY_START.sk.event, startAt, padId(id));
export const sessionKeys = {
  session: (family: FamilyId, id: number) => ({ pk: key(EVENT.pk, family, padId(id)), sk: EVENT.sk.event }),
  /** A family's sessions in start order, for listings by date range (practical training: every course's events). */
  byStart: (family: FamilyId, startAt: string, id: number) => ({ gsi1pk: key(BY_START.pk, family), gsi1sk: startOrder(startAt, id) }),
  byStartPartition: (family: FamilyId) => key(BY_START.pk, family),
  /** One course's sessions in start order (virtual life support lists a course's timeslots: it reads none of the other courses'). */
  byCourseStart: (family: FamilyId, courseId: number, startAt: string, id: number) => ({
    gsi1pk: byCoursePartition(family, courseId),
    gsi1sk: startOrder(startAt, id),
  }),
  byCoursePartition,
};

/** A seat's lock: in the session's day partition, named `E<session>S<nn>`. */
export const seatUnit = (family: FamilyId, s: Pick<SessionItem, 'id' | 'date' | 'start_time'>, seat: string): ItemKey =>
  unitKeys.unit(family, s.date, s.start_time, `E${s.id}${seat}`);

export const seatPool = (family: FamilyId, s: Pick<SessionItem, 'id' | 'date' | 'start_time' | 'capacity'>): Pool<string> => ({
  units: seatNames(s.capacity),
  keyOf: (seat) => seatUnit(family, s, seat),
  range: { pk: unitKeys.day(family, s.date), prefix: unitKeys.unit(family, s.date, s.start_time, `E${s.id}S`).sk },
  queue: unitKeys.unit(family, s.date, s.start_time, `E${s.id}Q`),
});

/**
 * Seats neither booked nor held by an unexpired hold, per session: one
 * session from its own seats' locks, sessions of one day from that day's
 * locks (both read consistently), a list over days
 * from the index in one query per month, so its cost does not grow with its
 * range.
 */
export async function seatsAvailable(
  deps: Deps,
  family: FamilyId,
  sessions: Pick<SessionItem, 'id' | 'date' | 'start_time' | 'capacity'>[],
  now: Date = deps.clock(),
): Promise<Map<number, number>> {
  const dates = sessions.map((s) => s.date).sort();
  if (dates.length === 0) return new Map();
  // One session (an event's page, a booking's alert check) reads its own seats, not every lock of its day.
  if (sessions.length === 1) return seatsFree(family, sessions, await readPool(deps, seatPool(family, sessions[0]!)), now);
  return seatsFree(family, sessions, await locksOfDays(deps, family, dates[0]!, dates.at(-1)!), now);
}

/** The family's locks of the days `from` to `to`: one day's read consistently, a range's from the index (units.ts). */
export const locksOfDays = (deps: Deps, family: FamilyId, from: string, to: string): Promise<Map<string, Record<string, unknown>>> =>
  from === to ? locksOn(deps, family, from) : locksBetween(deps, family, from, to);

/** Seats neither booked nor held by an unexpired hold, counted from locks read already (locksOfDays, over the sessions' days). */
export function seatsFree(
  family: FamilyId,
  sessions: Pick<SessionItem, 'id' | 'date' | 'start_time' | 'capacity'>[],
  locks: Map<string, Record<string, unknown>>,
  now: Date,
): Map<number, number> {
  return new Map(
    sessions.map((s) => {
      const taken = seatNames(s.capacity).filter((seat) => lockInForce(locks.get(unitId(seatUnit(family, s, seat))), now)).length;
      return [s.id, s.capacity - taken];
    }),
  );
}

const strip = <T>(item: Record<string, unknown>): T => {
  const { pk, sk, gsi1pk, gsi1sk, entity, ...session } = item;
  return session as T;
};

export async function getSession<T extends SessionItem>(deps: Deps, family: FamilyId, id: number): Promise<T | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: sessionKeys.session(family, id), ConsistentRead: true }));
  return Item ? strip<T>(Item) : undefined;
}

/**
 * A family's sessions (or, with `partition`, one course's: sessionKeys.byCoursePartition) starting from `from`
 * (inclusive) to `to` (exclusive), soonest first, one page at a time; filters can leave a page short, so it reads on.
 */
export const sessionsStarting = <T extends SessionItem>(
  deps: Deps,
  family: FamilyId,
  range: { from: string; to: string; limit: number; cursor?: string },
  keep: (s: T) => boolean = () => true,
  partition: string = sessionKeys.byStartPartition(family),
): Promise<Page<T>> =>
  queryFilteredPage(
    deps,
    {
      index: 'gsi1',
      pk: partition,
      range: { from: key(BY_START.sk.event, range.from), to: key(BY_START.sk.event, range.to) },
      order: 'oldest',
      limit: range.limit,
      cursor: range.cursor,
    },
    (item) => {
      const session = strip<T>(item);
      return keep(session) ? session : undefined;
    },
  );

/** Booking a session closes 24 hours before its start. */
export const bookingClosesAt = (s: Pick<SessionItem, 'start_at'>): Date => new Date(Date.parse(s.start_at) - 24 * 3600_000);

/** *sessionOpen*: a seat is left to count and the session is not cancelled. */
export const sessionOpen: Condition = { expression: 'booked_count < #capacity AND attribute_not_exists(cancelled_at)', names: { '#capacity': 'capacity' } };

/** One more booking on the session, never above capacity; `when` adds the family's own condition (a seats-low decision). */
export function sessionBookedPart(
  deps: Deps,
  family: FamilyId,
  id: number,
  extra: { set?: Record<string, unknown>; when?: Condition } = {},
  name = 'session',
): Part {
  const when = extra.when
    ? { expression: `${sessionOpen.expression} AND ${extra.when.expression}`, names: { ...sessionOpen.names, ...extra.when.names }, values: extra.when.values }
    : sessionOpen;
  return part(name, updateItem(deps, sessionKeys.session(family, id), { add: { booked_count: 1 }, set: extra.set ?? {} }, when));
}

/** One booking fewer, conditional on the count as read. */
export const sessionFreedPart = (
  deps: Deps,
  family: FamilyId,
  s: Pick<SessionItem, 'id' | 'booked_count'>,
  set: Record<string, unknown> = {},
  name = 'session',
): Part =>
  part(
    name,
    updateItem(
      deps,
      sessionKeys.session(family, s.id),
      { add: { booked_count: -1 }, set },
      { expression: 'booked_count = :seen', values: { ':seen': s.booked_count } },
    ),
  );
