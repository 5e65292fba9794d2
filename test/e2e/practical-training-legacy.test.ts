import { createClient } from '../../functions/core/access/clients.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { addDays, wallClock } from '../../functions/core/platform/time.js';
import { createPracticalBooking } from '../../functions/core/practical-training/bookings.js';
import { createCourse, createLocation, createTrainingEvent, setCourseActive } from '../../functions/core/practical-training/catalogue.js';
import { holdSeat } from '../../functions/core/practical-training/seats.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { links } from '../support/kit.js';
import { ops } from '../support/ops.js';
import { call, DEMO_CREDENTIALS, startTestStack, type JsonResponse } from '../support/local-stack.js';

/**
 * The deprecated practical training legacy API on the real clock, outside any brownout: past, upcoming and
 * searched bookings of the practical training family, booking links, and
 * the deprecation headers on every answer, errors included.
 */

let stack: LocalStack;
let legacy: string;
let practical: string;
let token: string;
let clientId: string;
const booked: Record<string, { id: number; date: string }> = {};

const HOUR = 3_600_000;
const trainee = { first_name: 'Tom', last_name: 'Okoro', email: 'tom.legacy@example.org', phone: '+447700900321', job_role: 'Healthcare Assistant' };

/** Books a seat on an event starting at `start` (4 hours long), as the agency would have three days before. */
async function bookAt(deps: Deps, name: string, courseId: number, locationId: number, start: Date) {
  const then = { ...deps, clock: () => new Date(start.getTime() - 72 * HOUR) };
  const wall = wallClock(start, deps.config.serviceTimeZone);
  const event = await createTrainingEvent(then, { course_id: courseId, location_id: locationId, date: wall.date, start_time: wall.time, capacity: 4 });
  const hold = await holdSeat(then, { type: 'client', clientId }, event.id);
  const booking = await createPracticalBooking(then, clientId, { ...trainee, hold_hash: hold.hold_hash, pay_option: 'invoice' }, links);
  booked[name] = { id: booking.id, date: wall.date };
}

beforeAll(async () => {
  stack = await startTestStack();
  legacy = stack.info.families['practical-training-legacy']!;
  practical = stack.info.families['practical-training']!;
  const deps = depsFromEnv();
  const created = await createClient(deps, { name: 'Legacy Care', invoiceEnabled: true });
  clientId = created.client.clientId;
  token = (await call(`${practical}/auth/token`, { body: { client_id: clientId, client_secret: created.clientSecret } })).body.access_token;
  const course = await createCourse(deps, {
    name: 'Legacy Moving and Handling',
    code: 'LEG-MH',
    duration_minutes: 240,
    certificate_validity_months: 12,
    price_minor: 5000,
  });
  const location = await createLocation(deps, { name: 'Legacy House', address: { line1: '1 Old Road', line2: null, town: 'York', postcode: 'YO1 7HH' } });
  // Whole minutes, so each start is a time on the wall clock.
  const now = Math.floor(Date.now() / 60_000) * 60_000;
  // Booked out of order, so that the lists' order is theirs and not the bookings'.
  await bookAt(deps, 'upcoming later', course.id, location.id, new Date(now + 9 * 24 * HOUR));
  await bookAt(deps, 'past earlier', course.id, location.id, new Date(now - 10 * 24 * HOUR));
  await bookAt(deps, 'under way', course.id, location.id, new Date(now - HOUR));
  await bookAt(deps, 'upcoming sooner', course.id, location.id, new Date(now + 2 * 24 * HOUR));
  await bookAt(deps, 'past later', course.id, location.id, new Date(now - 3 * 24 * HOUR));
  // A course taken off sale has no booking link.
  await setCourseActive(
    deps,
    (await createCourse(deps, { name: 'Retired course', code: 'LEG-OLD', duration_minutes: 60, certificate_validity_months: 12, price_minor: 100 })).id,
    false,
  );
});
afterAll(() => stack?.stop());

const ids = (response: JsonResponse) => response.body.data.map((b: { id: number }) => b.id);
const of = (...names: string[]) => names.map((n) => booked[n]!.id);

/** Every page, `limit` at a time. */
async function allPages(path: string, limit: number): Promise<number[]> {
  const found: number[] = [];
  let cursor: string | null = null;
  do {
    const page = await call(`${legacy}${path}${path.includes('?') ? '&' : '?'}limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, { token });
    expect(page.status).toBe(200);
    found.push(...ids(page));
    cursor = page.body.next_cursor;
  } while (cursor);
  return found;
}

describe('bookings by time', () => {
  it('past: ended, the latest first; upcoming: not ended (under way included), the soonest first; across pages too', async () => {
    expect(ids(await call(`${legacy}/bookings/past`, { token }))).toEqual(of('past later', 'past earlier'));
    expect(ids(await call(`${legacy}/bookings/upcoming`, { token }))).toEqual(of('under way', 'upcoming sooner', 'upcoming later'));
    expect(await allPages('/bookings/upcoming', 1)).toEqual(of('under way', 'upcoming sooner', 'upcoming later'));
    expect(await allPages('/bookings/past', 1)).toEqual(of('past later', 'past earlier'));
  });

  it("answers the practical training family's own booking objects", async () => {
    const listed = (await call(`${legacy}/bookings/upcoming`, { token })).body.data[0];
    expect(listed).toEqual((await call(`${practical}/bookings/${booked['under way']!.id}`, { token })).body);
  });

  it('search: one day, or a range of at most 31 days, by the day the training starts, the soonest first', async () => {
    expect(ids(await call(`${legacy}/bookings/search?date=${booked['upcoming sooner']!.date}`, { token }))).toEqual(of('upcoming sooner'));
    const from = booked['past earlier']!.date;
    const to = booked['upcoming later']!.date;
    expect(ids(await call(`${legacy}/bookings/search?from=${from}&to=${to}`, { token }))).toEqual(
      of('past earlier', 'past later', 'under way', 'upcoming sooner', 'upcoming later'),
    );
    expect(await allPages(`/bookings/search?from=${from}&to=${to}`, 2)).toEqual(
      of('past earlier', 'past later', 'under way', 'upcoming sooner', 'upcoming later'),
    );
    expect(ids(await call(`${legacy}/bookings/search?date=${addDays(to, 1)}`, { token }))).toEqual([]);

    const refused = async (query: string, parameter: string) => {
      const response = await call(`${legacy}/bookings/search?${query}`, { token });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    };
    await refused(`from=${from}&to=${addDays(from, 31)}`, 'to');
    await refused(`from=${to}&to=${from}`, 'to');
    await refused('', 'date');
    await refused(`date=${from}&from=${from}&to=${to}`, 'date');
    await refused(`from=${from}`, 'date');
    await refused('date=2026-02-30', 'date');
    expect((await call(`${legacy}/bookings/search?from=${from}&to=${addDays(from, 30)}`, { token })).status).toBe(200);
  });

  it("shows no other agency's bookings", async () => {
    const riverside = (await call(`${practical}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
    const theirs = [
      ...(await call(`${legacy}/bookings/past?limit=100`, { token: riverside })).body.data,
      ...(await call(`${legacy}/bookings/upcoming?limit=100`, { token: riverside })).body.data,
    ];
    expect(theirs.filter((b: { candidate: { email: string } }) => b.candidate.email === trainee.email)).toEqual([]);
  });
});

describe('booking links', () => {
  it('are the practical training booking page, once per active course with the course chosen', async () => {
    const response = await call(`${legacy}/booking-links`, { token });
    expect(response.status).toBe(200);
    const url = (await call(`${practical}/client/booking-url`, { token })).body.booking_url as string;
    const courses = (await call(`${practical}/courses?limit=100`, { token })).body.data as { id: number; name: string; code: string }[];
    expect(response.body).toEqual({
      data: courses.map((c) => ({ course: { id: c.id, name: c.name, code: c.code }, booking_url: `${url}?course_id=${c.id}` })),
      next_cursor: null,
    });
    expect(response.body.data.map((l: { course: { code: string } }) => l.course.code)).toContain('LEG-MH');
    expect(response.body.data.map((l: { course: { code: string } }) => l.course.code)).not.toContain('LEG-OLD');
    const link = response.body.data.find((l: { course: { code: string } }) => l.course.code === 'LEG-MH');
    const page = await fetch(link.booking_url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Legacy Moving and Handling');
  });
});

describe('deprecation', () => {
  const successor = (path: string) => `<${practical}${path}>; rel="successor-version"`;
  const expectDeprecated = (response: JsonResponse, successorPath?: string) => {
    expect(response.headers.get('deprecation')).toBe('@1767225600');
    expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
    const link = response.headers.get('link')!;
    expect(link).toContain(`<${legacy}/docs>; rel="deprecation"; type="text/html"`);
    if (successorPath) expect(link).toContain(successor(successorPath));
  };

  it('every answer says so, errors included, and links each operation to its successor', async () => {
    expectDeprecated(await call(`${legacy}/bookings/past`, { token }), '/bookings');
    expectDeprecated(await call(`${legacy}/bookings/upcoming`, { token }), '/bookings');
    expectDeprecated(await call(`${legacy}/booking-links`, { token }), '/client/booking-url');
    const unauthorised = await call(`${legacy}/bookings/past`);
    expect(unauthorised.status).toBe(401);
    expectDeprecated(unauthorised, '/bookings');
    const invalid = await call(`${legacy}/bookings/search?date=tomorrow`, { token });
    expect(invalid.status).toBe(422);
    expectDeprecated(invalid, '/bookings');
    const badCursor = await call(`${legacy}/bookings/past?cursor=forged`, { token });
    expect(badCursor.status).toBe(422);
    expectDeprecated(badCursor, '/bookings');
    expectDeprecated(await call(`${legacy}/openapi.json`));
    // Paths it has no operation for (the cloud stack's $default route) and unknown ids: 404, still deprecated.
    for (const path of ['/auth/token', '/bookings/12345', '/booking-links/1', '/nothing-here']) {
      const unknown = await call(`${legacy}${path}`, { token });
      expect([path, unknown.status]).toEqual([path, 404]);
      expect(unknown.body.type).toBe('/problems/not-found');
      expectDeprecated(unknown, '');
    }
    // The practical training family itself is not deprecated.
    expect((await call(`${practical}/bookings`, { token })).headers.get('deprecation')).toBeNull();
  });

  it('takes practical training tokens only, and has no token operations of its own', async () => {
    const clinical = (await call(`${stack.info.families['clinical-interview']}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
    expect((await call(`${legacy}/bookings/past`, { token: clinical })).status).toBe(401);
    expect((await call(`${legacy}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).status).toBe(404);
  });

  it('counts who still calls it, per client and day, for the operator', async () => {
    const before = Date.now();
    await call(`${legacy}/bookings/past`, { token });
    await call(`${legacy}/booking-links`, { token });
    const listed = await ops(stack, 'deprecated', 'callers', '--family', 'practical-training-legacy', '--days', '2');
    expect(listed.status).toBe(0);
    const callers = JSON.parse(listed.stdout) as { client_id: string; last_call_at: string; calls: number; days: { date: string; calls: number }[] }[];
    const ours = callers.find((c) => c.client_id === clientId)!;
    // Every authenticated call of this file so far, these two included.
    expect(ours.calls).toBeGreaterThanOrEqual(20);
    expect(Date.parse(ours.last_call_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(ours.days[0]).toEqual({ date: new Date().toISOString().slice(0, 10), calls: expect.any(Number) });
    expect((await ops(stack, 'deprecated', 'callers', '--family', 'practical-training')).status).not.toBe(0);
  });

  it('marks every operation of its OpenAPI document deprecated, with the 410 it will answer', async () => {
    const document = (await call(`${legacy}/openapi.json`)).body;
    const operations = Object.values(document.paths as Record<string, Record<string, any>>).flatMap((p) => Object.values(p));
    expect(operations.length).toBeGreaterThanOrEqual(4);
    expect(operations.every((o) => o.deprecated === true)).toBe(true);
    expect(document.paths['/bookings/past'].get.responses['410'].content['application/problem+json'].examples['api-sunset'].value).toMatchObject({
      type: '/problems/api-sunset',
      status: 410,
    });
    const services = (await call(`${stack.info.families.services}/openapi.json`)).body;
    expect(
      Object.values(services.paths as Record<string, Record<string, any>>)
        .flatMap((p) => Object.values(p))
        .some((o) => o.deprecated),
    ).toBe(false);
  });
});
