import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { addDays, beyondHorizon, daysBetween, formatWithOffset, lastBookableDay } from '../platform/time.js';
import { lockInForce, locksBetween, unitId, unitKeys } from '../inventory/units.js';
import { activeType, CLINICAL_FAMILY, loadCatalog, slotsOn, type Catalog, type InterviewType, type Slot } from './catalog.js';

/**
 * The clinical family's units: an interviewer's slot is one unit, and the
 * interviewers offering a type at a date and time are the pool one hold
 * takes from. What is listed, what may be held, and how a hold looks.
 */

/** An interviewer's slot as a unit lock (`I<interviewer>`, in the family's day partition). */
export const slotUnit = (family: FamilyId, date: string, time: string, interviewerId: number) => unitKeys.unit(family, date, time, `I${interviewerId}`);

/** A clinical hold as stored: the engine's fields and the slot it holds. */
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
  status: 'active' | 'released' | 'used' | 'expired';
  booking_id?: number;
}

/** The hold as the API shows it: the 201 body, and the `hold` of a 409. */
export interface HoldView {
  hold_hash: string;
  expires_at: string;
  expires_in_seconds: number;
  slot: { date: string; time: string; interview_type: { id: number; name: string } };
}

export function toHoldView(
  hold: Pick<HoldRecord, 'hold_hash' | 'expires_at' | 'date' | 'time' | 'interview_type_id' | 'interview_type_name'>,
  now: Date,
  timeZone: string,
): HoldView {
  return {
    hold_hash: hold.hold_hash,
    expires_at: formatWithOffset(hold.expires_at, timeZone),
    expires_in_seconds: Math.max(0, Math.ceil((Date.parse(hold.expires_at) - now.getTime()) / 1000)),
    slot: { date: hold.date, time: hold.time, interview_type: { id: hold.interview_type_id, name: hold.interview_type_name } },
  };
}

export interface AvailableSlot {
  date: string;
  time: string;
  interview_type: { id: number; name: string };
}

export const MAX_RANGE_DAYS = 31;

/** Free slots of a type from `from` to `to` inclusive: future, and with at least one interviewer not held or booked. */
export async function availableSlots(
  deps: Deps,
  input: { interviewTypeId: number; from: string; to: string },
  family: FamilyId = CLINICAL_FAMILY,
): Promise<AvailableSlot[]> {
  const catalog = await loadCatalog(deps);
  const type = activeType(catalog, input.interviewTypeId);
  if (!type) return [];
  const now = deps.clock();
  const seen = new Set<string>();
  const result: AvailableSlot[] = [];
  for (const slot of await freeSlotsBetween(deps, catalog, type, input.from, input.to, now, family)) {
    const key = `${slot.date}T${slot.time}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ date: slot.date, time: slot.time, interview_type: { id: type.id, name: type.name } });
  }
  return result;
}

/** Slots still to come and inside the booking horizon: nothing else is ever offered. */
const offeredOn = (catalog: Catalog, type: InterviewType, date: string, timeZone: string, now: Date): Slot[] =>
  beyondHorizon(date, now, timeZone) ? [] : daySlots(catalog, type, date, timeZone).filter((s) => s.startAt > now);

/**
 * A day's slots of a type, kept with the catalog they were built from (read
 * again every few seconds, and never changed once read): a fortnight's
 * listing would otherwise build every slot and its instants on every request.
 */
function daySlots(catalog: Catalog, type: InterviewType, date: string, timeZone: string): readonly Slot[] {
  let days = builtSlots.get(catalog);
  if (!days) builtSlots.set(catalog, (days = new Map<string, readonly Slot[]>()));
  const key = `${type.id} ${date} ${timeZone}`;
  let slots = days.get(key);
  if (!slots) days.set(key, (slots = slotsOn(catalog, type, date, timeZone)));
  return slots;
}
const builtSlots = new WeakMap<Catalog, Map<string, readonly Slot[]>>();

/** The offered slots from `from` to `to` (inclusive) whose unit is free: one query per month, however many days. */
export async function freeSlotsBetween(
  deps: Deps,
  catalog: Catalog,
  type: InterviewType,
  from: string,
  to: string,
  now: Date,
  family: FamilyId = CLINICAL_FAMILY,
): Promise<Slot[]> {
  const timeZone = deps.config.serviceTimeZone;
  // The horizon once for the range (a time-zone conversion), not once a day.
  const horizon = beyondHorizon(to, now, timeZone) ? lastBookableDay(now, timeZone) : to;
  const days = Array.from({ length: Math.max(0, daysBetween(from, horizon) + 1) }, (_, i) => addDays(from, i));
  const slots = days.flatMap((date) => daySlots(catalog, type, date, timeZone).filter((s) => s.startAt > now));
  if (slots.length === 0) return [];
  const locks = await locksBetween(deps, family, slots[0]!.date, slots.at(-1)!.date);
  return slots.filter((s) => !lockInForce(locks.get(unitId(slotUnit(family, s.date, s.time, s.interviewerId))), now));
}

/** The pool of a date and time: the interviewers' slots offered then, or slot-unavailable. */
export function candidateSlots(catalog: Catalog, interviewTypeId: number, date: string, time: string, timeZone: string, now: Date) {
  const type = activeType(catalog, interviewTypeId);
  if (!type) throw new DomainError('slot-unavailable', `There is no active interview type ${interviewTypeId}`);
  const slots = offeredOn(catalog, type, date, timeZone, now).filter((s) => s.time === time);
  if (slots.length === 0) throw new DomainError('slot-unavailable', `No ${type.name} slot is offered on ${date} at ${time}`);
  return { type, slots };
}
