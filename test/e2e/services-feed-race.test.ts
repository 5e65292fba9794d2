import { createClient } from '../../functions/core/access/clients.js';
import { cancelBooking, rescheduleBooking } from '../../functions/core/clinical-interview/booking-admin.js';
import { createBooking } from '../../functions/core/clinical-interview/booking-api.js';
import { loadCatalog } from '../../functions/core/clinical-interview/catalog.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { addDays, wallClock } from '../../functions/core/platform/time.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { forgeHold, testCatalog } from '../support/clinical.js';
import { eventually } from '../support/eventually.js';
import { call, startTestStack } from '../support/local-stack.js';

/**
 * Writers and a poller at once:
 * several writers make, reschedule and cancel interview bookings of one
 * client while a poller follows `GET /services/bookings?updated_since=`,
 * resuming each time from the last `updated_at` it saw, as the documentation
 * tells it to. With the default settling time (5 s), the poller ends with
 * every booking as it is, saw every change or a later one, and got nothing
 * twice except at the inclusive bound of its next poll.
 */

const WRITERS = 4;
const BOOKINGS_PER_WRITER = 6;

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack();
});
afterAll(() => stack?.stop());

const ms = (instant: string) => Date.parse(instant);

it('misses no booking, reschedule or cancellation, and repeats only what the inclusive bound repeats', async () => {
  const deps = depsFromEnv();
  const { type } = await testCatalog(deps);
  const interviewer = (await loadCatalog(deps)).interviewers.find((i) => i.name === 'Dr Interviewer One')!;
  const { client, clientSecret } = await createClient(deps, { name: 'Feed Race Agency', invoiceEnabled: true });
  const clinical = stack.info.families['clinical-interview']!;
  const services = stack.info.families.services!;
  const token = (await call(`${clinical}/auth/token`, { body: { client_id: client.clientId, client_secret: clientSecret } })).body.access_token as string;

  // Every write as its writer saw it: the booking's id and the updated_at the write gave it.
  const writes: { id: number; updated_at: string }[] = [];
  const today = wallClock(deps.clock(), deps.config.serviceTimeZone).date;
  const links = { payment: (t: string) => `http://127.0.0.1/pay/${t}` };
  const candidate = {
    first_name: 'Ada',
    last_name: 'Race',
    email: 'ada.race@example.org',
    phone: '+447700900777',
    job_role: 'Registered Nurse',
    nmc_number: '12A3456B',
  };

  async function writer(w: number) {
    for (let i = 0; i < BOOKINGS_PER_WRITER; i++) {
      // Each booking its own day: the writers never compete for a slot, only for the feed.
      const date = addDays(today, 2 + w * BOOKINGS_PER_WRITER + i);
      const hold = await forgeHold(deps, client.clientId, type, interviewer.id, date, '09:00');
      const booked = await createBooking(deps, client.clientId, { hold_hash: hold, pay_option: 'invoice', ...candidate }, links);
      writes.push(booked);
      if (i % 3 !== 2) writes.push(await rescheduleBooking(deps, booked.id, { date, time: '10:30' }));
      if (i % 2 === 0) writes.push(await cancelBooking(deps, booked.id, 'race'));
    }
  }

  // The poller's view: the last state of each booking, every delivery with the bound of the poll that brought it.
  const latest = new Map<number, any>();
  const deliveries: { id: number; updated_at: string; since: string }[] = [];
  let watermark = new Date(deps.clock().getTime() - 1000).toISOString();
  async function poll() {
    const since = watermark;
    const got: any[] = [];
    let cursor: string | null = null;
    do {
      const page = await call(`${services}/bookings?updated_since=${encodeURIComponent(since)}&limit=7${cursor ? `&cursor=${cursor}` : ''}`, { token });
      expect(page.status).toBe(200);
      got.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    // Change order: updated_at, then id, strictly.
    for (let i = 1; i < got.length; i++) {
      const [a, b] = [got[i - 1], got[i]];
      expect(ms(a.updated_at) < ms(b.updated_at) || (ms(a.updated_at) === ms(b.updated_at) && a.id < b.id)).toBe(true);
    }
    for (const item of got) {
      expect(ms(item.updated_at)).toBeGreaterThanOrEqual(ms(since));
      deliveries.push({ id: item.id, updated_at: item.updated_at, since });
      if (!latest.has(item.id) || ms(latest.get(item.id).updated_at) <= ms(item.updated_at)) latest.set(item.id, item);
    }
    if (got.length) watermark = got[got.length - 1].updated_at;
  }

  let writing = true;
  const writers = Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w))).finally(() => (writing = false));
  while (writing) {
    await poll();
    // A poller's interval, not a wait for a result: the loop ends when the writers do.
    await new Promise((r) => setTimeout(r, 150));
  }
  await writers;

  const ids = [...new Set(writes.map((w) => w.id))];
  expect(ids).toHaveLength(WRITERS * BOOKINGS_PER_WRITER);
  const finalUpdatedAt = new Map<number, number>();
  for (const w of writes) finalUpdatedAt.set(w.id, Math.max(finalUpdatedAt.get(w.id) ?? 0, ms(w.updated_at)));
  // Polls go on until the last changes have settled and come.
  await eventually(
    async () => {
      await poll();
      return ids.every((id) => latest.has(id) && ms(latest.get(id).updated_at) === finalUpdatedAt.get(id));
    },
    { timeoutMs: 30_000, intervalMs: 500, what: 'the last change of every booking in the feed' },
  );

  // None missed: every write was seen, or a later state of its booking was; and the poller ends with each booking as it is.
  for (const write of writes) expect(ms(latest.get(write.id).updated_at)).toBeGreaterThanOrEqual(ms(write.updated_at));
  for (const id of ids) expect(latest.get(id)).toEqual((await call(`${clinical}/bookings/${id}`, { token })).body);
  expect([...latest.values()].filter((b) => b.booking_status === 'cancelled')).toHaveLength(WRITERS * Math.ceil(BOOKINGS_PER_WRITER / 2));

  // None duplicated beyond the documented overlap: a state comes again only in a poll whose bound is its own updated_at.
  const first = new Set<string>();
  for (const d of deliveries) {
    const state = `${d.id}@${ms(d.updated_at)}`;
    if (first.has(state)) expect(ms(d.since)).toBe(ms(d.updated_at));
    first.add(state);
  }
  expect(first.size).toBeGreaterThanOrEqual(ids.length);
}, 180_000);
