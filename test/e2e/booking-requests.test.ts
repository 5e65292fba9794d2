import { topUpCredits } from '../../functions/core/commerce/wallets.js';
import { depsFromEnv, type Deps } from '../../functions/core/platform/deps.js';
import { addDays, wallClock } from '../../functions/core/platform/time.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  PRACTICAL_FAMILY,
  type Course,
  type TrainingEventItem,
} from '../../functions/core/practical-training/catalogue.js';
import { issueCertificate } from '../../functions/core/practical-training/certificates.js';
import { markPracticalAttendance, markPracticalResult } from '../../functions/core/practical-training/operator.js';
import { createCourse as createVlsCourse, createSession } from '../../functions/core/virtual-life-support/catalogue.js';
import { issueVlsCertificate } from '../../functions/core/virtual-life-support/certificates.js';
import { markVlsAttendance, markVlsResult } from '../../functions/core/virtual-life-support/operator.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, DEMO_CREDENTIALS, mailTo, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * Practical training requests end to end:
 * the agency asks through portal v2; the candidate gets the practical
 * training family's invite e-mail, books on its page with nothing but the
 * link; the operator marks the outcome; the request completes with the
 * certificate on its item, told by webhooks.
 */

let stack: LocalStack;
let receiver: Receiver;
let portal: string;
let token: string;
let course: Course;
let event: TrainingEventItem;
let deps: Deps;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const post = (url: string, form: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: FORM, body: new URLSearchParams(form).toString(), redirect: 'manual' });
const trainee = (email: string) => ({
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email,
  phone: '+447700900123',
  job_role: 'Healthcare assistant',
  nmc_number: '',
});

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  portal = stack.info.families['portal-v2']!;
  token = (await call(`${portal}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
  deps = depsFromEnv();
  course = await createCourse(deps, {
    name: 'Request test course',
    code: 'REQ-E2E',
    duration_minutes: 180,
    certificate_validity_months: 12,
    price_minor: 6000,
  });
  const location = await createLocation(deps, {
    name: 'Request Test Centre',
    address: { line1: '2 Test Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' },
  });
  event = await createTrainingEvent(deps, {
    course_id: course.id,
    location_id: location.id,
    date: addDays(wallClock(new Date(), deps.config.serviceTimeZone).date, 10),
    start_time: '09:30',
    capacity: 4,
  });
  await topUpCredits(deps, 'demo-northwind', PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 4);
  const kinds = [
    'practical_training_request.created',
    'practical_training_request.completed',
    'request_item.booked',
    'request_item.certified',
    'request_item.failed',
  ];
  expect((await call(`${portal}/webhooks`, { token, body: { name: 'Bookings', url: receiver.url, events: kinds } })).status).toBe(201);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

let n = 0;
async function requested(body: Record<string, unknown> = {}, as = token) {
  const email = `pt${++n}.${Date.now()}@example.org`;
  const candidate = (await call(`${portal}/candidates`, { token: as, body: { first_name: 'Grace', last_name: 'Adeyemi', email } })).body.data;
  const created = await call(`${portal}/practical-training-requests`, {
    token: as,
    body: { candidate_id: candidate.id, course_id: course.id, training_event_id: event.id, pay_option: 'credits', ...body },
  });
  return { created, email };
}
const read = async (id: number, group = 'practical-training-requests') => (await call(`${portal}/${group}/${id}`, { token })).body.data;
const hooks = (type: string, requestId: number) =>
  receiver.received.map((r) => JSON.parse(r.body)).filter((e) => e.type === type && (e.data.request_id ?? e.data.id) === requestId);

/** The candidate books on the family's page with the e-mailed link only. */
async function bookThroughMail(email: string) {
  const [mail] = await mailTo(stack, email);
  const link = /(http:\/\/\S+\/invite\/[A-Za-z0-9_-]+)/.exec(mail!)![1]!;
  expect((await fetch(link)).status).toBe(200);
  expect((await post(`${link}/hold`, { training_event_id: String(event.id) })).status).toBe(303);
  expect((await post(link, trainee(email))).status).toBe(200);
  return link;
}

const afterStart = (): Deps => ({ ...deps, clock: () => new Date(Date.parse(event.start_at) + 3_600_000) });

describe('a practical training request', () => {
  it('books through the family invite and completes with the certificate on its item', async () => {
    const { created, email } = await requested({ agency_contact_name: 'Sam Rota' });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      kind: 'practical_training',
      status: 'pending',
      submission_url: null,
      items: [{ status: 'sent', actor: { mode: 'booking_invite' }, booking_invite_id: expect.any(Number) }],
    });
    const id = created.body.data.id as number;

    const link = await bookThroughMail(email);
    const booked = await read(id);
    expect(booked).toMatchObject({ status: 'in_progress', items: [{ status: 'booked', booking_id: expect.any(Number) }] });
    const bookingId = booked.items[0].booking_id as number;

    await markPracticalAttendance(afterStart(), bookingId, 'attended');
    await markPracticalResult(afterStart(), bookingId, 'passed');
    const certified = await issueCertificate(afterStart(), bookingId);
    const done = await read(id);
    expect(done).toMatchObject({
      status: 'completed',
      outcome: 'satisfied',
      items: [
        {
          status: 'certified',
          valid_until: certified.certificate!.valid_until,
          data: { attendance: 'attended', result: 'passed', certificate: { number: certified.certificate!.number } },
        },
      ],
    });
    expect((await fetch(link)).status).toBe(410);
    await eventually(
      async () =>
        hooks('practical_training_request.completed', id).length === 1 &&
        hooks('request_item.certified', id).length === 1 &&
        hooks('request_item.booked', id).length === 1,
      {
        what: 'booked, certified and completed webhooks',
      },
    );
  });

  it('reissues a no-show with a new e-mailed invite, and answers 409 for an item that has not failed', async () => {
    const { created, email } = await requested();
    const id = created.body.data.id as number;
    const item = created.body.data.items[0];
    const early = await call(`${portal}/practical-training-requests/${id}/items/${item.id}/reissue`, { token, method: 'POST' });
    expect(early.status).toBe(409);
    expect(early.body).toMatchObject({ type: '/problems/invalid-state' });
    await bookThroughMail(email);
    await markPracticalAttendance(afterStart(), (await read(id)).items[0].booking_id, 'no_show');
    expect(await read(id)).toMatchObject({ items: [{ status: 'failed' }] });
    await eventually(async () => hooks('request_item.failed', id).length === 1, { what: 'the failed item webhook' });

    const reissued = await call(`${portal}/practical-training-requests/${id}/items/${item.id}/reissue`, { token, method: 'POST' });
    expect(reissued.status).toBe(200);
    expect(reissued.body).toMatchObject({ message: `Item ${item.id} reissued`, data: { items: [{ status: 'sent', booking_id: null }] } });
    expect(reissued.body.data.items[0].booking_invite_id).not.toBe(item.booking_invite_id);
    expect(await mailTo(stack, email, 2)).toHaveLength(2);
  });

  it('refuses invoice without invoicing (422) and a foreign request (404)', async () => {
    const riverside = (await call(`${portal}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
    const { created } = await requested({ pay_option: 'invoice' }, riverside);
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({ type: '/problems/invoice-disabled' });
    const mine = (await requested()).created.body.data;
    expect(
      (await call(`${portal}/practical-training-requests/${mine.id}/items/${mine.items[0].id}/reissue`, { token: riverside, method: 'POST' })).status,
    ).toBe(404);
  });
});

describe('a life support request', () => {
  it("books on the virtual life-support family's own invite page, with the delivery address, and completes with the certificate", async () => {
    const kit = await createVlsCourse(deps, {
      name: 'Virtual ILS e2e',
      code: `VILS-${Date.now()}`,
      duration_minutes: 180,
      equipment_required: true,
      price_minor: 7500,
      seats_per_session: 6,
    });
    const date = addDays(wallClock(new Date(), deps.config.serviceTimeZone).date, 21);
    const session = await createSession(deps, { course_id: kit.id, date, start_time: '10:00' });
    await topUpCredits(deps, 'demo-northwind', 'virtual-life-support', { ...kit, kind: 'course' }, 2);
    const email = `ls${Date.now()}@example.org`;
    const candidate = (await call(`${portal}/candidates`, { token, body: { first_name: 'Grace', last_name: 'Adeyemi', email } })).body.data;
    const created = await call(`${portal}/life-support-requests`, { token, body: { candidate_id: candidate.id, course_id: kit.id, pay_option: 'credits' } });
    expect(created.status).toBe(201);
    const id = created.body.data.id as number;

    const [mail] = await mailTo(stack, email);
    const link = /(http:\/\/\S+\/virtual-life-support\/invite\/[A-Za-z0-9_-]+)/.exec(mail!)![1]!;
    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(`value="${date}T10:00"`);
    expect((await read(id, 'life-support-requests')).items[0].status).toBe('opened');
    // The form posted with no seat held (run out, or given back in another tab): back to the times, saying why.
    const seatless = await post(link, { ...trainee(email), line1: '4 Mill Road', town: 'Leeds', postcode: 'ls6 2ab' });
    expect(seatless.status).toBe(303);
    expect(seatless.headers.get('location')).toBe(`${link}?notice=seat-lost`);
    const back = await (await fetch(seatless.headers.get('location')!)).text();
    expect(back).toContain('Your seat was no longer held. Please choose a time again.');
    expect(back).toContain(`value="${date}T10:00"`);
    expect(await (await fetch(`${link}?notice=anything-else`)).text()).not.toContain('no longer held');
    // Choosing the time holds its seat while the candidate fills in the form, which asks for the address.
    expect((await post(`${link}/hold`, { slot: `${date}T10:00` })).status).toBe(303);
    expect(await (await fetch(link)).text()).toContain('name="postcode"');

    const form = { ...trainee(email), slot: `${date}T10:00` };
    const missing = await post(link, form);
    expect(missing.status).toBe(422);
    // The form again, as it was posted, and only the form: the seat is still held.
    const missingHtml = await missing.text();
    expect(missingHtml).toContain('Please correct the highlighted answers');
    expect(missingHtml).toContain('A seat is held for you');
    expect(missingHtml).toContain(`value="${email}"`);
    expect(missingHtml).not.toContain('Choose this time');
    const booked = await post(link, { ...form, line1: '4 Mill Road', town: 'Leeds', postcode: 'ls6 2ab' });
    expect(booked.status).toBe(200);
    expect(await booked.text()).toContain('You are booked');
    expect((await fetch(link)).status).toBe(410);
    const item = (await read(id, 'life-support-requests')).items[0];
    expect(item).toMatchObject({ status: 'booked', booking_id: expect.any(Number) });

    const later: Deps = { ...deps, clock: () => new Date(Date.parse(session.start_at) + 3_600_000) };
    await markVlsAttendance(later, item.booking_id, 'attended');
    await markVlsResult(later, item.booking_id, 'passed');
    await issueVlsCertificate(later, item.booking_id);
    expect(await read(id, 'life-support-requests')).toMatchObject({
      status: 'completed',
      items: [{ status: 'certified', data: { certificate: { number: expect.any(String) } } }],
    });
  });
});
