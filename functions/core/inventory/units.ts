import { randomInt } from 'node:crypto';
import { toEpochSeconds } from '../platform/clock.js';
import { addMonths } from '../platform/time.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { getMany, queryAll, upgradeScanned, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import * as GSI1_KEYS from '../platform/gsi1-keys.js';
import { deleteItem, part, putItem, TransactionFailed, updateItem, type Condition, type Part } from '../platform/transact.js';

/**
 * Unit locks: one item per thing that can be booked once (an interviewer's
 * slot, one seat of a training event or a virtual session). A lock is absent
 * (free), `held` until its hold expires, or `booked`. Capacity is the set of
 * locks, not a counter: DynamoDB cannot count inside a condition. TTL removes
 * expired holds' locks eventually; until then `expires_at <= now` is free for
 * every read and every condition.
 */

const SLOT_DAY = TABLE_KEYS.slotDay;
const BY_MONTH = GSI1_KEYS.locksByMonth;
export const unitKeys = {
  /** One partition per family and day: a pool's locks are read and written together. */
  day: (family: FamilyId, date: string) => key(SLOT_DAY.pk, family, date),
  /** A unit of a pool that starts at `time` on `date`: `I7` (interviewer 7), `E12S03` (event 12, seat 3). */
  unit: (family: FamilyId, date: string, time: string, name: string): ItemKey => ({
    pk: key(SLOT_DAY.pk, family, date),
    sk: key(SLOT_DAY.sk.lock, time, name),
  }),
  /** A family's locks of a month in the index, by day, so listing any range of days is one query per month it touches. */
  month: (family: FamilyId, month: string) => key(BY_MONTH.pk, family, month),
};

/** The index keys every lock carries (from its own key: `SLOT#<family>#<date>` / `<time>#<unit>`). */
function lockIndexKeys(unit: ItemKey) {
  const cut = unit.pk.lastIndexOf('#');
  const family = unit.pk.slice(SLOT_DAY.pk.length, cut) as FamilyId;
  const date = unit.pk.slice(cut + 1);
  return { gsi1pk: unitKeys.month(family, date.slice(0, 7)), gsi1sk: key(BY_MONTH.sk.lock, date, unit.sk) };
}

/** A lock item as stored: its key, its index keys and what it says. */
const lockItem = (unit: ItemKey, fields: Record<string, unknown>) => ({ ...unit, ...lockIndexKeys(unit), entity: 'unit-lock', ...fields });

/** The seats of a capacity-C pool: S01 … S<C>. */
export const seatNames = (capacity: number): string[] => Array.from({ length: capacity }, (_, i) => `S${String(i + 1).padStart(2, '0')}`);

/** Is this lock still in force? A held lock whose hold expired is not. */
export const lockInForce = (lock: Record<string, unknown> | undefined, now: Date): boolean =>
  !!lock && (lock.state === 'booked' || (lock.state === 'held' && String(lock.expires_at) > now.toISOString()));

/** *unitFree*: the unit may be (re)taken: absent, or held by a hold that has expired. */
export const unitFree = (now: Date): Condition => ({
  expression: 'attribute_not_exists(pk) OR (#state = :held AND expires_at <= :now)',
  names: { '#state': 'state' },
  values: { ':held': 'held', ':now': now.toISOString() },
});
const unitHeldBy = (holdHash: string): Condition => ({ expression: 'hold_hash = :hash', values: { ':hash': holdHash } });
const unitBookedBy = (bookingId: number): Condition => ({ expression: 'booking_id = :booking', values: { ':booking': bookingId } });

/** Holds a free unit until `expires_at`, for a hold (or for a booking that must be paid by then). */
export const holdUnitPart = (
  deps: Deps,
  unit: ItemKey,
  by: { client_id: string; expires_at: string; hold_hash?: string; booking_id?: number },
  now: Date,
  name = 'unit',
): Part => part(name, putItem(deps, lockItem(unit, { state: 'held', ...by, ttl: toEpochSeconds(new Date(by.expires_at)) }), unitFree(now)));

/** *consume*: the unit a hold took becomes the booking's, for good. */
export const consumeUnit = (deps: Deps, unit: ItemKey, holdHash: string, bookingId: number): Part =>
  part('unit', updateItem(deps, unit, { set: { state: 'booked', booking_id: bookingId, expires_at: undefined, ttl: undefined } }, unitHeldBy(holdHash)));

/** *claim*: a booking takes a free unit without a hold (a booking page, a reschedule). */
export const claimUnit = (deps: Deps, unit: ItemKey, owner: { bookingId: number; clientId: string }, now: Date, name = 'unit'): Part =>
  part(name, putItem(deps, lockItem(unit, { state: 'booked', booking_id: owner.bookingId, client_id: owner.clientId }), unitFree(now)));

/** *free*: gives back a unit, only if it is still this booking's or this hold's. */
export const freeUnit = (deps: Deps, unit: ItemKey, owner: { bookingId: number } | { holdHash: string }, name = 'unit'): Part =>
  part(name, deleteItem(deps, unit, 'bookingId' in owner ? unitBookedBy(owner.bookingId) : unitHeldBy(owner.holdHash)));

/**
 * *move*: a lock in force, as read, to another free unit of its pool (an
 * operator cut the unit it was on). The new unit's part is `unit`, so
 * `takeFromPool` tries another when it was taken meanwhile.
 */
export function moveUnitParts(deps: Deps, from: ItemKey, to: ItemKey, lock: Record<string, unknown>, now: Date): Part[] {
  const { pk: _pk, sk: _sk, gsi1pk: _gpk, gsi1sk: _gsk, entity: _entity, ...held } = lock;
  const stillOwned = lock.state === 'booked' ? unitBookedBy(Number(lock.booking_id)) : unitHeldBy(String(lock.hold_hash));
  return [part('unit', putItem(deps, lockItem(to, held), unitFree(now))), part('old unit', deleteItem(deps, from, stillOwned))];
}

/** A unit's identity in the maps of locks the reads below return. */
export const unitId = (k: ItemKey): string => `${k.pk}\n${k.sk}`;
const byUnit = (items: Record<string, unknown>[]) => new Map(items.map((item) => [unitId(item as ItemKey), item]));

/** The locks of a set of units, read once and consistently; a free unit has none. */
export async function readLocks(deps: Deps, units: ItemKey[]): Promise<Map<string, Record<string, unknown>>> {
  return byUnit(await getMany(deps, units));
}

/** Every lock of a family's day, read consistently and keyed by `unitId`: one query for all the pools of that day. */
export async function locksOn(deps: Deps, family: FamilyId, date: string): Promise<Map<string, Record<string, unknown>>> {
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': unitKeys.day(family, date) },
    ConsistentRead: true,
  });
  return byUnit(items);
}

/** What says whether a lock is in force, and whose unit it is: all a pool's or a listing's read needs of a lock. */
const LOCK_STATE = { ProjectionExpression: 'pk, sk, #state, expires_at', ExpressionAttributeNames: { '#state': 'state' } };

/**
 * The family's locks of the days `from` to `to` (inclusive), keyed by
 * `unitId`: one query per month the range touches, whatever its length, so
 * a listing costs the same for a day and a fortnight. From the index, so a
 * hold made a moment ago may not show yet: good enough for a listing, never
 * for a decision (the lock's own condition decides).
 */
export async function locksBetween(deps: Deps, family: FamilyId, from: string, to: string): Promise<Map<string, Record<string, unknown>>> {
  const months: string[] = [];
  for (let m = from.slice(0, 7); m <= to.slice(0, 7); m = addMonths(`${m}-01`, 1).slice(0, 7)) months.push(m);
  const pages = await Promise.all(
    months.map((month) =>
      queryAll(deps, {
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': unitKeys.month(family, month), ':from': key(BY_MONTH.sk.lock, from), ':to': key(BY_MONTH.sk.lock, to, '~') },
        // A busy fortnight is hundreds of locks.
        ...LOCK_STATE,
      }),
    ),
  );
  return byUnit(pages.flat());
}

/** `xs` in a uniformly random order (Fisher–Yates); `random(n)` gives an integer in [0, n). */
export function shuffled<T>(xs: readonly T[], random: (n: number) => number = randomInt): T[] {
  const out = [...xs];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** A pool: the units one hold or booking may take, each with its lock's key. */
export interface Pool<U> {
  units: readonly U[];
  keyOf: (unit: U) => ItemKey;
  /** Where all its locks sit, when they share a partition and a sort-key prefix: read with one query (a seat pool), not a key each. */
  range?: { pk: string; prefix: string };
  /** A counter numbering the pool's holders in turn (`takeTurn`), so that holders who read the pool at once try different free units; outside `range`, so never read as a lock. */
  queue?: ItemKey;
}

/**
 * The next turn at a pool's queue: one counting write, sent beside the pool's
 * read. Only a hint of where to start (`takeFromPool`'s `turn`): the locks'
 * conditions still decide who gets a unit.
 */
export async function takeTurn(deps: Deps, queue: ItemKey): Promise<number> {
  const { Attributes } = await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: queue,
      UpdateExpression: 'SET entity = :entity ADD turns :one',
      ExpressionAttributeValues: { ':entity': 'pool-queue', ':one': 1 },
      ReturnValues: 'UPDATED_NEW',
    }),
  );
  return Number(Attributes?.turns ?? 0);
}

/**
 * A pool's locks, read consistently: one query over its range, or its keys.
 * A range's locks carry their state only: a nearly full event is dozens of
 * locks, read by every hold of its last seats.
 */
export async function readPool<U>(deps: Deps, pool: Pool<U>): Promise<Map<string, Record<string, unknown>>> {
  if (!pool.range) return readLocks(deps, pool.units.map(pool.keyOf));
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pool.range.pk, ':prefix': pool.range.prefix },
    ConsistentRead: true,
    ...LOCK_STATE,
  });
  return byUnit(items);
}

/**
 * Takes one unit of a pool under contention. A unit free in the read of the
 * pool's locks is tried, one transaction (`attempt`): at random, or from the
 * caller's `turn` at the pool's queue (`takeTurn`: callers that read the same
 * free units start at different ones), so concurrent callers spread over the
 * pool instead of all racing for its first unit. An
 * attempt whose part `unit` failed lost that unit to another writer, and the
 * read is stale: the other units free at that read are tried, then the pool
 * is read again (a pool with a `range`, in one query: cheaper than a
 * transaction bound to fail) and another free unit tried, each unit once at
 * most. None left: `unavailable`. `locks` may be
 * given when the caller has read them already, or `unread` to try a first
 * unit unread; `lost` says which errors mean the unit was taken (default:
 * part `unit` failed); `tally` counts the transactions tried (the benchmark
 * reports them).
 */
export async function takeFromPool<U, R>(
  deps: Deps,
  pool: Pool<U>,
  attempt: (unit: U) => Promise<R>,
  unavailable: () => DomainError,
  options: { locks?: Map<string, Record<string, unknown>>; lost?: (err: unknown) => boolean; tally?: Tally; unread?: boolean; turn?: number } = {},
): Promise<{ value: R; unit: U }> {
  const now = deps.clock();
  const tried = new Set<U>();
  // `unread`: the first unit is tried before any read, which a pool mostly free saves a round trip on.
  let locks = options.locks ?? (options.unread ? undefined : await readPool(deps, pool));
  for (let turn = options.turn; ; turn = turn === undefined ? undefined : turn + 1) {
    const free = pool.units.filter((u) => !tried.has(u) && !lockInForce(locks?.get(unitId(pool.keyOf(u))), now));
    // With a turn (takeTurn), holders that read the same free units start at different ones; else at random.
    const unit = turn === undefined ? shuffled(free)[0] : free[turn % Math.max(1, free.length)];
    if (unit === undefined) throw unavailable();
    tried.add(unit);
    if (options.tally) options.tally.attempts++;
    try {
      return { value: await attempt(unit), unit };
    } catch (err) {
      if (!(options.lost ?? unitLost)(err)) throw err;
    }
    // Lost to another holder: the other units free at the last read are tried first (none was read yet:
    // the pool is read), then the pool is read again at once. Each unit is tried at most once, so a call ends after at most the pool's size of tries.
    // No pause: with 8 holders on an event's last 4 seats (npm run bench), a random pause of up to 320 ms
    // after each loss cut the transactions per hold but put the slowest holds at 2.9–3.1× an uncontended
    // hold's p95 (without it 2.2–2.3×; with turns, 1.5–1.8×), the freed seats going to the others meanwhile.
    if (locks && free.length > 1) continue;
    locks = await readPool(deps, pool);
  }
}

const unitLost = (err: unknown) => err instanceof TransactionFailed && err.has('unit');

/** Transactions tried, across calls. */
export interface Tally {
  attempts: number;
}

/**
 * Gives unit locks written before the lock index (`locksBetween`) their
 * index keys, so listings see them. One-off and safe to run again or while
 * the API serves: a lock changed meanwhile got its keys from that write.
 */
export const backfillLockIndex = (deps: Deps): Promise<number> =>
  upgradeScanned(
    deps,
    { expression: 'entity = :lock AND attribute_not_exists(gsi1pk)', values: { ':lock': 'unit-lock' } },
    (lock) => lockIndexKeys({ pk: String(lock.pk), sk: String(lock.sk) }),
    { expression: 'attribute_exists(pk) AND attribute_not_exists(gsi1pk)' },
  );
