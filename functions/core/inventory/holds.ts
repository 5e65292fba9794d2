import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { addSeconds, toEpochSeconds } from '../platform/clock.js';
import { activeType, CLINICAL_FAMILY, loadCatalog, slotsOn, type Catalog, type InterviewType, type Slot } from '../clinical-interview/catalog.js';
import { cancellationReasons, failedCondition } from '../platform/conditions.js';
import { queryAll } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { clientKeys } from '../access/clients.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { key, TABLE_KEYS } from '../platform/key-registry.js';
import { randomToken } from '../platform/secrets.js';
import { addDays, beyondHorizon, daysBetween, formatWithOffset } from '../platform/time.js';

/**
 * Thirty-minute holds on interview slots. One transaction writes the slot
 * lock, the client's active-hold marker and the hold itself, so a slot has one
 * holder and a client one active hold in each family. TTL removes expired
 * items eventually; until then every condition and read treats
 * `expires_at <= now` as gone.
 */

export const HOLD_SECONDS = 1800;

const { client: CLIENT, hold: HOLD, slotDay: SLOT_DAY } = TABLE_KEYS;
export const holdKeys = {
  hold: (family: FamilyId, hash: string) => ({ pk: key(HOLD.pk, family, hash), sk: HOLD.sk.hold }),
  activeHold: (clientId: string, family: FamilyId) => ({ pk: clientKeys.partition(clientId), sk: key(CLIENT.sk.activeHold, family) }),
  /** One partition per family and day, so listing a month of slots is at most 31 queries. */
  slotLockDay: (family: FamilyId, date: string) => key(SLOT_DAY.pk, family, date),
  slotLock: (family: FamilyId, date: string, time: string, interviewerId: number) => ({
    pk: key(SLOT_DAY.pk, family, date),
    sk: key(SLOT_DAY.sk.lock, time, `I${interviewerId}`),
  }),
};

export interface HoldRecord {
  hold_hash: string;
  client_id: string;
  family: FamilyId;
  interview_type_id: number;
  interview_type_name: string;
  interviewer_id: number;
  date: string;
  time: string;
  start_at: string;
  end_at: string;
  expires_at: string;
  status: 'active' | 'released' | 'used';
  booking_id?: number;
}

/** The hold as the API shows it: the 201 body, and the `hold` of a 409. */
export interface HoldView {
  hold_hash: string;
  expires_at: string;
  expires_in_seconds: number;
  slot: { date: string; time: string; interview_type: { id: number; name: string } };
}

export function toHoldView(hold: Pick<HoldRecord, 'hold_hash' | 'expires_at' | 'date' | 'time' | 'interview_type_id' | 'interview_type_name'>, now: Date, timeZone: string): HoldView {
  return {
    hold_hash: hold.hold_hash,
    expires_at: formatWithOffset(hold.expires_at, timeZone),
    expires_in_seconds: Math.max(0, Math.ceil((Date.parse(hold.expires_at) - now.getTime()) / 1000)),
    slot: { date: hold.date, time: hold.time, interview_type: { id: hold.interview_type_id, name: hold.interview_type_name } },
  };
}

/** Is this slot lock still in force? A held lock whose hold expired is not. */
export const lockInForce = (lock: Record<string, unknown> | undefined, now: Date): boolean =>
  !!lock && (lock.state === 'booked' || (lock.state === 'held' && String(lock.expires_at) > now.toISOString()));

/** The condition under which a slot lock may be (re)taken: absent, or a hold that has expired. */
export const SLOT_FREE = 'attribute_not_exists(pk) OR (#state = :held AND expires_at <= :now)';

export async function locksOn(deps: Deps, family: FamilyId, date: string): Promise<Map<string, Record<string, unknown>>> {
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': holdKeys.slotLockDay(family, date) },
    ConsistentRead: true,
  });
  return new Map(items.map((item) => [String(item.sk), item]));
}

export interface AvailableSlot {
  date: string;
  time: string;
  interview_type: { id: number; name: string };
}

export const MAX_RANGE_DAYS = 31;

/** Free slots of a type from `from` to `to` inclusive: future, and with at least one interviewer not held or booked. */
export async function availableSlots(deps: Deps, input: { interviewTypeId: number; from: string; to: string }, family: FamilyId = CLINICAL_FAMILY): Promise<AvailableSlot[]> {
  const catalog = await loadCatalog(deps);
  const type = activeType(catalog, input.interviewTypeId);
  if (!type) return [];
  const now = deps.clock();
  const days = Array.from({ length: daysBetween(input.from, input.to) + 1 }, (_, i) => addDays(input.from, i));
  const perDay = await Promise.all(days.map((date) => freeSlotsOn(deps, catalog, type, date, now, family)));
  const seen = new Set<string>();
  const result: AvailableSlot[] = [];
  for (const slot of perDay.flat()) {
    const key = `${slot.date}T${slot.time}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ date: slot.date, time: slot.time, interview_type: { id: type.id, name: type.name } });
  }
  return result;
}

/** Slots still to come and inside the booking horizon: nothing else is ever offered. */
const offeredOn = (catalog: Catalog, type: InterviewType, date: string, timeZone: string, now: Date): Slot[] =>
  beyondHorizon(date, now, timeZone) ? [] : slotsOn(catalog, type, date, timeZone).filter((s) => s.startAt > now);

export async function freeSlotsOn(deps: Deps, catalog: Catalog, type: InterviewType, date: string, now: Date, family: FamilyId = CLINICAL_FAMILY): Promise<Slot[]> {
  const slots = offeredOn(catalog, type, date, deps.config.serviceTimeZone, now);
  if (slots.length === 0) return [];
  const locks = await locksOn(deps, family, date);
  return slots.filter((s) => !lockInForce(locks.get(holdKeys.slotLock(family, s.date, s.time, s.interviewerId).sk), now));
}

/** The interviewers' slots at exactly this date and time, or slot-unavailable. */
export function candidateSlots(catalog: Catalog, interviewTypeId: number, date: string, time: string, timeZone: string, now: Date) {
  const type = activeType(catalog, interviewTypeId);
  if (!type) throw new DomainError('slot-unavailable', `There is no active interview type ${interviewTypeId}`);
  const slots = offeredOn(catalog, type, date, timeZone, now).filter((s) => s.time === time);
  if (slots.length === 0) throw new DomainError('slot-unavailable', `No ${type.name} slot is offered on ${date} at ${time}`);
  return { type, slots };
}

export async function createHold(
  deps: Deps,
  clientId: string,
  input: { interviewTypeId: number; date: string; time: string },
  family: FamilyId = CLINICAL_FAMILY,
): Promise<HoldView> {
  const now = deps.clock();
  const catalog = await loadCatalog(deps);
  const { type, slots } = candidateSlots(catalog, input.interviewTypeId, input.date, input.time, deps.config.serviceTimeZone, now);
  const expires = addSeconds(now, HOLD_SECONDS);
  const nowIso = now.toISOString();

  // Try each interviewer offering this slot until one lock can be taken.
  for (const slot of slots) {
    const hold: HoldRecord = {
      hold_hash: randomToken(32),
      client_id: clientId,
      family,
      interview_type_id: type.id,
      interview_type_name: type.name,
      interviewer_id: slot.interviewerId,
      date: slot.date,
      time: slot.time,
      start_at: slot.startAt.toISOString(),
      end_at: slot.endAt.toISOString(),
      expires_at: expires.toISOString(),
      status: 'active',
    };
    const ttl = toEpochSeconds(expires);
    try {
      await deps.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: {
                TableName: deps.table,
                Item: {
                  ...holdKeys.slotLock(family, slot.date, slot.time, slot.interviewerId),
                  entity: 'slot-lock',
                  state: 'held',
                  hold_hash: hold.hold_hash,
                  client_id: clientId,
                  expires_at: hold.expires_at,
                  ttl,
                },
                ConditionExpression: SLOT_FREE,
                ExpressionAttributeNames: { '#state': 'state' },
                ExpressionAttributeValues: { ':held': 'held', ':now': nowIso },
              },
            },
            {
              Put: {
                TableName: deps.table,
                // The marker carries the hold's summary so a 409 can show it without another read.
                Item: { ...holdKeys.activeHold(clientId, family), entity: 'active-hold', ...hold, ttl },
                ConditionExpression: 'attribute_not_exists(pk) OR expires_at <= :now',
                ExpressionAttributeValues: { ':now': nowIso },
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              },
            },
            {
              Put: {
                TableName: deps.table,
                // Kept a day past expiry so that booking with it says "expired", not "unknown".
                Item: { ...holdKeys.hold(family, hold.hold_hash), entity: 'hold', ...hold, ttl: ttl + 86_400 },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        }),
      );
      return toHoldView(hold, now, deps.config.serviceTimeZone);
    } catch (err) {
      const reasons = cancellationReasons(err);
      if (failedCondition(reasons?.[1])) {
        const existing = reasons![1]!.item as unknown as HoldRecord;
        throw new DomainError('hold-conflict', 'This client already has an active hold; book or release it first', {
          hold: toHoldView(existing, now, deps.config.serviceTimeZone),
        });
      }
      if (failedCondition(reasons?.[0])) continue; // someone holds this interviewer's slot: try the next
      throw err;
    }
  }
  throw new DomainError('slot-unavailable', `The ${type.name} slot on ${input.date} at ${input.time} is no longer available`);
}

export async function getHold(deps: Deps, family: FamilyId, hash: string): Promise<HoldRecord | undefined> {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: holdKeys.hold(family, hash), ConsistentRead: true }));
  return Item as HoldRecord | undefined;
}

/** Releases the caller's active hold. Anything else (another client's, released, used, expired, unknown) is not-found. */
export async function releaseHold(deps: Deps, clientId: string, hash: string, family: FamilyId = CLINICAL_FAMILY): Promise<void> {
  const now = deps.clock().toISOString();
  const hold = await getHold(deps, family, hash);
  const notFound = new DomainError('not-found', 'No active hold with that hold_hash');
  if (!hold || hold.client_id !== clientId || hold.status !== 'active' || hold.expires_at <= now) throw notFound;
  try {
    await deps.db.send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: deps.table,
              Key: holdKeys.hold(family, hash),
              UpdateExpression: 'SET #status = :released, released_at = :now',
              ConditionExpression: 'client_id = :client AND #status = :active AND expires_at > :now',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':released': 'released', ':active': 'active', ':client': clientId, ':now': now },
            },
          },
          {
            Delete: {
              TableName: deps.table,
              Key: holdKeys.slotLock(family, hold.date, hold.time, hold.interviewer_id),
              ConditionExpression: 'hold_hash = :hash',
              ExpressionAttributeValues: { ':hash': hash },
            },
          },
          {
            Delete: {
              TableName: deps.table,
              Key: holdKeys.activeHold(clientId, family),
              ConditionExpression: 'hold_hash = :hash',
              ExpressionAttributeValues: { ':hash': hash },
            },
          },
        ],
      }),
    );
  } catch (err) {
    if (cancellationReasons(err)?.some(failedCondition)) throw notFound;
    throw err;
  }
}
