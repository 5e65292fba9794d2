import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { bookingKeys } from '../../../functions/core/bookings/records.js';
import type { DomainEvent } from '../../../functions/core/events/outbox.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { createCourse, PRACTICAL_FAMILY, type Course } from '../../../functions/core/practical-training/catalogue.js';
import type { PracticalBooking } from '../../../functions/core/practical-training/bookings.js';
import { addMonths, certificateNumber, certificatePdf, issueCertificate } from '../../../functions/core/practical-training/certificates.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { confirmPayment } from '../../../functions/core/bookings/change.js';
import { PRACTICAL_CHANGING } from '../../../functions/core/practical-training/booking-changes.js';
import { createLocation, createTrainingEvent } from '../../../functions/core/practical-training/catalogue.js';
import { createInvite } from '../../../functions/core/practical-training/invites.js';
import { bookWithInvite, holdSeatForInvite } from '../../../functions/core/practical-training/invites-page.js';
import { newClient, outboxPayloads } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

let deps: Deps;
let clock: TestClock;
let course: Course;

beforeAll(async () => {
  clock = testClock('2026-12-15T17:00:00.000Z');
  deps = await testDeps({ clock });
  course = await createCourse(deps, { name: 'PMVA refresher', code: 'PMVA-R', duration_minutes: 420, certificate_validity_months: 36, price_minor: 12000 });
});

let nextBooking = 100;
/** A past booking as the operator left it after the event (written directly: the event is over, so it cannot be booked now). */
async function attendedBooking(clientId: string, over: Partial<PracticalBooking> = {}): Promise<PracticalBooking> {
  const id = ++nextBooking;
  const booking: PracticalBooking = {
    id,
    client_id: clientId,
    family: PRACTICAL_FAMILY,
    start_at: '2026-12-14T09:00:00.000Z',
    end_at: '2026-12-14T16:00:00.000Z',
    date: '2026-12-14',
    booking_status: 'booked',
    pay_status: 'completed',
    pay_option: 'credits',
    booked_by: 'Agency',
    price: course.price,
    candidate: { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org', phone: '+447700900123', job_role: 'Support worker', nmc_number: null },
    agency_contact: { name: null, email: null },
    course: { id: course.id, name: course.name, code: course.code },
    training_event: { id: 7, location: { id: 1, name: 'Leeds Training Centre', town: 'Leeds', postcode: 'LS1 5AB' } },
    training_event_id: 7,
    course_id: course.id,
    seat: 'S01',
    start_time: '09:00',
    free_cancellation_until: '2026-12-11T09:00:00.000Z',
    training_status: 'completed',
    booking_invite_id: null,
    attendance: 'attended',
    result: 'passed',
    created_at: '2026-12-01T10:00:00.000Z',
    updated_at: '2026-12-01T10:00:00.000Z',
    ...over,
  };
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...bookingKeys.booking(clientId, PRACTICAL_FAMILY, id), ...bookingKeys.byId(PRACTICAL_FAMILY, id), entity: 'booking', ...booking },
    }),
  );
  return booking;
}
const code = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e) => [e.code, e.extensions?.reason].filter(Boolean).join(' '),
  );
const availableEvents = async (bookingId: number) =>
  (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => e.type === 'booking.certificate_available' && (e.data as { id: number }).id === bookingId);

describe('certificate rules', () => {
  it('numbers PT-<year>-<six digits> and adds validity months, to the month end when shorter', () => {
    expect(certificateNumber(2026, 42)).toBe('PT-2026-000042');
    expect(addMonths('2026-12-14', 36)).toBe('2029-12-14');
    expect(addMonths('2027-01-31', 1)).toBe('2027-02-28');
    expect(addMonths('2028-01-31', 1)).toBe('2028-02-29');
    expect(addMonths('2026-11-30', 12)).toBe('2027-11-30');
  });
});

describe('issuing a certificate', () => {
  it('issues only for attended and passed, with the yearly number, the validity, and one certificate_available event', async () => {
    const client = await newClient(deps);
    const noShow = await attendedBooking(client, { attendance: 'no_show', result: 'pending' });
    const failed = await attendedBooking(client, { result: 'not_passed' });
    expect(await code(issueCertificate(deps, noShow.id))).toBe('invalid-state');
    expect(await code(issueCertificate(deps, failed.id))).toBe('invalid-state');

    const passed = await attendedBooking(client);
    const issued = await issueCertificate(deps, passed.id);
    expect(issued.certificate).toEqual({ number: expect.stringMatching(/^PT-2026-\d{6}$/), issued_at: '2026-12-15T17:00:00.000Z', valid_until: '2029-12-14' });
    const again = await issueCertificate(deps, passed.id);
    expect(again.certificate).toEqual(issued.certificate);
    expect(await availableEvents(passed.id)).toHaveLength(1);

    const second = await issueCertificate(deps, (await attendedBooking(client)).id);
    expect(Number(second.certificate!.number.slice(-6))).toBe(Number(issued.certificate!.number.slice(-6)) + 1);
  });

  it('starts a new series each year', async () => {
    const client = await newClient(deps);
    clock.set('2027-01-02T09:00:00.000Z');
    const issued = await issueCertificate(deps, (await attendedBooking(client)).id);
    expect(issued.certificate!.number).toBe('PT-2027-000001');
    clock.set('2026-12-15T17:00:00.000Z');
  });
});

describe('downloading a certificate', () => {
  it('renders the PDF with the number once issued and paid for', async () => {
    const client = await newClient(deps);
    const booking = await attendedBooking(client);
    expect(await code(certificatePdf(deps, { clientId: client, name: 'Northwind Care' }, booking.id))).toBe('certificate-unavailable not_issued');
    const { certificate } = await issueCertificate(deps, booking.id);
    const { pdf, number } = await certificatePdf(deps, { clientId: client, name: 'Northwind Care' }, booking.id);
    expect(number).toBe(certificate!.number);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(pdf.toString('latin1')).toContain(certificate!.number);
    expect(pdf.toString('latin1')).toContain('Grace Adeyemi');
    expect(await code(certificatePdf(deps, { clientId: await newClient(deps), name: 'Other' }, booking.id))).toBe('not-found');
  });

  it('withholds it while the candidate has not paid, and issuing then sends no event', async () => {
    const client = await newClient(deps);
    const unpaid = await attendedBooking(client, { pay_option: 'candidate_pays', pay_status: 'pending', booking_status: 'pending_payment' });
    const issued = await issueCertificate(deps, unpaid.id);
    expect(issued.certificate).not.toBeNull();
    expect(await code(certificatePdf(deps, { clientId: client, name: 'Northwind Care' }, unpaid.id))).toBe('certificate-unavailable payment_pending');
    expect(await availableEvents(unpaid.id)).toHaveLength(0);
  });
});

describe('a certificate issued before the candidate paid', () => {
  it("becomes available with the payment, with its one event in the payment's transaction", async () => {
    const client = await newClient(deps);
    const location = await createLocation(deps, { name: 'York Centre', address: { line1: '2 Low Petergate', line2: null, town: 'York', postcode: 'YO1 7HZ' } });
    const event = await createTrainingEvent(deps, { course_id: course.id, location_id: location.id, date: '2027-01-20', start_time: '09:30', capacity: 12 });
    const invite = await createInvite(
      deps,
      client,
      { candidate: { first_name: 'Ada', last_name: 'Okoro', email: 'ada@example.org' }, course_id: course.id, pay_option: 'candidate_pays' },
      { invite: (t) => `http://api.test/invite/${t}` },
    );
    const token = invite.invite_url.split('/').pop()!;
    await holdSeatForInvite(deps, token, event.id);
    const { booking, paymentToken } = await bookWithInvite(
      deps,
      token,
      { first_name: 'Ada', last_name: 'Okoro', email: 'ada@example.org', phone: '+447700900123', job_role: 'Carer', nmc_number: null },
      { payment: (t) => `http://api.test/pay/${t}` },
    );
    // The operator's marks (their commands refuse before the start; here the rule under test is the payment's).
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: bookingKeys.booking(client, PRACTICAL_FAMILY, booking.id),
        UpdateExpression: 'SET attendance = :a, #result = :r',
        ExpressionAttributeNames: { '#result': 'result' },
        ExpressionAttributeValues: { ':a': 'attended', ':r': 'passed' },
      }),
    );
    await issueCertificate(deps, booking.id);
    expect(await availableEvents(booking.id)).toHaveLength(0);
    expect(await code(certificatePdf(deps, { clientId: client, name: 'Northwind Care' }, booking.id))).toBe('certificate-unavailable payment_pending');
    await Promise.all(
      [confirmPayment(deps, PRACTICAL_CHANGING, paymentToken!, 'test_1'), confirmPayment(deps, PRACTICAL_CHANGING, paymentToken!, 'test_2')].map((p) =>
        p.catch(() => undefined),
      ),
    );
    const events = await availableEvents(booking.id);
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ certificate_available: true, pay_status: 'completed' });
    expect(await code(certificatePdf(deps, { clientId: client, name: 'Northwind Care' }, booking.id))).toBe('ok');
  });
});
