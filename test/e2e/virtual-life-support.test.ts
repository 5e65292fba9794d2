import type { LocalStack } from '../../lib/local/stack.js';
import { attachmentsOf } from '../support/mail.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';
import { ops } from '../support/ops.js';

let stack: LocalStack;
let base: string;
let token: string;
let northwind: string;
let practicalToken: string;

const tokenAt = async (url: string, client_id: string, client_secret: string) =>
  (await call(`${url}/auth/token`, { body: { client_id, client_secret } })).body.access_token as string;

beforeAll(async () => {
  stack = await startTestStack({ PAYMENT_PROVIDER: 'test' });
  base = stack.info.families['virtual-life-support']!;
  token = await tokenAt(base, 'demo-riverside', 'cs_demo_riverside_local_only');
  northwind = await tokenAt(base, 'demo-northwind', 'cs_demo_northwind_local_only');
  practicalToken = await tokenAt(stack.info.families['practical-training']!, 'demo-riverside', 'cs_demo_riverside_local_only');
});
afterAll(() => stack?.stop());

const person = { first_name: 'Grace', last_name: 'Adeyemi', phone: '+447700900456', job_role: 'Registered Nurse' };
const address = { line1: '4 Mill Road', town: 'Leeds', postcode: 'ls6 2ab' };
type Slot = { date: string; time: string; seats_available: number };
const cli = async (...args: string[]) => {
  const run = await ops(stack, ...args);
  if (run.status !== 0) throw new Error(`ops ${args.join(' ')}: ${run.stderr}`);
  return JSON.parse(run.stdout);
};

describe('the agency flow over HTTP', () => {
  it("refuses another family's token: 401", async () => {
    expect((await call(`${base}/courses`, { token: practicalToken })).status).toBe(401);
  });

  it('lists courses and timeslots; holds (409 for a second), releases, books with the address, reads it and its e-mail', async () => {
    const courses = await call(`${base}/courses`, { token });
    expect(courses.body.data.map((c: { code: string; equipment_required: boolean }) => [c.code, c.equipment_required])).toEqual([
      ['VBLS-M', true],
      ['VANA-U', false],
    ]);
    expect(courses.body.data[0].equipment_fees).toEqual({ late_return: { amount: 2500, currency: 'GBP' }, lost: { amount: 10000, currency: 'GBP' } });

    const slots = await call(`${base}/timeslots?course_id=1`, { token });
    expect(slots.status).toBe(200);
    const slot: Slot = slots.body.data.at(-1);
    expect(slot).toMatchObject({ course: { id: 1 }, seats_available: 6 });
    expect((await call(`${base}/timeslots?course_id=1&from=2026-01-01&to=2026-03-01`, { token })).status).toBe(422);

    const held = await call(`${base}/timeslots/hold`, { token, body: { course_id: 1, date: slot.date, time: slot.time } });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({ expires_in_seconds: 1800, slot: { date: slot.date, time: slot.time, course: { id: 1 } } });
    const again = await call(`${base}/timeslots/hold`, { token, body: { course_id: 1, date: slot.date, time: slot.time } });
    expect([again.status, again.body.hold.hold_hash]).toEqual([409, held.body.hold_hash]);
    const after = (await call(`${base}/timeslots?course_id=1&from=${slot.date}&to=${slot.date}`, { token })).body.data.find((s: Slot) => s.time === slot.time);
    expect(after.seats_available).toBe(5);
    expect((await call(`${base}/timeslots/hold/${held.body.hold_hash}`, { method: 'DELETE', token: northwind })).status).toBe(404);
    expect((await call(`${base}/timeslots/hold/${held.body.hold_hash}`, { method: 'DELETE', token })).status).toBe(204);

    const rehold = await call(`${base}/timeslots/hold`, { token, body: { course_id: 1, date: slot.date, time: slot.time } });
    const hold = rehold.body.hold_hash;
    const email = 'grace.vls@example.org';
    const missing = await call(`${base}/bookings`, { token, body: { ...person, email, hold_hash: hold, pay_option: 'credits' } });
    expect([missing.status, missing.body.type, missing.body.errors[0].pointer]).toEqual([422, '/problems/validation', '/delivery_address']);
    const badPostcode = await call(`${base}/bookings`, {
      token,
      body: { ...person, email, hold_hash: hold, pay_option: 'credits', delivery_address: { ...address, postcode: 'nowhere' } },
    });
    expect([badPostcode.status, badPostcode.body.errors[0].pointer]).toEqual([422, '/delivery_address/postcode']);

    const booked = await call(`${base}/bookings`, {
      token,
      headers: { 'idempotency-key': `vls-${hold}` },
      body: { ...person, email, hold_hash: hold, pay_option: 'credits', delivery_address: address },
    });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      course: { id: 1 },
      timeslot: { date: slot.date, time: slot.time },
      booking_status: 'booked',
      pay_status: 'completed',
      delivery_address: { line1: '4 Mill Road', line2: null, town: 'Leeds', postcode: 'LS6 2AB' },
      equipment: { status: 'awaiting_dispatch', dispatch: null, return: null, fees: [] },
      certificate_available: false,
    });
    expect((await call(`${base}/bookings/${booked.body.id}`, { token })).body.video_meeting.join_link).toBe(booked.body.video_meeting.join_link);
    expect((await call(`${base}/bookings/${booked.body.id}`, { token: northwind })).status).toBe(404);
    const listed = await call(`${base}/bookings?equipment_status=awaiting_dispatch&course_id=1`, { token });
    expect(listed.body.data.map((b: { id: number }) => b.id)).toContain(booked.body.id);
    const ledger = (await call(`${base}/client/wallet-transactions?limit=1`, { token })).body.data[0];
    expect(ledger).toMatchObject({ kind: 'credit_debit', amount: -1, booking_id: booked.body.id, course: { id: 1 } });
    expect((await call(`${base}/client/balances`, { token })).body.credits).toEqual(
      expect.arrayContaining([{ course: { id: 1, name: 'Virtual adult BLS with manikin' }, credits: 9 }]),
    );
    expect((await call(`${base}/client/booking-url`, { token })).body.booking_url).toMatch(new RegExp(`^${base}/book/`));

    // The candidate's confirmation: the join link and a calendar invitation.
    const [confirmation] = await mailTo(stack, email);
    expect(confirmation).toContain(booked.body.video_meeting.join_link);
    expect(attachmentsOf(confirmation!).map((a) => a.filename)).toContain('invitation.ics');

    // The operator posts the manikin: the candidate gets the tracking.
    const dispatched = await cli(
      'virtual-life-support',
      'equipment',
      'dispatch',
      '--id',
      String(booked.body.id),
      '--carrier',
      'Royal Mail',
      '--tracking',
      'RM123456785GB',
    );
    expect(dispatched.equipment).toMatchObject({ status: 'dispatched', dispatch: { carrier: 'Royal Mail', tracking_number: 'RM123456785GB' } });
    const mails = await mailTo(stack, email, 2);
    expect(mails.some((m) => m.includes('RM123456785GB'))).toBe(true);
    expect((await call(`${base}/bookings/${booked.body.id}`, { token })).body.equipment.return.due_at).toBeTruthy();
  });

  it('candidate_pays: pending with no video room until the candidate pays on the payment page', async () => {
    const slot: Slot = (await call(`${base}/timeslots?course_id=2`, { token })).body.data.at(-1);
    const hold = (await call(`${base}/timeslots/hold`, { token, body: { course_id: 2, date: slot.date, time: slot.time } })).body.hold_hash;
    const email = 'pays.vls@example.org';
    const booked = await call(`${base}/bookings`, {
      token,
      body: { ...person, email, hold_hash: hold, pay_option: 'candidate_pays', delivery_address: address },
    });
    expect(booked.body).toMatchObject({
      booking_status: 'pending_payment',
      pay_status: 'pending',
      video_meeting: null,
      delivery_address: null,
      equipment: { status: 'not_required' },
    });
    const [mail] = await mailTo(stack, email);
    const link = /(http\S+\/pay\/\S+)/.exec(mail!)![1]!;
    expect((await fetch(link)).status).toBe(200);
    const pay = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(pay.status).toBe(303);
    const paid = (await call(`${base}/bookings/${booked.body.id}`, { token })).body;
    expect([paid.booking_status, paid.pay_status, typeof paid.video_meeting?.join_link]).toEqual(['booked', 'completed', 'string']);
  });

  it("the demo's past bookings: the operator flow to a certificate, and the first sweep's overdue fee", async () => {
    const past = (await call(`${base}/bookings?attendance=pending&course_id=2`, { token: northwind })).body.data;
    const unmarked = past.find((b: { start_date: string }) => b.start_date < new Date().toISOString());
    expect(unmarked).toBeDefined();
    expect((await call(`${base}/bookings/${unmarked.id}/certificate`, { token: northwind })).body).toMatchObject({
      status: 404,
      type: '/problems/certificate-unavailable',
      reason: 'not_issued',
    });
    await cli('virtual-life-support', 'bookings', 'attendance', '--id', String(unmarked.id), '--status', 'attended');
    await cli('virtual-life-support', 'bookings', 'result', '--id', String(unmarked.id), '--result', 'passed');
    const issued = await cli('virtual-life-support', 'bookings', 'certificate', '--id', String(unmarked.id));
    expect(issued.certificate.number).toMatch(/^VLS-\d{4}-\d{6}$/);
    const pdf = await fetch(`${base}/bookings/${unmarked.id}/certificate`, { headers: { authorization: `Bearer ${northwind}` } });
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);

    const certified = (await call(`${base}/bookings?equipment_status=returned`, { token: northwind })).body.data;
    expect(certified[0]).toMatchObject({ certificate_available: true, attendance: 'attended', result: 'passed' });

    const out = (await call(`${base}/bookings?equipment_status=dispatched`, { token: northwind })).body.data.filter(
      (b: { equipment: { return: { due_at: string } } }) => Date.parse(b.equipment.return.due_at) < Date.now(),
    );
    expect(out).toHaveLength(1);
    expect(await cli('virtual-life-support', 'equipment', 'sweep')).toEqual({ overdue: 1, lost: 0 });
    expect(await cli('virtual-life-support', 'equipment', 'sweep')).toEqual({ overdue: 0, lost: 0 });
    const overdue = (await call(`${base}/bookings/${out[0].id}`, { token: northwind })).body;
    expect(overdue.equipment).toMatchObject({ status: 'overdue', fees: [{ kind: 'late_return', amount: { amount: 2500, currency: 'GBP' } }] });
    // Northwind invoices: the fee is an invoice line.
    const fee = (await call(`${base}/client/wallet-transactions?limit=5`, { token: northwind })).body.data.find(
      (e: { fee?: string }) => e.fee === 'equipment_late',
    );
    expect(fee).toMatchObject({ kind: 'invoice', amount: 2500, booking_id: out[0].id, id: overdue.equipment.fees[0].ledger_entry_id });
  });
});
