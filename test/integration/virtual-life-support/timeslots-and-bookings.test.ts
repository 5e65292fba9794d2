import type { DomainEvent } from '../../../functions/core/events/outbox.js';
import { topUpCredits, topUpMoney, balances } from '../../../functions/core/commerce/wallets.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { createVlsBooking, listVlsBookings } from '../../../functions/core/virtual-life-support/bookings.js';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { sessionKeys } from '../../../functions/core/inventory/sessions.js';
import { createCourse, createSession, reindexVlsSessions, type VlsCourse } from '../../../functions/core/virtual-life-support/catalogue.js';
import { holdTimeslot, listTimeslots, releaseTimeslot } from '../../../functions/core/virtual-life-support/timeslots.js';
import { ledgerOf, links, MONDAY, newClient, outboxPayloads } from '../../support/kit.js';
import { testClock, testDeps, uniqueName, type TestClock } from '../../support/env.js';
import { watchInFlight } from '../../support/in-flight.js';

const VLS = 'virtual-life-support' as const;
/** Monday 23 November 2026, 08:00 UTC. */
const START = `${MONDAY}T08:00:00.000Z`;
let deps: Deps;
let clock: TestClock;
let kit: VlsCourse;
let plain: VlsCourse;

beforeAll(async () => {
  clock = testClock(START);
  // Friday 27 November is a bank holiday here, so Monday's lead time of 3 working days lands on Thursday.
  deps = await testDeps({ clock, config: { bankHolidays: ['2026-11-27', '2026-12-28'], dispatchLeadWorkingDays: 3 } });
  kit = await createCourse(deps, {
    name: 'Virtual adult BLS with manikin',
    code: uniqueName('VBLS'),
    duration_minutes: 180,
    equipment_required: true,
    price_minor: 7500,
  });
  plain = await createCourse(deps, {
    name: 'Anaphylaxis update',
    code: uniqueName('VANA'),
    duration_minutes: 90,
    equipment_required: false,
    price_minor: 4000,
  });
});
beforeEach(() => clock.set(START));

const agency = (clientId: string) => ({ type: 'client', clientId }) as const;
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => `${e.code}${e.extensions?.reason ? `:${e.extensions.reason}` : ''}${e.extensions?.pointer ? `@${e.extensions.pointer}` : ''}`,
  );
const person = { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org', phone: '+447700900456', job_role: 'Registered Nurse' };
const address = { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' };

async function funded(options: { invoiceEnabled?: boolean } = {}) {
  const client = await newClient(deps, options);
  for (const c of [kit, plain]) await topUpCredits(deps, client, VLS, { ...c, kind: 'course' }, 10);
  await topUpMoney(deps, client, VLS, 50_000);
  return client;
}

describe('listing', () => {
  it("reads a fortnight's sessions and its seats' locks together: one round trip, whatever the range", async () => {
    for (const date of ['2026-12-15', '2026-12-22']) await createSession(deps, { course_id: plain.id, date, start_time: '11:00', seats: 2 });
    const client = await funded();
    await holdTimeslot(deps, agency(client), { courseId: plain.id, date: '2026-12-22', time: '11:00' });
    const watch = watchInFlight(deps);
    try {
      const { result: slots, together } = await watch.during(() => listTimeslots(deps, { courseId: plain.id, from: '2026-12-14', to: '2026-12-27' }));
      expect(slots.map((s) => `${s.date} ${s.seats_available}`)).toEqual(['2026-12-15 2', '2026-12-22 1']);
      expect(together).toBe(2);
    } finally {
      watch.stop();
    }
  });

  it('offers equipment courses only from the 3rd working day after today (weekend and bank holiday skipped); other courses from tomorrow', async () => {
    // Monday 30 November 2026 (a week on): Tue 1, Wed 2, Thu 3 Dec; and the Friday-before-a-bank-holiday case below.
    for (const date of ['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-30', '2026-12-01']) {
      await createSession(deps, { course_id: kit.id, date, start_time: '10:00', seats: 2 });
      await createSession(deps, { course_id: plain.id, date, start_time: '14:00', seats: 2 });
    }
    // Monday: Tue 24, Wed 25, Thu 26 → the 26th is the first day; Friday 27 is a holiday.
    const kitDays = (await listTimeslots(deps, { courseId: kit.id, from: '2026-11-24', to: '2026-12-01' })).map((s) => s.date);
    expect(kitDays).toEqual(['2026-11-26', '2026-11-30', '2026-12-01']);
    const plainDays = (await listTimeslots(deps, { courseId: plain.id, from: '2026-11-24', to: '2026-12-01' })).map((s) => s.date);
    expect(plainDays).toEqual(['2026-11-24', '2026-11-25', '2026-11-26', '2026-11-30', '2026-12-01']);

    // Thursday 26: Mon 30 Nov, Tue 1 Dec, Wed 2 Dec (Friday 27 is a holiday): nothing before Wednesday.
    clock.set('2026-11-26T08:00:00.000Z');
    expect((await listTimeslots(deps, { courseId: kit.id, from: '2026-11-26', to: '2026-12-01' })).map((s) => s.date)).toEqual([]);
    const client = await funded();
    expect(await code(holdTimeslot(deps, agency(client), { courseId: kit.id, date: '2026-12-01', time: '10:00' }))).toBe(
      'slot-unavailable:inside_dispatch_lead_time',
    );
    expect(await code(holdTimeslot(deps, agency(client), { courseId: plain.id, date: '2026-11-26', time: '14:00' }))).toBe('slot-unavailable:closed');
    expect(await code(holdTimeslot(deps, agency(client), { courseId: plain.id, date: '2026-12-01', time: '09:00' }))).toBe('slot-unavailable:unknown');
  });
  it("lists a course's timeslots from its own session index; a session stored before that index joins it with the backfill", async () => {
    const session = await createSession(deps, { course_id: plain.id, date: '2026-12-08', start_time: '16:30', seats: 3 });
    const listed = async () =>
      (await listTimeslots(deps, { courseId: plain.id, from: '2026-12-08', to: '2026-12-08' })).map((s) => `${s.date} ${s.time} ${s.seats_available}`);
    expect(await listed()).toContain('2026-12-08 16:30 3');
    // As an earlier version stored it: in the family-wide partition.
    const stored = sessionKeys.session(VLS, session.id);
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: stored,
        UpdateExpression: 'SET gsi1pk = :pk',
        ExpressionAttributeValues: { ':pk': sessionKeys.byStartPartition(VLS) },
      }),
    );
    expect(await listed()).not.toContain('2026-12-08 16:30 3');
    expect(await reindexVlsSessions(deps)).toBeGreaterThanOrEqual(1);
    expect(await listed()).toContain('2026-12-08 16:30 3');
    const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: stored }));
    expect(Item!.gsi1pk).toBe(sessionKeys.byCoursePartition(VLS, plain.id));
  });
});

describe('holds on seats (unit locks)', () => {
  it('N concurrent holds by N clients on a slot of S seats: exactly S succeed, the rest full; after expiry S more, with no sweeper', async () => {
    const date = '2026-12-09';
    await createSession(deps, { course_id: plain.id, date, start_time: '10:00', seats: 2 });
    await createSession(deps, { course_id: plain.id, date, start_time: '10:00', seats: 1 });
    const clients = await Promise.all(Array.from({ length: 8 }, () => newClient(deps)));
    const outcomes = await Promise.all(clients.map((c) => code(holdTimeslot(deps, agency(c), { courseId: plain.id, date, time: '10:00' }))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => o === 'slot-unavailable:full')).toBe(true);
    expect((await listTimeslots(deps, { courseId: plain.id, from: date, to: date })).length).toBe(0);

    clock.set(new Date(Date.parse(START) + 1801_000).toISOString());
    const later = await Promise.all(clients.slice(3).map((c) => code(holdTimeslot(deps, agency(c), { courseId: plain.id, date, time: '10:00' }))));
    expect(later.filter((o) => o === 'ok')).toHaveLength(3);
  });

  it('one active hold per client (409 with it), release frees the seat, another client cannot release it', async () => {
    const date = '2026-12-10';
    await createSession(deps, { course_id: plain.id, date, start_time: '10:00', seats: 1 });
    const [a, b] = [await newClient(deps), await newClient(deps)];
    const held = await holdTimeslot(deps, agency(a), { courseId: plain.id, date, time: '10:00' });
    expect(held).toMatchObject({ expires_in_seconds: 1800, slot: { date, time: '10:00', course: { id: plain.id } } });
    const again = await holdTimeslot(deps, agency(a), { courseId: plain.id, date, time: '10:00' }).catch((e) => e);
    expect([again.code, again.extensions.hold.hold_hash]).toEqual(['hold-conflict', held.hold_hash]);
    expect(await code(releaseTimeslot(deps, agency(b), held.hold_hash))).toBe('not-found');
    await releaseTimeslot(deps, agency(a), held.hold_hash);
    expect(await code(holdTimeslot(deps, agency(b), { courseId: plain.id, date, time: '10:00' }))).toBe('ok');
  });
});

describe('bookings', () => {
  it('requires delivery_address exactly when the course posts kit; stores null otherwise', async () => {
    const client = await funded();
    await createSession(deps, { course_id: kit.id, date: '2026-12-14', start_time: '10:00' });
    await createSession(deps, { course_id: plain.id, date: '2026-12-14', start_time: '14:00' });
    const kitHold = await holdTimeslot(deps, agency(client), { courseId: kit.id, date: '2026-12-14', time: '10:00' });
    expect(await code(createVlsBooking(deps, client, { ...person, hold_hash: kitHold.hold_hash, pay_option: 'credits' }, links))).toBe(
      'invalid-field@/delivery_address',
    );
    const booked = await createVlsBooking(deps, client, { ...person, hold_hash: kitHold.hold_hash, pay_option: 'credits', delivery_address: address }, links);
    expect(booked).toMatchObject({
      delivery_address: { ...address, line2: null },
      equipment: { status: 'awaiting_dispatch', dispatch: null, return: null, fees: [] },
      booking_status: 'booked',
    });
    expect(booked.video_meeting?.join_link).toMatch(/vls-session-/);

    const plainHold = await holdTimeslot(deps, agency(client), { courseId: plain.id, date: '2026-12-14', time: '14:00' });
    const other = await createVlsBooking(deps, client, { ...person, hold_hash: plainHold.hold_hash, pay_option: 'balance', delivery_address: address }, links);
    expect(other).toMatchObject({ delivery_address: null, equipment: { status: 'not_required' }, pay_status: 'completed' });
    expect((await balances(deps, client, VLS, [kit, plain], 'course')).money.amount).toBe(50_000 - 4000);
    const listed = await listVlsBookings(deps, client, { equipment_status: 'awaiting_dispatch', limit: 10 });
    expect(listed.data.map((b) => b.id)).toEqual([booked.id]);
  });

  it('N concurrent bookings from one hold: one booking, one debit; each pay option', async () => {
    const client = await funded({ invoiceEnabled: true });
    await createSession(deps, { course_id: plain.id, date: '2026-12-15', start_time: '10:00', seats: 4 });
    const hold = await holdTimeslot(deps, agency(client), { courseId: plain.id, date: '2026-12-15', time: '10:00' });
    const tries = await Promise.all(
      Array.from({ length: 6 }, () => code(createVlsBooking(deps, client, { ...person, hold_hash: hold.hold_hash, pay_option: 'credits' }, links))),
    );
    expect(tries.filter((t) => t === 'ok')).toHaveLength(1);
    expect(tries.filter((t) => t !== 'ok').every((t) => t === 'hold-used')).toBe(true);
    expect((await ledgerOf(deps, client, VLS)).filter((e) => e.kind === 'credit_debit')).toHaveLength(1);

    const book = async (pay_option: 'invoice' | 'candidate_pays') => {
      const h = await holdTimeslot(deps, agency(client), { courseId: plain.id, date: '2026-12-15', time: '10:00' });
      return createVlsBooking(deps, client, { ...person, hold_hash: h.hold_hash, pay_option }, links);
    };
    expect(await book('invoice')).toMatchObject({ booking_status: 'booked', pay_status: 'invoiced' });
    const unpaid = await book('candidate_pays');
    expect(unpaid).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending', video_meeting: null });
    expect(unpaid.payment_due_at).not.toBeNull();
    const created = (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => e.family === VLS && e.type === 'booking.created');
    expect(created.map((e) => (e.data as { id: number }).id)).toEqual(expect.arrayContaining([unpaid.id]));
  });
});
