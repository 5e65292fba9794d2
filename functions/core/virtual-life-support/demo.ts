import { bookAsOf } from '../bookings/course-bookings.js';
import { openDemoBalances } from '../commerce/opening-balances.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { raiseCounter } from '../platform/ids.js';
import { addDays, addWorkingDays, isWorkingDay, wallClock } from '../platform/time.js';
import { createVlsBooking } from './bookings.js';
import { createCourse, createSession, loadCourses, VLS_FAMILY, type CourseInput } from './catalogue.js';
import { issueVlsCertificate } from './certificates.js';
import { recordDispatch, recordReturned, recordReturnShipped } from './equipment.js';
import { markVlsAttendance, markVlsResult } from './operator.js';
import { holdTimeslot } from './timeslots.js';

/**
 * The virtual life-support demo data: a manikin course
 * and a no-equipment course; sessions at 10:00 and 14:00 on working days for
 * three weeks, 6 seats; credits and money; and past bookings: one returned
 * and certified, one whose kit is overdue (the first sweep charges the late
 * fee and sends the event), one awaiting dispatch, and for each client one
 * past booking whose attendance is still to be marked.
 */

const COURSES: (CourseInput & { id: number })[] = [
  {
    id: 1,
    name: 'Virtual adult BLS with manikin',
    code: 'VBLS-M',
    duration_minutes: 180,
    certificate_validity_months: 12,
    price_minor: 7500,
    equipment_required: true,
    cstf_subject: 'resuscitation',
    description:
      'Adult basic life support and AED by live video, practised on a feedback manikin posted to the candidate (Resuscitation Council UK guidelines).',
  },
  {
    id: 2,
    name: 'Virtual anaphylaxis update',
    code: 'VANA-U',
    duration_minutes: 90,
    certificate_validity_months: 12,
    price_minor: 4000,
    equipment_required: false,
    cstf_subject: 'resuscitation',
    description: 'Recognising anaphylaxis and using adrenaline auto-injectors, by live video.',
  },
];
const TIMES = ['10:00', '14:00'];
const DAYS = 21;
/** Future sessions are numbered from here by day, course and time; 1–3 are the past ones. */
const FIRST_FUTURE = 100;
const PAST = { certified: 1, overdue: 2, unmarked: 3 } as const;

const ignoreExisting = (err: unknown) => {
  if (isConditionalCheckFailed(err)) return;
  throw err;
};

const person = (first: string, last: string) => ({
  first_name: first,
  last_name: last,
  email: `${first.toLowerCase()}.${last.toLowerCase()}@example.org`,
  phone: '+447700900777',
  job_role: 'Registered Nurse',
});
const address = { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' };
const DAY_MS = 86_400_000;

export async function seedVlsDemo(deps: Deps, clientIds: readonly string[]): Promise<void> {
  const existing = await loadCourses(deps);
  for (const c of COURSES) if (!existing.some((x) => x.id === c.id)) await createCourse(deps, c).catch(ignoreExisting);
  await raiseCounter(deps, VLS_FAMILY, 'course', COURSES.length);

  const today = wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const holidays = deps.config.bankHolidays;
  let future: { date: string; time: string } | undefined;
  for (let day = 1; day <= DAYS; day++) {
    const date = addDays(today, day);
    if (!isWorkingDay(date, holidays)) continue;
    for (const [c, course] of COURSES.entries()) {
      for (const [t, start_time] of TIMES.entries()) {
        const id = FIRST_FUTURE + day * 4 + c * 2 + t;
        await createSession(deps, { id, course_id: course.id, date, start_time }).catch(ignoreExisting);
        // The awaiting-dispatch booking's session: the first manikin session a week or more ahead.
        if (future === undefined && course.equipment_required && day >= 7) future = { date, time: start_time };
      }
    }
  }
  await raiseCounter(deps, VLS_FAMILY, 'session', FIRST_FUTURE + DAYS * 4 + 4);

  for (const client_id of clientIds)
    await openDemoBalances(
      deps,
      client_id,
      VLS_FAMILY,
      COURSES.map((c) => ({ kind: 'course' as const, id: c.id, name: c.name })),
      10,
      50_000,
    );

  // The past sessions: each on the last working day at least so many days ago (up to four days earlier over a long weekend).
  const past = (daysAgo: number) => addWorkingDays(addDays(today, 1 - daysAgo), -1, holidays);
  const dates = { certified: past(20), overdue: past(8), unmarked: past(2) };
  // Whoever creates the first past session seeds the past bookings: concurrent or repeated seeding does it once.
  const created = await createSession(deps, { id: PAST.certified, course_id: 1, date: dates.certified, start_time: '10:00' }).then(
    () => true,
    (err: unknown) => (ignoreExisting(err), false),
  );
  await createSession(deps, { id: PAST.overdue, course_id: 1, date: dates.overdue, start_time: '10:00' }).catch(ignoreExisting);
  await createSession(deps, { id: PAST.unmarked, course_id: 2, date: dates.unmarked, start_time: '14:00' }).catch(ignoreExisting);
  const [first] = clientIds;
  if (!created || !first) return;

  const now = deps.clock().getTime();
  const book = (clientId: string, daysAgo: number, course: number, date: string, time: string, who: ReturnType<typeof person>) =>
    bookAsOf(deps, new Date(now - daysAgo * DAY_MS), async (past) => {
      const held = await holdTimeslot(past, { type: 'client', clientId }, { courseId: course, date, time });
      return createVlsBooking(
        past,
        clientId,
        { ...who, hold_hash: held.hold_hash, pay_option: 'credits', ...(course === 1 ? { delivery_address: address } : {}) },
        { payment: () => '' },
      );
    });
  const asOf = (daysAgo: number): Deps => ({ ...deps, clock: () => new Date(now - daysAgo * DAY_MS) });

  // Returned on time and certified.
  const certified = await book(first, 30, 1, dates.certified, '10:00', person('Priya', 'Shah'));
  await recordDispatch(asOf(25), certified.id, { carrier: 'Royal Mail', tracking_number: 'RM100000001GB' });
  await recordReturnShipped(asOf(18), certified.id, { carrier: 'Royal Mail', tracking_number: 'RM100000002GB' });
  await recordReturned(asOf(16), certified.id);
  await markVlsAttendance(deps, certified.id, 'attended');
  await markVlsResult(deps, certified.id, 'passed');
  await issueVlsCertificate(deps, certified.id);

  // Posted, never sent back: due a day or more ago, so the first equipment sweep marks it overdue with the late fee.
  const overdue = await book(first, 16, 1, dates.overdue, '10:00', person('Liam', 'Byrne'));
  await recordDispatch(asOf(13), overdue.id, { carrier: 'DPD', tracking_number: '15501234567890' });

  // Booked for a coming session: the manikin is still to be posted.
  if (future) await book(first, 0, 1, future.date, future.time, person('Omar', 'Haddad'));

  for (const clientId of clientIds) await book(clientId, 9, 2, dates.unmarked, '14:00', person('Nia', 'Evans')); // attendance to be marked
}
