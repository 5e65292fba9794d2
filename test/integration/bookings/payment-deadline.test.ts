import { confirmCandidatePayment } from '../../../functions/core/clinical-interview/booking-admin.js';
import { bookingPageToken, LINK_UNPAID_LIMIT } from '../../../functions/core/bookings/booking-link.js';
import { createBooking, createCandidateBooking, getBooking, getBookingItem } from '../../../functions/core/clinical-interview/booking-api.js';
import { expireUnpaidBookings } from '../../../functions/core/bookings/payment-expiry.js';
import { clinicalBookings } from '../../../functions/core/clinical-interview/bookings.js';
import type { InterviewType } from '../../../functions/core/clinical-interview/catalog.js';
import { getPaymentRequest } from '../../../functions/core/commerce/payment-requests.js';
import { readWallet, topUpCredits, walletKeys } from '../../../functions/core/commerce/wallets.js';
import type { DomainEvent, EmailMessage } from '../../../functions/core/events/outbox.js';
import { availableSlots } from '../../../functions/core/clinical-interview/slots.js';
import { createHold } from '../../../functions/core/clinical-interview/holds.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { paymentPageHtml } from '../../../functions/http/shared/_payment-page.js';
import { bookingPageModel } from '../../../functions/http/clinical-interview/_booking-page.js';

import { candidate, CI, testCatalog } from '../../support/clinical.js';
import { ledgerOf, links, MONDAY, newClient, outboxPayloads, settle } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';
import { cancelledFor, withFaults } from '../../support/faults.js';

/** The payment deadline of candidate_pays bookings and the booking link's limit of unpaid bookings. */

let deps: Deps;
let clock: TestClock;
let type: InterviewType;
const START = `${MONDAY}T08:00:00.000Z`;

beforeAll(async () => {
  clock = testClock(START);
  deps = await testDeps({ clock });
  ({ type } = await testCatalog(deps));
});
beforeEach(() => clock.set(START));

let day = 0;
/** Each test books on its own day so their slots never meet. */
const nextDate = () => `2026-12-${String(++day).padStart(2, '0')}`;
const kind = clinicalBookings(CI);
const sweep = () => expireUnpaidBookings(deps, kind);
const times = async (date: string) => (await availableSlots(deps, { interviewTypeId: type.id, from: date, to: date })).map((s) => s.time);
const eventsFor = async (bookingId: number) =>
  (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => (e.data as { id: number }).id === bookingId).map((e) => e.type);

async function agencyBooking(clientId: string, date: string, time = '11:00', payOption: 'candidate_pays' | 'credits' = 'candidate_pays') {
  const held = await createHold(deps, clientId, { interviewTypeId: type.id, date, time });
  const view = await createBooking(deps, clientId, { ...candidate, hold_hash: held.hold_hash, pay_option: payOption }, links);
  const item = (await getBookingItem(deps, clientId, view.id))!;
  return { view, item };
}
const linkBooking = (clientId: string, date: string, time: string) =>
  createCandidateBooking(deps, clientId, { ...candidate, interviewTypeId: type.id, date, time }, links);

describe('payment_due_at', () => {
  it('is the earlier of 24 hours after booking and 2 hours before the start, on the booking, its request, its e-mail and the API view', async () => {
    const client = await newClient(deps);
    const far = await agencyBooking(client, nextDate());
    expect(far.item.payment_due_at).toBe('2026-11-24T08:00:00.000Z');
    expect(far.view).toHaveProperty('payment_due_at', '2026-11-24T08:00:00+00:00');
    expect((await getPaymentRequest(deps, CI, far.item.payment_token!))?.due_at).toBe('2026-11-24T08:00:00.000Z');
    const email = (await outboxPayloads<EmailMessage>(deps, 'email')).find((e) => e.text.includes(far.item.payment_token!))!;
    expect(email.text).toContain('Please pay by Tuesday 24 November 2026 at 08:00');

    // Tomorrow at 09:00 starts 25 hours from now: due 2 hours before it.
    const soon = await agencyBooking(await newClient(deps), '2026-11-24', '09:00');
    expect(soon.item.payment_due_at).toBe('2026-11-24T07:00:00.000Z');
    // Agency-paid bookings have no deadline.
    const paid = await newClient(deps);
    await topUpCredits(deps, paid, CI, type, 1);
    expect((await agencyBooking(paid, nextDate(), '11:00', 'credits')).item.payment_due_at).toBeUndefined();
  });
});

describe('the payment-expiry sweep', () => {
  // A table of its own: a sweep sees every unpaid booking of the family, and these tests count what it cancels.
  beforeAll(async () => {
    deps = await testDeps({ clock });
    ({ type } = await testCatalog(deps));
  });

  it('cancels an unpaid booking past its deadline (payment_expired), frees its slot, stops its payment request and tells the agency; paid ones stay', async () => {
    const [unpaidClient, paidClient] = [await newClient(deps), await newClient(deps)];
    const date = nextDate();
    const unpaid = await agencyBooking(unpaidClient, date, '11:00');
    const paid = await agencyBooking(paidClient, date, '11:30');
    clock.advance(60);
    await confirmCandidatePayment(deps, paid.item.payment_token!, 'ref-1');

    clock.set('2026-11-24T07:59:59.999Z');
    expect(await sweep()).toBe(0);
    expect(await times(date)).not.toContain('11:00');
    clock.set('2026-11-24T08:00:00.000Z');
    expect(await sweep()).toBe(1);

    const item = (await getBookingItem(deps, unpaidClient, unpaid.view.id))!;
    expect(item).toMatchObject({
      booking_status: 'cancelled',
      interview_status: 'cancelled',
      pay_status: 'pending',
      cancellation: { reason: 'payment_expired', cancelled_by: 'system' },
    });
    expect((await getPaymentRequest(deps, CI, unpaid.item.payment_token!))?.status).toBe('cancelled');
    expect(await eventsFor(unpaid.view.id)).toEqual(['booking.created', 'booking.cancelled']);
    expect(await times(date)).toContain('11:00');
    expect(await getBooking(deps, paidClient, paid.view.id)).toMatchObject({ booking_status: 'booked', pay_status: 'completed' });
    expect(await eventsFor(paid.view.id)).toEqual(['booking.created', 'booking.confirmed']);
    expect(await sweep()).toBe(0);
  });

  it('cancels once when two sweeps run at once', async () => {
    const client = await newClient(deps);
    const { view } = await agencyBooking(client, nextDate());
    clock.advance(86_400);
    const counts = await Promise.all([sweep(), sweep(), sweep()]);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(1);
    expect((await eventsFor(view.id)).filter((t) => t === 'booking.cancelled')).toHaveLength(1);
  });

  it('reads again and cancels when a part other than the booking lost a race (a seat count another booking moved)', async () => {
    const client = await newClient(deps);
    const { view } = await agencyBooking(client, nextDate());
    clock.advance(86_400);
    let raced = 0;
    // The cancellation's first try finds another part changed under it: its second part's condition fails.
    const racing = withFaults(deps, {
      before: (command) => {
        const items = command.input.TransactItems as unknown[] | undefined;
        if (command.constructor.name === 'TransactWriteCommand' && raced++ === 0) {
          throw cancelledFor(items!, 1, 'ConditionalCheckFailed');
        }
      },
    });
    expect(await expireUnpaidBookings(racing, kind)).toBe(1);
    expect(raced).toBe(2);
    expect(await getBookingItem(deps, client, view.id)).toMatchObject({ booking_status: 'cancelled', cancellation: { reason: 'payment_expired' } });
  });
});

describe('the payment page after the deadline', () => {
  it('refuses payment by the clock, before any sweep has run', async () => {
    const client = await newClient(deps);
    const { item } = await agencyBooking(client, nextDate());
    const token = item.payment_token!;
    const page = () =>
      paymentPageHtml(deps, clinicalBookings(CI), token, '/pay', () => ({ what: 'Interview', name: 'Interview', candidate: 'Candidate', afterPaying: '' }));
    expect(await page()).toContain('Please pay by Tuesday 24 November 2026 at 08:00');

    clock.set('2026-11-24T08:00:00.000Z');
    expect(await page()).toContain('The time to pay has passed');
    expect(await confirmCandidatePayment(deps, token, 'ref-late').catch((e) => e.code)).toBe('invalid-state');
    expect(await getBooking(deps, client, item.id)).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending' });
    expect((await getPaymentRequest(deps, CI, token))?.status).toBe('pending');
  });
});

describe('one hold, many bookings', () => {
  it('N concurrent bookings from one hold give one booking and one debit', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 5);
    const held = await createHold(deps, client, { interviewTypeId: type.id, date: nextDate(), time: '10:00' });
    const { ok, errors } = await settle(
      Array.from({ length: 8 }, () => createBooking(deps, client, { ...candidate, hold_hash: held.hold_hash, pay_option: 'credits' }, links)),
    );
    expect(ok).toHaveLength(1);
    expect(errors).toEqual(Array(7).fill('hold-used'));
    expect((await ledgerOf(deps, client, CI)).filter((e) => e.kind === 'credit_debit')).toHaveLength(1);
    expect((await readWallet(deps, walletKeys.credits(client, CI, type.id))).balance).toBe(4);
  });
});

describe("the booking link's limit of unpaid bookings", () => {
  const SLOTS = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'];

  it(`takes ${LINK_UNPAID_LIMIT} unpaid bookings, refuses the next without booking anything, and takes one again once one is paid`, async () => {
    const client = await newClient(deps);
    const date = nextDate();
    const made = [];
    for (const time of SLOTS.slice(0, LINK_UNPAID_LIMIT)) made.push(await linkBooking(client, date, time));
    const before = await times(date);
    expect(await linkBooking(client, date, '11:30').catch((e) => e.code)).toBe('limit-reached');
    expect(await times(date)).toEqual(before);
    expect(await times(date)).toContain('11:30');

    clock.advance(60);
    await confirmCandidatePayment(deps, made[0]!.paymentToken!, 'ref-2');
    await expect(linkBooking(client, date, '11:30')).resolves.toMatchObject({ view: { booking_status: 'pending_payment', booked_by: 'Candidate' } });
    expect(await linkBooking(client, nextDate(), '09:00').catch((e) => e.code)).toBe('limit-reached');
  });

  it('takes one again once an unpaid booking passes its deadline, with no sweep; concurrent bookings never pass the limit', async () => {
    const client = await newClient(deps);
    const [first, second] = [nextDate(), nextDate()];
    const { ok, errors } = await settle(SLOTS.map((time) => linkBooking(client, first, time)));
    expect(ok).toHaveLength(LINK_UNPAID_LIMIT);
    expect(errors).toEqual(['limit-reached']);

    clock.advance(86_400);
    await expect(linkBooking(client, second, '09:00')).resolves.toBeDefined();
    // Another agency's link is not affected by this one's.
    await expect(linkBooking(await newClient(deps), second, '09:30')).resolves.toBeDefined();
  });
});

describe('a slot that starts too soon for the candidate to pay', () => {
  // MONDAY 08:00 UTC: 09:30 and 10:00 leave no time before the 2-hour deadline; 11:00 leaves an hour.
  it('cannot be booked candidate_pays by the agency: payment-window-closed, and the hold stays usable for another pay option', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 1);
    const held = await createHold(deps, client, { interviewTypeId: type.id, date: MONDAY, time: '10:00' });
    const refusal = await createBooking(deps, client, { ...candidate, hold_hash: held.hold_hash, pay_option: 'candidate_pays' }, links).catch((e) => e);
    expect(refusal).toMatchObject({ code: 'payment-window-closed' });
    const booked = await createBooking(deps, client, { ...candidate, hold_hash: held.hold_hash, pay_option: 'credits' }, links);
    expect(booked).toMatchObject({ booking_status: 'booked', pay_option: 'credits' });
  });

  it('is not offered on the booking link, and cannot be booked through it', async () => {
    const client = await newClient(deps);
    const page = await bookingPageModel(deps, await bookingPageToken(deps, client, CI), String(type.id), '/book');
    const today = page.slots.filter((s) => s.date === MONDAY).map((s) => s.time);
    expect(today).not.toContain('09:30');
    expect(today).toContain('11:00');
    expect(await linkBooking(client, MONDAY, '09:30').catch((e) => e.code)).toBe('payment-window-closed');
    const booked = await linkBooking(client, MONDAY, '11:00');
    expect((await getBookingItem(deps, client, booked.view.id))?.payment_due_at).toBe(`${MONDAY}T09:00:00.000Z`);
  });
});
