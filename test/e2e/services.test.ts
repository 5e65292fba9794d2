import { cancelBooking, rescheduleBooking } from '../../functions/core/clinical-interview/booking-admin.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';

/**
 * The Services API: a read-only feed
 * of the caller's clinical interview bookings, over clinical interview
 * tokens. The feed waits 1 second for changes to settle here (5 by default).
 */

const SETTLE_SECONDS = 1;
let stack: LocalStack;
let clinical: string;
let services: string;
const tokens: Record<string, string> = {};

const token = async (family: string, who: keyof typeof DEMO_CREDENTIALS) =>
  (await call(`${stack.info.families[family]}/auth/token`, { body: DEMO_CREDENTIALS[who] })).body.access_token as string;

beforeAll(async () => {
  stack = await startTestStack({ FEED_SETTLE_SECONDS: String(SETTLE_SECONDS) });
  clinical = stack.info.families['clinical-interview']!;
  services = stack.info.families.services!;
  tokens.northwind = await token('clinical-interview', 'northwind');
  tokens.riverside = await token('clinical-interview', 'riverside');
  tokens.portal = await token('portal-v2', 'northwind');
  tokens.practical = await token('practical-training', 'northwind');
});
afterAll(() => stack?.stop());

const candidate = {
  first_name: 'Mary',
  last_name: 'Seacole',
  email: 'mary.seacole@example.org',
  phone: '+447700900555',
  job_role: 'Registered Nurse',
  nmc_number: '12A3456B',
};

/** Books the `skip`-th free slot of type 1 for northwind through the clinical API. */
async function book(skip = 0): Promise<{ id: number; updated_at: string }> {
  const slots = (await call(`${clinical}/timeslots?interview_type_id=1`, { token: tokens.northwind })).body.data;
  const slot = slots[skip];
  const held = await call(`${clinical}/timeslots/hold`, { token: tokens.northwind, body: { interview_type_id: 1, date: slot.date, time: slot.time } });
  expect(held.status).toBe(201);
  const booked = await call(`${clinical}/bookings`, { token: tokens.northwind, body: { hold_hash: held.body.hold_hash, pay_option: 'invoice', ...candidate } });
  expect(booked.status).toBe(201);
  return booked.body;
}

/** Every page of a feed query. */
async function readAll(query: string, who = tokens.northwind!): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(`${services}/bookings?${query}${cursor ? `&cursor=${cursor}` : ''}`, { token: who });
    expect(page.status).toBe(200);
    items.push(...page.body.data);
    cursor = page.body.next_cursor;
  } while (cursor);
  return items;
}

const since = (instant: string) => `updated_since=${encodeURIComponent(instant)}`;

describe('the Services API', () => {
  it('takes clinical interview tokens only, and has no token operations of its own', async () => {
    expect((await call(`${services}/bookings`, { token: tokens.northwind })).status).toBe(200);
    for (const other of [tokens.portal, tokens.practical]) {
      const refused = await call(`${services}/bookings`, { token: other });
      expect(refused.status).toBe(401);
      expect(refused.body.type).toBe('/problems/invalid-token');
    }
    expect((await call(`${services}/bookings`)).status).toBe(401);
    expect((await call(`${services}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).status).toBe(404);
    expect((await call(`${services}/webhooks`, { token: tokens.northwind })).status).toBe(404);
    // Not deprecated: no Deprecation header.
    expect((await call(`${services}/bookings`, { token: tokens.northwind })).headers.get('deprecation')).toBeNull();
  });

  it("lists the caller's bookings newest first, each the very object the clinical API answers, with updated_at", async () => {
    const first = await book(0);
    const second = await book(1);
    const listed = await call(`${services}/bookings?status=booked&limit=100`, { token: tokens.northwind });
    const ids = listed.body.data.map((b: any) => b.id);
    expect(ids.indexOf(second.id)).toBeLessThan(ids.indexOf(first.id));
    const direct = await call(`${clinical}/bookings/${first.id}`, { token: tokens.northwind });
    expect(listed.body.data.find((b: any) => b.id === first.id)).toEqual(direct.body);
    // Unchanged since it was made; to the millisecond, so a poller resumes exactly where it stopped.
    expect(direct.body.updated_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d$/);
    expect(Math.floor(Date.parse(direct.body.updated_at) / 1000)).toBe(Date.parse(direct.body.created_at) / 1000);
    // Another agency sees none of them.
    const theirs = await readAll('limit=100', tokens.riverside);
    expect(theirs.map((b) => b.id)).not.toContain(first.id);
  });

  it('with updated_since, follows reschedules and cancellations in change order, each booking once as it is now', async () => {
    const deps = depsFromEnv();
    const before = new Date().toISOString();
    const a = await book(2);
    const b = await book(3);
    const feed = () => readAll(`${since(before)}&limit=1`);
    // A change younger than the settling time waits for a later poll, then comes.
    const settled = await eventually(
      async () => {
        const items = await feed();
        return items.some((i) => i.id === b.id) && items;
      },
      { timeoutMs: 15_000, what: 'both bookings in the feed' },
    );
    expect(settled.map((i) => i.id)).toEqual([a.id, b.id]);

    // A reschedules, then b is cancelled: a moves behind b, b behind a, each with a later updated_at.
    const slots = (await call(`${clinical}/timeslots?interview_type_id=1`, { token: tokens.northwind })).body.data;
    const later = slots[slots.length - 1];
    const moved = await rescheduleBooking(deps, a.id, { date: later.date, time: later.time });
    const cancelled = await cancelBooking(deps, b.id, 'Candidate withdrew');
    expect(Date.parse(moved.updated_at)).toBeGreaterThan(Date.parse(a.updated_at));

    const last = settled[settled.length - 1].updated_at;
    const changed = await eventually(
      async () => {
        const items = await readAll(`${since(last)}`);
        return items.some((i) => i.id === b.id && i.booking_status === 'cancelled') && items;
      },
      { timeoutMs: 15_000, what: 'the cancellation in the feed' },
    );
    expect(changed.map((i) => [i.id, i.updated_at])).toEqual([
      [a.id, moved.updated_at],
      [b.id, cancelled.updated_at],
    ]);
    expect(changed[0]).toEqual((await call(`${clinical}/bookings/${a.id}`, { token: tokens.northwind })).body);
    expect(changed[0].start_date).toBe(moved.start_date);
    expect(changed[1]).toMatchObject({ booking_status: 'cancelled', interview_status: 'cancelled' });
    // Inclusive: the instant of the last change answers that change again; filters apply to the booking as it is now.
    expect((await readAll(since(cancelled.updated_at))).map((i) => i.id)).toEqual([b.id]);
    expect((await readAll(`${since(before)}&status=cancelled`)).map((i) => i.id)).toEqual([b.id]);
  });

  it('refuses what it cannot read, and cursors of the other list', async () => {
    const bad = await call(`${services}/bookings?updated_since=yesterday`, { token: tokens.northwind });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual([{ parameter: 'updated_since', detail: expect.stringMatching(/ISO 8601/) }]);
    expect((await call(`${services}/bookings?updated_since=2026-02-30T10:00:00Z`, { token: tokens.northwind })).status).toBe(422);
    // Offsets are read as given.
    expect((await call(`${services}/bookings?updated_since=${encodeURIComponent('2026-11-20T10:00:00+01:00')}`, { token: tokens.northwind })).status).toBe(200);

    const newest = await call(`${services}/bookings?limit=1`, { token: tokens.northwind });
    expect(newest.body.next_cursor).toEqual(expect.any(String));
    const crossed = await call(`${services}/bookings?${since('2020-01-01T00:00:00Z')}&limit=1&cursor=${newest.body.next_cursor}`, { token: tokens.northwind });
    expect(crossed.status).toBe(422);
    expect(crossed.body.type).toBe('/problems/invalid-cursor');
    // Another agency's cursor is no cursor of this list.
    const theirs = await call(`${services}/bookings?limit=1&cursor=${newest.body.next_cursor}`, { token: tokens.riverside });
    expect(theirs.status).toBe(422);
  });
});
