import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { confirmPayment } from '../../../functions/core/bookings/change.js';
import { bookingKeys, getBookingItem } from '../../../functions/core/bookings/records.js';
import { getPaymentRequest } from '../../../functions/core/commerce/payment-requests.js';
import { balances, topUpCredits, topUpMoney } from '../../../functions/core/commerce/wallets.js';
import type { DomainEvent, EmailMessage } from '../../../functions/core/events/outbox.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { VLS_CHANGING } from '../../../functions/core/virtual-life-support/booking-changes.js';
import { createVlsBooking, getVlsBooking, type VlsBooking, type VlsBookingView } from '../../../functions/core/virtual-life-support/bookings.js';
import { createCourse, createSession, type VlsCourse } from '../../../functions/core/virtual-life-support/catalogue.js';
import { issueVlsCertificate, vlsCertificatePdf } from '../../../functions/core/virtual-life-support/certificates.js';
import { recordDelivery, recordDispatch, recordReturned, recordReturnShipped, sweepEquipment } from '../../../functions/core/virtual-life-support/equipment.js';
import { cancelVlsBooking, cancelVlsSession, markVlsAttendance, markVlsResult, rescheduleVls } from '../../../functions/core/virtual-life-support/operator.js';
import { holdTimeslot } from '../../../functions/core/virtual-life-support/timeslots.js';
import { ledgerOf, links, MONDAY, newClient, outboxPayloads, refusalCode } from '../../support/kit.js';
import { testClock, testDeps, uniqueName, type TestClock } from '../../support/env.js';
import { withFaults } from '../../support/faults.js';
import { clientKeys } from '../../../functions/core/access/clients.js';
import { setInvoiceEnabled } from '../../../functions/core/access/account-settings.js';

const VLS = 'virtual-life-support' as const;
const START = `${MONDAY}T08:00:00.000Z`;
/** The session: Monday 7 December 2026, 10:00–13:00 UTC; its kit is due back a week after it ends. */
const DAY = '2026-12-07';
const DUE = '2026-12-14T13:00:00.000Z';
const after = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();
const DAY_MS = 86_400_000;
let deps: Deps;
let clock: TestClock;
let kit: VlsCourse;

beforeAll(async () => {
  clock = testClock(START);
  deps = await testDeps({ clock });
  kit = await createCourse(deps, {
    name: 'Virtual adult BLS with manikin',
    code: uniqueName('VBLS'),
    duration_minutes: 180,
    equipment_required: true,
    price_minor: 7500,
    seats_per_session: 12,
  });
});
beforeEach(() => clock.set(START));

const person = { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org', phone: '+447700900456', job_role: 'Registered Nurse' };
const address = { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' };
const events = async (type: string, id: number) =>
  (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => e.family === VLS && e.type === type && (e.data as VlsBookingView).id === id);
const feeEntries = async (client: string, id: number) => (await ledgerOf(deps, client, VLS)).filter((e) => e.booking_id === id && e.fee);

beforeAll(() => createSession(deps, { course_id: kit.id, date: DAY, start_time: '10:00' }));

async function dispatchedBooking(options: { invoiceEnabled?: boolean; pay?: 'credits' | 'candidate_pays' } = {}) {
  const client = await newClient(deps, { invoiceEnabled: options.invoiceEnabled });
  await topUpCredits(deps, client, VLS, { ...kit, kind: 'course' }, 5);
  await topUpMoney(deps, client, VLS, 1000);
  const hold = await holdTimeslot(deps, { type: 'client', clientId: client }, { courseId: kit.id, date: DAY, time: '10:00' });
  const booking = await createVlsBooking(
    deps,
    client,
    { ...person, hold_hash: hold.hold_hash, pay_option: options.pay ?? 'credits', delivery_address: address },
    links,
  );
  if (options.pay === 'candidate_pays') return { client, booking };
  await recordDispatch(deps, booking.id, { carrier: 'Royal Mail', tracking_number: `RM${booking.id}GB` });
  return { client, booking };
}

describe('dispatch and return', () => {
  it('records carrier and tracking, e-mails the candidate the tracking, and sets the return due a week after the session', async () => {
    const { client, booking } = await dispatchedBooking();
    const read = await getVlsBooking(deps, client, booking.id);
    expect(read.equipment).toMatchObject({
      status: 'dispatched',
      dispatch: { carrier: 'Royal Mail', tracking_number: `RM${booking.id}GB` },
      return: { due_at: '2026-12-14T13:00:00+00:00' },
    });
    const mails = await outboxPayloads<EmailMessage>(deps, 'email');
    expect(mails.some((m) => m.template === 'equipment-dispatched' && m.text.includes(`RM${booking.id}GB`))).toBe(true);
    expect(await refusalCode(recordDispatch(deps, booking.id, { carrier: 'DPD', tracking_number: 'X' }))).toBe('invalid-state');
    await recordDelivery(deps, booking.id);
    await recordReturnShipped(deps, booking.id, { carrier: 'Royal Mail', tracking_number: 'RET1' });
    const back = await recordReturned(deps, booking.id);
    expect(back.equipment).toMatchObject({ status: 'returned', fees: [] });
  });

  it('refuses to post kit for a booking not yet paid for', async () => {
    const { booking } = await dispatchedBooking({ pay: 'candidate_pays' });
    expect(await refusalCode(recordDispatch(deps, booking.id, { carrier: 'Royal Mail', tracking_number: 'RM1' }))).toBe('invalid-state');
  });
});

describe('the equipment sweep (injected clock)', () => {
  it('a return posted before the sweep runs: no fee, no event', async () => {
    const { client, booking } = await dispatchedBooking();
    clock.set(after(DUE, -3600_000));
    await recordReturnShipped(deps, booking.id, { carrier: 'Royal Mail', tracking_number: 'RET2' });
    clock.set(after(DUE, 3600_000));
    await sweepEquipment(deps);
    expect((await getVlsBooking(deps, client, booking.id)).equipment.status).toBe('return_in_transit');
    expect(await feeEntries(client, booking.id)).toEqual([]);
    expect(await events('booking.equipment_return_overdue', booking.id)).toEqual([]);
  });

  it('two sweeps at once after the due date: one event and one late-fee entry, the money balance may go negative', async () => {
    const { client, booking } = await dispatchedBooking();
    clock.set(after(DUE, -1000));
    await sweepEquipment(deps);
    expect((await getVlsBooking(deps, client, booking.id)).equipment.status).toBe('dispatched');
    clock.set(after(DUE, 60_000));
    await Promise.all([sweepEquipment(deps), sweepEquipment(deps), sweepEquipment(deps)]);
    const read = await getVlsBooking(deps, client, booking.id);
    expect(read.equipment.status).toBe('overdue');
    const fees = await feeEntries(client, booking.id);
    expect(fees).toHaveLength(1);
    expect(fees[0]).toMatchObject({ kind: 'money_debit', amount: -2500, fee: 'equipment_late', balance_after: 1000 - 2500 });
    expect(read.equipment.fees).toEqual([
      expect.objectContaining({ kind: 'late_return', ledger_entry_id: fees[0]!.id, amount: { amount: 2500, currency: 'GBP' } }),
    ]);
    const overdue = await events('booking.equipment_return_overdue', booking.id);
    expect(overdue).toHaveLength(1);
    expect((overdue[0]!.data as VlsBookingView).equipment.status).toBe('overdue');
    expect((await balances(deps, client, VLS, [kit], 'course')).money.amount).toBe(-1500);

    // 28 days after the due date: lost, with the lost fee, once, and no event.
    clock.set(after(DUE, 28 * DAY_MS - 1000));
    await sweepEquipment(deps);
    expect((await getVlsBooking(deps, client, booking.id)).equipment.status).toBe('overdue');
    clock.set(after(DUE, 28 * DAY_MS + 1000));
    await Promise.all([sweepEquipment(deps), sweepEquipment(deps)]);
    expect((await getVlsBooking(deps, client, booking.id)).equipment.status).toBe('lost');
    expect((await feeEntries(client, booking.id)).map((e) => [e.kind, e.fee, e.amount])).toEqual(
      expect.arrayContaining([
        ['money_debit', 'equipment_late', -2500],
        ['money_debit', 'equipment_lost', -10000],
      ]),
    );
    expect(await feeEntries(client, booking.id)).toHaveLength(2);
    expect(await events('booking.equipment_return_overdue', booking.id)).toHaveLength(1);

    // Returned after all: the lost fee comes back, the late fee stays.
    const back = await recordReturned(deps, booking.id);
    expect(back.equipment.status).toBe('returned');
    const refunds = (await ledgerOf(deps, client, VLS)).filter((e) => e.booking_id === booking.id && e.kind === 'refund');
    expect(refunds.map((e) => [e.fee, e.amount])).toEqual([['equipment_lost', 10000]]);
  });

  it('with invoicing on, the late fee is an invoice line', async () => {
    const { client, booking } = await dispatchedBooking({ invoiceEnabled: true });
    clock.set(after(DUE, 60_000));
    await sweepEquipment(deps);
    expect((await feeEntries(client, booking.id)).map((e) => [e.kind, e.amount, e.fee])).toEqual([['invoice', 2500, 'equipment_late']]);
  });

  it('a fee follows invoicing switched off after the sweep read the client: a money debit, not an invoice line', async () => {
    const { client, booking } = await dispatchedBooking({ invoiceEnabled: true });
    clock.set(after(DUE, 60_000));
    let switched = false;
    const racing = withFaults(deps, {
      after: async (command) => {
        if (
          switched ||
          command.constructor.name !== 'GetCommand' ||
          command.input.Key?.sk !== clientKeys.item(client).sk ||
          command.input.Key?.pk !== clientKeys.item(client).pk
        )
          return;
        switched = true;
        await setInvoiceEnabled(deps, client, false);
      },
    });
    await sweepEquipment(racing);
    expect(switched).toBe(true);
    expect((await feeEntries(client, booking.id)).map((e) => [e.kind, e.amount, e.fee])).toEqual([['money_debit', -2500, 'equipment_late']]);
  });
});

describe('attendance, results and certificates', () => {
  it('refused before the start; then the certificate is available with the kit still out', async () => {
    const { client, booking } = await dispatchedBooking();
    expect(await refusalCode(markVlsAttendance(deps, booking.id, 'attended'))).toBe('invalid-state');
    clock.set('2026-12-07T10:30:00.000Z');
    await markVlsAttendance(deps, booking.id, 'attended');
    await markVlsResult(deps, booking.id, 'passed');
    expect(await events('booking.attendance_marked', booking.id)).toHaveLength(1);
    const issued = await issueVlsCertificate(deps, booking.id);
    expect(issued.certificate?.number).toMatch(/^VLS-2026-\d{6}$/);
    expect(issued.certificate?.valid_until).toBe('2027-12-07');
    const read = await getVlsBooking(deps, client, booking.id);
    expect([read.equipment.status, read.certificate_available]).toEqual(['dispatched', true]);
    const { pdf } = await vlsCertificatePdf(deps, { clientId: client, name: 'Agency' }, booking.id);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await events('booking.certificate_available', booking.id)).toHaveLength(1);
  });

  it('a certificate issued before the candidate paid is withheld, then available with the payment (one event)', async () => {
    clock.set('2026-12-02T08:00:00.000Z');
    const { client, booking } = await dispatchedBooking({ pay: 'candidate_pays' });
    // The operator's marks (their commands want a paid booking after its start); the rule under test is the payment's.
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: bookingKeys.booking(client, VLS, booking.id),
        UpdateExpression: 'SET attendance = :a, #result = :r',
        ExpressionAttributeNames: { '#result': 'result' },
        ExpressionAttributeValues: { ':a': 'attended', ':r': 'passed' },
      }),
    );
    await issueVlsCertificate(deps, booking.id);
    const pdf = await vlsCertificatePdf(deps, { clientId: client, name: 'A' }, booking.id).catch((e) => e);
    expect([pdf.code, pdf.extensions?.reason]).toEqual(['certificate-unavailable', 'payment_pending']);
    expect(await events('booking.certificate_available', booking.id)).toHaveLength(0);
    const stored = await getBookingItem<VlsBooking>(deps, client, booking.id, VLS);
    await confirmPayment(deps, VLS_CHANGING, stored!.payment_token!, 'test_1');
    expect(await events('booking.certificate_available', booking.id)).toHaveLength(1);
    expect(await refusalCode(vlsCertificatePdf(deps, { clientId: client, name: 'A' }, booking.id))).toBe('ok');
  });
});

describe('reschedule and cancellations', () => {
  it('reschedule moves the seat, the room and the return due date in one change; session cancel refunds everyone', async () => {
    const { client, booking } = await dispatchedBooking();
    const later = await createSession(deps, { course_id: kit.id, date: '2026-12-10', start_time: '10:00', seats: 1 });
    const moved = await rescheduleVls(deps, booking.id, later.id);
    expect(moved).toMatchObject({
      timeslot: { date: '2026-12-10', time: '10:00' },
      equipment: { status: 'dispatched', return: { due_at: '2026-12-17T13:00:00+00:00' } },
    });
    expect(moved.video_meeting?.join_link).toBe(later.video_meeting.join_link);
    expect(await events('booking.rescheduled', booking.id)).toHaveLength(1);
    expect(await refusalCode(holdTimeslot(deps, { type: 'client', clientId: client }, { courseId: kit.id, date: '2026-12-10', time: '10:00' }))).toBe(
      'slot-unavailable',
    );

    const result = await cancelVlsSession(deps, later.id);
    expect(result.cancelled_bookings).toEqual([booking.id]);
    const read = await getVlsBooking(deps, client, booking.id);
    // Posted before the cancellation: due back a week after it.
    expect(read).toMatchObject({
      booking_status: 'cancelled',
      pay_status: 'refunded',
      equipment: { status: 'dispatched', return: { due_at: '2026-11-30T08:00:00+00:00' } },
    });
  });

  it('cancelling before dispatch cancels the kit too; late cancellations keep the charge', async () => {
    const client = await newClient(deps);
    await topUpCredits(deps, client, VLS, { ...kit, kind: 'course' }, 2);
    const hold = await holdTimeslot(deps, { type: 'client', clientId: client }, { courseId: kit.id, date: DAY, time: '10:00' });
    const booking = await createVlsBooking(deps, client, { ...person, hold_hash: hold.hold_hash, pay_option: 'credits', delivery_address: address }, links);
    clock.set('2026-12-06T08:00:00.000Z'); // inside the 72 hours
    const cancelled = await cancelVlsBooking(deps, booking.id, 'withdrew');
    expect(cancelled).toMatchObject({
      booking_status: 'cancelled',
      pay_status: 'completed',
      equipment: { status: 'cancelled' },
      cancellation: { refunded: false },
    });
  });
});

describe('payment', () => {
  it('paying a candidate_pays booking confirms it and opens the video room', async () => {
    const { client, booking } = await dispatchedBooking({ pay: 'candidate_pays' });
    expect(booking.video_meeting).toBeNull();
    const stored = await getBookingItem<VlsBooking>(deps, client, booking.id, VLS);
    expect(await getPaymentRequest(deps, VLS, stored!.payment_token!)).toBeDefined();
    await confirmPayment(deps, VLS_CHANGING, stored!.payment_token!, 'test_1');
    const read = await getVlsBooking(deps, client, booking.id);
    expect([read.booking_status, read.pay_status, read.video_meeting?.join_link]).toEqual(['booked', 'completed', expect.stringMatching(/vls-session-/)]);
    expect(await events('booking.confirmed', booking.id)).toHaveLength(1);
  });
});
