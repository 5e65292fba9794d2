import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { videoMeeting } from '../clinical-interview/bookings.js';
import { gbp, type Money } from '../commerce/money.js';
import { getSession, sessionKeys, sessionsStarting, type SessionItem } from '../inventory/sessions.js';
import { queryAll, updateExisting, upgradeScanned } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import type { FamilyId } from '../platform/families.js';
import { nextId, padId } from '../platform/ids.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import type { Page } from '../platform/pagination.js';
import { cachedPerTable, catalogueVersionKeys } from '../platform/table-cache.js';
import { addDays, zonedInstant } from '../platform/time.js';
import { setFrom } from '../platform/transact.js';

/**
 * The virtual life-support catalogue:
 * courses (read whole, cached until the catalogue's version changes) and sessions, each a session of
 * the inventory engine with its instructor and its video room.
 */

export const VLS_FAMILY = 'virtual-life-support' as const satisfies FamilyId;

export interface EquipmentFees {
  late_return: Money;
  lost: Money;
}

/** Decision 8: £25 for a late return, £100 for a lost manikin, unless the course says otherwise. */
export const DEFAULT_FEES = { late_return: 2500, lost: 10_000 } as const;

export interface VlsCourse {
  id: number;
  name: string;
  code: string;
  description: string | null;
  delivery: 'virtual';
  cstf_subject: string | null;
  pre_attendance_notes: string | null;
  duration_minutes: number;
  certificate_validity_months: number;
  free_cancellation_hours: number;
  seats_per_session: number;
  equipment_required: boolean;
  price: Money;
  /** Null without kit. */
  equipment_fees: EquipmentFees | null;
  active: boolean;
}

export interface VlsSession extends SessionItem {
  instructor: string | null;
  video_meeting: { meeting_id: string; join_link: string; password: string };
}

const CATALOG = TABLE_KEYS.catalog;
export const vlsCatalogueKeys = {
  partition: key(CATALOG.pk, VLS_FAMILY),
  course: (id: number) => ({ pk: key(CATALOG.pk, VLS_FAMILY), sk: key(CATALOG.sk.course, padId(id)) }),
};

export const MAX_SEATS = 12;

const cached = cachedPerTable(async (deps) => {
  const items = await queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': vlsCatalogueKeys.partition },
    ConsistentRead: true,
  });
  return items.filter((i) => i.entity === 'course').map(({ pk, sk, entity, ...c }) => c as unknown as VlsCourse);
}, catalogueVersionKeys.version(VLS_FAMILY));

export const loadCourses = (deps: Deps): Promise<VlsCourse[]> => cached.load(deps);

export const toVlsCourseView = ({ active, ...course }: VlsCourse) => course;

function invalid(detail: string): never {
  throw new DomainError('invalid-catalog', detail);
}
const wholeIn = (n: number | undefined, lo: number, hi: number) => n === undefined || (Number.isInteger(n) && n >= lo && n <= hi);

export interface CourseInput {
  id?: number;
  name: string;
  code: string;
  description?: string | null;
  cstf_subject?: string | null;
  pre_attendance_notes?: string | null;
  duration_minutes: number;
  certificate_validity_months?: number;
  free_cancellation_hours?: number;
  seats_per_session?: number;
  equipment_required: boolean;
  price_minor: number;
  late_fee_minor?: number;
  lost_fee_minor?: number;
}

function checkCourse(c: Partial<CourseInput>): void {
  if (!wholeIn(c.duration_minutes, 15, 24 * 60)) invalid('duration must be a whole number of minutes from 15 to 1440');
  if (!wholeIn(c.certificate_validity_months, 1, 120)) invalid('certificate validity must be 1 to 120 months');
  if (!wholeIn(c.free_cancellation_hours, 0, 24 * 60)) invalid('free cancellation must be 0 to 1440 hours before the start');
  if (!wholeIn(c.seats_per_session, 1, MAX_SEATS)) invalid(`seats per session must be 1 to ${MAX_SEATS}`);
  for (const [name, n] of [
    ['price', c.price_minor],
    ['late fee', c.late_fee_minor],
    ['lost fee', c.lost_fee_minor],
  ] as const) {
    if (!wholeIn(n, 0, 10_000_000)) invalid(`${name} must be a whole number of pence, 0 or more`);
  }
}

const feesOf = (equipment: boolean, late?: number, lost?: number): EquipmentFees | null =>
  equipment ? { late_return: gbp(late ?? DEFAULT_FEES.late_return), lost: gbp(lost ?? DEFAULT_FEES.lost) } : null;

export async function createCourse(deps: Deps, input: CourseInput): Promise<VlsCourse> {
  checkCourse(input);
  const courses = await loadCourses(deps);
  if (courses.some((c) => c.code === input.code && c.id !== input.id)) invalid(`A course with code ${input.code} exists`);
  const id = input.id ?? (await nextId(deps, VLS_FAMILY, 'course'));
  const course: VlsCourse = {
    id,
    name: input.name,
    code: input.code,
    description: input.description ?? null,
    delivery: 'virtual',
    cstf_subject: input.cstf_subject ?? null,
    pre_attendance_notes: input.pre_attendance_notes ?? 'Camera and microphone on throughout; a test at the end.',
    duration_minutes: input.duration_minutes,
    certificate_validity_months: input.certificate_validity_months ?? 12,
    free_cancellation_hours: input.free_cancellation_hours ?? 72,
    seats_per_session: input.seats_per_session ?? 6,
    equipment_required: input.equipment_required,
    price: gbp(input.price_minor),
    equipment_fees: feesOf(input.equipment_required, input.late_fee_minor, input.lost_fee_minor),
    active: true,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...vlsCatalogueKeys.course(id), entity: 'course', ...course },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  await cached.changed(deps);
  return course;
}

export type CourseChanges = Partial<
  Pick<
    CourseInput,
    | 'name'
    | 'price_minor'
    | 'free_cancellation_hours'
    | 'certificate_validity_months'
    | 'seats_per_session'
    | 'equipment_required'
    | 'late_fee_minor'
    | 'lost_fee_minor'
  >
>;

/** Changes a course for what is sold from now on; bookings keep what they were sold with. */
export async function updateCourse(deps: Deps, id: number, changes: CourseChanges): Promise<VlsCourse> {
  checkCourse(changes);
  const current =
    (await loadCourses(deps)).find((c) => c.id === id) ??
    (() => {
      throw new DomainError('not-found', `No course ${id}`);
    })();
  const equipment = changes.equipment_required ?? current.equipment_required;
  const feesChange = changes.equipment_required !== undefined || changes.late_fee_minor !== undefined || changes.lost_fee_minor !== undefined;
  const set = Object.fromEntries(
    Object.entries({
      name: changes.name,
      price: changes.price_minor === undefined ? undefined : gbp(changes.price_minor),
      free_cancellation_hours: changes.free_cancellation_hours,
      certificate_validity_months: changes.certificate_validity_months,
      seats_per_session: changes.seats_per_session,
      equipment_required: changes.equipment_required,
      equipment_fees: feesChange
        ? feesOf(equipment, changes.late_fee_minor ?? current.equipment_fees?.late_return.amount, changes.lost_fee_minor ?? current.equipment_fees?.lost.amount)
        : undefined,
    }).filter(([, v]) => v !== undefined),
  );
  if (Object.keys(set).length === 0) invalid('Say what to change');
  const update = setFrom({ set });
  await updateExisting(
    deps,
    { Key: vlsCatalogueKeys.course(id), UpdateExpression: update.expression, ExpressionAttributeNames: update.names, ExpressionAttributeValues: update.values },
    `No course ${id}`,
  );
  await cached.changed(deps);
  return (await loadCourses(deps)).find((c) => c.id === id)!;
}

export async function setCourseActive(deps: Deps, id: number, active: boolean): Promise<void> {
  await updateExisting(
    deps,
    { Key: vlsCatalogueKeys.course(id), UpdateExpression: 'SET active = :a', ExpressionAttributeValues: { ':a': active } },
    `No course ${id}`,
  );
  await cached.changed(deps);
}

export interface SessionInput {
  id?: number;
  course_id: number;
  date: string;
  start_time: string;
  seats?: number;
  instructor?: string | null;
}

/** Schedules a session of an active course: a pool of `seats` units and one video room. */
export async function createSession(deps: Deps, input: SessionInput): Promise<VlsSession> {
  const course = (await loadCourses(deps)).find((c) => c.id === input.course_id && c.active) ?? invalid(`No active course ${input.course_id}`);
  const seats = input.seats ?? course.seats_per_session;
  if (!wholeIn(seats, 1, MAX_SEATS)) invalid(`seats must be 1 to ${MAX_SEATS}`);
  const start =
    zonedInstant(input.date, input.start_time, deps.config.serviceTimeZone) ?? invalid(`${input.date} ${input.start_time} is not a time on the clock there`);
  const id = input.id ?? (await nextId(deps, VLS_FAMILY, 'session'));
  const now = deps.clock().toISOString();
  const session: VlsSession = {
    id,
    course_id: course.id,
    date: input.date,
    start_time: input.start_time,
    start_at: start.toISOString(),
    end_at: new Date(start.getTime() + course.duration_minutes * 60_000).toISOString(),
    capacity: seats,
    booked_count: 0,
    instructor: input.instructor ?? null,
    video_meeting: videoMeeting(deps, `vls-session-${id}`),
    created_at: now,
    updated_at: now,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: {
        ...sessionKeys.session(VLS_FAMILY, id),
        ...sessionKeys.byCourseStart(VLS_FAMILY, course.id, session.start_at, id),
        entity: 'vls-session',
        ...session,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
  );
  return session;
}

/** `weekly` sessions: this one and the same time on each of the next weeks. */
export async function createSessions(deps: Deps, input: SessionInput & { weekly?: number }): Promise<VlsSession[]> {
  const weeks = input.weekly ?? 1;
  if (!wholeIn(weeks, 1, 52)) invalid('weekly must be 1 to 52');
  const made: VlsSession[] = [];
  for (let w = 0; w < weeks; w++) made.push(await createSession(deps, { ...input, id: undefined, date: addDays(input.date, 7 * w) }));
  return made;
}

export const getVlsSession = (deps: Deps, id: number): Promise<VlsSession | undefined> => getSession<VlsSession>(deps, VLS_FAMILY, id);

/** One course's sessions by start (its own index partition: a listing reads no other course's). */
export const courseSessionsStarting = (
  deps: Deps,
  courseId: number,
  range: { from: string; to: string; limit: number; cursor?: string },
  keep?: (s: VlsSession) => boolean,
): Promise<Page<VlsSession>> => sessionsStarting<VlsSession>(deps, VLS_FAMILY, range, keep, sessionKeys.byCoursePartition(VLS_FAMILY, courseId));

/**
 * Moves sessions written before the per-course index (in the family-wide
 * partition) to their course's partition. One-off, safe to run again or
 * while the API serves (the condition skips a session moved meanwhile).
 */
export const reindexVlsSessions = (deps: Deps): Promise<number> => {
  const old = { ':old': sessionKeys.byStartPartition(VLS_FAMILY) };
  return upgradeScanned(
    deps,
    { expression: 'entity = :entity AND gsi1pk = :old', values: { ':entity': 'vls-session', ...old } },
    (session) => ({ gsi1pk: sessionKeys.byCoursePartition(VLS_FAMILY, Number(session.course_id)) }),
    { expression: 'gsi1pk = :old', values: old },
  );
};
