import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { inviteKeys } from '../bookings/invite-keys.js';
import { openDemoBalances } from '../commerce/opening-balances.js';
import { TransactionFailed } from '../platform/transact.js';
import { isConditionalCheckFailed } from '../platform/conditions.js';
import type { Deps } from '../platform/deps.js';
import { bookAsOf } from '../bookings/course-bookings.js';
import { raiseCounter } from '../platform/ids.js';
import { addDays, addWorkingDays, wallClock } from '../platform/time.js';
import { createPracticalBooking } from './bookings.js';
import { createCourse, createLocation, createTrainingEvent, loadCatalogue, PRACTICAL_FAMILY, type NewCourse } from './catalogue.js';
import { issueCertificate } from './certificates.js';
import { createInvite, recordInviteSent, tokenHash, type NewInvite } from './invites.js';
import { markPracticalAttendance, markPracticalResult } from './operator.js';
import { holdSeat } from './seats.js';

/**
 * The practical training demo data:
 * three courses, two locations, events on working days over the next month
 * (one of 3 seats, one on the next working day), opening balances dated
 * before the demo's bookings, and a past event whose
 * bookings let the operator flow to a certificate be run at once.
 */

const COURSES: (NewCourse & { id: number })[] = [
  {
    id: 1,
    name: 'Basic Life Support (adult)',
    code: 'BLS-A',
    duration_minutes: 240,
    certificate_validity_months: 12,
    price_minor: 6500,
    cstf_subject: 'resuscitation',
    description: 'Adult basic life support and AED use, to Resuscitation Council UK guidelines.',
  },
  {
    id: 2,
    name: 'Moving and handling',
    code: 'MH-1',
    duration_minutes: 360,
    certificate_validity_months: 12,
    price_minor: 8000,
    cstf_subject: 'moving_and_handling',
    description: 'Safe people and object handling, with hoists and slide sheets.',
  },
  {
    id: 3,
    name: 'PMVA refresher',
    code: 'PMVA-R',
    duration_minutes: 420,
    certificate_validity_months: 36,
    price_minor: 12000,
    cstf_subject: 'violence_and_aggression',
    description: 'Prevention and management of violence and aggression: breakaway and holding techniques (BILD certified).',
    pre_attendance_notes: 'Physical course: candidates complete a health questionnaire on arrival and wear loose clothing and flat shoes.',
  },
];

const LOCATIONS = [
  {
    id: 1,
    name: 'Riverside Training Centre',
    region: 'Yorkshire and the Humber',
    directions: 'Five minutes from Leeds station; enter from Water Lane.',
    accessibility: 'Step-free access and a hearing loop.',
    address: { line1: '12 Water Lane', line2: null, town: 'Leeds', postcode: 'LS1 4AP' },
  },
  {
    id: 2,
    name: 'Northgate Skills Hub',
    region: 'North West',
    directions: 'Opposite Victoria station, second floor.',
    accessibility: 'Lift to all floors.',
    address: { line1: '40 Corporation Street', line2: 'Second floor', town: 'Manchester', postcode: 'M4 3AQ' },
  },
];

/**
 * Events by working days from today (courses run Monday to Friday, not on
 * bank holidays): [id, course, location, working day, time, capacity]. Event
 * 1 is on the next working day, so it starts inside 72 hours except over a
 * long weekend; event 4 has 3 seats.
 */
const EVENTS: [number, number, number, number, string, number][] = [
  [1, 1, 1, 1, '09:30', 12],
  [2, 1, 2, 4, '09:30', 12],
  [3, 2, 1, 7, '09:00', 12],
  [4, 3, 2, 9, '09:00', 3],
  [5, 1, 1, 12, '13:00', 12],
  [6, 2, 2, 15, '09:00', 12],
  [7, 3, 1, 18, '09:00', 12],
  [8, 1, 2, 21, '09:30', 12],
];
/** The past event (the last working day a week or more ago), with the bookings the operator flow starts from. */
const PAST_EVENT = 9;

const ignoreExisting = (err: unknown) => {
  if (isConditionalCheckFailed(err)) return;
  throw err;
};

const trainee = (first: string, last: string) => ({
  first_name: first,
  last_name: last,
  email: `${first.toLowerCase()}.${last.toLowerCase()}@example.org`,
  phone: '+447700900555',
  job_role: 'Healthcare Assistant',
});

export async function seedPracticalDemo(deps: Deps, clientIds: readonly string[]): Promise<void> {
  const existing = await loadCatalogue(deps);
  for (const c of COURSES) if (!existing.courses.some((x) => x.id === c.id)) await createCourse(deps, c).catch(ignoreExisting);
  for (const l of LOCATIONS) if (!existing.locations.some((x) => x.id === l.id)) await createLocation(deps, l).catch(ignoreExisting);
  await raiseCounter(deps, PRACTICAL_FAMILY, 'course', COURSES.length);
  await raiseCounter(deps, PRACTICAL_FAMILY, 'location', LOCATIONS.length);

  const today = wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const holidays = deps.config.bankHolidays;
  for (const [id, course_id, location_id, day, start_time, capacity] of EVENTS) {
    await createTrainingEvent(deps, { id, course_id, location_id, date: addWorkingDays(today, day, holidays), start_time, capacity }).catch(ignoreExisting);
  }
  // Whoever creates the past event seeds its bookings: concurrent or repeated seeding does it once.
  const pastCreated = await createTrainingEvent(deps, {
    id: PAST_EVENT,
    course_id: 1,
    location_id: 1,
    date: addWorkingDays(addDays(today, -6), -1, holidays),
    start_time: '09:30',
    capacity: 12,
  }).then(
    () => true,
    (err: unknown) => (ignoreExisting(err), false),
  );
  await raiseCounter(deps, PRACTICAL_FAMILY, 'training-event', PAST_EVENT);

  for (const client_id of clientIds)
    await openDemoBalances(
      deps,
      client_id,
      PRACTICAL_FAMILY,
      COURSES.map((c) => ({ kind: 'course' as const, id: c.id, name: c.name })),
      10,
      50_000,
    );

  // The past event's bookings, made as of two weeks ago (before it, a long weekend and all).
  if (!pastCreated) return;
  const then = new Date(deps.clock().getTime() - 14 * 86_400_000);
  const book = (clientId: string, who: ReturnType<typeof trainee>) =>
    bookAsOf(deps, then, async (past) => {
      const held = await holdSeat(past, { type: 'client', clientId }, PAST_EVENT);
      return createPracticalBooking(past, clientId, { ...who, hold_hash: held.hold_hash, pay_option: 'credits' }, { payment: () => '' });
    });
  const [first] = clientIds;
  if (!first) return;
  const passed = await book(first, trainee('Priya', 'Shah'));
  await markPracticalAttendance(deps, passed.id, 'attended');
  await markPracticalResult(deps, passed.id, 'passed');
  await issueCertificate(deps, passed.id);
  const noShow = await book(first, trainee('Liam', 'Byrne'));
  await markPracticalAttendance(deps, noShow.id, 'no_show');
  for (const clientId of clientIds) {
    await book(clientId, trainee('Nia', 'Evans')); // attended, not marked yet
    const attended = await book(clientId, trainee('Omar', 'Haddad'));
    await markPracticalAttendance(deps, attended.id, 'attended'); // result pending
  }
}

/**
 * Demo data: one `sent` invite per demo client
 * to the first active course, at a token known in advance so the local stack
 * can show its page. Seeding again changes nothing.
 */
export async function seedDemoInvites(
  deps: Deps,
  clients: readonly { client_id: string; invite_token: string; candidate: NewInvite['candidate'] }[],
): Promise<void> {
  const course = (await loadCatalogue(deps)).courses.find((c) => c.active);
  if (!course) return;
  for (const demo of clients) {
    const { Item } = await deps.db.send(
      new GetCommand({ TableName: deps.table, Key: inviteKeys.token(PRACTICAL_FAMILY, tokenHash(demo.invite_token)), ConsistentRead: true }),
    );
    if (Item) continue;
    const invite = await createInvite(
      deps,
      demo.client_id,
      { candidate: demo.candidate, course_id: course.id, pay_option: 'credits', expires_in_days: 60 },
      { invite: () => '' },
      { token: demo.invite_token },
    ).catch((err: unknown) => {
      // A seeder running at the same time took the token first: its invite is the demo's.
      if (err instanceof TransactionFailed && err.has('token')) return undefined;
      throw err;
    });
    if (invite) await recordInviteSent(deps, demo.client_id, invite.id);
  }
}
