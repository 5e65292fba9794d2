import { request } from 'node:http';
import { createClient, setClientEnabled } from '../../functions/core/access/clients.js';
import { bookingPageToken } from '../../functions/core/bookings/booking-link.js';
import { readWallet, topUpCredits, walletKeys } from '../../functions/core/commerce/wallets.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { addDays, wallClock } from '../../functions/core/platform/time.js';
import { listPracticalBookings } from '../../functions/core/practical-training/bookings.js';
import {
  createCourse,
  createLocation,
  createTrainingEvent,
  PRACTICAL_FAMILY,
  type Course,
  type Location,
} from '../../functions/core/practical-training/catalogue.js';
import { createInvite } from '../../functions/core/practical-training/invites.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';

/**
 * Seats and links cannot be hoarded,
 * as an agency, a candidate and another agency see it over HTTP.
 */

let stack: LocalStack;
let base: string;
let northwind: string;
let riverside: string;
let course: Course;
let location: Location;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const post = (url: string, form: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: FORM, body: new URLSearchParams(form).toString(), redirect: 'manual' });
const trainee = {
  first_name: 'Grace',
  last_name: 'Adeyemi',
  email: 'grace.hoard@example.org',
  phone: '+447700900123',
  job_role: 'Healthcare assistant',
  nmc_number: '',
};
const candidate = { first_name: 'Grace', last_name: 'Adeyemi', email: 'grace.hoard@example.org' };

/** A GET from a given loopback address (each is another visitor to the local server). */
const getFrom = (url: string, localAddress: string) =>
  new Promise<number>((resolve, reject) => {
    const req = request(url, { localAddress }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });

beforeAll(async () => {
  // A low per-link ceiling, so that the test can reach it; the per-address limit is the default (30 a minute).
  stack = await startTestStack({ LINK_REQUESTS_PER_TOKEN_PER_MINUTE: '40' });
  base = stack.info.families[PRACTICAL_FAMILY]!;
  const tokens = await Promise.all(
    [DEMO_CREDENTIALS.northwind, DEMO_CREDENTIALS.riverside].map(async (c) => (await call(`${base}/auth/token`, { body: c })).body.access_token as string),
  );
  [northwind, riverside] = [tokens[0]!, tokens[1]!];
  const deps = depsFromEnv();
  course = await createCourse(deps, {
    name: 'Hoarding test course',
    code: 'HRD-E2E',
    duration_minutes: 180,
    certificate_validity_months: 12,
    price_minor: 6000,
  });
  location = await createLocation(deps, { name: 'Hoarding Test Centre', address: { line1: '3 Test Row', line2: null, town: 'Hull', postcode: 'HU1 1AA' } });
});
afterAll(() => stack?.stop());

const newEvent = (days: number, capacity: number) =>
  createTrainingEvent(depsFromEnv(), {
    course_id: course.id,
    location_id: location.id,
    date: addDays(wallClock(new Date(), 'Europe/London').date, days),
    start_time: '09:30',
    capacity,
  });

describe("seats held through one agency's invites", () => {
  it('are at most three of one event: the others see the date as busy, and other agencies still hold and book it', async () => {
    const deps = depsFromEnv();
    const event = await newEvent(10, 8);
    await topUpCredits(deps, 'demo-northwind', PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 8);
    const invites: string[] = [];
    for (let n = 0; n < 8; n++) {
      const created = await call(`${base}/booking-invites`, {
        token: northwind,
        body: { candidate, course_id: course.id, training_event_id: event.id, pay_option: 'credits' },
      });
      expect(created.status).toBe(201);
      invites.push(created.body.invite_url);
    }
    const holds = await Promise.all(invites.map((url) => post(`${url}/hold`, { training_event_id: String(event.id) })));
    expect(holds.map((r) => r.status).sort()).toEqual([303, 303, 303, 422, 422, 422, 422, 422]);
    const refused = holds.find((r) => r.status === 422)!;
    expect(await refused.text()).toContain('busy just now: please try another date or again in a few minutes');
    // An invite that holds nothing shows the date as busy, and offers no button to hold it.
    const pages = await Promise.all(invites.map(async (url) => (await fetch(url)).text()));
    const waiting = pages.filter((html) => !html.includes('A seat is held for you'));
    expect(waiting).toHaveLength(5);
    for (const html of waiting) {
      expect(html).toContain('busy just now, please try another date or again in a few minutes');
      expect(html).not.toContain(`name="training_event_id" value="${event.id}"`);
    }

    // Another agency still sees the event open with its free seats, and holds one.
    const seen = await call(`${base}/training-events/${event.id}`, { token: riverside });
    expect(seen.body).toMatchObject({ status: 'open', seats_available: 5 });
    expect((await call(`${base}/seats/hold`, { token: riverside, body: { training_event_id: event.id } })).status).toBe(201);

    // A candidate who books frees a place for the next invite.
    const holding = invites.filter((_, i) => !waiting.includes(pages[i]!));
    expect((await post(holding[0]!, trainee)).status).toBe(200);
    const next = invites.find((_, i) => waiting.includes(pages[i]!))!;
    expect((await post(`${next}/hold`, { training_event_id: String(event.id) })).status).toBe(303);
  });

  it("refuses an invite by credits or balance that the agency's funds cannot cover with its open invites", async () => {
    const deps = depsFromEnv();
    const other = await createCourse(deps, {
      name: 'Unfunded course',
      code: 'UNF-E2E',
      duration_minutes: 120,
      certificate_validity_months: 12,
      price_minor: 600_000,
    });
    await topUpCredits(deps, 'demo-riverside', PRACTICAL_FAMILY, { kind: 'course', id: other.id, name: other.name }, 1);
    const body = (pay_option: string) => ({ candidate, course_id: other.id, pay_option });
    expect((await call(`${base}/booking-invites`, { token: riverside, body: body('credits') })).status).toBe(201);
    const second = await call(`${base}/booking-invites`, { token: riverside, body: body('credits') });
    expect(second.status).toBe(422);
    expect(second.body).toMatchObject({ type: '/problems/insufficient-credits', credits: 1, open_invites: 1 });
    // £6,000 a place: more than the demo balance.
    const dear = await call(`${base}/booking-invites`, { token: riverside, body: body('balance') });
    expect(dear.status).toBe(422);
    expect(dear.body).toMatchObject({ type: '/problems/insufficient-balance' });
    expect((await call(`${base}/booking-invites`, { token: riverside, body: body('candidate_pays') })).status).toBe(201);
  });
});

describe('a public booking link', () => {
  it('limits each visitor of a link, not the link: another address still gets the page, up to the link ceiling', async () => {
    const clinical = stack.info.families['clinical-interview']!;
    const token = (await call(`${clinical}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
    const { booking_url } = (await call(`${clinical}/client/booking-url`, { token })).body;
    // Fixed one-minute windows: start well inside one.
    const second = new Date().getUTCSeconds();
    if (second > 40) await new Promise((resolve) => setTimeout(resolve, (61 - second) * 1000));
    const first = [];
    for (let n = 0; n < 31; n++) first.push(await getFrom(booking_url, '127.0.0.1'));
    expect(first.slice(0, 30).every((s) => s === 200)).toBe(true);
    expect(first[30]).toBe(429);
    // Another visitor is not locked out by the first; the link's own ceiling (40 here, 600 by default) still holds.
    const other = [];
    for (let n = 0; n < 11; n++) other.push(await getFrom(booking_url, '127.0.0.2'));
    expect(other).toEqual([...Array(10).fill(200), 429]);
  });

  it('can be rotated: the old link is 404 at once, the new one books, and an anonymous unpaid booking is due in 2 hours', async () => {
    const { booking_url: old } = (await call(`${base}/client/booking-url`, { token: northwind })).body;
    expect((await fetch(old)).status).toBe(200);
    const rotated = await call(`${base}/client/booking-url/rotate`, { token: northwind, method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.booking_url).toMatch(new RegExp(`^${base}/book/[A-Za-z0-9_-]+$`));
    expect(rotated.body.booking_url).not.toBe(old);
    expect((await fetch(old)).status).toBe(404);
    expect((await post(old, { ...trainee, course_id: String(course.id), training_event_id: '1' })).status).toBe(404);
    expect((await call(`${base}/client/booking-url`, { token: northwind })).body.booking_url).toBe(rotated.body.booking_url);
    // Each family's link is its own: rotating virtual life support's leaves this one as it is.
    const vls = stack.info.families['virtual-life-support']!;
    const vlsToken = (await call(`${vls}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
    const vlsRotated = await call(`${vls}/client/booking-url/rotate`, { token: vlsToken, method: 'POST' });
    expect([vlsRotated.status, vlsRotated.body.booking_url]).toEqual([200, expect.stringMatching(new RegExp(`^${vls}/book/`))]);
    expect((await call(`${base}/client/booking-url`, { token: northwind })).body.booking_url).toBe(rotated.body.booking_url);

    const event = await newEvent(12, 10);
    const booked = await post(rotated.body.booking_url, {
      ...trainee,
      email: 'link.deadline@example.org',
      course_id: String(course.id),
      training_event_id: String(event.id),
    });
    expect(booked.status).toBe(303);
    const [booking] = (await call(`${base}/bookings?training_event_id=${event.id}`, { token: northwind })).body.data;
    expect(booking).toMatchObject({ booked_by: 'Candidate', booking_status: 'pending_payment' });
    expect(Date.parse(booking.payment_due_at) - Date.parse(booking.created_at)).toBe(2 * 3_600_000);
  });
});

describe("a disabled agency's links and invites", () => {
  it('answer 410 with a plain page and take no hold, booking or charge', async () => {
    const deps = depsFromEnv();
    const { client } = await createClient(deps, { name: 'Lapsed Staffing Ltd' });
    const id = client.clientId;
    await topUpCredits(deps, id, PRACTICAL_FAMILY, { kind: 'course', id: course.id, name: course.name }, 2);
    const event = await newEvent(14, 5);
    const invite = await createInvite(deps, id, { candidate, course_id: course.id, pay_option: 'credits' }, { invite: (t) => `${base}/invite/${t}` });
    const link = `${base}/book/${await bookingPageToken(deps, id, PRACTICAL_FAMILY)}`;
    expect((await fetch(invite.invite_url)).status).toBe(200);
    expect((await fetch(link)).status).toBe(200);

    await setClientEnabled(deps, id, false);
    const answers = [
      await fetch(invite.invite_url),
      await post(`${invite.invite_url}/hold`, { training_event_id: String(event.id) }),
      await post(invite.invite_url, trainee),
      await post(`${invite.invite_url}/release`),
      await fetch(link),
      await post(link, { ...trainee, course_id: String(course.id), training_event_id: String(event.id) }),
    ];
    expect(answers.map((r) => r.status)).toEqual([410, 410, 410, 410, 410, 410]);
    const html = await answers[0]!.text();
    expect(answers[0]!.headers.get('content-type')).toContain('text/html');
    expect(html).toContain('This link is no longer in use');
    expect(await answers[4]!.text()).toContain('This link is no longer in use');

    expect((await listPracticalBookings(deps, id, { limit: 10 })).data).toEqual([]);
    expect((await readWallet(deps, walletKeys.credits(id, PRACTICAL_FAMILY, course.id))).balance).toBe(2);
    const seen = await call(`${base}/training-events/${event.id}`, { token: northwind });
    expect(seen.body.seats_available).toBe(5);
  });
});
