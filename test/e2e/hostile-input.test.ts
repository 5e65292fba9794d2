import { addDays, HORIZON_DAYS, wallClock } from '../../functions/core/platform/time.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, startTestStack } from '../support/local-stack.js';

/** Cursors, dates and paths a client made up: each is a 4xx problem that says what is wrong, never a 500. */

let stack: LocalStack;
let clinical: string;
let portal: string;
const tokens: Record<string, string> = {};

const CLIENTS = { northwind: 'cs_demo_northwind_local_only', riverside: 'cs_demo_riverside_local_only' } as const;

beforeAll(async () => {
  stack = await startTestStack();
  clinical = stack.info.families['clinical-interview']!;
  portal = stack.info.families['portal-v2']!;
  for (const [name, secret] of Object.entries(CLIENTS)) {
    for (const base of [clinical, portal]) {
      tokens[`${name}@${base}`] = (await call(`${base}/auth/token`, { body: { client_id: `demo-${name}`, client_secret: secret } })).body.access_token;
    }
  }
});
afterAll(() => stack?.stop());

const get = (base: string, path: string, client: keyof typeof CLIENTS = 'northwind') => call(`${base}${path}`, { token: tokens[`${client}@${base}`] });

describe('list cursors', () => {
  const invalidCursor = { status: 422, body: expect.objectContaining({ type: '/problems/invalid-cursor', status: 422 }) };

  async function firstCursor(base: string, path: string, client: keyof typeof CLIENTS = 'northwind'): Promise<string> {
    const page = await get(base, `${path}?limit=1`, client);
    expect(page.status).toBe(200);
    expect(page.body.next_cursor).toEqual(expect.any(String));
    return page.body.next_cursor;
  }

  it('page through a list to its end, and show no key text', async () => {
    const created = await call(`${portal}/candidates`, {
      token: tokens[`northwind@${portal}`],
      body: { first_name: 'Kate', last_name: 'Marsden', email: `kate.${Date.now()}@example.org` },
    });
    expect(created.status).toBe(201);
    const all = (await get(portal, '/candidates?limit=100')).body.data.map((c: { id: number }) => c.id);
    expect(all.length).toBeGreaterThanOrEqual(3);

    const paged: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(portal, `/candidates?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      paged.push(...page.body.data.map((c: { id: number }) => c.id));
      cursor = page.body.next_cursor;
      if (cursor) {
        expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
        const decoded = Buffer.from(cursor, 'base64url').toString('latin1');
        for (const text of ['CANDIDATE', 'CLIENT', 'demo-northwind']) expect(decoded).not.toContain(text);
      }
    } while (cursor && paged.length <= all.length);
    expect(paged).toEqual(all);
  });

  it('refuse a forged, an edited or a truncated cursor with 422 invalid-cursor', async () => {
    const cursor = await firstCursor(portal, '/candidates');
    const forged = Buffer.from(JSON.stringify({ pk: 'CLIENT#demo-northwind', sk: 'CANDIDATE#0000000001' })).toString('base64url');
    const bytes = Buffer.from(cursor, 'base64url');
    bytes[bytes.length - 5]! ^= 0x01;
    for (const bad of [forged, bytes.toString('base64url'), cursor.slice(0, -2), 'not-a-cursor', '%E2%80%AE']) {
      expect(await get(portal, `/candidates?limit=1&cursor=${bad}`)).toMatchObject(invalidCursor);
    }
    // The genuine one still works.
    expect((await get(portal, `/candidates?limit=1&cursor=${cursor}`)).status).toBe(200);
  });

  it("refuse another client's cursor on the same list", async () => {
    const theirs = await firstCursor(portal, '/candidates', 'riverside');
    expect(await get(portal, `/candidates?cursor=${theirs}`)).toMatchObject(invalidCursor);
  });

  it('refuse a cursor of another list, even one over the same partition', async () => {
    const candidates = await firstCursor(portal, '/candidates');
    expect((await get(portal, '/reference-requests')).status).toBe(200);
    expect(await get(portal, `/reference-requests?cursor=${candidates}`)).toMatchObject(invalidCursor);
    expect(await get(clinical, `/bookings?cursor=${candidates}`)).toMatchObject(invalidCursor);
    expect(await get(clinical, `/client/wallet-transactions?cursor=${candidates}`)).toMatchObject(invalidCursor);
  });

  it("bound the cursor parameter's length", async () => {
    const long = await get(portal, `/candidates?cursor=${'A'.repeat(600)}`);
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([{ parameter: 'cursor', detail: 'At most 512 characters' }]);
  });
});

describe('dates', () => {
  // The stack runs on the real clock, in the default service time zone.
  const today = () => wallClock(new Date(), 'Europe/London').date;
  const horizon = () => addDays(today(), HORIZON_DAYS);
  const beyond = () => addDays(horizon(), 1);

  it('refuse time slots past the horizon or on impossible dates, naming the parameter', async () => {
    for (const [query, parameter] of [
      ['from=9999-12-31', 'from'],
      [`from=${beyond()}`, 'from'],
      [`from=${today()}&to=${beyond()}`, 'to'],
      ['from=2026-02-30', 'from'],
    ] as const) {
      const response = await get(clinical, `/timeslots?interview_type_id=1&${query}`);
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([{ parameter, detail: expect.any(String) }]);
    }
  });

  it('offer slots up to the horizon and none after it', async () => {
    const slots = (await get(clinical, `/timeslots?interview_type_id=1&from=${addDays(horizon(), -5)}`)).body.data as { date: string; time: string }[];
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.every((s) => s.date <= horizon())).toBe(true);
  });

  it('hold a slot on the horizon, and refuse one past it, pointing at the date', async () => {
    const token = tokens[`northwind@${clinical}`];
    const slots = (await get(clinical, `/timeslots?interview_type_id=1&from=${addDays(horizon(), -13)}&to=${horizon()}`)).body.data as {
      date: string;
      time: string;
    }[];
    const last = slots.at(-1)!;
    const held = await call(`${clinical}/timeslots/hold`, { token, body: { interview_type_id: 1, date: last.date, time: last.time } });
    expect(held.status).toBe(201);
    expect((await call(`${clinical}/timeslots/hold/${held.body.hold_hash}`, { method: 'DELETE', token })).status).toBe(204);

    for (const date of [beyond(), '2999-01-07']) {
      const refused = await call(`${clinical}/timeslots/hold`, { token, body: { interview_type_id: 1, date, time: last.time } });
      expect(refused.status).toBe(422);
      expect(refused.body.errors).toEqual([{ pointer: '/date', detail: `At most ${HORIZON_DAYS} days ahead` }]);
    }
  });

  it('refuse a bookings filter past the horizon or on an impossible date', async () => {
    expect((await get(clinical, `/bookings?to=${horizon()}`)).status).toBe(200);
    for (const [query, parameter] of [
      ['to=9999-12-31', 'to'],
      [`from=${beyond()}`, 'from'],
      ['from=2026-02-30', 'from'],
    ] as const) {
      const response = await get(clinical, `/bookings?${query}`);
      expect(response.status).toBe(422);
      expect(response.body.errors).toEqual([{ parameter, detail: expect.any(String) }]);
    }
  });

  it('the booking page refuses a slot past the horizon or on an impossible date with 422', async () => {
    const { booking_url } = (await get(clinical, '/client/booking-url')).body;
    for (const slot of [`${beyond()}T10:00`, '2026-02-30T10:00']) {
      const form = new URLSearchParams({
        interview_type_id: '1',
        slot,
        first_name: 'Bo',
        last_name: 'Peep',
        email: 'bo@example.org',
        phone: '+447700900999',
        job_role: 'RMN',
        nmc_number: '99X1234Y',
      });
      const posted = await fetch(booking_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        redirect: 'manual',
      });
      expect(posted.status).toBe(422);
      expect(await posted.text()).toContain('Choose a time');
    }
  });
});

describe('paths', () => {
  it('a malformed percent-encoding in a path parameter is 404 problem+json', async () => {
    for (const url of [`${clinical}/bookings/%E0%A4%A`, `${portal}/candidates/%ZZ`]) {
      const response = await fetch(url, { headers: { authorization: `Bearer ${tokens[`northwind@${url.startsWith(clinical) ? clinical : portal}`]}` } });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toBe('application/problem+json');
      expect(await response.json()).toMatchObject({ type: '/problems/not-found', status: 404 });
    }
  });
});

describe('bodies', () => {
  it('refuse a field the operation does not take at its pointer, with every other failing field, in plain words', async () => {
    const refused = await call(`${portal}/candidates`, {
      token: tokens[`northwind@${portal}`],
      body: { first_name: 'Kate', last_nme: 'Marsden', email: 42, colour: 'blue' },
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual(
      expect.arrayContaining([
        { pointer: '/last_nme', detail: 'Unknown field; did you mean last_name?' },
        { pointer: '/colour', detail: 'Unknown field' },
        { pointer: '/last_name', detail: expect.any(String) },
        { pointer: '/email', detail: expect.any(String) },
      ]),
    );
    expect(JSON.stringify(refused.body)).not.toMatch(/Invalid key|Expected|received/);
  });

  it('the token endpoint ignores parameters it does not know (RFC 6749 section 3.1)', async () => {
    const token = await call(`${clinical}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: CLIENTS.northwind, scope: 'anything' } });
    expect(token.status).toBe(200);
  });
});
