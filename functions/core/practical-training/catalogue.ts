import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { gbp, type Money } from '../commerce/money.js';
import { queryAll, updateExisting } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { setFrom } from '../platform/transact.js';
import { cachedPerTable, catalogueVersionKeys } from '../platform/table-cache.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { getSession, sessionKeys, sessionsStarting, type SessionItem } from '../inventory/sessions.js';
import { zonedInstant } from '../platform/time.js';

/**
 * The practical training catalogue: courses (what is taught, its price and
 * certificate), locations (where), and training events (a course at a
 * location on a date, with a capacity of seats). Courses and locations are
 * few and read whole; events are many and listed by start through the index.
 */

export const PRACTICAL_FAMILY = 'practical-training' as const satisfies FamilyId;

export const CSTF_SUBJECTS = ['resuscitation', 'moving_and_handling', 'violence_and_aggression'] as const;
export type CstfSubject = (typeof CSTF_SUBJECTS)[number];

export interface Course {
  id: number;
  name: string;
  code: string;
  description: string | null;
  delivery: 'face_to_face';
  cstf_subject: CstfSubject | null;
  pre_attendance_notes: string | null;
  duration_minutes: number;
  certificate_validity_months: number;
  /** Cancelling this long before the start is refunded (decision 7: 72 hours by default). */
  free_cancellation_hours: number;
  price: Money;
  active: boolean;
}

export interface Address {
  line1: string;
  line2: string | null;
  town: string;
  postcode: string;
}

export interface Location {
  id: number;
  name: string;
  region: string | null;
  directions: string | null;
  accessibility: string | null;
  address: Address;
  active: boolean;
}

/** A session of the inventory engine at a location. */
export interface TrainingEventItem extends SessionItem {
  location_id: number;
  /** A booking that leaves this many seats or fewer sends `training_event.seats_low` once (re-armed above it). */
  seats_low_at: number;
  seats_low_armed: boolean;
}

const CATALOG = TABLE_KEYS.catalog;
export const trainingCatalogueKeys = {
  partition: key(CATALOG.pk, PRACTICAL_FAMILY),
  course: (id: number) => ({ pk: key(CATALOG.pk, PRACTICAL_FAMILY), sk: key(CATALOG.sk.course, padId(id)) }),
  location: (id: number) => ({ pk: key(CATALOG.pk, PRACTICAL_FAMILY), sk: key(CATALOG.sk.location, padId(id)) }),
};

/** Default seats-low threshold: the larger of 2 and a fifth of the capacity. */
export const defaultSeatsLowAt = (capacity: number): number => Math.max(2, Math.ceil(capacity * 0.2));

export const MAX_CAPACITY = 200;

export interface Catalogue {
  courses: Course[];
  locations: Location[];
}

/** Courses and locations change a few times a day: a copy is kept per table, and writes here tell every container within 2 seconds (platform/table-cache.ts). */
const cached = cachedPerTable((deps) => readCatalogue(deps), catalogueVersionKeys.version(PRACTICAL_FAMILY));
const changed = cached.changed;

export const loadCatalogue = (deps: Deps): Promise<Catalogue> => cached.load(deps);

async function readCatalogue(deps: Deps): Promise<Catalogue> {
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': trainingCatalogueKeys.partition },
    ConsistentRead: true,
  });
  const strip = ({ pk, sk, entity, ...rest }: Record<string, unknown>) => rest;
  return {
    courses: items.filter((i) => i.entity === 'course').map((i) => strip(i) as unknown as Course),
    locations: items.filter((i) => i.entity === 'location').map((i) => strip(i) as unknown as Location),
  };
}

function invalid(detail: string): never {
  throw new DomainError('invalid-catalog', detail);
}

export type NewCourse = Omit<
  Course,
  'id' | 'active' | 'price' | 'delivery' | 'description' | 'cstf_subject' | 'pre_attendance_notes' | 'free_cancellation_hours'
> & {
  price_minor: number;
  description?: string | null;
  cstf_subject?: CstfSubject | null;
  pre_attendance_notes?: string | null;
  free_cancellation_hours?: number;
  id?: number;
};

export async function createCourse(deps: Deps, input: NewCourse): Promise<Course> {
  const wholeIn = (n: number, lo: number, hi: number) => Number.isInteger(n) && n >= lo && n <= hi;
  if (!wholeIn(input.duration_minutes, 15, 24 * 60)) invalid('duration must be a whole number of minutes from 15 to 1440');
  if (!wholeIn(input.certificate_validity_months, 1, 120)) invalid('certificate validity must be 1 to 120 months');
  if (!wholeIn(input.price_minor, 0, 10_000_000)) invalid('price must be a whole number of pence, 0 or more');
  const freeHours = input.free_cancellation_hours ?? 72;
  if (!wholeIn(freeHours, 0, 24 * 60)) invalid('free cancellation must be 0 to 1440 hours before the start');
  if (input.cstf_subject && !CSTF_SUBJECTS.includes(input.cstf_subject)) invalid(`subject must be one of ${CSTF_SUBJECTS.join(', ')}`);
  const { courses } = await loadCatalogue(deps);
  if (courses.some((c) => c.code === input.code && c.id !== input.id)) invalid(`A course with code ${input.code} exists`);
  const id = input.id ?? (await nextId(deps, PRACTICAL_FAMILY, 'course'));
  const course: Course = {
    id,
    name: input.name,
    code: input.code,
    description: input.description ?? null,
    delivery: 'face_to_face',
    cstf_subject: input.cstf_subject ?? null,
    pre_attendance_notes: input.pre_attendance_notes ?? null,
    duration_minutes: input.duration_minutes,
    certificate_validity_months: input.certificate_validity_months,
    free_cancellation_hours: freeHours,
    price: gbp(input.price_minor),
    active: true,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...trainingCatalogueKeys.course(id), entity: 'course', ...course },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await changed(deps);
  return course;
}

/**
 * Changes what a course says and costs from now on. Bookings already made
 * keep the price they were charged and the refund window they were sold with.
 */
export async function updateCourse(
  deps: Deps,
  id: number,
  changes: { name?: string; price_minor?: number; free_cancellation_hours?: number; certificate_validity_months?: number },
): Promise<Course> {
  const wholeIn = (n: number | undefined, lo: number, hi: number) => n === undefined || (Number.isInteger(n) && n >= lo && n <= hi);
  if (!wholeIn(changes.price_minor, 0, 10_000_000)) invalid('price must be a whole number of pence, 0 or more');
  if (!wholeIn(changes.free_cancellation_hours, 0, 24 * 60)) invalid('free cancellation must be 0 to 1440 hours before the start');
  if (!wholeIn(changes.certificate_validity_months, 1, 120)) invalid('certificate validity must be 1 to 120 months');
  const set = Object.fromEntries(
    Object.entries({
      name: changes.name,
      price: changes.price_minor === undefined ? undefined : gbp(changes.price_minor),
      free_cancellation_hours: changes.free_cancellation_hours,
      certificate_validity_months: changes.certificate_validity_months,
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(set).length === 0) invalid('Say what to change');
  const update = setFrom({ set });
  await updateExisting(
    deps,
    {
      Key: trainingCatalogueKeys.course(id),
      UpdateExpression: update.expression,
      ExpressionAttributeNames: update.names,
      ExpressionAttributeValues: update.values,
    },
    `No course ${id}`,
  );
  await changed(deps);
  return (await loadCatalogue(deps)).courses.find((c) => c.id === id)!;
}

/** Changes how a location is described (name, directions, accessibility). */
export async function updateLocation(deps: Deps, id: number, changes: { name?: string; directions?: string; accessibility?: string }): Promise<Location> {
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  if (Object.keys(set).length === 0) invalid('Say what to change');
  const update = setFrom({ set });
  await updateExisting(
    deps,
    {
      Key: trainingCatalogueKeys.location(id),
      UpdateExpression: update.expression,
      ExpressionAttributeNames: update.names,
      ExpressionAttributeValues: update.values,
    },
    `No location ${id}`,
  );
  await changed(deps);
  return (await loadCatalogue(deps)).locations.find((l) => l.id === id)!;
}

export async function setCourseActive(deps: Deps, id: number, active: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: trainingCatalogueKeys.course(id), UpdateExpression: 'SET active = :a', ExpressionAttributeValues: { ':a': active } },
    `No course ${id}`,
  );
  await changed(deps);
}

export async function createLocation(
  deps: Deps,
  input: Omit<Location, 'id' | 'active' | 'region' | 'directions' | 'accessibility'> &
    Partial<Pick<Location, 'region' | 'directions' | 'accessibility' | 'id'>>,
): Promise<Location> {
  if (!/^[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}$/i.test(input.address.postcode.trim())) invalid(`${input.address.postcode} is not a UK postcode`);
  const id = input.id ?? (await nextId(deps, PRACTICAL_FAMILY, 'location'));
  const location: Location = {
    id,
    name: input.name,
    region: input.region ?? null,
    directions: input.directions ?? null,
    accessibility: input.accessibility ?? null,
    address: { ...input.address, postcode: input.address.postcode.trim().toUpperCase() },
    active: true,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...trainingCatalogueKeys.location(id), entity: 'location', ...location },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await changed(deps);
  return location;
}

export async function setLocationActive(deps: Deps, id: number, active: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: trainingCatalogueKeys.location(id), UpdateExpression: 'SET active = :a', ExpressionAttributeValues: { ':a': active } },
    `No location ${id}`,
  );
  await changed(deps);
}

/** Opens a training event: an active course at an active location, on a date and time, with `capacity` seats. */
export async function createTrainingEvent(
  deps: Deps,
  input: { course_id: number; location_id: number; date: string; start_time: string; capacity: number; seats_low_at?: number; id?: number },
): Promise<TrainingEventItem> {
  const { courses, locations } = await loadCatalogue(deps);
  const course = courses.find((c) => c.id === input.course_id && c.active) ?? invalid(`No active course ${input.course_id}`);
  if (!locations.some((l) => l.id === input.location_id && l.active)) invalid(`No active location ${input.location_id}`);
  if (!Number.isInteger(input.capacity) || input.capacity < 1 || input.capacity > MAX_CAPACITY) invalid(`capacity must be 1 to ${MAX_CAPACITY}`);
  const start =
    zonedInstant(input.date, input.start_time, deps.config.serviceTimeZone) ?? invalid(`${input.date} ${input.start_time} is not a time on the clock there`);
  const id = input.id ?? (await nextId(deps, PRACTICAL_FAMILY, 'training-event'));
  const now = deps.clock().toISOString();
  const event: TrainingEventItem = {
    id,
    course_id: course.id,
    location_id: input.location_id,
    date: input.date,
    start_time: input.start_time,
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + course.duration_minutes * 60_000).toISOString(),
    capacity: input.capacity,
    booked_count: 0,
    seats_low_at: input.seats_low_at ?? defaultSeatsLowAt(input.capacity),
    seats_low_armed: true,
    created_at: now,
    updated_at: now,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...sessionKeys.session(PRACTICAL_FAMILY, id), ...sessionKeys.byStart(PRACTICAL_FAMILY, event.start_at, id), entity: 'training-event', ...event },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return event;
}

export const getTrainingEventItem = (deps: Deps, id: number): Promise<TrainingEventItem | undefined> =>
  getSession<TrainingEventItem>(deps, PRACTICAL_FAMILY, id);

/** Events starting from `from` (inclusive) to `to` (exclusive), soonest first, one page at a time. */
export const trainingEventsStarting = (
  deps: Deps,
  range: { from: string; to: string; limit: number; cursor?: string },
  keep: (e: TrainingEventItem) => boolean = () => true,
): Promise<Page<TrainingEventItem>> => sessionsStarting<TrainingEventItem>(deps, PRACTICAL_FAMILY, range, keep);
