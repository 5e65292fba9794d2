import ICAL from 'ical.js';
import { cancelBooking, confirmCandidatePayment, rescheduleBooking } from '../../../functions/core/clinical-interview/booking-admin.js';
import { createBooking, getBookingItem } from '../../../functions/core/clinical-interview/booking-api.js';
import { expireUnpaidBookings } from '../../../functions/core/bookings/payment-expiry.js';
import { getClient } from '../../../functions/core/access/clients.js';
import { clinicalBookings } from '../../../functions/core/clinical-interview/bookings.js';
import type { InterviewType } from '../../../functions/core/clinical-interview/catalog.js';
import { topUpCredits } from '../../../functions/core/commerce/wallets.js';
import type { EmailMessage } from '../../../functions/core/events/outbox.js';
import { createHold } from '../../../functions/core/clinical-interview/holds.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { readableDate } from '../../../functions/core/platform/time.js';
import { candidate, CI, testCatalog } from '../../support/clinical.js';
import { links, MONDAY, newClient, outboxPayloads } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * Candidates hear from us: each change of a booking
 * writes the candidate's e-mail, with an invitation a calendar can import,
 * in the same transaction.
 */

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

let n = 0;
/** Each test has its own candidate address and its own day. */
const fresh = () => ({ email: `candidate${++n}@example.org`, date: `2026-12-${String(n).padStart(2, '0')}` });

const mailsTo = async (email: string) => (await outboxPayloads<EmailMessage>(deps, 'email')).filter((m) => m.to === email);

/** The invitation of an e-mail, read by ical.js. */
function invitationOf(mail: EmailMessage) {
  expect(mail.attachments).toHaveLength(1);
  const [attachment] = mail.attachments!;
  const calendar = new ICAL.Component(ICAL.parse(attachment!.content));
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const event = new ICAL.Event(vevent);
  return {
    contentType: attachment!.content_type,
    method: calendar.getFirstPropertyValue('method'),
    status: vevent.getFirstPropertyValue('status'),
    uid: event.uid,
    sequence: event.sequence,
    start: event.startDate.toJSDate().toISOString(),
    end: event.endDate.toJSDate().toISOString(),
    description: event.description,
    location: event.location,
    attendee: String(event.attendees[0]!.getFirstValue()),
    organizerName: vevent.getFirstProperty('organizer')!.getParameter('cn'),
  };
}

async function book(clientId: string, email: string, date: string, time: string, payOption: 'credits' | 'candidate_pays') {
  const held = await createHold(deps, clientId, { interviewTypeId: type.id, date, time });
  const view = await createBooking(deps, clientId, { ...candidate, email, hold_hash: held.hold_hash, pay_option: payOption }, links);
  return (await getBookingItem(deps, clientId, view.id))!;
}

async function creditClient() {
  const client = await newClient(deps);
  await topUpCredits(deps, client, CI, type, 5);
  return client;
}

it('an agency-paid booking: the candidate is sent the confirmation with the join link and an invitation at once', async () => {
  const client = await creditClient();
  const { email } = fresh();
  const booking = await book(client, email, '2026-11-24', '10:00', 'credits');
  const [mail, ...more] = await mailsTo(email);
  expect(more).toHaveLength(0);
  expect(mail!.template).toBe('booking-confirmed');
  expect(mail!.subject).toBe('Confirmed: RN clinical interview on Tuesday 24 November 2026 at 10:00');
  expect(mail!.text).toContain(booking.video_meeting.join_link);
  expect(mail!.text).toContain((await getClient(deps, client))!.name);
  const invite = invitationOf(mail!);
  expect(invite).toMatchObject({
    contentType: 'text/calendar; charset=utf-8; method=REQUEST',
    method: 'REQUEST',
    status: 'CONFIRMED',
    sequence: 0,
    start: '2026-11-24T10:00:00.000Z',
    end: '2026-11-24T10:30:00.000Z',
    location: booking.video_meeting.join_link,
    attendee: `mailto:${email}`,
    organizerName: (await getClient(deps, client))!.name,
  });
  expect(invite.description).toContain(`Join: ${booking.video_meeting.join_link}`);
  expect(invite.uid).toBe(`booking-${CI}-${booking.id}@agency-api.local`);
});

it('candidate_pays: no invitation until the payment; then the confirmation', async () => {
  const client = await newClient(deps);
  const { email, date } = fresh();
  const booking = await book(client, email, date, '11:00', 'candidate_pays');
  expect((await mailsTo(email)).map((m) => [m.template, m.attachments?.length ?? 0])).toEqual([['booking-payment-link', 0]]);

  await confirmCandidatePayment(deps, booking.payment_token!, 'test-ref');
  const confirmed = (await mailsTo(email)).filter((m) => m.template === 'booking-confirmed');
  expect(confirmed).toHaveLength(1);
  expect(invitationOf(confirmed[0]!)).toMatchObject({ method: 'REQUEST', status: 'CONFIRMED', sequence: 0, start: `${date}T11:00:00.000Z` });

  // Paying twice confirms once: no second e-mail.
  await confirmCandidatePayment(deps, booking.payment_token!, 'test-ref');
  expect((await mailsTo(email)).filter((m) => m.template === 'booking-confirmed')).toHaveLength(1);
});

it('a reschedule updates the invitation (same UID, next SEQUENCE); a cancellation withdraws it', async () => {
  const client = await creditClient();
  const { email, date } = fresh();
  const booking = await book(client, email, date, '10:00', 'credits');
  await rescheduleBooking(deps, booking.id, { date, time: '11:30' });
  await cancelBooking(deps, booking.id, 'Candidate withdrew');

  // Written at the same instant, the outbox keeps no order among them: the SEQUENCE gives it.
  const mails = (await mailsTo(email)).sort((a, b) => invitationOf(a).sequence - invitationOf(b).sequence);
  expect(mails.map((m) => m.template)).toEqual(['booking-confirmed', 'booking-rescheduled', 'booking-cancelled']);
  const [first, moved, cancelled] = mails.map(invitationOf);
  expect(moved).toMatchObject({
    uid: first!.uid,
    sequence: 1,
    method: 'REQUEST',
    status: 'CONFIRMED',
    start: `${date}T11:30:00.000Z`,
    end: `${date}T12:00:00.000Z`,
  });
  expect(mails[1]!.text).toContain(`from ${readableDate(date)} at 10:00 to ${readableDate(date)} at 11:30`);
  expect(cancelled).toMatchObject({ uid: first!.uid, sequence: 2, method: 'CANCEL', status: 'CANCELLED', start: `${date}T11:30:00.000Z` });
  expect(mails[2]!.attachments![0]!.content_type).toBe('text/calendar; charset=utf-8; method=CANCEL');

  // A reschedule to where the booking already is changes nothing, and sends nothing.
  const other = await book(client, fresh().email, date, '09:00', 'credits');
  await rescheduleBooking(deps, other.id, { date, time: '09:00' });
  expect((await mailsTo(other.candidate.email)).map((m) => m.template)).toEqual(['booking-confirmed']);
});

it('the payment-expiry sweep tells the candidate the unpaid booking is cancelled; never having been invited, it carries no calendar cancellation', async () => {
  const client = await newClient(deps);
  const { email, date } = fresh();
  const { payment_due_at } = await book(client, email, date, '11:00', 'candidate_pays');
  clock.set(new Date(Date.parse(payment_due_at!) + 1000).toISOString());
  expect(await expireUnpaidBookings(deps, clinicalBookings(CI))).toBeGreaterThanOrEqual(1);

  const cancelled = (await mailsTo(email)).filter((m) => m.template === 'booking-cancelled');
  expect(cancelled).toHaveLength(1);
  expect(cancelled[0]!.text).toContain('cancelled because it was not paid for in time');
  expect(cancelled[0]!.attachments).toEqual([]);
});

it('an unpaid booking moved: the candidate is sent the payment e-mail again, with the new time and the same link', async () => {
  const client = await newClient(deps);
  const { email, date } = fresh();
  const booking = await book(client, email, date, '11:00', 'candidate_pays');
  await rescheduleBooking(deps, booking.id, { date, time: '11:30' });
  const payments = (await mailsTo(email)).filter((m) => m.template === 'booking-payment-link');
  expect(payments).toHaveLength(2);
  const moved = payments.find((m) => m.text.includes('11:30'))!;
  expect(moved.text).toContain(`${readableDate(date)} at 11:30`);
  expect(moved.text).toContain(links.payment(booking.payment_token!));
  expect(moved.attachments ?? []).toEqual([]);
});

/** "Tuesday 1 December" for a date (the service's zone is UTC in winter). */
