import { getHold, holdUnit, releaseUnitHold, type Hold, type Holder, type HoldPolicy } from '../inventory/holds.js';
import { HOLD_SECONDS } from '../inventory/hold-time.js';
import { bookingClosesAt, locksOfDays, seatsFree, seatUnit } from '../inventory/sessions.js';
import type { Pool } from '../inventory/units.js';
import type { ItemKey } from '../platform/db.js';
import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { seatNames } from '../inventory/units.js';
import { addDays, addWorkingDays, formatWithOffset, wallClock, zonedInstant } from '../platform/time.js';
import { courseSessionsStarting, loadCourses, VLS_FAMILY, type VlsCourse, type VlsSession } from './catalogue.js';

/**
 * Timeslots: the sessions of a course
 * at one date and time form one timeslot, and all their seats are the pool a
 * hold takes from, as interviewers are for a clinical slot. Listing and
 * holding apply the same rules, so a listed slot can be held.
 */

export const MAX_RANGE_DAYS = 31;
/** HOLD_MINUTES, one per client; expiry frees the seat by the clock and is not announced (the family has no such event). */
export const vlsHolds: HoldPolicy = { family: VLS_FAMILY, seconds: HOLD_SECONDS, onePerHolder: true };

export type SlotHold = Hold & {
  course_id: number;
  course_name: string;
  session_id: number;
  seat: string;
  date: string;
  time: string;
  start_at: string;
  end_at: string;
};

export const toSlotHoldView = (
  hold: Pick<SlotHold, 'hold_hash' | 'expires_at' | 'date' | 'time' | 'course_id' | 'course_name'>,
  now: Date,
  timeZone: string,
) => ({
  hold_hash: hold.hold_hash,
  expires_at: formatWithOffset(hold.expires_at, timeZone),
  expires_in_seconds: Math.max(0, Math.ceil((Date.parse(hold.expires_at) - now.getTime()) / 1000)),
  slot: { date: hold.date, time: hold.time, course: { id: hold.course_id, name: hold.course_name } },
});
export type SlotHoldView = ReturnType<typeof toSlotHoldView>;

/** The first date a session of an equipment course may be on: the lead-time-th working day after today. */
export const firstDispatchableDate = (deps: Deps, now: Date): string =>
  addWorkingDays(wallClock(now, deps.config.serviceTimeZone).date, deps.config.dispatchLeadWorkingDays, deps.config.bankHolidays);

export type SlotRefusal = 'unknown' | 'closed' | 'inside_dispatch_lead_time' | 'full';

/** Why the sessions of one timeslot cannot be offered now (seats aside: `full` is the locks' answer). */
export function slotRefusal(deps: Deps, course: VlsCourse | undefined, sessions: VlsSession[], now: Date): SlotRefusal | undefined {
  const open = sessions.filter((s) => !s.cancelled_at);
  if (!course || !course.active || open.length === 0) return 'unknown';
  if (bookingClosesAt(open[0]!).getTime() <= now.getTime()) return 'closed';
  if (course.equipment_required && open[0]!.date < firstDispatchableDate(deps, now)) return 'inside_dispatch_lead_time';
  return undefined;
}

const dayStart = (date: string, timeZone: string) => zonedInstant(date, '00:00', timeZone)!.toISOString();

/** Every scheduled session of a course starting on the days from `from` to `to`, soonest first. */
export async function courseSessions(deps: Deps, courseId: number, from: string, to: string): Promise<VlsSession[]> {
  const tz = deps.config.serviceTimeZone;
  const all: VlsSession[] = [];
  let cursor: string | undefined;
  do {
    const page = await courseSessionsStarting(
      deps,
      courseId,
      { from: dayStart(from, tz), to: dayStart(addDays(to, 1), tz), limit: 200, cursor },
      (s) => !s.cancelled_at,
    );
    all.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return all;
}

const slotKey = (s: Pick<VlsSession, 'date' | 'start_time'>) => `${s.date}T${s.start_time}`;

/** GET /timeslots: the course's offered slots from `from` to `to`, each with the seats left across its sessions. */
export async function listTimeslots(deps: Deps, input: { courseId: number; from: string; to: string }) {
  const now = deps.clock();
  const course = (await loadCourses(deps)).find((c) => c.id === input.courseId && c.active);
  if (!course) return [];
  // The range's locks are read beside its sessions, not after them: one round trip whatever the range.
  const [sessions, locks] = await Promise.all([courseSessions(deps, course.id, input.from, input.to), locksOfDays(deps, VLS_FAMILY, input.from, input.to)]);
  const bySlot = new Map<string, VlsSession[]>();
  for (const s of sessions) bySlot.set(slotKey(s), [...(bySlot.get(slotKey(s)) ?? []), s]);
  const offered = [...bySlot.values()].filter((group) => !slotRefusal(deps, course, group, now));
  const seats = seatsFree(VLS_FAMILY, offered.flat(), locks, now);
  return offered
    .map((group) => ({
      date: group[0]!.date,
      time: group[0]!.start_time,
      course: { id: course.id, name: course.name },
      seats_available: group.reduce((n, s) => n + Math.max(0, seats.get(s.id) ?? 0), 0),
    }))
    .filter((slot) => slot.seats_available > 0);
}

/** What a hold and a booking record of the seat they have: its session, name, day and times. */
export const seatOf = (session: VlsSession, seat: string) => ({
  session_id: session.id,
  seat,
  date: session.date,
  time: session.start_time,
  start_at: session.start_at,
  end_at: session.end_at,
});

export type Seat = { session: VlsSession; seat: string };
export const seatPool = (sessions: VlsSession[]): Pool<Seat> => ({
  units: sessions.flatMap((session) => seatNames(session.capacity).map((seat) => ({ session, seat }))),
  keyOf: ({ session, seat }) => seatUnit(VLS_FAMILY, session, seat),
});

const unavailable = (reason: SlotRefusal, detail: string) => new DomainError('slot-unavailable', detail, { reason });

/** The course and sessions of a timeslot that is offered now (seats aside), or the slot-unavailable refusal saying why not. */
export async function offeredSlot(deps: Deps, input: { courseId: number; date: string; time: string }): Promise<{ course: VlsCourse; sessions: VlsSession[] }> {
  const now = deps.clock();
  const course = (await loadCourses(deps)).find((c) => c.id === input.courseId);
  const sessions = (await courseSessions(deps, input.courseId, input.date, input.date)).filter((s) => s.start_time === input.time);
  const refusal = slotRefusal(deps, course, sessions, now);
  const what = `The slot on ${input.date} at ${input.time}`;
  if (refusal === 'unknown') throw unavailable(refusal, `No session of course ${input.courseId} is offered on ${input.date} at ${input.time}`);
  if (refusal === 'closed') throw unavailable(refusal, `${what} closed for booking 24 hours before its start`);
  if (refusal === 'inside_dispatch_lead_time')
    throw unavailable(refusal, `${what} is too soon to post the manikin: the first date for this course is ${firstDispatchableDate(deps, now)}`);
  return { course: course!, sessions };
}

/** Every seat of the timeslot is booked or held. */
export const slotFull = (input: { date: string; time: string }) =>
  unavailable('full', `Every seat of the slot on ${input.date} at ${input.time} is booked or held`);

/** The scope of an invite's place for the timeslot. */
export const slotScope = (slot: { courseId: number; date: string; time: string }) => `C${slot.courseId}@${slot.date}T${slot.time}`;

/** POST /timeslots/hold: a free seat of any session of the course at that date and time, for 30 minutes. */
export async function holdTimeslot(deps: Deps, holder: Holder, input: { courseId: number; date: string; time: string }): Promise<SlotHoldView> {
  const tz = deps.config.serviceTimeZone;
  const now = deps.clock();
  const { course, sessions } = await offeredSlot(deps, input);
  const { hold, at } = await holdUnit(
    deps,
    vlsHolds,
    holder,
    seatPool(sessions),
    ({ session, seat }) => ({
      course_id: course.id,
      course_name: course.name,
      ...seatOf(session, seat),
    }),
    {
      conflict: (existing) =>
        new DomainError('hold-conflict', 'This client already has an active hold; book or release it first', {
          hold: toSlotHoldView(existing as SlotHold, now, tz),
        }),
      unavailable: () => slotFull(input),
    },
    undefined,
    // An invite's hold counts against its client's invites' seats of this timeslot.
    slotScope(input),
  );
  return toSlotHoldView(hold, at, tz);
}

export const holdSeatOf = (hold: Hold): ItemKey => {
  const h = hold as SlotHold;
  return seatUnit(VLS_FAMILY, { id: h.session_id, date: h.date, start_time: h.time }, h.seat);
};

/** DELETE /timeslots/hold/{hash}: only the caller's active hold; anything else is not-found. */
export const releaseTimeslot = (deps: Deps, holder: Holder, hash: string, read?: { hold: Hold | undefined }): Promise<void> =>
  releaseUnitHold(deps, vlsHolds, holder, hash, holdSeatOf, read);

export const getSlotHold = (deps: Deps, hash: string) => getHold<SlotHold>(deps, VLS_FAMILY, hash);
