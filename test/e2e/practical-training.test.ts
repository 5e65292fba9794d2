import type { LocalStack } from '../../lib/local/stack.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';

let stack: LocalStack;
let base: string;
let token: string;
let clinicalToken: string;

const tokenAt = async (url: string, client_id: string, client_secret: string) =>
  (await call(`${url}/auth/token`, { body: { client_id, client_secret } })).body.access_token as string;

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families['practical-training']!;
  token = await tokenAt(base, 'demo-riverside', 'cs_demo_riverside_local_only');
  clinicalToken = await tokenAt(stack.info.families['clinical-interview']!, 'demo-riverside', 'cs_demo_riverside_local_only');
});
afterAll(() => stack?.stop());

const trainee = { first_name: 'Tom', last_name: 'Okoro', email: 'tom.okoro@example.org', phone: '+447700900321', job_role: 'Healthcare Assistant' };

describe('the agency flow over HTTP', () => {
  it('refuses a clinical interview token: 401', async () => {
    expect((await call(`${base}/courses`, { token: clinicalToken })).status).toBe(401);
  });

  it('lists courses, locations and events; holds a seat, books it, lists, reads and cancels it with a refund', async () => {
    const courses = await call(`${base}/courses`, { token });
    expect(courses.status).toBe(200);
    expect(courses.body.data.map((c: { code: string }) => c.code)).toEqual(['BLS-A', 'MH-1', 'PMVA-R']);
    expect((await call(`${base}/locations`, { token })).body.data).toHaveLength(2);

    const events = await call(`${base}/training-events?course_id=1&available_only=true`, { token });
    expect(events.status).toBe(200);
    // Event 1 starts inside 72 hours; the next BLS event is refundable when cancelled now.
    const event = events.body.data.find((e: { id: number }) => e.id !== 1);
    expect(event).toMatchObject({ course: { id: 1 }, capacity: 12, status: 'open' });

    const held = await call(`${base}/seats/hold`, { token, body: { training_event_id: event.id } });
    expect(held.status).toBe(201);
    expect(held.body).toMatchObject({ expires_in_seconds: 1800, training_event: { id: event.id } });
    const again = await call(`${base}/seats/hold`, { token, body: { training_event_id: event.id } });
    expect(again.status).toBe(409);
    expect(again.body.hold.hold_hash).toBe(held.body.hold_hash);
    expect((await call(`${base}/training-events/${event.id}`, { token })).body.seats_available).toBe(event.seats_available - 1);

    const before = (await call(`${base}/client/balances`, { token })).body;
    const booked = await call(`${base}/bookings`, { token, body: { ...trainee, hold_hash: held.body.hold_hash, pay_option: 'credits' } });
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({
      booking_status: 'booked',
      training_status: 'scheduled',
      pay_status: 'completed',
      candidate: { nmc_number: null },
      certificate_available: false,
    });
    const credits = (b: { credits: { course: { id: number }; credits: number }[] }) => b.credits.find((c) => c.course.id === 1)!.credits;
    expect(credits((await call(`${base}/client/balances`, { token })).body)).toBe(credits(before) - 1);
    const ledger = (await call(`${base}/client/wallet-transactions?limit=1`, { token })).body.data;
    expect(ledger[0]).toMatchObject({ kind: 'credit_debit', amount: -1, booking_id: booked.body.id, course: { id: 1, name: 'Basic Life Support (adult)' } });

    expect((await call(`${base}/bookings?training_event_id=${event.id}`, { token })).body.data.map((b: { id: number }) => b.id)).toContain(booked.body.id);
    expect((await call(`${base}/bookings/${booked.body.id}`, { token })).body.id).toBe(booked.body.id);
    expect((await call(`${base}/bookings/no-shows`, { token })).status).toBe(200);

    const cancelled = await call(`${base}/bookings/${booked.body.id}/cancel`, { token, body: { reason: 'withdrew' } });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      booking_status: 'cancelled',
      pay_status: 'refunded',
      cancellation: { reason: 'withdrew', refunded: true, cancelled_by: 'agency' },
    });
    expect(credits((await call(`${base}/client/balances`, { token })).body)).toBe(credits(before));
    const twice = await call(`${base}/bookings/${booked.body.id}/cancel`, { token, body: {} });
    expect([twice.status, twice.body.reason]).toEqual([422, 'already_cancelled']);
  });

  it('books with each pay option over HTTP: the money balance, an invoice (only with invoicing on) and candidate payment, each refunded as it was charged', async () => {
    const northwind = await tokenAt(base, 'demo-northwind', 'cs_demo_northwind_local_only');
    const events = (await call(`${base}/training-events?course_id=2&available_only=true`, { token: northwind })).body.data;
    const event = events.at(-1);
    const book = async (t: string, pay_option: string, email = trainee.email) => {
      const held = await call(`${base}/seats/hold`, { token: t, body: { training_event_id: event.id } });
      expect(held.status).toBe(201);
      const booked = await call(`${base}/bookings`, { token: t, body: { ...trainee, email, hold_hash: held.body.hold_hash, pay_option } });
      if (booked.status !== 201) await call(`${base}/seats/hold/${held.body.hold_hash}`, { token: t, method: 'DELETE' });
      return booked;
    };
    const latest = async () => (await call(`${base}/client/wallet-transactions?limit=1`, { token: northwind })).body.data[0];
    const cancel = (id: number) => call(`${base}/bookings/${id}/cancel`, { token: northwind, body: { reason: 'plans changed' } });

    const money = (await call(`${base}/client/balances`, { token: northwind })).body.money.amount;
    const balance = await book(northwind, 'balance');
    expect(balance.body).toMatchObject({ pay_option: 'balance', booking_status: 'booked', pay_status: 'completed' });
    expect(await latest()).toMatchObject({ kind: 'money_debit', amount: -event.price.amount, booking_id: balance.body.id });
    expect((await cancel(balance.body.id)).body).toMatchObject({ pay_status: 'refunded', cancellation: { refunded: true } });
    expect(await latest()).toMatchObject({ kind: 'refund', amount: event.price.amount, booking_id: balance.body.id });
    expect((await call(`${base}/client/balances`, { token: northwind })).body.money.amount).toBe(money);

    const invoice = await book(northwind, 'invoice');
    expect(invoice.body).toMatchObject({ pay_option: 'invoice', booking_status: 'booked', pay_status: 'invoiced' });
    expect(await latest()).toMatchObject({ kind: 'invoice', amount: event.price.amount, booking_id: invoice.body.id });
    expect((await cancel(invoice.body.id)).body).toMatchObject({ pay_status: 'refunded' });
    expect(await latest()).toMatchObject({ kind: 'refund', amount: -event.price.amount, booking_id: invoice.body.id });
    const refused = await book(token, 'invoice');
    expect([refused.status, refused.body.type]).toEqual([422, '/problems/invoice-disabled']);

    const pays = await book(northwind, 'candidate_pays', 'pays.e2e@example.org');
    expect(pays.body).toMatchObject({
      pay_option: 'candidate_pays',
      booking_status: 'pending_payment',
      pay_status: 'pending',
      payment_due_at: expect.any(String),
    });
    const [mail] = await mailTo(stack, 'pays.e2e@example.org');
    const link = /http:\/\/\S+\/pay\/[A-Za-z0-9_-]+/.exec(mail!)![0];
    const paid = await fetch(link, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '', redirect: 'manual' });
    expect(paid.status).toBeLessThan(400);
    expect((await call(`${base}/bookings/${pays.body.id}`, { token: northwind })).body).toMatchObject({
      booking_status: 'booked',
      pay_status: 'completed',
      payment_due_at: null,
    });
  });

  it('answers event-full on a full event, and shows the account profile', async () => {
    const account = await call(`${base}/client/account`, { token });
    expect(account.body).toMatchObject({
      client_id: 'demo-riverside',
      invoice_enabled: false,
      balance_alerts: { credits_low_at: 2, money_low_at: { amount: 5000, currency: 'GBP' } },
    });
    const unknown = await call(`${base}/seats/hold`, { token, body: { training_event_id: 999999 } });
    expect([unknown.status, unknown.body.type]).toEqual([422, '/problems/event-unavailable']);
  });
});
