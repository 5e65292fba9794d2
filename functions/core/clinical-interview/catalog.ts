import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { queryAll, updateExisting } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { cachedPerTable, catalogueVersionKeys } from '../platform/table-cache.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { gbp, type Money } from '../commerce/money.js';
import { minutesOf, timeOf, weekdayOf, zonedInstant } from '../platform/time.js';

/**
 * What can be booked: interview types, and interviewers with weekly
 * availability per type. The catalogue is small, so it lives in one partition
 * and is read whole with one consistent query.
 */

export interface InterviewType {
  id: number;
  name: string;
  durationMinutes: number;
  price: Money;
  active: boolean;
}

export interface AvailabilityWindow {
  interviewTypeId: number;
  /** ISO weekday, 1 = Monday. */
  weekday: number;
  start: string;
  end: string;
}

export interface Interviewer {
  id: number;
  name: string;
  availability: AvailabilityWindow[];
}

export interface Catalog {
  types: InterviewType[];
  interviewers: Interviewer[];
}

/** One bookable interval: an interviewer, for a type, at a wall-clock date and time. */
export interface Slot {
  interviewTypeId: number;
  interviewerId: number;
  date: string;
  time: string;
  startAt: Date;
  endAt: Date;
}

/**
 * The family this catalogue belongs to. Holds, bookings and reports of
 * interviews run in it; a second booking family passes its own id to the
 * functions that take one.
 */
export const CLINICAL_FAMILY = 'clinical-interview' as const satisfies FamilyId;
/** The families whose bookings this module's events describe (the event catalogue checks the pairing). */
export type ClinicalFamily = typeof CLINICAL_FAMILY;

const CATALOG = TABLE_KEYS.catalog;
export const catalogKeys = {
  partition: (family: FamilyId) => key(CATALOG.pk, family),
  type: (family: FamilyId, id: number) => ({ pk: key(CATALOG.pk, family), sk: key(CATALOG.sk.interviewType, padId(id)) }),
  interviewer: (family: FamilyId, id: number) => ({ pk: key(CATALOG.pk, family), sk: key(CATALOG.sk.interviewer, padId(id)) }),
};

/**
 * Every hold and every slot listing reads the catalogue; it changes a few
 * times a day. A copy is kept per table; writes through this module clear
 * it at once and increment the catalogue's version, so other containers see
 * the change within 2 seconds (platform/table-cache.ts).
 */
const cached = cachedPerTable((deps) => readCatalog(deps), catalogueVersionKeys.version(CLINICAL_FAMILY));
const changed = cached.changed;

export const loadCatalog = (deps: Deps): Promise<Catalog> => cached.load(deps);

/** The catalogue partition's items as stored (any other entity there is skipped). */
type CatalogItem =
  | { entity: 'interview-type'; id: number; name: string; duration_minutes: number; price: Money; active: boolean }
  | { entity: 'interviewer'; id: number; name: string; availability: AvailabilityWindow[] };

async function readCatalog(deps: Deps): Promise<Catalog> {
  const catalog: Catalog = { types: [], interviewers: [] };
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': catalogKeys.partition(CLINICAL_FAMILY) },
    ConsistentRead: true,
  });
  for (const item of items as CatalogItem[]) {
    if (item.entity === 'interview-type') {
      catalog.types.push({
        id: item.id,
        name: item.name,
        durationMinutes: item.duration_minutes,
        price: item.price,
        active: item.active,
      });
    } else if (item.entity === 'interviewer') {
      catalog.interviewers.push({ id: item.id, name: item.name, availability: item.availability });
    }
  }
  return catalog;
}

export async function createInterviewType(
  deps: Deps,
  input: { name: string; durationMinutes: number; priceMinor: number; id?: number },
): Promise<InterviewType> {
  if (!Number.isInteger(input.durationMinutes) || input.durationMinutes < 5 || input.durationMinutes > 480) {
    throw new DomainError('invalid-catalog', 'duration must be a whole number of minutes from 5 to 480');
  }
  if (!Number.isInteger(input.priceMinor) || input.priceMinor < 0) {
    throw new DomainError('invalid-catalog', 'price must be a whole number of pence, 0 or more');
  }
  const id = input.id ?? (await nextId(deps, CLINICAL_FAMILY, 'interview-type'));
  const type: InterviewType = { id, name: input.name, durationMinutes: input.durationMinutes, price: gbp(input.priceMinor), active: true };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...catalogKeys.type(CLINICAL_FAMILY, id),
        entity: 'interview-type',
        id,
        name: type.name,
        duration_minutes: type.durationMinutes,
        price: type.price,
        active: true,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await changed(deps);
  return type;
}

export async function setInterviewTypeActive(deps: Deps, id: number, active: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: catalogKeys.type(CLINICAL_FAMILY, id), UpdateExpression: 'SET active = :a', ExpressionAttributeValues: { ':a': active } },
    `No interview type ${id}`,
  );
  await changed(deps);
}

export async function createInterviewer(deps: Deps, name: string, fixedId?: number): Promise<Interviewer> {
  const id = fixedId ?? (await nextId(deps, CLINICAL_FAMILY, 'interviewer'));
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...catalogKeys.interviewer(CLINICAL_FAMILY, id), entity: 'interviewer', id, name, availability: [] },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await changed(deps);
  return { id, name, availability: [] };
}

/**
 * Replaces an interviewer's weekly availability. Windows of one interviewer
 * may not overlap on the same weekday, even for different types: slots of one
 * interviewer never overlap, so a slot lock is simply (interviewer, date, time).
 */
export async function setAvailability(deps: Deps, interviewerId: number, windows: AvailabilityWindow[]): Promise<void> {
  const catalog = await loadCatalog(deps);
  for (const w of windows) {
    if (!catalog.types.some((t) => t.id === w.interviewTypeId)) {
      throw new DomainError('invalid-catalog', `No interview type ${w.interviewTypeId}`);
    }
    if (!Number.isInteger(w.weekday) || w.weekday < 1 || w.weekday > 7) throw new DomainError('invalid-catalog', 'weekday must be 1 (Monday) to 7');
    if (!/^([01]\d|2[0-3]):[0-5]\d$/.test(w.start) || !/^([01]\d|2[0-3]):[0-5]\d$/.test(w.end) || minutesOf(w.start) >= minutesOf(w.end)) {
      throw new DomainError('invalid-catalog', `Window ${w.start}-${w.end} must be HH:MM-HH:MM with the start first`);
    }
  }
  for (const [i, a] of windows.entries()) {
    for (const b of windows.slice(i + 1)) {
      if (a.weekday === b.weekday && minutesOf(a.start) < minutesOf(b.end) && minutesOf(b.start) < minutesOf(a.end)) {
        throw new DomainError('invalid-catalog', `Windows ${a.start}-${a.end} and ${b.start}-${b.end} overlap on weekday ${a.weekday}`);
      }
    }
  }
  await updateExisting(
    deps,
    { Key: catalogKeys.interviewer(CLINICAL_FAMILY, interviewerId), UpdateExpression: 'SET availability = :w', ExpressionAttributeValues: { ':w': windows } },
    `No interviewer ${interviewerId}`,
  );
  await changed(deps);
}

/** Every slot the availability produces for a type on a date, back to back from each window's start. */
export function slotsOn(catalog: Catalog, type: InterviewType, date: string, timeZone: string): Slot[] {
  const weekday = weekdayOf(date);
  const slots: Slot[] = [];
  for (const interviewer of catalog.interviewers) {
    for (const w of interviewer.availability) {
      if (w.interviewTypeId !== type.id || w.weekday !== weekday) continue;
      for (let m = minutesOf(w.start); m + type.durationMinutes <= minutesOf(w.end); m += type.durationMinutes) {
        const time = timeOf(m);
        const startAt = zonedInstant(date, time, timeZone);
        if (!startAt) continue; // the clocks skip this time tonight
        slots.push({
          interviewTypeId: type.id,
          interviewerId: interviewer.id,
          date,
          time,
          startAt,
          endAt: new Date(startAt.getTime() + type.durationMinutes * 60_000),
        });
      }
    }
  }
  return slots.sort((a, b) => a.time.localeCompare(b.time) || a.interviewerId - b.interviewerId);
}

export function activeType(catalog: Catalog, id: number): InterviewType | undefined {
  return catalog.types.find((t) => t.id === id && t.active);
}
