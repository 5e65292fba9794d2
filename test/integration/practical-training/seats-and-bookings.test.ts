import { createHold } from '../../../functions/core/clinical-interview/holds.js';
import { expireUnpaidBookings } from '../../../functions/core/bookings/payment-expiry.js';
import { balances, topUpCredits, topUpMoney } from '../../../functions/core/commerce/wallets.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import type { DomainEvent } from '../../../functions/core/events/outbox.js';
import { cancelPractical, PRACTICAL_CHANGING } from '../../../functions/core/practical-training/booking-changes.js';
import { createPracticalBooking, getPracticalBooking, listPracticalBookings } from '../../../functions/core/practical-training/bookings.js';
import { createCourse, createLocation, createTrainingEvent, type Course } from '../../../functions/core/practical-training/catalogue.js';
import { findBookingIn } from '../../../functions/core/bookings/records.js';
import type { PracticalBooking } from '../../../functions/core/practical-training/bookings.js';
import { getTrainingEvent } from '../../../functions/core/practical-training/events.js';
import { getSeatHold, holdSeat, releaseSeat, seatOfHold, sweepSeatHolds } from '../../../functions/core/practical-training/seats.js';
import { setBalanceAlertSettings } from '../../../functions/core/practical-training/account.js';
import { cancelTrainingEvent, markPracticalAttendance, reschedulePractical, setEventCapacity } from '../../../functions/core/practical-training/operator.js';
import { CI, testCatalog } from '../../support/clinical.js';
import { links, MONDAY, newClient, outboxPayloads, refusalCode } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';
import { withFaults } from '../../support/faults.js';

const PT = 'practical-training' as const;
const START = `${MONDAY}T08:00:00.000Z`;
let deps: Deps;
let clock: TestClock;
let course: Course;
let locationId: number;

beforeAll(async () => {
  clock = testClock(START);
  deps = await testDeps({ clock });
  course = await createCourse(deps, {
    name: 'Basic Life Support (adult)',
    code: 'BLS-A',
    duration_minutes: 240,
    certificate_validity_months: 12,
    price_minor: 6500,
  });
  locationId = (await createLocation(deps, { name: 'Riverside', address: { line1: '12 Water Lane', line2: null, town: 'Leeds', postcode: 'LS1 4AP' } })).id;
});
beforeEach(() => clock.set(START));

/** An event ten days ahead (free cancellation ends 72 hours before it starts). */
const newEvent = (capacity: number, seats_low_at?: number) =>
  createTrainingEvent(deps, { course_id: course.id, location_id: locationId, date: '2026-12-03', start_time: '09:30', capacity, seats_low_at });
const agency = (clientId: string) => ({ type: 'client', clientId }) as const;
const trainee = { first_name: 'Tom', last_name: 'Okoro', email: 'tom@example.org', phone: '+447700900321', job_role: 'Healthcare Assistant' };
const events = async (type: string) => (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => e.type === type && e.family === PT);

async function bookedClient(credits = 10) {
  const client = await newClient(deps);
  await topUpCredits(deps, client, PT, { ...course, kind: 'course' }, credits);
  return client;
}
async function book(client: string, eventId: number, payOption: 'credits' | 'balance' = 'credits') {
  const held = await holdSeat(deps, agency(client), eventId);
  return createPracticalBooking(deps, client, { ...trainee, hold_hash: held.hold_hash, pay_option: payOption }, links);
}

describe('seat holds', () => {
  it('N concurrent holds on capacity C: exactly C succeed, the rest event-full; after expiry C new holds succeed with no sweeper', async () => {
    const event = await newEvent(3);
    const clients = await Promise.all(Array.from({ length: 8 }, () => newClient(deps)));
    const outcomes = await Promise.all(clients.map((c) => refusalCode(holdSeat(deps, agency(c), event.id))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'event-full')).toHaveLength(5);
    expect((await getTrainingEvent(deps, event.id)).seats_available).toBe(0);
    expect((await getTrainingEvent(deps, event.id)).status).toBe('full');

    clock.advance(1800);
    const later = await Promise.all(Array.from({ length: 3 }, () => newClient(deps)));
    expect(await Promise.all(later.map((c) => refusalCode(holdSeat(deps, agency(c), event.id))))).toEqual(['ok', 'ok', 'ok']);
  });

  it('8 holders churning the last 3 seats: a seat is never held twice at once, a refusal is event-full, and the event is whole afterwards', async () => {
    const event = await newEvent(5);
    for (const filler of await Promise.all([newClient(deps), newClient(deps)])) await holdSeat(deps, agency(filler), event.id);
    const holders = await Promise.all(Array.from({ length: 8 }, () => newClient(deps)));
    /** Who holds each seat now, as the holds' answers and stored records say. */
    const holding = new Map<string, string>();
    const outcomes: string[] = [];
    await Promise.all(
      holders.map(async (client) => {
        for (let round = 0; round < 6; round++) {
          try {
            const held = await holdSeat(deps, agency(client), event.id);
            const { seat } = (await getSeatHold(deps, held.hold_hash))!;
            if (holding.has(seat)) outcomes.push(`oversold ${seat}`);
            holding.set(seat, client);
            outcomes.push('ok');
            holding.delete(seat); // before the release is sent: nobody can take the seat until it has been written
            await releaseSeat(deps, agency(client), held.hold_hash);
          } catch (err) {
            outcomes.push((err as { code?: string }).code ?? String(err));
          }
        }
      }),
    );
    expect(outcomes).toHaveLength(48);
    expect(outcomes.filter((o) => o !== 'ok' && o !== 'event-full')).toEqual([]);
    expect(outcomes.filter((o) => o === 'ok').length).toBeGreaterThanOrEqual(3);
    expect((await getTrainingEvent(deps, event.id)).seats_available).toBe(3);
    const last = await Promise.all(holders.map((c) => refusalCode(holdSeat(deps, agency(c), event.id))));
    expect(last.filter((o) => o === 'ok')).toHaveLength(3);
    expect(last.filter((o) => o === 'event-full')).toHaveLength(5);
  });
  it('one active hold per client (409 carries it); release frees the seat; another client cannot release it', async () => {
    const event = await newEvent(2);
    const [a, b] = [await newClient(deps), await newClient(deps)];
    const first = await holdSeat(deps, agency(a), event.id);
    expect(first).toMatchObject({ expires_in_seconds: 1800, training_event: { id: event.id, course: { id: course.id, code: 'BLS-A' } } });
    const conflict = await holdSeat(deps, agency(a), event.id).catch((e) => e);
    expect(conflict.code).toBe('hold-conflict');
    expect(conflict.extensions.hold.hold_hash).toBe(first.hold_hash);
    expect(await refusalCode(releaseSeat(deps, agency(b), first.hold_hash))).toBe('not-found');
    expect((await getTrainingEvent(deps, event.id)).seats_available).toBe(1);
    await releaseSeat(deps, agency(a), first.hold_hash);
    expect((await getTrainingEvent(deps, event.id)).seats_available).toBe(2);
  });

  it('refuses past closing (24 h before the start) and on unknown events', async () => {
    const event = await newEvent(2);
    const client = await newClient(deps);
    expect(await refusalCode(holdSeat(deps, agency(client), 999_999))).toBe('event-unavailable');
    clock.set('2026-12-02T09:30:00.000Z');
    expect(await refusalCode(holdSeat(deps, agency(client), event.id))).toBe('booking-closed');
  });

  it('a clinical hold never blocks a seat hold, nor the other way round', async () => {
    const { type } = await testCatalog(deps);
    const client = await newClient(deps);
    const event = await newEvent(2);
    await holdSeat(deps, agency(client), event.id);
    await expect(createHold(deps, client, { interviewTypeId: type.id, date: MONDAY, time: '10:00' }, CI)).resolves.toMatchObject({ expires_in_seconds: 1800 });
  });

  it('announces seat_hold.expired once per expired hold, however often the sweep runs', async () => {
    const event = await newEvent(4);
    const client = await newClient(deps);
    const held = await holdSeat(deps, agency(client), event.id);
    expect(await sweepSeatHolds(deps)).toBe(0);
    clock.advance(1800);
    const runs = await Promise.all([sweepSeatHolds(deps), sweepSeatHolds(deps)]);
    expect(runs[0] + runs[1]).toBeGreaterThanOrEqual(1);
    await sweepSeatHolds(deps);
    const announced = (await events('seat_hold.expired')).filter((e) => (e.data as { hold_hash: string }).hold_hash === held.hold_hash);
    expect(announced).toHaveLength(1);
    expect(announced[0]!.data).toMatchObject({ holder: { type: 'client', booking_invite_id: null }, training_event: { id: event.id } });
  });
});

describe('bookings', () => {
  it('one booking per hold, one debit: concurrent POSTs with one hold', async () => {
    const event = await newEvent(5);
    const client = await bookedClient(5);
    const held = await holdSeat(deps, agency(client), event.id);
    const outcomes = await Promise.all(
      Array.from({ length: 5 }, () =>
        refusalCode(createPracticalBooking(deps, client, { ...trainee, hold_hash: held.hold_hash, pay_option: 'credits' }, links)),
      ),
    );
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(outcomes.filter((o) => o !== 'ok').every((o) => o === 'hold-used')).toBe(true);
    expect((await balances(deps, client, PT, [{ ...course }], 'course')).credits).toEqual([{ course: { id: course.id, name: course.name }, credits: 4 }]);
    const page = await listPracticalBookings(deps, client, { limit: 10, training_event_id: event.id });
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      booking_status: 'booked',
      training_status: 'scheduled',
      attendance: 'pending',
      result: 'pending',
      certificate_available: false,
      certificate: null,
      candidate: { nmc_number: null },
    });
  });

  it('practical credits are separate from clinical ones', async () => {
    const event = await newEvent(2);
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, { id: course.id, name: 'same id, clinical' }, 5);
    const held = await holdSeat(deps, agency(client), event.id);
    expect(await refusalCode(createPracticalBooking(deps, client, { ...trainee, hold_hash: held.hold_hash, pay_option: 'credits' }, links))).toBe(
      'insufficient-credits',
    );
  });

  it('sends training_event.seats_low once per crossing; a cancellation back above re-arms it', async () => {
    const event = await newEvent(6, 2); // low at 2 seats left: the 4th booking crosses
    const clients = await Promise.all(Array.from({ length: 5 }, () => bookedClient()));
    await Promise.all(clients.map((c) => book(c, event.id)));
    const low = async () => (await events('training_event.seats_low')).filter((e) => (e.data as { id: number }).id === event.id);
    expect(await low()).toHaveLength(1);
    const some = (await listPracticalBookings(deps, clients[0]!, { limit: 5, training_event_id: event.id })).data[0]!;
    await cancelPractical(deps, clients[0]!, some.id, { by: 'agency' }); // 4 booked: 2 left, still low
    expect(await low()).toHaveLength(1);
    const other = (await listPracticalBookings(deps, clients[1]!, { limit: 5, training_event_id: event.id })).data[0]!;
    await cancelPractical(deps, clients[1]!, other.id, { by: 'agency' }); // 3 booked: 3 left, re-armed
    await book(await bookedClient(), event.id); // 4 booked: crosses again
    expect(await low()).toHaveLength(2);
  });

  it('K concurrent debits across the thresholds: one credit_balance.low and one .depleted; a top-up re-arms once', async () => {
    const event = await newEvent(12);
    const client = await bookedClient(4); // low at 2 (default)
    // A client has one hold at a time: four racers each hold when the marker is free and book at once, so debits overlap.
    const outcomes = await Promise.all(
      Array.from({ length: 4 }, async () => {
        for (;;) {
          const h = await holdSeat(deps, agency(client), event.id).catch((e) => e);
          if (h.code === 'hold-conflict') {
            await new Promise((r) => setTimeout(r, 5));
            continue;
          }
          return refusalCode(createPracticalBooking(deps, client, { ...trainee, hold_hash: h.hold_hash, pay_option: 'credits' }, links));
        }
      }),
    );
    expect(outcomes).toEqual(['ok', 'ok', 'ok', 'ok']);
    const mine = async (type: string) => (await events(type)).filter((e) => e.client_id === client);
    expect(await mine('credit_balance.low')).toHaveLength(1);
    expect(await mine('credit_balance.depleted')).toHaveLength(1);
    expect((await mine('credit_balance.low'))[0]!.data).toMatchObject({ wallet: { unit: 'credits', course: { id: course.id } }, balance: 2, threshold: 2 });

    await topUpCredits(deps, client, PT, { ...course, kind: 'course' }, 3);
    await book(client, event.id);
    expect(await mine('credit_balance.low')).toHaveLength(2);
  });

  it('money alerts follow the account thresholds', async () => {
    const event = await newEvent(12);
    const client = await newClient(deps);
    await setBalanceAlertSettings(deps, client, { money_low_at: 7000 });
    await topUpMoney(deps, client, PT, 13_000);
    await book(client, event.id, 'balance'); // 13000 → 6500: low
    const low = (await events('money_balance.low')).filter((e) => e.client_id === client);
    expect(low).toHaveLength(1);
    expect(low[0]!.data).toMatchObject({ balance: { amount: 6500, currency: 'GBP' }, threshold: { amount: 7000, currency: 'GBP' } });
  });
});

describe('candidate_pays', () => {
  it('keeps the seat until payment_due_at (48 h after booking), then the expiry sweep cancels it and the seat is free', async () => {
    const event = await newEvent(1);
    const client = await newClient(deps);
    const held = await holdSeat(deps, agency(client), event.id);
    const booking = await createPracticalBooking(deps, client, { ...trainee, hold_hash: held.hold_hash, pay_option: 'candidate_pays' }, links);
    expect(booking).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending', payment_due_at: '2026-11-25T08:00:00+00:00' });
    expect((await getTrainingEvent(deps, event.id)).status).toBe('full');
    clock.set('2026-11-25T07:59:59.000Z');
    expect(await expireUnpaidBookings(deps, PRACTICAL_CHANGING)).toBe(0);
    clock.set('2026-11-25T08:00:00.000Z');
    expect(await expireUnpaidBookings(deps, PRACTICAL_CHANGING)).toBe(1);
    expect(await getPracticalBooking(deps, client, booking.id)).toMatchObject({
      booking_status: 'cancelled',
      payment_due_at: null,
      cancellation: { reason: 'payment_expired', cancelled_by: 'system' },
    });
    expect((await getTrainingEvent(deps, event.id)).seats_available).toBe(1);
    expect(await refusalCode(holdSeat(deps, agency(await newClient(deps)), event.id))).toBe('ok');
  });
});

describe('cancellation', () => {
  // The event starts 2026-12-03 09:30 UK time (GMT): free cancellation until 2026-11-30 09:30:00Z.
  const FREE_UNTIL = Date.parse('2026-11-30T09:30:00.000Z');

  it('refunds at free_cancellation_until minus one second, not at plus one', async () => {
    const event = await newEvent(4);
    const [early, late] = [await bookedClient(1), await bookedClient(1)];
    const [a, b] = [await book(early, event.id), await book(late, event.id)];
    expect(a.free_cancellation_until).toBe('2026-11-30T09:30:00+00:00');

    clock.set(new Date(FREE_UNTIL - 1000).toISOString());
    const refunded = await cancelPractical(deps, early, a.id, { by: 'agency', reason: 'withdrew' });
    expect(refunded).toMatchObject({
      booking_status: 'cancelled',
      training_status: 'cancelled',
      pay_status: 'refunded',
      cancellation: { reason: 'withdrew', refunded: true, cancelled_by: 'agency' },
    });
    expect((await balances(deps, early, PT, [course], 'course')).credits[0]!.credits).toBe(1);

    clock.set(new Date(FREE_UNTIL + 1000).toISOString());
    const kept = await cancelPractical(deps, late, b.id, { by: 'agency' });
    expect(kept).toMatchObject({ booking_status: 'cancelled', pay_status: 'completed', cancellation: { refunded: false } });
    expect((await balances(deps, late, PT, [course], 'course')).credits[0]!.credits).toBe(0);
    expect((await getTrainingEvent(deps, event.id)).seats_available).toBe(4);
  });

  it('refuses a second cancellation and one after the start, with a reason', async () => {
    const event = await newEvent(4);
    const client = await bookedClient(2);
    const booking = await book(client, event.id);
    await cancelPractical(deps, client, booking.id, { by: 'agency' });
    const again = await cancelPractical(deps, client, booking.id, { by: 'agency' }).catch((e) => e);
    expect([again.code, again.extensions.reason]).toEqual(['cancellation-not-allowed', 'already_cancelled']);
    const other = await book(client, event.id);
    clock.set('2026-12-03T09:30:00.000Z');
    const started = await cancelPractical(deps, client, other.id, { by: 'agency' }).catch((e) => e);
    expect([started.code, started.extensions.reason]).toEqual(['cancellation-not-allowed', 'started']);
    expect((await getPracticalBooking(deps, client, other.id)).booking_status).toBe('booked');
  });
});

describe('operators', () => {
  it('a no-show is never refunded, even cancelled before free_cancellation_until', async () => {
    const event = await newEvent(4);
    const client = await bookedClient(1);
    const booking = await book(client, event.id);
    expect(await refusalCode(markPracticalAttendance(deps, booking.id, 'no_show'))).toBe('invalid-state'); // not started yet
    clock.set('2026-12-03T09:31:00.000Z');
    const marked = await markPracticalAttendance(deps, booking.id, 'no_show');
    expect(marked).toMatchObject({ attendance: 'no_show' });
    expect((await events('booking.no_show')).filter((e) => (e.data as { id: number }).id === booking.id)).toHaveLength(1);
    expect((await listPracticalBookings(deps, client, { attendance: 'no_show', limit: 10 })).data.map((b) => b.id)).toEqual([booking.id]);
    const cancelled = await cancelPractical(deps, client, booking.id, { by: 'operator', alwaysRefund: true });
    expect(cancelled.cancellation).toMatchObject({ refunded: false });
    expect((await balances(deps, client, PT, [course], 'course')).credits[0]!.credits).toBe(0);
  });

  it('cancelling an event refunds everyone and tells each booking', async () => {
    const event = await newEvent(4);
    const clients = [await bookedClient(1), await bookedClient(1)];
    const booked = await Promise.all(clients.map((c) => book(c, event.id)));
    clock.set('2026-12-02T12:00:00.000Z'); // inside the 72 hours: an agency's own cancel would keep the credit
    const result = await cancelTrainingEvent(deps, event.id);
    expect(result.cancelled_bookings.sort()).toEqual(booked.map((b) => b.id).sort());
    for (const c of clients) expect((await balances(deps, c, PT, [course], 'course')).credits[0]!.credits).toBe(1);
    const told = (await events('booking.cancelled')).filter((e) => booked.some((b) => b.id === (e.data as { id: number }).id));
    expect(told).toHaveLength(2);
    expect((await getTrainingEvent(deps, event.id)).status).toBe('cancelled');
    expect(await refusalCode(holdSeat(deps, agency(await newClient(deps)), event.id))).toBe('event-unavailable');
  });

  it('refuses to cancel an event that has started: its bookings, attendance and refunds stand', async () => {
    const event = await newEvent(4);
    const client = await bookedClient(1);
    const booked = await book(client, event.id);
    clock.set(new Date(Date.parse(event.start_at) + 60_000).toISOString());
    expect(await refusalCode(cancelTrainingEvent(deps, event.id))).toBe('invalid-state');
    expect((await balances(deps, client, PT, [course], 'course')).credits[0]!.credits).toBe(0);
    expect((await listPracticalBookings(deps, client, { training_event_id: event.id, limit: 10 })).data.map((b) => [b.id, b.booking_status])).toEqual([
      [booked.id, 'booked'],
    ]);
    expect((await getTrainingEvent(deps, event.id)).status).not.toBe('cancelled');
    expect(await refusalCode(cancelTrainingEvent(deps, 987_654))).toBe('not-found');
  });

  it('reschedules to another event of the course, moving the seat; capacity never drops below what is booked', async () => {
    const [from, to] = [await newEvent(2), await newEvent(2)];
    const client = await bookedClient(2);
    const booking = await book(client, from.id);
    const moved = await reschedulePractical(deps, booking.id, to.id);
    expect(moved.training_event.id).toBe(to.id);
    expect((await getTrainingEvent(deps, from.id)).seats_available).toBe(2);
    expect((await getTrainingEvent(deps, to.id)).seats_available).toBe(1);
    await book(client, to.id);
    expect(await refusalCode(setEventCapacity(deps, to.id, 1))).toBe('invalid-state');
    await setEventCapacity(deps, to.id, 3);
    expect((await getTrainingEvent(deps, to.id)).seats_available).toBe(1);
  });

  it('lowering capacity moves bookings and holds off the seats cut; a hold that finds no seat left ends, a booking never does', async () => {
    const event = await newEvent(8);
    const bookers = [await bookedClient(1), await bookedClient(1), await bookedClient(1)];
    const booked = await Promise.all(bookers.map((c) => book(c, event.id)));
    const holders = [await bookedClient(1), await bookedClient(1), await bookedClient(1)];
    const holds = await Promise.all(holders.map((c) => holdSeat(deps, agency(c), event.id)));

    expect(await refusalCode(setEventCapacity(deps, event.id, 2))).toBe('invalid-state');
    // Five seats kept for three bookings and three holds: the bookings and two holds stay, one hold ends.
    const result = await setEventCapacity(deps, event.id, 5);
    expect(result).toMatchObject({ capacity: 5, released_holds: 1 });
    expect(result.moved_holds + result.released_holds).toBeLessThanOrEqual(3);

    for (const [n, b] of booked.entries()) expect((await getPracticalBooking(deps, bookers[n]!, b.id)).booking_status).toBe('booked');
    const seats = await Promise.all(booked.map(async (b) => (await findBookingIn<PracticalBooking>(deps, PT, b.id)).seat));
    expect(seats.every((seat) => seat <= 'S05')).toBe(true);
    expect(new Set(seats).size).toBe(3);
    const view = await getTrainingEvent(deps, event.id);
    expect(view).toMatchObject({ capacity: 5, seats_available: 0, status: 'full' });

    // The holds kept still book; the one that ended is gone for its agency.
    const outcomes = await Promise.all(
      holds.map((h, n) => refusalCode(createPracticalBooking(deps, holders[n]!, { ...trainee, hold_hash: h.hold_hash, pay_option: 'credits' }, links))),
    );
    expect(outcomes.sort()).toEqual(['hold-not-found', 'ok', 'ok']);
    // Five bookings on five seats kept, however the holds expire.
    clock.advance(1800);
    expect(await getTrainingEvent(deps, event.id)).toMatchObject({ seats_available: 0, status: 'full' });
  });

  it('a hold moved off a seat cut names its new seat, so whoever frees it by its record frees the right one', async () => {
    const event = await newEvent(3);
    const holders = [await bookedClient(1), await bookedClient(1), await bookedClient(1)];
    const holds = await Promise.all(holders.map((c) => holdSeat(deps, agency(c), event.id)));
    const stored = await Promise.all(holds.map((h) => getSeatHold(deps, h.hold_hash)));
    // Keep only the hold on the last seat, then cut the event to one seat: it has to move.
    const last = stored.findIndex((h) => h!.seat === 'S03');
    for (const [n, h] of stored.entries()) if (n !== last) await releaseSeat(deps, agency(holders[n]!), h!.hold_hash);
    expect(stored[last]!.unit_key).toEqual(seatOfHold(stored[last]!));
    expect(await setEventCapacity(deps, event.id, 1)).toMatchObject({ moved_holds: 1, released_holds: 0 });
    const moved = await getSeatHold(deps, stored[last]!.hold_hash);
    expect(moved).toMatchObject({ status: 'active', seat: 'S01' });
    expect(moved!.unit_key).toEqual(seatOfHold(moved!));
  });

  it('a booking whose hold an operator moves while it books takes the seat the hold moved to', async () => {
    const event = await newEvent(2);
    const holders = [await bookedClient(1), await bookedClient(1)];
    const holds = await Promise.all(holders.map((c) => holdSeat(deps, agency(c), event.id)));
    const stored = await Promise.all(holds.map((h) => getSeatHold(deps, h.hold_hash)));
    const last = stored.findIndex((h) => h!.seat === 'S02');
    await releaseSeat(deps, agency(holders[1 - last]!), stored[1 - last]!.hold_hash);
    const hold = stored[last]!;
    // Just after the booking reads its hold, the operator cuts the event to one seat: the hold moves to S01.
    let cut = false;
    const racing = withFaults(deps, {
      after: async (command) => {
        if (cut || command.constructor.name !== 'GetCommand' || !String(command.input.Key?.pk).includes(hold.hold_hash)) return;
        cut = true;
        await setEventCapacity(deps, event.id, 1);
      },
    });
    const booking = await createPracticalBooking(racing, holders[last]!, { ...trainee, hold_hash: hold.hold_hash, pay_option: 'credits' }, links);
    expect(cut).toBe(true);
    expect(await findBookingIn<PracticalBooking>(deps, PT, booking.id)).toMatchObject({ seat: 'S01', booking_status: 'booked' });
    expect(await getTrainingEvent(deps, event.id)).toMatchObject({ seats_available: 0 });
  });
});
