import type { DomainEvent, EmailMessage } from '../../../functions/core/events/outbox.js';
import { topUpCredits } from '../../../functions/core/commerce/wallets.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { reissueItem } from '../../../functions/core/portal-v2/booking-items.js';
import { createCandidate } from '../../../functions/core/portal-v2/candidates.js';
import { createGroupRequest } from '../../../functions/core/portal-v2/group-create.js';
import { cancelGroupRequest, getGroupRequest, GROUP_KINDS, listGroupRequests } from '../../../functions/core/portal-v2/request-groups.js';
import { cancelPractical } from '../../../functions/core/practical-training/booking-changes.js';
import { getPracticalBooking } from '../../../functions/core/practical-training/bookings.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  PRACTICAL_FAMILY,
  type Course,
  type Location,
} from '../../../functions/core/practical-training/catalogue.js';
import { issueCertificate } from '../../../functions/core/practical-training/certificates.js';
import { bookWithInvite, holdSeatForInvite, openInvite } from '../../../functions/core/practical-training/invites-page.js';
import { getInvite, getInviteItem } from '../../../functions/core/practical-training/invites.js';
import { getTrainingEvent } from '../../../functions/core/practical-training/events.js';
import { getSeatHold } from '../../../functions/core/practical-training/seats.js';
import { markPracticalAttendance, markPracticalResult } from '../../../functions/core/practical-training/operator.js';
import { expireDueRequests } from '../../../functions/core/requests/lifecycle.js';
import { newClient, outboxPayloads, refusalCode } from '../../support/kit.js';
import { testClock, testDeps, uniqueName, type TestClock } from '../../support/env.js';
import { createCourse as createVlsCourse, createSession, type VlsCourse } from '../../../functions/core/virtual-life-support/catalogue.js';
import { issueVlsCertificate } from '../../../functions/core/virtual-life-support/certificates.js';
import { bookVlsWithInvite, holdVlsSlotForInvite, vlsInviteOffer } from '../../../functions/core/virtual-life-support/invites.js';
import { markVlsAttendance, markVlsResult } from '../../../functions/core/virtual-life-support/operator.js';

/**
 * Practical training requests: the item is a real booking invite of the practical training family and
 * follows it, the booking made with it, and the booking's outcome.
 */

let deps: Deps;
let clock: TestClock;
let course: Course;
let location: Location;

const START = '2026-11-23T08:00:00.000Z';
const SEGMENT = 'practical-training-requests';
beforeAll(async () => {
  clock = testClock(START);
  deps = await testDeps({ clock });
  course = await createCourse(deps, {
    name: 'Manual handling practical',
    code: 'MHP',
    duration_minutes: 180,
    certificate_validity_months: 12,
    price_minor: 6000,
  });
  location = await createLocation(deps, { name: 'Leeds Training Centre', address: { line1: '1 Park Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' } });
});
afterEach(() => clock.set(START));

const inviteLinks = (family: string, token: string) => `http://api.test/${family}/invite/${token}`;
const payLinks = { payment: (token: string) => `http://api.test/practical-training/pay/${token}` };
const trainee = {
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email: 'grace@example.org',
  phone: '+447700900123',
  job_role: 'Healthcare assistant',
  nmc_number: null,
};

let day = 0;
/** An event a week or more ahead, at 09:30 London time (UTC in winter). */
const newEvent = () =>
  createTrainingEvent(deps, {
    course_id: course.id,
    location_id: location.id,
    date: `2026-12-${String(++day).padStart(2, '0')}`,
    start_time: '09:30',
    capacity: 12,
  });

async function agency(options: { invoiceEnabled?: boolean } = {}) {
  const client = await newClient(deps, options);
  await topUpCredits(deps, client, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 5);
  const candidate = await createCandidate(deps, client, { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org' });
  return { client, candidate: candidate.id };
}

const create = (client: string, body: Record<string, unknown>) =>
  createGroupRequest(
    deps,
    client,
    SEGMENT,
    { expiry_days: 14, pay_option: 'credits', course_id: course.id, ...body } as never,
    'http://api.test/portal/v2',
    inviteLinks,
  );

/** The invite's link as the family e-mailed it (the only place it is). */
async function inviteToken(client: string, inviteId: number): Promise<string> {
  const mail = (await outboxPayloads<EmailMessage>(deps, 'email')).find((m) => m.receipt?.invite_id === inviteId && m.receipt.client_id === client);
  return mail!.text.match(/http:\/\/api\.test\/practical-training\/invite\/(\S+)/)![1]!;
}

async function book(client: string, inviteId: number, eventId: number) {
  const token = await inviteToken(client, inviteId);
  await openInvite(deps, token, true);
  await holdSeatForInvite(deps, token, eventId);
  return (await bookWithInvite(deps, token, trainee, payLinks)).booking;
}

const eventsOf = async (requestId: number) =>
  (await outboxPayloads<DomainEvent>(deps, 'event'))
    .filter(
      (e) =>
        (e.type.startsWith('practical_training_request.') && (e.data as { id: number }).id === requestId) ||
        (e.type.startsWith('request_item.') &&
          (e.data as { request_id: number; kind: string }).request_id === requestId &&
          (e.data as { kind: string }).kind === 'practical_training'),
    )
    .map((e) => e.type);

const item = async (client: string, id: number) => (await getGroupRequest(deps, client, SEGMENT, id)).items[0]!;

describe('a practical training request', () => {
  it('writes a real invite with the request (the family e-mails it), follows it to booked and completes with the certificate', async () => {
    const { client, candidate } = await agency();
    const event = await newEvent();
    const created = await create(client, {
      candidate_id: candidate,
      location_id: location.id,
      agency_contact_name: 'Sam Rota',
      agency_contact_email: 'sam@agency.example',
    });
    expect(created).toMatchObject({ kind: 'practical_training', status: 'pending', submission_url: null, items_required: 1 });
    const first = created.items[0]!;
    expect(first).toMatchObject({
      status: 'sent',
      actor: { mode: 'booking_invite', email: 'grace@example.org' },
      booking_invite_id: expect.any(Number),
      booking_id: null,
      form_url: null,
    });

    const invite = (await getInviteItem(deps, client, first.booking_invite_id!))!;
    expect(invite).toMatchObject({
      status: 'queued',
      source: { kind: 'practical_training', request_id: created.id, item_id: first.id },
      expires_at: created.expires_at,
      location_id: location.id,
    });
    const mails = (await outboxPayloads<EmailMessage>(deps, 'email')).filter(
      (m) => m.to === 'grace@example.org' && (m.receipt?.invite_id === invite.id ? m.receipt.client_id === client : false),
    );
    expect(mails.map((m) => m.template)).toEqual(['booking-invitation']);

    const token = await inviteToken(client, invite.id);
    await openInvite(deps, token, true);
    expect(await getGroupRequest(deps, client, SEGMENT, created.id)).toMatchObject({ status: 'in_progress', items: [{ status: 'opened' }] });
    await holdSeatForInvite(deps, token, event.id);
    const { booking } = await bookWithInvite(deps, token, trainee, payLinks);
    expect(await item(client, created.id)).toMatchObject({ status: 'booked', booking_id: booking.id });
    expect(booking).toMatchObject({ booking_invite_id: invite.id, agency_contact: { name: 'Sam Rota', email: 'sam@agency.example' } });

    clock.set(`${event.date}T10:00:00.000Z`);
    await markPracticalAttendance(deps, booking.id, 'attended');
    await markPracticalResult(deps, booking.id, 'passed');
    expect(await item(client, created.id)).toMatchObject({ status: 'booked' });
    const certified = await issueCertificate(deps, booking.id);
    const done = await getGroupRequest(deps, client, SEGMENT, created.id);
    expect(done).toMatchObject({ status: 'completed', outcome: 'satisfied', is_complete: true, items_completed: 1 });
    expect(done.items[0]).toMatchObject({
      status: 'certified',
      booking_id: booking.id,
      valid_until: certified.certificate!.valid_until,
      data: {
        booking_id: booking.id,
        attendance: 'attended',
        result: 'passed',
        certificate: { number: certified.certificate!.number, issued_at: certified.certificate!.issued_at, valid_until: certified.certificate!.valid_until },
      },
    });
    expect((await eventsOf(created.id)).sort()).toEqual([
      'practical_training_request.completed',
      'practical_training_request.created',
      'request_item.booked',
      'request_item.certified',
    ]);
  });

  it('fails on a no-show; reissue sends one new invite however many race, and only for a failed item', async () => {
    const { client, candidate } = await agency();
    const event = await newEvent();
    const created = await create(client, { candidate_id: candidate });
    const itemId = created.items[0]!.id;
    expect(await refusalCode(reissueItem(deps, client, SEGMENT, created.id, itemId, inviteLinks))).toBe('invalid-state');
    const booking = await book(client, created.items[0]!.booking_invite_id!, event.id);
    clock.set(`${event.date}T10:00:00.000Z`);
    await markPracticalAttendance(deps, booking.id, 'no_show');
    expect(await item(client, created.id)).toMatchObject({ status: 'failed', data: { attendance: 'no_show', result: 'not_passed', certificate: null } });
    expect(await eventsOf(created.id)).toContain('request_item.failed');

    const outcomes = await Promise.all(Array.from({ length: 4 }, () => refusalCode(reissueItem(deps, client, SEGMENT, created.id, itemId, inviteLinks))));
    expect(outcomes.sort()).toEqual(['invalid-state', 'invalid-state', 'invalid-state', 'ok']);
    const again = await item(client, created.id);
    expect(again).toMatchObject({ status: 'sent', booking_id: null, data: null });
    expect(again.booking_invite_id).not.toBe(created.items[0]!.booking_invite_id);
    const invitesOfItem = (await outboxPayloads<EmailMessage>(deps, 'email')).filter((m) => m.receipt?.client_id === client);
    expect(invitesOfItem).toHaveLength(2); // the first invite and one reissue
    expect(await getInvite(deps, client, again.booking_invite_id!)).toMatchObject({ status: 'queued' });

    // The new invite books again; the old booking's later changes no longer touch the item.
    clock.set(START);
    const later = await newEvent();
    const second = await book(client, again.booking_invite_id!, later.id);
    expect(await item(client, created.id)).toMatchObject({ status: 'booked', booking_id: second.id });
  });

  it('fails when the booking is cancelled; cancelling the request closes an unused invite and keeps a booking made', async () => {
    const { client, candidate } = await agency();
    const event = await newEvent();
    const cancelledBooking = await create(client, { candidate_id: candidate });
    const booking = await book(client, cancelledBooking.items[0]!.booking_invite_id!, event.id);
    await cancelPractical(deps, client, booking.id, { by: 'agency' });
    expect(await item(client, cancelledBooking.id)).toMatchObject({ status: 'failed' });

    const unused = await create(client, { candidate_id: candidate });
    const token = await inviteToken(client, unused.items[0]!.booking_invite_id!);
    await openInvite(deps, token, true);
    const cancelled = await cancelGroupRequest(deps, client, SEGMENT, unused.id);
    expect(cancelled).toMatchObject({ status: 'cancelled', items: [{ status: 'cancelled' }] });
    expect(await getInvite(deps, client, unused.items[0]!.booking_invite_id!)).toMatchObject({ status: 'expired' });
    await holdSeatForInvite(deps, token, event.id).then(
      () => expect('held').toBe('refused'),
      (e) => expect(e.code).toBe('invalid-state'),
    );

    const booked = await create(client, { candidate_id: candidate });
    const kept = await book(client, booked.items[0]!.booking_invite_id!, event.id);
    await cancelGroupRequest(deps, client, SEGMENT, booked.id);
    expect(await getPracticalBooking(deps, client, kept.id)).toMatchObject({ booking_status: 'booked' });
  });

  it('gives back the seat an invite holds when its request is cancelled or expires, at once, not when the hold runs out', async () => {
    const { client, candidate } = await agency();
    const event = await newEvent();
    const seatsLeft = async () => (await getTrainingEvent(deps, event.id)).seats_available;
    expect(await seatsLeft()).toBe(12);

    const cancelled = await create(client, { candidate_id: candidate });
    const token = await inviteToken(client, cancelled.items[0]!.booking_invite_id!);
    await openInvite(deps, token, true);
    const held = await holdSeatForInvite(deps, token, event.id);
    expect(await seatsLeft()).toBe(11);
    await cancelGroupRequest(deps, client, SEGMENT, cancelled.id);
    expect(await seatsLeft()).toBe(12);
    expect(await getSeatHold(deps, held.hold_hash)).toMatchObject({ status: 'released' });

    const expiring = await create(client, { candidate_id: candidate, expiry_days: 1 });
    const second = await inviteToken(client, expiring.items[0]!.booking_invite_id!);
    clock.advance(86_400 - 600); // ten minutes before the request and its invite run out: a hold for ten minutes, not thirty
    const secondHold = await holdSeatForInvite(deps, second, event.id);
    expect(secondHold.expires_in_seconds).toBe(600);
    expect(await seatsLeft()).toBe(11);
    clock.advance(600);
    expect(await seatsLeft()).toBe(12);
    expect(await expireDueRequests(deps, GROUP_KINDS.practical_training!)).toBeGreaterThanOrEqual(1);
    expect(await seatsLeft()).toBe(12);
  });

  it('does not expire while its item is booked, by the clock or the sweep; an unbooked one does', async () => {
    const { client, candidate } = await agency();
    const event = await newEvent();
    const waiting = await create(client, { candidate_id: candidate, expiry_days: 3 });
    const unbooked = await create(client, { candidate_id: candidate, expiry_days: 3 });
    const booking = await book(client, waiting.items[0]!.booking_invite_id!, event.id);
    clock.set('2026-11-27T08:00:00.000Z');
    expect(await getGroupRequest(deps, client, SEGMENT, waiting.id)).toMatchObject({ status: 'in_progress', is_expired: false, items: [{ status: 'booked' }] });
    expect(await getGroupRequest(deps, client, SEGMENT, unbooked.id)).toMatchObject({ status: 'expired', is_expired: true });
    await expireDueRequests(deps, GROUP_KINDS.practical_training!);
    expect(await getGroupRequest(deps, client, SEGMENT, waiting.id)).toMatchObject({ status: 'in_progress', items: [{ status: 'booked' }] });
    expect(await eventsOf(unbooked.id)).toContain('practical_training_request.expired');
    expect(await eventsOf(waiting.id)).not.toContain('practical_training_request.expired');

    clock.set(`${event.date}T10:00:00.000Z`);
    await markPracticalAttendance(deps, booking.id, 'attended');
    await markPracticalResult(deps, booking.id, 'passed');
    await issueCertificate(deps, booking.id);
    expect(await getGroupRequest(deps, client, SEGMENT, waiting.id)).toMatchObject({ status: 'completed', items: [{ status: 'certified' }] });
  });

  it('a booking that fails after the request would have expired gives it a fresh window, so the item can be reissued', async () => {
    const { client, candidate } = await agency();
    const event = await newEvent();
    const created = await create(client, { candidate_id: candidate, expiry_days: 3 });
    const booking = await book(client, created.items[0]!.booking_invite_id!, event.id);
    clock.set(`${event.date}T10:00:00.000Z`); // long after the 3 days
    await markPracticalAttendance(deps, booking.id, 'no_show');
    const failed = await getGroupRequest(deps, client, SEGMENT, created.id);
    expect(failed).toMatchObject({ status: 'in_progress', is_expired: false, items: [{ status: 'failed' }] });
    expect(Date.parse(failed.expires_at)).toBe(Date.parse(`${event.date}T10:00:00.000Z`) + 3 * 86_400_000);
    await expireDueRequests(deps, GROUP_KINDS.practical_training!);
    expect(await eventsOf(created.id)).not.toContain('practical_training_request.expired');

    const reissued = await reissueItem(deps, client, SEGMENT, created.id, created.items[0]!.id, inviteLinks);
    expect(reissued).toMatchObject({ status: 'pending', expires_at: failed.expires_at, items: [{ status: 'sent' }] });
    const invite = await getInvite(deps, client, reissued.items[0]!.booking_invite_id!);
    expect([invite.status, Date.parse(invite.expires_at)]).toEqual(['queued', Date.parse(failed.expires_at)]);

    // Left alone, the fresh window ends like any other.
    clock.set(new Date(Date.parse(failed.expires_at) + 1000).toISOString());
    expect(await getGroupRequest(deps, client, SEGMENT, created.id)).toMatchObject({ status: 'expired' });
  });

  it('refuses invoice on an account without invoicing (422 invoice-disabled) and writes nothing', async () => {
    const { client, candidate } = await agency();
    expect(await refusalCode(create(client, { candidate_id: candidate, pay_option: 'invoice' }))).toBe('invoice-disabled');
    expect((await listGroupRequests(deps, client, SEGMENT, { limit: 5 })).data).toHaveLength(0);
    expect(await refusalCode(create(client, { candidate_id: candidate, course_id: 99999 }))).toBe('invalid-field');
    const invoicing = await agency({ invoiceEnabled: true });
    expect(await refusalCode(create(invoicing.client, { candidate_id: invoicing.candidate, pay_option: 'invoice' }))).toBe('ok');
  });
});

describe('a life support request', () => {
  const LS = 'life-support-requests';
  const VLS = 'virtual-life-support' as const;
  const DAY = '2026-12-07';
  const address = { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' };
  let kit: VlsCourse;

  beforeAll(async () => {
    kit = await createVlsCourse(deps, {
      name: 'Virtual ILS with manikin',
      code: uniqueName('VILS'),
      duration_minutes: 180,
      equipment_required: true,
      price_minor: 7500,
      seats_per_session: 12,
    });
    await createSession(deps, { course_id: kit.id, date: DAY, start_time: '10:00' });
  });

  async function lsAgency() {
    const client = await newClient(deps);
    await topUpCredits(deps, client, VLS, { ...kit, kind: 'course' }, 5);
    const candidate = await createCandidate(deps, client, { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace@example.org' });
    return { client, candidate: candidate.id };
  }
  const lsCreate = (client: string, body: Record<string, unknown>) =>
    createGroupRequest(
      deps,
      client,
      LS,
      { expiry_days: 14, pay_option: 'credits', course_id: kit.id, ...body } as never,
      'http://api.test/portal/v2',
      inviteLinks,
    );
  async function vlsToken(client: string, inviteId: number): Promise<string> {
    const mail = (await outboxPayloads<EmailMessage>(deps, 'email')).find(
      (m) => m.receipt?.invite_id === inviteId && m.receipt.client_id === client && m.receipt.family === VLS,
    );
    return mail!.text.match(/http:\/\/api\.test\/virtual-life-support\/invite\/(\S+)/)![1]!;
  }
  const lsItem = async (client: string, id: number) => (await getGroupRequest(deps, client, LS, id)).items[0]!;
  const trainee = {
    first_name: 'Grace',
    last_name: 'Adeyemi',
    email: 'grace@example.org',
    phone: '+447700900456',
    job_role: 'Registered Nurse',
    nmc_number: null,
  };

  it("books a timeslot through the family's internal invite (with the delivery address) and completes with the certificate", async () => {
    const { client, candidate } = await lsAgency();
    const created = await lsCreate(client, { candidate_id: candidate });
    expect(created).toMatchObject({
      kind: 'life_support',
      status: 'pending',
      submission_url: null,
      items: [{ status: 'sent', actor: { mode: 'booking_invite' } }],
    });
    const inviteId = created.items[0]!.booking_invite_id!;
    expect(await getInviteItem(deps, client, inviteId, VLS)).toMatchObject({
      family: VLS,
      status: 'queued',
      course: { id: kit.id },
      source: { kind: 'life_support', request_id: created.id },
      expires_at: created.expires_at,
    });
    expect(await getInviteItem(deps, client, inviteId)).toBeUndefined(); // not a practical training invite

    const token = await vlsToken(client, inviteId);
    const invite = await openInvite(deps, token, true, VLS);
    expect(await lsItem(client, created.id)).toMatchObject({ status: 'opened' });
    expect((await vlsInviteOffer(deps, invite)).slots).toEqual([expect.objectContaining({ date: DAY, time: '10:00' })]);
    expect(await refusalCode(bookVlsWithInvite(deps, token, { ...trainee, delivery_address: address }, payLinks))).toBe('hold-not-found'); // a seat is held first
    await holdVlsSlotForInvite(deps, token, { date: DAY, time: '10:00' });
    expect(await refusalCode(bookVlsWithInvite(deps, token, trainee, payLinks))).toBe('invalid-field');
    const booking = await bookVlsWithInvite(deps, token, { ...trainee, delivery_address: address }, payLinks);
    expect(booking).toMatchObject({ booking_invite_id: inviteId, booked_by: 'Candidate', delivery_address: { postcode: 'LS6 2AB' } });
    expect(await lsItem(client, created.id)).toMatchObject({ status: 'booked', booking_id: booking.id });
    expect(await refusalCode(bookVlsWithInvite(deps, token, { ...trainee, delivery_address: address }, payLinks))).toBe('invalid-state');

    clock.set(`${DAY}T11:00:00.000Z`);
    await markVlsAttendance(deps, booking.id, 'attended');
    await markVlsResult(deps, booking.id, 'passed');
    const certified = await issueVlsCertificate(deps, booking.id);
    expect(await getGroupRequest(deps, client, LS, created.id)).toMatchObject({
      status: 'completed',
      outcome: 'satisfied',
      items: [{ status: 'certified', valid_until: certified.certificate!.valid_until, data: { certificate: { number: certified.certificate!.number } } }],
    });
    const familyEvents = (await outboxPayloads<DomainEvent>(deps, 'event')).filter((e) => e.family === VLS && e.type.startsWith('booking_invite.'));
    expect(familyEvents).toEqual([]); // the family has no invite events
  });

  it('cancelling closes the unused invite: its page is gone and it books nothing', async () => {
    const { client, candidate } = await lsAgency();
    const created = await lsCreate(client, { candidate_id: candidate });
    const token = await vlsToken(client, created.items[0]!.booking_invite_id!);
    await cancelGroupRequest(deps, client, LS, created.id);
    expect(await refusalCode(bookVlsWithInvite(deps, token, { ...trainee, delivery_address: address }, payLinks))).toBe('invalid-state');
    expect(await getGroupRequest(deps, client, LS, created.id)).toMatchObject({ status: 'cancelled', items: [{ status: 'cancelled', booking_id: null }] });
  });

  it('refuses a course that is not a virtual life-support course', async () => {
    const { client, candidate } = await lsAgency();
    expect(await refusalCode(lsCreate(client, { candidate_id: candidate, course_id: 99999 }))).toBe('invalid-field');
  });
});
