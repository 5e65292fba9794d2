import { setClientEnabled } from '../../../functions/core/access/clients.js';
import type { DomainEvent } from '../../../functions/core/events/outbox.js';
import { topUpCredits, readWallet, walletKeys } from '../../../functions/core/commerce/wallets.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { createPracticalBooking, getPracticalBooking } from '../../../functions/core/practical-training/bookings.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  PRACTICAL_FAMILY,
  type Course,
  type Location,
} from '../../../functions/core/practical-training/catalogue.js';
import { bookWithInvite, holdSeatForInvite, inviteSeatHold, openInvite, releaseInviteSeat } from '../../../functions/core/practical-training/invites-page.js';
import { createInvite, getInvite, inviteOfToken, type NewInvite } from '../../../functions/core/practical-training/invites.js';
import { holdSeat, releaseSeat } from '../../../functions/core/practical-training/seats.js';
import { newClient, outboxPayloads, refusalCode } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

let deps: Deps;
let clock: TestClock;
let course: Course;
let location: Location;

const START = '2026-11-23T08:00:00.000Z';
beforeAll(async () => {
  clock = testClock(START);
  deps = await testDeps({ clock });
  course = await createCourse(deps, {
    name: 'Basic Life Support (adult)',
    code: 'BLS-A',
    duration_minutes: 180,
    certificate_validity_months: 12,
    price_minor: 6000,
  });
  location = await createLocation(deps, { name: 'Leeds Training Centre', address: { line1: '1 Park Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' } });
});
afterEach(() => clock.set(START));

const links = { invite: (token: string) => `http://api.test/practical-training/invite/${token}` };
const payLinks = { payment: (token: string) => `http://api.test/practical-training/pay/${token}` };
const trainee = {
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email: 'grace@example.org',
  phone: '+447700900123',
  job_role: 'Healthcare assistant',
  nmc_number: null,
};
const credits = async (client: string) => (await readWallet(deps, walletKeys.credits(client, PRACTICAL_FAMILY, course.id)))?.balance ?? 0;

let day = 0;
async function newEvent(capacity = 12) {
  return createTrainingEvent(deps, {
    course_id: course.id,
    location_id: location.id,
    date: `2026-12-${String(++day).padStart(2, '0')}`,
    start_time: '09:30',
    capacity,
  });
}
async function invited(client: string, over: Partial<NewInvite> = {}) {
  // An invite paid by credits needs one free.
  if ((over.pay_option ?? 'credits') === 'credits' && (await credits(client)) === 0)
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 1);
  const created = await createInvite(
    deps,
    client,
    { candidate: { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org' }, course_id: course.id, pay_option: 'credits', ...over },
    links,
  );
  return { id: created.id, token: created.invite_url.split('/').pop()! };
}
const inviteEvents = async (inviteId: number, type: string) =>
  (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => e.type === type && (e.data as { id: number }).id === inviteId);

describe('booking through an invite', () => {
  it('books once for N concurrent posts: one booking, one debit, the invite used with one event', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 5);
    const event = await newEvent();
    const { id, token } = await invited(client, { training_event_id: event.id });
    await holdSeatForInvite(deps, token, event.id);
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => refusalCode(bookWithInvite(deps, token, trainee, payLinks))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(1);
    expect(await credits(client)).toBe(4);
    const invite = await getInvite(deps, client, id);
    expect(invite).toMatchObject({ status: 'used', booking_id: expect.any(Number), used_at: expect.any(String) });
    expect(await getPracticalBooking(deps, client, invite.booking_id!)).toMatchObject({
      booking_invite_id: id,
      booked_by: 'Candidate',
      pay_option: 'credits',
      booking_status: 'booked',
    });
    expect(await inviteEvents(id, 'booking_invite.used')).toHaveLength(1);
    expect(await refusalCode(bookWithInvite(deps, token, trainee, payLinks))).toBe('invalid-state');
  });

  it('is never used by opening it, however often', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 1);
    const event = await newEvent();
    const { id, token } = await invited(client, { location_id: location.id });
    await Promise.all(Array.from({ length: 5 }, () => openInvite(deps, token, true)));
    expect(await getInvite(deps, client, id)).toMatchObject({ status: 'opened', open_count: 5, booking_id: null });
    await holdSeatForInvite(deps, token, event.id);
    await openInvite(deps, token, true);
    expect(await refusalCode(bookWithInvite(deps, token, trainee, payLinks))).toBe('ok');
  });

  it('keeps the invite usable when the agency is short of funds, and books once it is topped up', async () => {
    const client = await newClient(deps);
    const event = await newEvent();
    const { id, token } = await invited(client);
    // The agency spends the credit the invite was made with on a booking of its own.
    const own = await holdSeat(deps, { type: 'client', clientId: client }, event.id);
    await createPracticalBooking(deps, client, { ...trainee, hold_hash: own.hold_hash, pay_option: 'credits' }, payLinks);
    expect(await credits(client)).toBe(0);
    await holdSeatForInvite(deps, token, event.id);
    expect(await refusalCode(bookWithInvite(deps, token, trainee, payLinks))).toBe('insufficient-credits');
    expect((await getInvite(deps, client, id)).status).toBe('queued');
    expect(await inviteSeatHold(deps, await inviteOfToken(deps, token))).toBeDefined();
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 1);
    expect(await refusalCode(bookWithInvite(deps, token, trainee, payLinks))).toBe('ok');
  });

  it('sends candidate_pays to the payment page, the booking pending and the invite used', async () => {
    const client = await newClient(deps);
    const event = await newEvent();
    const { id, token } = await invited(client, { pay_option: 'candidate_pays' });
    await holdSeatForInvite(deps, token, event.id);
    const { booking, paymentToken } = await bookWithInvite(deps, token, trainee, payLinks);
    expect(paymentToken).toEqual(expect.any(String));
    expect(booking).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending', booking_invite_id: id });
    expect((await getInvite(deps, client, id)).status).toBe('used');
  });

  it('refuses an expired invite: no hold, no booking', async () => {
    const client = await newClient(deps);
    const event = await newEvent();
    const { token } = await invited(client, { expires_in_days: 1 });
    await holdSeatForInvite(deps, token, event.id);
    clock.advance(86_400);
    expect(await refusalCode(bookWithInvite(deps, token, trainee, payLinks))).toBe('invalid-state');
    expect(await refusalCode(holdSeatForInvite(deps, token, event.id))).toBe('invalid-state');
  });

  it('holds a seat no longer than the invite lives: after it, the seat is free again', async () => {
    const client = await newClient(deps);
    const event = await newEvent(1);
    const { id, token } = await invited(client, { expires_in_days: 1 });
    const invite = await getInvite(deps, client, id);
    clock.advance(86_400 - 600); // ten minutes before the invite expires
    const held = await holdSeatForInvite(deps, token, event.id);
    expect(held).toMatchObject({ expires_at: invite.expires_at, expires_in_seconds: 600 });
    const agency = { type: 'client', clientId: client } as const;
    expect(await refusalCode(holdSeat(deps, agency, event.id))).toBe('event-full');
    clock.advance(600);
    expect(await refusalCode(holdSeat(deps, agency, event.id))).toBe('ok');
  });

  it('holds only events of its course (and location or pinned event)', async () => {
    const client = await newClient(deps);
    const [a, b] = [await newEvent(), await newEvent()];
    const { token } = await invited(client, { training_event_id: a.id });
    expect(await refusalCode(holdSeatForInvite(deps, token, b.id))).toBe('event-unavailable');
    expect(await refusalCode(holdSeatForInvite(deps, token, a.id))).toBe('ok');
    await releaseInviteSeat(deps, token);
    expect(await inviteSeatHold(deps, await inviteOfToken(deps, token))).toBeUndefined();
  });
});

describe("an invite's seat hold and the agency's own", () => {
  it('never block each other, in either order', async () => {
    const client = await newClient(deps);
    const event = await newEvent();
    const other = await newEvent();
    const agency = { type: 'client', clientId: client } as const;
    const first = await holdSeat(deps, agency, event.id);
    const { token } = await invited(client, { location_id: location.id });
    expect(await refusalCode(holdSeatForInvite(deps, token, event.id))).toBe('ok');
    // The agency's one-hold rule still holds for the agency alone.
    expect(await refusalCode(holdSeat(deps, agency, other.id))).toBe('hold-conflict');
    await releaseSeat(deps, agency, first.hold_hash);
    expect(await refusalCode(holdSeat(deps, agency, other.id))).toBe('ok');
  });

  it('takes a seat like any hold: an event of capacity 1 held by an invite is full for the agency', async () => {
    const client = await newClient(deps);
    const event = await newEvent(1);
    const { token } = await invited(client);
    await holdSeatForInvite(deps, token, event.id);
    expect(await refusalCode(holdSeat(deps, { type: 'client', clientId: client }, event.id))).toBe('event-full');
  });
});

describe("seats held through one client's invites", () => {
  it('are at most three of one event at once, however many invites hold at the same time; other agencies still hold and book', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 10);
    const event = await newEvent(8);
    const invites: { id: number; token: string }[] = [];
    for (let n = 0; n < 8; n++) invites.push(await invited(client, { training_event_id: event.id }));
    const outcomes = await Promise.all(invites.map(({ token }) => refusalCode(holdSeatForInvite(deps, token, event.id))));
    expect(outcomes.filter((o) => o === 'ok')).toHaveLength(3);
    expect(outcomes.filter((o) => o === 'limit-reached')).toHaveLength(5);
    // Another agency, and this agency itself, still hold seats of the event.
    expect(await refusalCode(holdSeat(deps, { type: 'client', clientId: await newClient(deps) }, event.id))).toBe('ok');
    expect(await refusalCode(holdSeat(deps, { type: 'client', clientId: client }, event.id))).toBe('ok');

    const holding: typeof invites = [];
    for (const i of invites) if (await inviteSeatHold(deps, await inviteOfToken(deps, i.token))) holding.push(i);
    const waiting = invites.filter((i) => !holding.includes(i));
    // A booking ends its hold, and with it its place: another invite holds.
    await bookWithInvite(deps, holding[0]!.token, trainee, payLinks);
    expect(await refusalCode(holdSeatForInvite(deps, waiting[0]!.token, event.id))).toBe('ok');
    expect(await refusalCode(holdSeatForInvite(deps, waiting[1]!.token, event.id))).toBe('limit-reached');
    // So does a release.
    await releaseInviteSeat(deps, holding[1]!.token);
    expect(await refusalCode(holdSeatForInvite(deps, waiting[1]!.token, event.id))).toBe('ok');
    // And expiry, by the clock alone.
    clock.advance(1800);
    expect(await refusalCode(holdSeatForInvite(deps, waiting[2]!.token, event.id))).toBe('ok');
    // The cap is per event: another event of the course takes the client's invites' holds of its own.
    const other = await newEvent(8);
    const elsewhere = await invited(client, { location_id: location.id });
    expect(await refusalCode(holdSeatForInvite(deps, elsewhere.token, other.id))).toBe('ok');
  });
});

describe("a disabled agency's candidate bookings", () => {
  it('are refused in the booking transaction itself, with no charge, when the agency is disabled after the checks', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 2);
    const event = await newEvent();
    const hold = await holdSeat(deps, { type: 'client', clientId: client }, event.id);
    // Disabled between the page's checks and the commit: the candidate's booking (booked_by Candidate) commits nothing.
    await setClientEnabled(deps, client, false);
    const refused = await createPracticalBooking(deps, client, { ...trainee, hold_hash: hold.hold_hash, pay_option: 'credits' }, payLinks, {
      bookedBy: 'Candidate',
    }).then(
      () => undefined,
      (e: { code: string; extensions: Record<string, unknown> }) => e,
    );
    expect(refused).toMatchObject({ code: 'invalid-state', extensions: { gone: 'withdrawn' } });
    expect(await credits(client)).toBe(2);
    await setClientEnabled(deps, client, true);
    expect(
      await refusalCode(
        createPracticalBooking(deps, client, { ...trainee, hold_hash: hold.hold_hash, pay_option: 'credits' }, payLinks, { bookedBy: 'Candidate' }),
      ),
    ).toBe('ok');
    expect(await credits(client)).toBe(1);
  });
});
