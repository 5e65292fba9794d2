import { topUpCredits } from '../../functions/core/commerce/wallets.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { addDays, wallClock } from '../../functions/core/platform/time.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  PRACTICAL_FAMILY,
  type Course,
  type TrainingEventItem,
} from '../../functions/core/practical-training/catalogue.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, DEMO_CREDENTIALS, mailTo, startTestStack } from '../support/local-stack.js';

/** A candidate books through an e-mailed invite, with nothing but the link. */

let stack: LocalStack;
let base: string;
let token: string;
let course: Course;
let event: TrainingEventItem;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const post = (url: string, form: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: FORM, body: new URLSearchParams(form).toString(), redirect: 'manual' });
const trainee = {
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email: 'grace.e2e@example.org',
  phone: '+447700900123',
  job_role: 'Healthcare assistant',
  nmc_number: '',
};

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families[PRACTICAL_FAMILY]!;
  token = (await call(`${base}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
  const deps = depsFromEnv();
  course = await createCourse(deps, { name: 'Invite test course', code: 'INV-E2E', duration_minutes: 180, certificate_validity_months: 12, price_minor: 6000 });
  const location = await createLocation(deps, {
    name: 'Invite Test Centre',
    address: { line1: '1 Test Row', line2: null, town: 'Leeds', postcode: 'LS1 5AB' },
  });
  const date = addDays(wallClock(new Date(), deps.config.serviceTimeZone).date, 10);
  event = await createTrainingEvent(deps, { course_id: course.id, location_id: location.id, date, start_time: '09:30', capacity: 3 });
  await topUpCredits(deps, 'demo-northwind', PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 3);
});
afterAll(() => stack?.stop());

async function invite(body: Record<string, unknown>, key?: string) {
  const created = await call(`${base}/booking-invites`, {
    token,
    body: { candidate: { first_name: 'Grace', last_name: 'Adeyemi', email: trainee.email }, course_id: course.id, pay_option: 'credits', ...body },
    headers: key ? { 'idempotency-key': key } : {},
  });
  expect(created.status).toBe(201);
  return created.body as { id: number; invite_url: string; status: string };
}

describe('a booking invite', () => {
  it('is e-mailed and marked sent, opened by a GET that never uses it, and books once for concurrent posts', async () => {
    const created = await invite({ training_event_id: event.id, message: 'Please book before your first shift' }, 'invite-e2e-1');
    expect(created.status).toBe('queued');
    expect((await invite({ training_event_id: event.id, message: 'Please book before your first shift' }, 'invite-e2e-1')).id).toBe(created.id);
    const [mail] = await mailTo(stack, trainee.email);
    expect(mail).toContain(created.invite_url);
    const read = () => call(`${base}/booking-invites/${created.id}`, { token }).then((r) => r.body);
    await eventually(async () => (await read()).status === 'sent', { what: 'the invite marked sent after hand-over' });
    expect(
      (await call(`${base}/booking-invites`, { token })).body.data.some(
        (i: { id: number; invite_url?: string }) => i.id === created.id && i.invite_url === undefined,
      ),
    ).toBe(true);

    const page = await fetch(created.invite_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Invite test course');
    await fetch(created.invite_url);
    expect(await read()).toMatchObject({ status: 'opened', open_count: 2, booking_id: null });

    // The invite's hold and the agency's own hold on the same event do not block each other.
    const held = await post(`${created.invite_url}/hold`, { training_event_id: String(event.id) });
    expect(held.status).toBe(303);
    expect(await (await fetch(created.invite_url)).text()).toContain('A seat is held for you');
    const agencyHold = await call(`${base}/seats/hold`, { token, body: { training_event_id: event.id } });
    expect(agencyHold.status).toBe(201);

    const posts = await Promise.all(Array.from({ length: 5 }, () => post(created.invite_url, trainee)));
    expect(posts.map((r) => r.status).sort()).toEqual([200, 410, 410, 410, 410]);
    expect((await fetch(created.invite_url)).status).toBe(410);
    const used = await read();
    expect(used).toMatchObject({ status: 'used', booking_id: expect.any(Number) });
    const booking = (await call(`${base}/bookings/${used.booking_id}`, { token })).body;
    expect(booking).toMatchObject({
      booking_invite_id: created.id,
      booked_by: 'Candidate',
      pay_option: 'credits',
      booking_status: 'booked',
      certificate_available: false,
    });

    const certificate = await call(`${base}/bookings/${used.booking_id}/certificate`, { token });
    expect(certificate.status).toBe(404);
    expect(certificate.body).toMatchObject({ type: '/problems/certificate-unavailable', reason: 'not_issued' });
    await call(`${base}/seats/hold/${agencyHold.body.hold_hash}`, { token, method: 'DELETE' });
  });

  it('with candidate_pays, sends the candidate on to the payment page', async () => {
    const created = await invite({ pay_option: 'candidate_pays' });
    expect((await post(`${created.invite_url}/hold`, { training_event_id: String(event.id) })).status).toBe(303);
    const booked = await post(created.invite_url, trainee);
    expect(booked.status).toBe(303);
    const payUrl = booked.headers.get('location')!;
    expect(payUrl.startsWith(`${base}/pay/`)).toBe(true);
    expect(await (await fetch(payUrl)).text()).toContain('Pay £60.00');
    expect((await post(payUrl)).status).toBe(303);
    expect(await (await fetch(payUrl)).text()).toContain('Payment received');
  });

  it('answers a refused booking with the form while the seat is held, and sends a candidate whose seat is gone back to the dates, saying so', async () => {
    const created = await invite({});
    // Posted with no seat held: back to the page's dates, which say why; a notice the page does not set is ignored.
    const seatless = await post(created.invite_url, trainee);
    expect(seatless.status).toBe(303);
    expect(seatless.headers.get('location')).toBe(`${created.invite_url}?notice=seat-lost`);
    const back = await (await fetch(seatless.headers.get('location')!)).text();
    expect(back).toContain('Your seat was no longer held. Please choose a date again.');
    expect(back).toContain(`name="training_event_id" value="${event.id}"`);
    expect(await (await fetch(`${created.invite_url}?notice=anything-else`)).text()).not.toContain('no longer held');

    // With the seat held, a refused form is the form again, as posted, and only the form.
    expect((await post(`${created.invite_url}/hold`, { training_event_id: String(event.id) })).status).toBe(303);
    const bad = await post(created.invite_url, { ...trainee, email: 'not-an-address' });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toContain('id="email-error"');
    expect(badHtml).toContain('value="not-an-address"');
    expect(badHtml).toContain('A seat is held for you');
    expect(badHtml).not.toContain('Choose this date');

    // The seat given back (another tab) before the form is posted: back to the dates; nothing was booked.
    expect((await post(`${created.invite_url}/release`)).status).toBe(303);
    const late = await post(created.invite_url, trainee);
    expect(late.status).toBe(303);
    expect(late.headers.get('location')).toBe(`${created.invite_url}?notice=seat-lost`);
    expect((await call(`${base}/booking-invites/${created.id}`, { token })).body).toMatchObject({ booking_id: null });
  });

  it('refuses an unknown link with 404, and answers invalid bodies with 422', async () => {
    expect((await fetch(`${base}/invite/${'x'.repeat(43)}`)).status).toBe(404);
    const refused = await call(`${base}/booking-invites`, {
      token,
      body: { candidate: { first_name: 'A', last_name: 'B', email: 'a@example.org' }, course_id: course.id, pay_option: 'credits', expires_in_days: 61 },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].pointer).toBe('/expires_in_days');
  });
});

describe("the agency's booking link", () => {
  it('lists the open dates of a course, books one for candidate payment, shows form errors by their field, and takes five unpaid bookings at most', async () => {
    const deps = depsFromEnv();
    const location = await createLocation(deps, { name: 'Link Test Centre', address: { line1: '2 Test Row', line2: null, town: 'York', postcode: 'YO1 7HH' } });
    const date = addDays(wallClock(new Date(), deps.config.serviceTimeZone).date, 12);
    const roomy = await createTrainingEvent(deps, { course_id: course.id, location_id: location.id, date, start_time: '10:00', capacity: 10 });
    const riverside = (await call(`${base}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
    const { booking_url } = (await call(`${base}/client/booking-url`, { token: riverside })).body;
    expect(booking_url).toMatch(new RegExp(`^${base}/book/[A-Za-z0-9_-]+$`));

    const chooser = await fetch(booking_url);
    expect(chooser.status).toBe(200);
    const chooserHtml = await chooser.text();
    expect(chooserHtml).toContain('Book a training course with Riverside');
    expect(chooserHtml).toContain(`<option value="${course.id}"`);
    const dates = await (await fetch(`${booking_url}?course_id=${course.id}`)).text();
    expect(dates).toContain(`value="${roomy.id}"`);
    expect(dates).toContain('Link Test Centre, York (10 seats left)');

    // What the page's form posts: its course, the date chosen (none here) and the details.
    const bad = await post(booking_url, { ...trainee, course_id: String(course.id), email: 'not-an-address', training_event_id: '' });
    expect(bad.status).toBe(422);
    const badHtml = await bad.text();
    expect(badHtml).toContain('id="training_event_id-error"');
    expect(badHtml).toContain('id="email-error"');
    expect(badHtml).toContain('value="Grace"');

    const emails = Array.from({ length: 6 }, (_, n) => `link.${n}.e2e@example.org`);
    const booked = await post(booking_url, { ...trainee, email: emails[0]!, training_event_id: String(roomy.id) });
    expect(booked.status).toBe(303);
    const payment = booked.headers.get('location')!;
    expect(payment).toMatch(new RegExp(`^${base}/pay/`));
    const [mail] = await mailTo(stack, emails[0]!);
    expect(mail).toContain(payment);
    const bookings = (await call(`${base}/bookings?training_event_id=${roomy.id}`, { token: riverside })).body.data;
    expect(bookings).toEqual([
      expect.objectContaining({ booked_by: 'Candidate', pay_option: 'candidate_pays', booking_status: 'pending_payment', pay_status: 'pending' }),
    ]);
    // Northwind's bookings do not show it.
    expect((await call(`${base}/bookings?training_event_id=${roomy.id}`, { token })).body.data).toEqual([]);

    const more = await Promise.all(emails.slice(1).map((e) => post(booking_url, { ...trainee, email: e, training_event_id: String(roomy.id) })));
    expect(more.map((r) => r.status).sort()).toEqual([303, 303, 303, 303, 422]);
    expect((await call(`${base}/bookings?training_event_id=${roomy.id}`, { token: riverside })).body.data).toHaveLength(5);
    expect((await call(`${base}/training-events/${roomy.id}`, { token: riverside })).body.seats_available).toBe(5);
  });
});
