import { getClient, setClientEnabled } from '../../functions/core/access/clients.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { randomToken } from '../../functions/core/platform/secrets.js';
import { readableWallTime } from '../../functions/core/platform/time.js';
import { transact } from '../../functions/core/platform/transact.js';
import { planVlsInvite } from '../../functions/core/virtual-life-support/invites.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';

/**
 * Virtual life support's public booking link (`/book/{t}`) and its invite
 * holds (`/invite/{t}/hold`, `/release`), as a candidate and an agency see
 * them over HTTP.
 */

let stack: LocalStack;
let base: string;
let northwind: string;
let riverside: string;

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const post = (url: string, form: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: FORM, body: new URLSearchParams(form).toString(), redirect: 'manual' });
const person = { first_name: 'Grace', last_name: 'Adeyemi', phone: '+447700900456', job_role: 'Registered Nurse', nmc_number: '' };
const address = { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' };
type Slot = { date: string; time: string; seats_available: number };
/** The no-equipment demo course (VANA-U) and the manikin course (VBLS-M). */
const PLAIN = 2;
const KIT = 1;

beforeAll(async () => {
  stack = await startTestStack({ PAYMENT_PROVIDER: 'test' });
  base = stack.info.families['virtual-life-support']!;
  const tokens = await Promise.all(
    [DEMO_CREDENTIALS.northwind, DEMO_CREDENTIALS.riverside].map(async (c) => (await call(`${base}/auth/token`, { body: c })).body.access_token as string),
  );
  [northwind, riverside] = [tokens[0]!, tokens[1]!];
});
afterAll(() => stack?.stop());

const slotsOf = async (course: number, token = riverside): Promise<Slot[]> => (await call(`${base}/timeslots?course_id=${course}`, { token })).body.data;
const seatsAt = async (course: number, slot: Slot) => (await slotsOf(course)).find((s) => s.date === slot.date && s.time === slot.time)?.seats_available ?? 0;

/** A life-support invite of the client's, as a portal v2 request writes one; its page's URL. */
async function vlsInvite(clientId: string, course: number, pay_option: 'candidate_pays' | 'invoice' = 'candidate_pays'): Promise<string> {
  const deps = depsFromEnv();
  const token = randomToken(32);
  const client = (await getClient(deps, clientId))!;
  const plan = await planVlsInvite(
    deps,
    client,
    { candidate: { first_name: 'Grace', last_name: 'Adeyemi', email: `grace.${token.slice(0, 6)}@example.org` }, course_id: course, pay_option },
    () => '',
    { demo: { token } },
  );
  await transact(deps, plan.parts);
  return `${base}/invite/${token}`;
}

describe('the booking link', () => {
  it('GET /client/booking-url gives the page; a candidate books a time and pays within 2 hours', async () => {
    const url = await call(`${base}/client/booking-url`, { token: northwind });
    expect(url.status).toBe(200);
    expect(url.body.booking_url).toMatch(new RegExp(`^${base}/book/[A-Za-z0-9_-]+$`));
    const link: string = url.body.booking_url;

    const page = await fetch(`${link}?course_id=${PLAIN}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<select id="course_id" name="course_id">');
    expect(html).not.toContain('<script');
    const slot = (await slotsOf(PLAIN)).at(-1)!;
    expect(html).toContain(`name="slot" value="${slot.date}T${slot.time}"`);

    const before = await seatsAt(PLAIN, slot);
    const booked = await post(link, { course_id: String(PLAIN), slot: `${slot.date}T${slot.time}`, ...person, email: 'grace.link@example.org' });
    expect(booked.status).toBe(303);
    expect(booked.headers.get('location')).toMatch(new RegExp(`^${base}/pay/`));
    expect(await seatsAt(PLAIN, slot)).toBe(before - 1);
    const mine = (await call(`${base}/bookings?course_id=${PLAIN}`, { token: northwind })).body.data.find(
      (b: { candidate: { email: string } }) => b.candidate.email === 'grace.link@example.org',
    );
    expect(mine).toMatchObject({
      booked_by: 'Candidate',
      pay_option: 'candidate_pays',
      booking_status: 'pending_payment',
      timeslot: { date: slot.date, time: slot.time },
    });
    const due = Date.parse(mine.payment_due_at) - Date.parse(mine.created_at);
    expect(due).toBeLessThanOrEqual(2 * 3_600_000 + 1000);
    expect(due).toBeGreaterThan(2 * 3_600_000 - 60_000);
  });

  it('asks for the address on the manikin course; takes at most five unpaid bookings at once; a rotated link is 404', async () => {
    const link: string = (await call(`${base}/client/booking-url`, { token: riverside })).body.booking_url;
    const kitSlot = (await slotsOf(KIT)).at(-1)!;
    const noAddress = await post(link, { course_id: String(KIT), slot: `${kitSlot.date}T${kitSlot.time}`, ...person, email: 'grace.kit@example.org' });
    expect(noAddress.status).toBe(422);
    expect(await noAddress.text()).toContain('id="line1-error"');
    expect(
      (await post(link, { course_id: String(KIT), slot: `${kitSlot.date}T${kitSlot.time}`, ...person, ...address, email: 'grace.kit@example.org' })).status,
    ).toBe(303);

    const slot = (await slotsOf(PLAIN)).at(-2)!;
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++)
      statuses.push((await post(link, { course_id: String(PLAIN), slot: `${slot.date}T${slot.time}`, ...person, email: `grace.cap${n}@example.org` })).status);
    expect(statuses).toEqual([303, 303, 303, 303, 422]);
    const refused = await post(link, { course_id: String(PLAIN), slot: `${slot.date}T${slot.time}`, ...person, email: 'grace.cap9@example.org' });
    expect(refused.status).toBe(422);
    expect(await refused.text()).toContain('Too many bookings made through this page are waiting for payment');

    const rotated = await call(`${base}/client/booking-url/rotate`, { method: 'POST', token: riverside });
    expect(rotated.status).toBe(200);
    expect(rotated.body.booking_url).not.toBe(link);
    expect((await fetch(link)).status).toBe(404);
    expect((await fetch(rotated.body.booking_url)).status).toBe(200);
  });
});

describe('invite holds', () => {
  it('holds a seat while the candidate fills in the form, releases it, and books the held seat', async () => {
    const invite = await vlsInvite('demo-northwind', PLAIN);
    const page = await (await fetch(invite)).text();
    const slot = (await slotsOf(PLAIN)).at(-3)!;
    expect(page).toContain('Choose this time');
    expect(page).toContain(`action="${invite}/hold"`);
    const before = await seatsAt(PLAIN, slot);

    // Booking without a held seat books nothing: back to the times, which say why.
    const seatless = await post(invite, { ...person, email: 'grace.invite@example.org' });
    expect([seatless.status, seatless.headers.get('location')]).toEqual([303, `${invite}?notice=seat-lost`]);
    expect(await seatsAt(PLAIN, slot)).toBe(before);
    const held = await post(`${invite}/hold`, { slot: `${slot.date}T${slot.time}` });
    expect([held.status, held.headers.get('location')]).toEqual([303, invite]);
    expect(await seatsAt(PLAIN, slot)).toBe(before - 1); // the seat is the candidate's while they type
    const holding = await (await fetch(invite)).text();
    expect(holding).toContain(`A seat is held for you on <strong>${readableWallTime(slot.date, slot.time)}</strong>`);
    expect(holding).toContain(`action="${invite}/release"`);

    expect((await post(`${invite}/release`)).status).toBe(303);
    expect(await seatsAt(PLAIN, slot)).toBe(before);
    expect(await (await fetch(invite)).text()).not.toContain('A seat is held for you');

    expect((await post(`${invite}/hold`, { slot: `${slot.date}T${slot.time}` })).status).toBe(303);
    const booked = await post(invite, { ...person, email: 'grace.invite@example.org' });
    expect(booked.status).toBe(303);
    expect(booked.headers.get('location')).toMatch(new RegExp(`^${base}/pay/`));
    expect(await seatsAt(PLAIN, slot)).toBe(before - 1);
    expect((await fetch(invite)).status).toBe(410);
  });

  it("at most three of one timeslot's seats are held through one agency's invites: the rest see it busy", async () => {
    const slot = (await slotsOf(PLAIN)).at(-4)!;
    const invites = await Promise.all(Array.from({ length: 5 }, () => vlsInvite('demo-riverside', PLAIN)));
    const holds = await Promise.all(invites.map((url) => post(`${url}/hold`, { slot: `${slot.date}T${slot.time}` })));
    expect(holds.map((r) => r.status).sort()).toEqual([303, 303, 303, 422, 422]);
    expect(await holds.find((r) => r.status === 422)!.text()).toContain('busy just now: please try another date or again in a few minutes');
    const waiting = (await Promise.all(invites.map(async (url) => (await fetch(url)).text()))).filter((html) => !html.includes('A seat is held for you'));
    expect(waiting).toHaveLength(2);
    for (const html of waiting) {
      expect(html).toContain(
        `${readableWallTime(slot.date, slot.time)}</span><span class="where">Live by video</span><span class="busy">busy just now, please try another date or again in a few minutes`,
      );
      expect(html).not.toContain(`name="slot" value="${slot.date}T${slot.time}"`);
    }
    // Another agency still holds a seat of it.
    const other = await vlsInvite('demo-northwind', PLAIN);
    expect((await post(`${other}/hold`, { slot: `${slot.date}T${slot.time}` })).status).toBe(303);
  });

  it("a disabled agency's link and invites answer 410 and take nothing", async () => {
    const deps = depsFromEnv();
    const invite = await vlsInvite('demo-northwind', PLAIN);
    const link: string = (await call(`${base}/client/booking-url`, { token: northwind })).body.booking_url;
    const slot = (await slotsOf(PLAIN)).at(-5)!;
    const before = await seatsAt(PLAIN, slot);
    await setClientEnabled(deps, 'demo-northwind', false);
    try {
      expect((await fetch(link)).status).toBe(410);
      expect((await post(link, { course_id: String(PLAIN), slot: `${slot.date}T${slot.time}`, ...person, email: 'grace.gone@example.org' })).status).toBe(410);
      expect((await fetch(invite)).status).toBe(410);
      expect((await post(`${invite}/hold`, { slot: `${slot.date}T${slot.time}` })).status).toBe(410);
      expect((await post(`${invite}/release`)).status).toBe(410);
      expect(await seatsAt(PLAIN, slot)).toBe(before);
    } finally {
      await setClientEnabled(deps, 'demo-northwind', true);
    }
  });
});
