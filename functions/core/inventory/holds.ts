import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { holdCreated } from '../platform/metrics.js';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { queryAll, type ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { randomToken } from '../platform/secrets.js';
import {
  deleteItem,
  itemAbsent,
  part,
  putItem,
  transact,
  TransactionFailed,
  updateItem,
  type Condition,
  type Part,
  type TransactItem,
} from '../platform/transact.js';
import {
  consumeUnit,
  holdUnitPart,
  lockInForce,
  moveUnitParts,
  readLocks,
  readPool,
  shuffled,
  takeFromPool,
  takeTurn,
  unitId,
  type Pool,
  type Tally,
} from './units.js';
import {
  holderOf,
  holdRecordKeys,
  holdState,
  holdUsable,
  invitePlaceFreed,
  leaving,
  markerFree,
  markerKey,
  markerOf,
  releaseParts,
  type Hold,
  type Holder,
} from './hold-records.js';

export { holderOf, holdRecordKeys, holdState, type Hold, type Holder } from './hold-records.js';

/**
 * Holds: a holder's claim on one unit of a pool until `expires_at`, which
 * never moves. One transaction writes the unit lock, the holder's marker (one
 * active hold per holder per family, when the policy says so) and the hold.
 * Expiry frees the unit at once, by the clock; the sweep only announces it.
 */

export interface HoldPolicy {
  family: FamilyId;
  seconds: number;
  /** At most one active hold per holder in the family. */
  onePerHolder: boolean;
  /** What the sweep writes when a hold expires unused (practical training's `seat_hold.expired`); none: not swept. */
  announce?: (deps: Deps, hold: Hold) => TransactItem;
}

export async function getHold<H extends Hold = Hold>(deps: Deps, family: FamilyId, hash: string): Promise<H | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: holdRecordKeys.hold(family, hash), ConsistentRead: true }));
  return Item as H | undefined;
}

/**
 * Holds one unit of the pool for the holder. The pool's locks and the
 * holder's marker are read once; a marker in force is `conflict` at once.
 * `fields` are what the family stores about the unit taken.
 */
export async function holdUnit<U, F extends Record<string, unknown>>(
  deps: Deps,
  policy: HoldPolicy,
  holder: Holder,
  pool: Pool<U>,
  fields: (unit: U) => F,
  errors: { conflict: (existing: Record<string, unknown>) => DomainError; unavailable: () => DomainError },
  tally?: Tally,
  inviteScope?: string,
): Promise<{ hold: Hold & F; unit: U; at: Date }> {
  const now = deps.clock();
  // An invite's hold also takes one of its client's few places in the event or session.
  if (holder.type === 'invite' && inviteScope !== undefined) {
    return withInvitePlace(deps, policy.family, holder.clientId, inviteScope, now, (place) =>
      holdUnitWith(deps, policy, holder, pool, fields, errors, tally, now, place),
    );
  }
  return holdUnitWith(deps, policy, holder, pool, fields, errors, tally, now);
}

/** The refusal when a client's invites hold as many seats of the event or session as they may: the page offers the date as busy. */
export const invitePlacesBusy = (cap: number) =>
  new DomainError(
    'limit-reached',
    `This agency's invites hold ${cap} seats of this date already, the most they hold at once. Try another date, or again in a few minutes.`,
    { limit: cap, busy: true },
  );

/**
 * Runs `hold` with a free place of the client's invites in `scope` (one
 * event or session); none free: busy, and nothing is held. The places are
 * unit locks taken in the hold's own transaction (condition: free, by the
 * clock), so concurrent invites never hold more than the cap; a place lost
 * to another invite's hold is looked for again.
 */
async function withInvitePlace<T>(deps: Deps, family: FamilyId, clientId: string, scope: string, now: Date, hold: (place: ItemKey) => Promise<T>): Promise<T> {
  const cap = deps.config.inviteSeatsPerSession;
  const places = Array.from({ length: cap }, (_, i) => holdRecordKeys.invitePlace(clientId, family, scope, `P${i + 1}`));
  for (let round = 1; ; round++) {
    const locks = await readLocks(deps, places);
    const [free] = shuffled(places.filter((p) => !lockInForce(locks.get(unitId(p)), now)));
    if (!free) throw invitePlacesBusy(cap);
    try {
      return await hold(free);
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('invite place'))) throw err;
      if (round >= cap) throw invitePlacesBusy(cap);
    }
  }
}

async function holdUnitWith<U, F extends Record<string, unknown>>(
  deps: Deps,
  policy: HoldPolicy,
  holder: Holder,
  pool: Pool<U>,
  fields: (unit: U) => F,
  errors: { conflict: (existing: Record<string, unknown>) => DomainError; unavailable: () => DomainError },
  tally: Tally | undefined,
  now: Date,
  place?: ItemKey,
): Promise<{ hold: Hold & F; unit: U; at: Date }> {
  const marker = markerKey(policy.family, holder);
  // A pool with a range (seats: mostly taken, and read in one query) is read first, beside the holder's marker.
  // A small pool of keys (an interviewer's slots, mostly free when listed) is tried unread: the transaction's
  // own conditions say whether the unit was free and whether the holder already has a hold (the marker's
  // failure carries that hold), and the pool is read only after a lost unit.
  let locks: Map<string, Record<string, unknown>> | undefined;
  let turn: number | undefined;
  if (pool.range) {
    const [seats, markers, queued] = await Promise.all([
      readPool(deps, pool),
      readLocks(deps, policy.onePerHolder ? [marker] : []),
      pool.queue && takeTurn(deps, pool.queue),
    ]);
    locks = new Map([...seats, ...markers]);
    turn = queued;
    const existing = locks.get(unitId(marker));
    if (policy.onePerHolder && existing && String(existing.expires_at) > now.toISOString()) throw errors.conflict(existing);
  }

  const lasting = addSeconds(now, policy.seconds).toISOString();
  // An invite's hold ends with the invite: after it, nobody could book or release it, and the unit would stay blocked.
  const expiresAt = holder.type === 'invite' && holder.until !== undefined && holder.until < lasting ? holder.until : lasting;
  const ttl = toEpochSeconds(new Date(expiresAt));
  const { value: hold, unit } = await takeFromPool(
    deps,
    pool,
    async (unit) => {
      const hold = {
        hold_hash: randomToken(32),
        client_id: holder.clientId,
        family: policy.family,
        ...(holder.type === 'invite' ? { invite_id: holder.inviteId } : {}),
        ...fields(unit),
        unit_key: pool.keyOf(unit),
        ...(place ? { invite_place: place } : {}),
        expires_at: expiresAt,
        status: 'active' as const,
      };
      const parts: Part[] = [
        holdUnitPart(deps, pool.keyOf(unit), { hold_hash: hold.hold_hash, client_id: hold.client_id, expires_at: hold.expires_at }, now),
        ...(place
          ? [holdUnitPart(deps, place, { hold_hash: hold.hold_hash, client_id: hold.client_id, expires_at: hold.expires_at }, now, 'invite place')]
          : []),
        // The marker carries the hold, so a conflict can show it without another read.
        ...(policy.onePerHolder ? [part('marker', putItem(deps, { ...marker, entity: 'active-hold', ...hold, ttl }, markerFree(now)))] : []),
        // Kept a day past expiry, so that using it says "expired", not "unknown".
        part(
          'hold',
          putItem(
            deps,
            {
              ...holdRecordKeys.hold(policy.family, hold.hold_hash),
              ...(policy.announce ? holdRecordKeys.open(policy.family, expiresAt, hold.hold_hash) : {}),
              entity: 'hold',
              ...hold,
              ttl: ttl + 86_400,
            },
            itemAbsent,
          ),
        ),
      ];
      await transact(deps, parts, policy.onePerHolder ? { marker: (old) => errors.conflict(old ?? {}) } : {});
      return hold;
    },
    errors.unavailable,
    { locks, tally, unread: !locks, turn },
  );
  holdCreated(policy.family);
  return { hold, unit, at: now };
}

/**
 * Releases the holder's active hold; anything else (another holder's, released, used, expired, unknown) is not-found.
 * `read`: the hold as the caller read it already (an HTTP handler, with the token); else it is read here.
 */
export async function releaseUnitHold(
  deps: Deps,
  policy: HoldPolicy,
  holder: Holder,
  hash: string,
  unitOf: (hold: Hold) => ItemKey,
  read?: { hold: Hold | undefined },
): Promise<void> {
  const now = deps.clock();
  const hold = read ? read.hold : await getHold(deps, policy.family, hash);
  const notFound = () => new DomainError('not-found', 'No active hold with that hold_hash');
  if (holdState(hold, holder, now) !== 'usable') throw notFound();
  await transact(deps, releaseParts(deps, policy, holder, hold!, unitOf(hold!), now), {
    hold: notFound,
    unit: notFound,
    marker: notFound,
    ...(hold!.invite_place ? { 'invite place': notFound } : {}),
  });
}

/** An active hold moved to another unit (an operator cut its unit): the hold's `fields` (which unit), its marker and its lock, together. */
export function moveHoldParts(
  deps: Deps,
  policy: HoldPolicy,
  hold: Hold,
  fields: Record<string, unknown>,
  lock: { from: ItemKey; to: ItemKey; item: Record<string, unknown> },
): Part[] {
  const now = deps.clock();
  const holder = holderOf(hold);
  const moved = { ...fields, unit_key: lock.to };
  return [
    part('hold', updateItem(deps, holdRecordKeys.hold(policy.family, hold.hold_hash), { set: moved }, holdUsable(holder, now))),
    ...(policy.onePerHolder ? [part('marker', updateItem(deps, markerKey(policy.family, holder), { set: moved }, markerOf(hold.hold_hash)))] : []),
    ...moveUnitParts(deps, lock.from, lock.to, lock.item, now),
  ];
}

/**
 * *consume*, for a booking's transaction: the hold becomes used, its unit the booking's, and the holder free to hold
 * again; an invite's hold gives back its place (`invitePlace`: the hold's `invite_place`), as its seat is held no more.
 */
export function consumeHoldParts(
  deps: Deps,
  policy: HoldPolicy,
  holder: Holder,
  hash: string,
  unit: ItemKey,
  bookingId: number,
  invitePlace?: ItemKey,
): Part[] {
  const now = deps.clock();
  return [
    part('hold', updateItem(deps, holdRecordKeys.hold(policy.family, hash), leaving('used', { booking_id: bookingId }), holdUsable(holder, now))),
    consumeUnit(deps, unit, hash, bookingId),
    // The holder's one active hold is this one; a hold written without a marker has none to remove.
    ...(policy.onePerHolder ? [part('marker', deleteItem(deps, markerKey(policy.family, holder), markerOf(hash, true)))] : []),
    ...invitePlaceFreed(deps, { hold_hash: hash, invite_place: invitePlace }),
  ];
}

/**
 * Announces the family's holds that expired unused: each goes `active` →
 * `expired` by condition, with the announcement in the same transaction, so
 * two sweeps announce a hold once. Correctness never waits for it: an expired
 * hold's unit is free by the clock already.
 */
export async function sweepExpiredHolds(deps: Deps, policy: HoldPolicy): Promise<number> {
  const announce = policy.announce;
  if (!announce) throw new Error(`${policy.family} does not announce expired holds`);
  const now = deps.clock();
  const due = await queryAll(deps, {
    IndexName: 'gsi1',
    // Index keys are `<expires_at>#<hash>`; every one before `<now>$` expired at or before now ('$' follows '#').
    KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk < :after',
    ExpressionAttributeValues: { ':pk': holdRecordKeys.openPartition(policy.family), ':after': `${now.toISOString()}$` },
  });
  const expiredBy: Condition = {
    expression: '#status = :active AND expires_at <= :now',
    names: { '#status': 'status' },
    values: { ':active': 'active', ':now': now.toISOString() },
  };
  let announced = 0;
  for (const item of due as Hold[]) {
    try {
      await transact(deps, [
        part('hold', updateItem(deps, holdRecordKeys.hold(policy.family, item.hold_hash), leaving('expired', { expired_at: now.toISOString() }), expiredBy)),
        part('announcement', announce(deps, { ...item, status: 'expired' })),
      ]);
      announced++;
    } catch (err) {
      if (!(err instanceof TransactionFailed && err.has('hold'))) throw err; // another sweep, a booking or a release came first
    }
  }
  return announced;
}

/** What a release handler reads with the caller's token (HandlerOptions.prefetch): the hold its path names. */
export const holdOfPath =
  (family: FamilyId) =>
  (params: { holdHash: string }): ItemKey[] => [holdRecordKeys.hold(family, params.holdHash)];
