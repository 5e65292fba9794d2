import type { ClinicalFamily } from '../../functions/core/clinical-interview/catalog.js';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import {
  cancelBooking,
  completeInterview,
  markAttendance,
  confirmCandidatePayment,
  markReportAvailable,
  rescheduleBooking,
} from '../../functions/core/clinical-interview/booking-admin.js';
import { bookingPageToken, clientOfBookingPage } from '../../functions/core/bookings/booking-link.js';
import { changeBooking } from '../../functions/core/bookings/change.js';
import { clinicalBookings } from '../../functions/core/clinical-interview/bookings.js';
import { TransactionFailed } from '../../functions/core/platform/transact.js';
import { createBooking, getBookingItem, getBooking, listBookings } from '../../functions/core/clinical-interview/booking-api.js';
import { type NewBooking } from '../../functions/core/clinical-interview/bookings.js';
import type { InterviewType } from '../../functions/core/clinical-interview/catalog.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { getHold } from '../../functions/core/inventory/holds.js';
import { availableSlots } from '../../functions/core/clinical-interview/slots.js';
import { createHold } from '../../functions/core/clinical-interview/holds.js';
import type { EmailMessage, DomainEvent } from '../../functions/core/events/outbox.js';
import { ledgerForMonth, ledgerKeys, walletTransactions } from '../../functions/core/commerce/ledger.js';
import { balances, readWallet, topUpCredits, topUpMoney, walletKeys } from '../../functions/core/commerce/wallets.js';
import { candidate, CI, forgeHold, testCatalog } from '../support/clinical.js';
import { ledgerOf, links, MONDAY, newClient, outboxPayloads, refusalCode, settle } from '../support/kit.js';
import { testClock, testDeps, type TestClock } from '../support/env.js';

let deps: Deps;
let clock: TestClock;
let type: InterviewType;

beforeAll(async () => {
  clock = testClock(`${MONDAY}T08:00:00.000Z`);
  deps = await testDeps({ clock });
  ({ type } = await testCatalog(deps));
});

let day = 0;
/** Each test books on its own day so their slots never meet. */
const nextDate = () => `2026-12-${String(++day).padStart(2, '0')}`;

async function heldSlot(clientId: string, date = nextDate(), time = '10:00') {
  return (await createHold(deps, clientId, { interviewTypeId: type.id, date, time })).hold_hash;
}
const book = (clientId: string, holdHash: string, payOption: NewBooking['pay_option']) =>
  createBooking(
    deps,
    clientId,
    { ...candidate, hold_hash: holdHash, pay_option: payOption, agency_contact_name: 'Sam Rota', agency_contact_email: 'sam@agency.test' },
    links,
  );

const eventsFor = async (bookingId: number) =>
  (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => (e.data as { id: number }).id === bookingId).map((e) => e.type);

describe('paying with credits', () => {
  it("takes 1 credit from the wallet of the booking's type, books at once, and writes the ledger entry and the event", async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 2);
    const booking = await book(client, await heldSlot(client), 'credits');
    expect(booking).toMatchObject({
      id: expect.any(Number),
      candidate: { name: 'Ada Nightingale', email: 'ada@example.org', phone: '+447700900123', job_role: 'Registered Nurse', nmc_number: '12A3456B' },
      interview_type: { id: type.id, name: type.name },
      interviewer: { id: expect.any(Number), name: expect.any(String) },
      booking_status: 'booked',
      interview_status: 'scheduled',
      attendance: 'pending',
      pay_status: 'completed',
      pay_option: 'credits',
      booked_by: 'Agency',
      video_meeting: { meeting_id: expect.stringMatching(/^\d{10}$/), join_link: expect.stringMatching(/^https:\/\//), password: expect.any(String) },
      interview_report_available: false,
    });
    expect(booking.start_date).toMatch(/^2026-12-\d\dT10:00:00\+00:00$/);
    expect((await readWallet(deps, walletKeys.credits(client, CI, type.id))).balance).toBe(1);
    const debits = (await ledgerOf(deps, client, CI)).filter((e) => e.kind === 'credit_debit');
    expect(debits).toEqual([
      expect.objectContaining({
        client_id: client,
        amount: -1,
        unit: 'credits',
        balance_after: 1,
        booking_id: booking.id,
        interview_type: { id: type.id, name: type.name },
      }),
    ]);
    expect(await eventsFor(booking.id)).toEqual(['booking.created']);
  });

  it('refuses with no credits, changes nothing, and leaves the hold usable', async () => {
    const client = await newClient(deps);
    await topUpMoney(deps, client, CI, 10_000);
    const hash = await heldSlot(client);
    expect(await refusalCode(book(client, hash, 'credits'))).toBe('insufficient-credits');
    expect((await getHold(deps, CI, hash))?.status).toBe('active');
    expect((await ledgerOf(deps, client, CI)).map((e) => e.kind)).toEqual(['money_topup']);
    await expect(book(client, hash, 'balance')).resolves.toMatchObject({ pay_option: 'balance' });
  });

  it('lets 3 of 20 concurrent bookings through on a wallet of 3, and never below zero', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 3);
    const date = nextDate();
    const slots = ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30']
      .flatMap((time) => [1, 2].map((interviewer) => ({ time, interviewer })))
      .filter(({ time, interviewer }) => interviewer === 1 || time < '10:00')
      .slice(0, 8);
    const moreDays = [nextDate(), nextDate()];
    const holds = [
      ...(await Promise.all(slots.map((s) => forgeHold(deps, client, type, s.interviewer, date, s.time)))),
      ...(await Promise.all(
        moreDays.flatMap((d) => ['09:00', '09:30', '10:00', '10:30', '11:00', '11:30'].map((t) => forgeHold(deps, client, type, 1, d, t))),
      )),
    ].slice(0, 20);
    expect(holds).toHaveLength(20);

    const { ok, errors } = await settle(holds.map((h) => book(client, h, 'credits')));
    expect(ok).toHaveLength(3);
    expect(errors).toEqual(Array(17).fill('insufficient-credits'));
    expect((await readWallet(deps, walletKeys.credits(client, CI, type.id))).balance).toBe(0);
    const debits = (await ledgerOf(deps, client, CI)).filter((e) => e.kind === 'credit_debit');
    expect(debits.map((d) => d.balance_after).sort()).toEqual([0, 1, 2]);
  });
});

describe('one hold, many bookings', () => {
  it('10 concurrent bookings from one hold give one booking and one ledger debit', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 10);
    const hash = await heldSlot(client);
    const { ok, errors } = await settle(Array.from({ length: 10 }, () => book(client, hash, 'credits')));
    expect(ok).toHaveLength(1);
    expect(errors).toEqual(Array(9).fill('hold-used'));
    expect((await ledgerOf(deps, client, CI)).filter((e) => e.kind === 'credit_debit')).toHaveLength(1);
    expect((await readWallet(deps, walletKeys.credits(client, CI, type.id))).balance).toBe(9);
    expect((await listBookings(deps, client, { limit: 25 })).data).toHaveLength(1);
  });

  it('a hold of another client, or an unknown one, is hold-not-found', async () => {
    const [owner, other] = [await newClient(deps), await newClient(deps)];
    await topUpCredits(deps, other, CI, type, 1);
    const hash = await heldSlot(owner);
    expect(await refusalCode(book(other, hash, 'credits'))).toBe('hold-not-found');
    expect(await refusalCode(book(other, 'nope', 'credits'))).toBe('hold-not-found');
    expect((await readWallet(deps, walletKeys.credits(other, CI, type.id))).balance).toBe(1);
  });
});

describe('paying from the money balance', () => {
  it('deducts the interview price and records the balance after', async () => {
    const client = await newClient(deps);
    await topUpMoney(deps, client, CI, 5000);
    const booking = await book(client, await heldSlot(client), 'balance');
    expect(booking).toMatchObject({ booking_status: 'booked', pay_status: 'completed', pay_option: 'balance' });
    expect((await balances(deps, client, CI, [type])).money).toEqual({ amount: 1000, currency: 'GBP' });
    expect((await ledgerOf(deps, client, CI)).find((e) => e.kind === 'money_debit')).toMatchObject({
      amount: -4000,
      unit: 'GBP',
      balance_after: 1000,
      booking_id: booking.id,
    });
  });

  it('refuses when the balance is short, and changes nothing', async () => {
    const client = await newClient(deps);
    await topUpMoney(deps, client, CI, 3999);
    const hash = await heldSlot(client);
    const refusal = await book(client, hash, 'balance').catch((e) => e);
    expect(refusal.code).toBe('insufficient-balance');
    expect(refusal.extensions).toEqual({ balance: { amount: 3999, currency: 'GBP' }, price: { amount: 4000, currency: 'GBP' } });
    expect((await balances(deps, client, CI, [type])).money.amount).toBe(3999);
    expect((await getHold(deps, CI, hash))?.status).toBe('active');
  });
});

describe('paying by invoice', () => {
  it('books at once for an account with invoicing, with an invoice ledger entry', async () => {
    const client = await newClient(deps, { invoiceEnabled: true });
    const booking = await book(client, await heldSlot(client), 'invoice');
    expect(booking).toMatchObject({ booking_status: 'booked', pay_status: 'invoiced', pay_option: 'invoice' });
    expect(await ledgerOf(deps, client, CI)).toEqual([
      expect.objectContaining({ kind: 'invoice', amount: 4000, unit: 'GBP', balance_after: null, booking_id: booking.id }),
    ]);
  });

  it('is refused without invoicing, leaving the hold usable', async () => {
    const client = await newClient(deps);
    const hash = await heldSlot(client);
    expect(await refusalCode(book(client, hash, 'invoice'))).toBe('invoice-disabled');
    expect(await ledgerOf(deps, client, CI)).toEqual([]);
    expect((await getHold(deps, CI, hash))?.status).toBe('active');
  });
});

describe('candidate pays', () => {
  it('leaves the booking pending, e-mails the candidate a payment link, and confirms once paid', async () => {
    const client = await newClient(deps);
    const booking = await book(client, await heldSlot(client), 'candidate_pays');
    expect(booking).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending', pay_option: 'candidate_pays' });
    expect(await ledgerOf(deps, client, CI)).toEqual([]);

    const emails = await outboxPayloads<EmailMessage>(deps, 'email');
    const email = emails.find((e) => e.text.includes('http://pay.test/pay/'))!;
    expect(email).toMatchObject({ to: 'ada@example.org', template: 'booking-payment-link' });
    expect(email.text).toContain('£40.00');
    const token = /http:\/\/pay\.test\/pay\/(\S+)/.exec(email.text)![1]!;

    clock.advance(1);
    const confirmed = await confirmCandidatePayment(deps, token, 'test-ref-1');
    expect(confirmed).toMatchObject({ booking_status: 'booked', pay_status: 'completed' });
    expect(await getBooking(deps, client, booking.id)).toMatchObject({ booking_status: 'booked' });
    // Paying twice confirms once.
    await confirmCandidatePayment(deps, token, 'test-ref-2');
    expect(await eventsFor(booking.id)).toEqual(['booking.created', 'booking.confirmed']);
  });
});

describe('reads are scoped to the client', () => {
  it("another client's booking is not-found", async () => {
    const [owner, other] = [await newClient(deps, { invoiceEnabled: true }), await newClient(deps)];
    const booking = await book(owner, await heldSlot(owner), 'invoice');
    expect(await refusalCode(getBooking(deps, other, booking.id))).toBe('not-found');
    expect((await listBookings(deps, other, { limit: 25 })).data).toEqual([]);
  });

  it('lists newest first, filtered by status and date, a page at a time', async () => {
    const client = await newClient(deps, { invoiceEnabled: true });
    const made = [];
    for (let i = 0; i < 3; i++) made.push(await book(client, await heldSlot(client), i === 1 ? 'candidate_pays' : 'invoice'));
    const all = await listBookings(deps, client, { limit: 2 });
    expect(all.data.map((b) => b.id)).toEqual([made[2]!.id, made[1]!.id]);
    const rest = await listBookings(deps, client, { limit: 2, cursor: all.next_cursor! });
    expect(rest.data.map((b) => b.id)).toEqual([made[0]!.id]);
    expect((await listBookings(deps, client, { limit: 25, status: 'pending_payment' })).data.map((b) => b.id)).toEqual([made[1]!.id]);
    const firstDate = made[0]!.start_date.slice(0, 10);
    expect((await listBookings(deps, client, { limit: 25, to: firstDate })).data.map((b) => b.id)).toEqual([made[0]!.id]);
    expect(await refusalCode(listBookings(deps, await newClient(deps), { limit: 2, cursor: all.next_cursor! }))).toBe('invalid-cursor');
  });
});

describe('operator actions', () => {
  it('cancelling gives the credit back, frees the slot and tells the agency', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 1);
    const date = nextDate();
    const booking = await book(client, await heldSlot(client, date, '11:00'), 'credits');
    clock.advance(1);
    const cancelled = await cancelBooking(deps, booking.id, 'candidate withdrew');
    expect(cancelled).toMatchObject({ booking_status: 'cancelled', interview_status: 'cancelled', pay_status: 'refunded' });
    expect((await readWallet(deps, walletKeys.credits(client, CI, type.id))).balance).toBe(1);
    expect((await ledgerOf(deps, client, CI)).find((e) => e.kind === 'refund')).toMatchObject({ amount: 1, balance_after: 1, booking_id: booking.id });
    expect((await availableSlots(deps, { interviewTypeId: type.id, from: date, to: date })).map((s) => s.time)).toContain('11:00');
    expect(await refusalCode(cancelBooking(deps, booking.id))).toBe('invalid-state');
    expect(await eventsFor(booking.id)).toEqual(['booking.created', 'booking.cancelled']);
  });

  it('rescheduling moves the booking to a free slot and frees the old one', async () => {
    const client = await newClient(deps, { invoiceEnabled: true });
    const date = nextDate();
    const booking = await book(client, await heldSlot(client, date, '11:00'), 'invoice');
    clock.advance(1);
    const moved = await rescheduleBooking(deps, booking.id, { date, time: '11:30' });
    expect(moved.start_date).toBe(`${date}T11:30:00+00:00`);
    const free = (await availableSlots(deps, { interviewTypeId: type.id, from: date, to: date })).map((s) => s.time);
    expect(free).toContain('11:00');
    expect(free).not.toContain('11:30');
    expect(await eventsFor(booking.id)).toEqual(['booking.created', 'booking.rescheduled']);
  });

  it('completing and attaching the report are told to the agency in order', async () => {
    const client = await newClient(deps, { invoiceEnabled: true });
    const booking = await book(client, await heldSlot(client), 'invoice');
    expect(await refusalCode(markReportAvailable(deps, booking.id, 'reports/x.pdf'))).toBe('invalid-state');
    expect(await refusalCode(completeInterview(deps, booking.id))).toBe('invalid-state'); // not started yet
    const today = clock().toISOString();
    clock.set(new Date(Date.parse(booking.start_date) + 60_000).toISOString());
    try {
      expect(await completeInterview(deps, booking.id)).toMatchObject({ interview_status: 'completed', attendance: 'attended' });
      clock.advance(1);
      expect(await markReportAvailable(deps, booking.id, 'reports/x.pdf')).toMatchObject({ interview_report_available: true });
    } finally {
      clock.set(today);
    }
    expect(await eventsFor(booking.id)).toEqual(['booking.created', 'booking.interview_completed', 'booking.interview_report_available']);
  });
});

describe('concurrent operator changes', () => {
  it('with the clock standing still, a change made from a stale read is refused, not silently written over the newer one', async () => {
    const client = await newClient(deps, { invoiceEnabled: true });
    const booking = await book(client, await heldSlot(client), 'invoice');
    const today = clock().toISOString();
    clock.set(new Date(Date.parse(booking.start_date) + 60_000).toISOString());
    try {
      // A first change at this instant: the booking's updated_at is now, and stays now.
      await markAttendance(deps, booking.id, 'attended');
      // Two writers read the booking as it is now; the first writes, the second must not overwrite it.
      const read = (await getBookingItem(deps, client, booking.id))!;
      const kind = clinicalBookings(CI);
      await changeBooking(deps, kind, read, { attendance: 'no_show' }, undefined);
      await expect(changeBooking(deps, kind, read, { attendance: 'attended' }, undefined)).rejects.toThrow(TransactionFailed);
      expect((await getBooking(deps, client, booking.id)).attendance).toBe('no_show');
    } finally {
      clock.set(today);
    }
  });
});

describe('finance', () => {
  it('reads every ledger entry of a month across clients', async () => {
    const [a, b] = [await newClient(deps), await newClient(deps)];
    await topUpCredits(deps, a, CI, type, 2);
    await topUpMoney(deps, b, CI, 9000);
    await book(a, await heldSlot(a), 'credits');
    const month = await ledgerForMonth(deps, '2026-11');
    const mine = month.filter((e) => e.client_id === a || e.client_id === b);
    expect(mine.map((e) => `${e.client_id === a ? 'a' : 'b'}:${e.kind}:${e.amount}`).sort()).toEqual([
      'a:credit_debit:-1',
      'a:credit_topup:2',
      'b:money_topup:9000',
    ]);
    // Each entry names its family, and read from the index it is the append-only item itself.
    for (const entry of mine) {
      expect(entry.family).toBe('clinical-interview');
      const { pk, sk } = ledgerKeys.entry(entry.client_id, entry.family, entry.created_at, entry.id);
      const stored = await deps.db.send(new GetCommand({ TableName: deps.table, Key: { pk, sk } }));
      expect(stored.Item).toMatchObject({ kind: entry.kind, amount: entry.amount, family: 'clinical-interview' });
    }
  });
});

describe('family scope', () => {
  // A second booking family, at the key level: portal-v2 stands in for one (the catalogue is shared here).
  // A stand-in second booking family: these tests are about keys, and portal v2 is the other family that exists today.
  const OTHER = 'portal-v2' as unknown as ClinicalFamily;

  it("keeps a client's wallets, ledger and bookings apart per family, with booking ids counted per family", async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, CI, type, 2);
    await topUpMoney(deps, client, OTHER, 9000);
    const typeRef = { id: type.id, name: type.name };
    expect(await balances(deps, client, CI, [type])).toEqual({ credits: [{ interview_type: typeRef, credits: 2 }], money: { amount: 0, currency: 'GBP' } });
    expect(await balances(deps, client, OTHER, [type])).toEqual({
      credits: [{ interview_type: typeRef, credits: 0 }],
      money: { amount: 9000, currency: 'GBP' },
    });

    // The other family's money does not pay for a clinical booking; the clinical credits do.
    const hash = await heldSlot(client);
    expect(await refusalCode(book(client, hash, 'balance'))).toBe('insufficient-balance');
    const clinical = await book(client, hash, 'credits');

    const otherHold = await createHold(deps, client, { interviewTypeId: type.id, date: nextDate(), time: '10:00' }, OTHER);
    const other = await createBooking(deps, client, { ...candidate, hold_hash: otherHold.hold_hash, pay_option: 'balance' }, links, OTHER);
    // Earlier tests made clinical bookings 1, 2, …; this is the first of its family.
    expect(other.id).toBe(1);
    expect(clinical.id).toBeGreaterThan(1);
    expect(await getBooking(deps, client, 1, OTHER)).toMatchObject({ id: 1, pay_option: 'balance' });
    expect(await refusalCode(getBooking(deps, client, 1))).toBe('not-found');
    expect((await listBookings(deps, client, { limit: 25 }, OTHER)).data.map((b) => b.id)).toEqual([1]);
    expect((await listBookings(deps, client, { limit: 25 })).data.map((b) => b.id)).toEqual([clinical.id]);

    expect((await balances(deps, client, CI, [type])).credits[0]!.credits).toBe(1);
    expect((await balances(deps, client, OTHER, [type])).money.amount).toBe(9000 - type.price.amount);
    // Each family's ledger holds its own entries, each naming the family, as the API's view does for finance.
    expect((await ledgerOf(deps, client, CI)).map((e) => `${e.family}:${e.kind}`).sort()).toEqual([
      'clinical-interview:credit_debit',
      'clinical-interview:credit_topup',
    ]);
    expect((await ledgerOf(deps, client, OTHER)).map((e) => `${e.family}:${e.kind}`).sort()).toEqual(['portal-v2:money_debit', 'portal-v2:money_topup']);
    const view = (await walletTransactions(deps, client, OTHER, { limit: 25 })).data;
    expect(view.map((e) => e.kind).sort()).toEqual(['money_debit', 'money_topup']);
    expect(view.map((e) => e.family)).toEqual(['portal-v2', 'portal-v2']);
  });

  it('gives a client one booking page per family, each leading back to the client only in its own family', async () => {
    const client = await newClient(deps);
    const tokens = await Promise.all(Array.from({ length: 5 }, () => bookingPageToken(deps, client, CI)));
    expect(new Set(tokens).size).toBe(1);
    const other = await bookingPageToken(deps, client, OTHER);
    expect(other).not.toBe(tokens[0]);
    expect(await clientOfBookingPage(deps, CI, tokens[0]!)).toBe(client);
    expect(await clientOfBookingPage(deps, OTHER, other)).toBe(client);
    expect(await refusalCode(clientOfBookingPage(deps, OTHER, tokens[0]!))).toBe('not-found');
    expect(await refusalCode(bookingPageToken(deps, 'cl_nobody', CI))).toBe('not-found');
  });
});
