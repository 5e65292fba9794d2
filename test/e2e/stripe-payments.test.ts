import { randomUUID } from 'node:crypto';
import Stripe from 'stripe';
import { paymentRequestId } from '../../functions/core/commerce/payment-requests.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { CI } from '../support/clinical.js';
import { ledgerOf } from '../support/kit.js';
import { eventually } from '../support/eventually.js';
import { startFakeStripe, type FakeSession, type FakeStripe } from '../support/fake-stripe.js';
import { call, demoTokens, mailTo, startTestStack } from '../support/local-stack.js';
import { ops } from '../support/ops.js';

/**
 * candidate_pays through Stripe Checkout, end to end: the stack runs with
 * PAYMENT_PROVIDER=stripe against a Stripe-compatible fake on loopback, and
 * the test plays Stripe's part of the flow: the candidate pays on "Stripe's
 * page", and Stripe posts signed events (signed with the SDK's own helper).
 */

const WEBHOOK_SECRET = 'whsec_test_e2e_secret';
const signer = new Stripe('sk_test_unused');

let stripe: FakeStripe;
let stack: LocalStack;
let base: string;
let northwind: string;

beforeAll(async () => {
  stripe = await startFakeStripe();
  stack = await startTestStack({
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_e2e',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: stripe.url,
    REFUND_RETRY_BASE_SECONDS: '1',
  });
  base = stack.info.families['clinical-interview']!;
  northwind = (await demoTokens(stack))['clinical-interview']!.northwind;
});
afterAll(async () => {
  await stack?.stop();
  await stripe?.close();
});

const deps = () => ({ ...depsFromEnv(), table: stack.info.table_name });
const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** A candidate_pays booking and the payment link e-mailed to its candidate. */
async function bookForCandidate(email: string) {
  // The last slot offered, days ahead: one starting within hours leaves the candidate no time to pay (payment-window-closed).
  const slot = (await call(`${base}/timeslots?interview_type_id=1`, { token: northwind })).body.data.at(-1);
  const held = await call(`${base}/timeslots/hold`, { token: northwind, body: { interview_type_id: 1, date: slot.date, time: slot.time } });
  const created = await call(`${base}/bookings`, {
    token: northwind,
    body: {
      first_name: 'Ada',
      last_name: 'Okoro',
      email,
      phone: '+447700900321',
      job_role: 'Registered Nurse',
      nmc_number: '12A3456B',
      hold_hash: held.body.hold_hash,
      pay_option: 'candidate_pays',
    },
  });
  expect(created.status).toBe(201);
  const [mail] = await mailTo(stack, email);
  const link = /(http:\/\/\S+\/pay\/\S+)/.exec(mail!)![1]!;
  return { booking: created.body as { id: number; booking_status: string }, link };
}

/** Posts an event as Stripe does: the JSON body and its Stripe-Signature header. */
async function postEvent(type: string, object: unknown, options: { id?: string; tamper?: boolean; secret?: string } = {}) {
  const payload = JSON.stringify({
    id: options.id ?? `evt_${randomUUID().replaceAll('-', '')}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const signature = signer.webhooks.generateTestHeaderString({ payload, secret: options.secret ?? WEBHOOK_SECRET });
  return fetch(`${base}/payments/stripe-events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    body: options.tamper ? payload.replace('"paid"', '"paid" ') : payload,
  });
}

const bookingOf = async (id: number) => (await call(`${base}/bookings/${id}`, { token: northwind })).body;

describe('paying through Stripe Checkout', () => {
  let paidSession: FakeSession;
  let bookingId: number;
  let payLink: string;
  const email = `stripe.${randomUUID().slice(0, 8)}@example.org`;

  it('sends the candidate to a Checkout Session made as Stripe is told to, and reuses it while it is open', async () => {
    const { booking, link } = await bookForCandidate(email);
    bookingId = booking.id;
    payLink = link;
    const before = stripe.requests.length;
    const submitted = await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' });
    expect(submitted.status).toBe(303);
    const [request] = stripe.requests.slice(before);
    expect(request).toMatchObject({ method: 'POST', path: '/v1/checkout/sessions' });
    expect(request!.headers.authorization).toBe('Bearer sk_test_e2e');
    const token = link.split('/pay/')[1]!;
    const metadata = { family: 'clinical-interview', booking_id: String(booking.id), payment_request: paymentRequestId(token) };
    expect(request!.form).toMatchObject({
      mode: 'payment',
      line_items: [
        {
          quantity: '1',
          price_data: {
            currency: 'gbp',
            unit_amount: '4500',
            product_data: { name: expect.stringMatching(/^Registered Nurse clinical interview, \w+day \d+ \w+/) },
          },
        },
      ],
      customer_email: email.toLowerCase(),
      metadata,
      payment_intent_data: { metadata },
      success_url: `${link}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: link,
    });
    // The page's own address carries its token; nothing Stripe keeps about the payment does.
    expect(JSON.stringify([request!.form.metadata, request!.form.payment_intent_data])).not.toContain(token);
    const expiresAt = Number(request!.form.expires_at) * 1000;
    expect(expiresAt).toBeGreaterThanOrEqual(Date.now() + 29 * 60_000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + 24 * 3600_000);
    expect(request!.headers['idempotency-key']).toBe(`${paymentRequestId(token)}-1`);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.booking_id === String(booking.id))!;
    expect(submitted.headers.get('location')).toBe(session.url);

    // A second submit (a double click, the back button) goes to the same session.
    const again = await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' });
    expect(again.headers.get('location')).toBe(session.url);
    expect(stripe.requests.filter((r) => r.path === '/v1/checkout/sessions')).toHaveLength(1);
    paidSession = stripe.pay(session.id);
  });

  it('never confirms from the return address alone: the page waits for the event', async () => {
    const page = await (await fetch(`${payLink}?session_id=${paidSession.id}`)).text();
    expect(page).toContain('We are confirming your payment');
    expect(page).toContain('http-equiv="refresh"');
    expect((await bookingOf(bookingId)).booking_status).toBe('pending_payment');
  });

  it('refuses an unsigned, tampered or wrongly signed event with 400 and changes nothing', async () => {
    for (const response of [
      await fetch(`${base}/payments/stripe-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'checkout.session.completed', data: { object: paidSession } }),
      }),
      await postEvent('checkout.session.completed', paidSession, { tamper: true }),
      await postEvent('checkout.session.completed', paidSession, { secret: 'whsec_someone_else' }),
    ]) {
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ type: '/problems/invalid-signature', status: 400 });
    }
    expect((await bookingOf(bookingId)).booking_status).toBe('pending_payment');
  });

  it('confirms the booking on checkout.session.completed, once, however often Stripe sends it', async () => {
    const eventId = `evt_${randomUUID().replaceAll('-', '')}`;
    for (let i = 0; i < 2; i++) {
      const response = await postEvent('checkout.session.completed', paidSession, { id: eventId });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ received: true });
    }
    // Another event for the same paid session (Stripe's async success) changes nothing more.
    expect((await postEvent('checkout.session.async_payment_succeeded', paidSession)).status).toBe(200);
    expect(await bookingOf(bookingId)).toMatchObject({ booking_status: 'booked', pay_status: 'completed' });
    expect(await (await fetch(payLink)).text()).toContain('Payment received');
    const confirmation = (await mailTo(stack, email, 2)).filter((m) => m.includes('X-Template: booking-confirmed\n'));
    expect(confirmation).toHaveLength(1);
    expect(confirmation[0]).toContain('invitation.ics');
    const payments = (await ledgerOf(deps(), 'demo-northwind', CI)).filter((e) => e.booking_id === bookingId && e.kind === 'candidate_payment');
    expect(payments).toEqual([
      expect.objectContaining({ amount: 4500, unit: 'GBP', pay_option: 'candidate_pays', provider_reference: paidSession.payment_intent }),
    ]);
  });

  it('answers 200 and changes nothing for another family, an unknown session or another event type', async () => {
    const otherFamily = { ...paidSession, id: 'cs_test_other', metadata: { ...paidSession.metadata, family: 'practical-training' } };
    const unknown = { ...paidSession, id: 'cs_test_unknown', metadata: { ...paidSession.metadata, booking_id: '999999' } };
    for (const [type, object] of [
      ['checkout.session.completed', otherFamily],
      ['checkout.session.completed', unknown],
      ['customer.created', { id: 'cus_1' }],
    ] as const) {
      expect((await postEvent(type, object)).status).toBe(200);
    }
    expect((await ledgerOf(deps(), 'demo-northwind', CI)).filter((e) => e.booking_id === bookingId)).toHaveLength(1);
  });

  it("owes the candidate a refund when the agency cancels, sends it to Stripe once (retried through failures), and settles it on Stripe's event", async () => {
    // Stripe fails the first tries (the SDK's own retries included); the refunds worker tries again later.
    stripe.failNext(4, 500, '/v1/refunds');
    // Clinical bookings are cancelled by the operator.
    const cancelled = await ops(stack, 'clinical-interview', 'bookings', 'cancel', '--id', String(bookingId), '--reason', 'Candidate withdrew');
    expect(cancelled.status).toBe(0);
    const refundEntry = async () => (await ledgerOf(deps(), 'demo-northwind', CI)).find((e) => e.booking_id === bookingId && e.kind === 'refund')!;
    expect(await refundEntry()).toMatchObject({
      amount: -4500,
      unit: 'GBP',
      pay_option: 'candidate_pays',
      provider_reference: paidSession.payment_intent,
      refund_status: 'pending',
    });

    const sent = await eventually(async () => ((await refundEntry()).refund_status === 'sent' ? refundEntry() : false), {
      timeoutMs: 30_000,
      what: 'the refund sent',
    });
    expect(stripe.refunds).toEqual([
      expect.objectContaining({ payment_intent: paidSession.payment_intent, amount: 4500, metadata: expect.objectContaining({ ledger_entry_id: sent.id }) }),
    ]);
    const refundRequests = stripe.requests.filter((r) => r.path === '/v1/refunds');
    expect(refundRequests.length).toBeGreaterThan(1);
    expect(new Set(refundRequests.map((r) => r.headers['idempotency-key']))).toEqual(new Set([sent.id]));

    const refund = { ...stripe.refunds[0]!, status: 'succeeded' };
    expect((await postEvent('refund.updated', refund)).status).toBe(200);
    expect(await refundEntry()).toMatchObject({ refund_status: 'settled', provider_refund_id: refund.id });
  }, 60_000);
});

describe('a payment that arrives too late', () => {
  it('is recorded and refunded in full when the booking was cancelled before Stripe said it was paid, and the candidate is told', async () => {
    const email = `late.${randomUUID().slice(0, 8)}@example.org`;
    const { booking, link } = await bookForCandidate(email);
    expect((await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' })).status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.booking_id === String(booking.id))!;
    expect((await ops(stack, 'clinical-interview', 'bookings', 'cancel', '--id', String(booking.id))).status).toBe(0);

    const paid = stripe.pay(session.id);
    expect((await postEvent('checkout.session.completed', paid)).status).toBe(200);
    expect((await bookingOf(booking.id)).booking_status).toBe('cancelled');
    const entries = (await ledgerOf(deps(), 'demo-northwind', CI)).filter((e) => e.booking_id === booking.id);
    expect(entries).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'candidate_payment', amount: 4500, provider_reference: paid.payment_intent }),
        expect.objectContaining({ kind: 'refund', amount: -4500, provider_reference: paid.payment_intent }),
      ]),
    );
    expect(entries).toHaveLength(2);
    const told = (await mailTo(stack, email, 3)).find((m) => m.includes('X-Template: late-payment-refunded\n'));
    expect(told).toContain('£45.00');
    await eventually(() => stripe.refunds.some((r) => r.payment_intent === paid.payment_intent), { timeoutMs: 20_000, what: 'the late payment refunded' });
    expect(await (await fetch(link)).text()).toContain('being refunded');
  }, 60_000);
});

describe('Stripe unreachable', () => {
  it('answers the candidate with a plain 503 page and changes nothing', async () => {
    const { booking, link } = await bookForCandidate(`down.${randomUUID().slice(0, 8)}@example.org`);
    stripe.failNext(3, 500, '/v1/checkout/sessions');
    const submitted = await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' });
    expect(submitted.status).toBe(503);
    expect(submitted.headers.get('content-type')).toContain('text/html');
    expect(await submitted.text()).toContain('Online payment is not available at the moment');
    expect(await bookingOf(booking.id)).toMatchObject({ booking_status: 'pending_payment' });
    expect([...stripe.sessions.values()].some((s) => s.metadata.booking_id === String(booking.id))).toBe(false);
  });
});

describe.each([
  {
    family: 'practical-training',
    /** A candidate_pays booking on the last open BLS event, far enough ahead to be refunded when cancelled. */
    book: async (familyBase: string, token: string, email: string) => {
      const event = (await call(`${familyBase}/training-events?course_id=2&available_only=true`, { token })).body.data.at(-1);
      const held = await call(`${familyBase}/seats/hold`, { token, body: { training_event_id: event.id } });
      return call(`${familyBase}/bookings`, {
        token,
        body: {
          first_name: 'Tom',
          last_name: 'Okoro',
          email,
          phone: '+447700900321',
          job_role: 'Healthcare Assistant',
          hold_hash: held.body.hold_hash,
          pay_option: 'candidate_pays',
        },
      });
    },
    cancel: async (familyBase: string, token: string, id: number) =>
      expect((await call(`${familyBase}/bookings/${id}/cancel`, { token, body: { reason: 'plans changed' } })).status).toBe(200),
  },
  {
    family: 'virtual-life-support',
    book: async (familyBase: string, token: string, email: string) => {
      const slot = (await call(`${familyBase}/timeslots?course_id=2`, { token })).body.data.at(-1);
      const held = await call(`${familyBase}/timeslots/hold`, { token, body: { course_id: 2, date: slot.date, time: slot.time } });
      return call(`${familyBase}/bookings`, {
        token,
        body: {
          first_name: 'Grace',
          last_name: 'Adeyemi',
          email,
          phone: '+447700900456',
          job_role: 'Registered Nurse',
          hold_hash: held.body.hold_hash,
          pay_option: 'candidate_pays',
          delivery_address: { line1: '4 Mill Road', town: 'Leeds', postcode: 'LS6 2AB' },
        },
      });
    },
    // The operator cancels; refunded before free_cancellation_until.
    cancel: async (_: string, __: string, id: number) =>
      expect((await ops(stack, 'virtual-life-support', 'bookings', 'cancel', '--id', String(id), '--reason', 'plans changed')).status).toBe(0),
  },
])('$family: paid, replayed, tampered, cancelled and refunded through Stripe', ({ family, book, cancel }) => {
  it('confirms on the signed event once, refuses a tampered one, and refunds the cancelled booking through Stripe', async () => {
    const familyBase = stack.info.families[family]!;
    const token = (await demoTokens(stack))[family]!.northwind;
    const email = `${family}.${randomUUID().slice(0, 8)}@example.org`;
    const booked = await book(familyBase, token, email);
    expect(booked.status).toBe(201);
    expect(booked.body).toMatchObject({ booking_status: 'pending_payment', pay_status: 'pending' });
    const [mail] = await mailTo(stack, email);
    const link = /(http:\/\/\S+\/pay\/[A-Za-z0-9_-]+)/.exec(mail!)![1]!;
    const submitted = await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' });
    expect(submitted.status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.family === family && s.metadata.booking_id === String(booked.body.id))!;
    expect(submitted.headers.get('location')).toBe(session.url);
    const paid = stripe.pay(session.id);

    const post = (body: string, secret = WEBHOOK_SECRET) =>
      fetch(`${familyBase}/payments/stripe-events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload: body, secret }) },
        body,
      });
    const event = JSON.stringify({
      id: `evt_${randomUUID().replaceAll('-', '')}`,
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: paid },
    });
    const tampered = await fetch(`${familyBase}/payments/stripe-events`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'stripe-signature': signer.webhooks.generateTestHeaderString({ payload: event, secret: WEBHOOK_SECRET }) },
      body: event.replace(String(paid.amount_total), '1'),
    });
    expect(tampered.status).toBe(400);
    // Another family's endpoint takes the event and leaves it alone.
    expect(
      (
        await fetch(`${base}/payments/stripe-events`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'stripe-signature': signer.webhooks.generateTestHeaderString({ payload: event, secret: WEBHOOK_SECRET }),
          },
          body: event,
        })
      ).status,
    ).toBe(200);
    expect((await call(`${familyBase}/bookings/${booked.body.id}`, { token })).body.booking_status).toBe('pending_payment');

    expect((await post(event)).status).toBe(200);
    expect((await post(event)).status).toBe(200);
    expect((await call(`${familyBase}/bookings/${booked.body.id}`, { token })).body).toMatchObject({ booking_status: 'booked', pay_status: 'completed' });
    expect((await mailTo(stack, email, 2)).filter((m) => m.includes('X-Template: booking-confirmed\n'))).toHaveLength(1);
    const payments = (await call(`${familyBase}/client/wallet-transactions?limit=100`, { token })).body.data.filter(
      (e: { booking_id: number }) => e.booking_id === booked.body.id,
    );
    expect(payments).toEqual([
      expect.objectContaining({
        kind: 'candidate_payment',
        amount: paid.amount_total,
        family,
        pay_option: 'candidate_pays',
        provider_reference: paid.payment_intent,
      }),
    ]);

    await cancel(familyBase, token, booked.body.id);
    await eventually(() => stripe.refunds.some((r) => r.payment_intent === paid.payment_intent && r.amount === paid.amount_total), {
      timeoutMs: 20_000,
      what: `the ${family} refund at Stripe`,
    });
    const refund = await eventually(
      async () =>
        (await call(`${familyBase}/client/wallet-transactions?limit=100`, { token })).body.data.find(
          (e: { kind: string; booking_id: number; refund_status: string }) =>
            e.kind === 'refund' && e.booking_id === booked.body.id && e.refund_status === 'sent',
        ),
      { timeoutMs: 10_000, what: 'the refund entry sent' },
    );
    expect(refund).toMatchObject({ amount: -paid.amount_total, unit: 'GBP', provider_reference: paid.payment_intent });
  }, 60_000);
});

describe('payments the booking cannot keep', () => {
  it('refunds a second payment of a booking already paid (two sessions), and tells the candidate the place stays theirs', async () => {
    const email = `twice.${randomUUID().slice(0, 8)}@example.org`;
    const { booking, link } = await bookForCandidate(email);
    expect((await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' })).status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.family === 'clinical-interview' && s.metadata.booking_id === String(booking.id))!;
    const first = stripe.pay(session.id);
    // A second session, as Stripe makes one when the first is near its end, paid in another tab.
    const second = { ...first, id: `cs_test_second_${randomUUID().slice(0, 8)}`, payment_intent: `pi_test_second_${randomUUID().slice(0, 8)}` };
    expect((await postEvent('checkout.session.completed', first)).status).toBe(200);
    expect((await postEvent('checkout.session.completed', second)).status).toBe(200);
    expect((await postEvent('checkout.session.completed', second)).status).toBe(200);

    expect((await bookingOf(booking.id)).booking_status).toBe('booked');
    const entries = (await ledgerOf(deps(), 'demo-northwind', CI)).filter((e) => e.booking_id === booking.id);
    expect(entries.map((e) => [e.kind, e.amount, e.provider_reference]).sort()).toEqual(
      [
        ['candidate_payment', 4500, first.payment_intent],
        ['candidate_payment', 4500, second.payment_intent],
        ['refund', -4500, second.payment_intent],
      ].sort(),
    );
    const told = (await mailTo(stack, email, 3)).find((m) => m.includes('X-Template: late-payment-refunded\n'))!;
    expect(told).toContain('this second payment is not needed. Your place stays confirmed.');
    expect(await (await fetch(link)).text()).toContain('Payment received');
  }, 60_000);

  it('owes one refund per payment: an event for a payment already refunded by a cancellation changes nothing', async () => {
    const email = `once.${randomUUID().slice(0, 8)}@example.org`;
    const { booking, link } = await bookForCandidate(email);
    expect((await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' })).status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.family === 'clinical-interview' && s.metadata.booking_id === String(booking.id))!;
    const paid = stripe.pay(session.id);
    expect((await postEvent('checkout.session.completed', paid)).status).toBe(200);
    expect((await ops(stack, 'clinical-interview', 'bookings', 'cancel', '--id', String(booking.id))).status).toBe(0);
    // Another event about the same payment, with an id of its own.
    expect((await postEvent('checkout.session.async_payment_succeeded', paid)).status).toBe(200);
    const entries = (await ledgerOf(deps(), 'demo-northwind', CI)).filter((e) => e.booking_id === booking.id);
    expect(entries.filter((e) => e.kind === 'refund')).toHaveLength(1);
    expect(entries.filter((e) => e.kind === 'candidate_payment')).toHaveLength(1);
    expect((await mailTo(stack, email, 1)).some((m) => m.includes('X-Template: late-payment-refunded\n'))).toBe(false);
  }, 60_000);

  it('marks a refund Stripe could not make as failed, and never moves it back', async () => {
    const email = `failed.${randomUUID().slice(0, 8)}@example.org`;
    const { booking, link } = await bookForCandidate(email);
    expect((await fetch(link, { method: 'POST', headers: form, body: '', redirect: 'manual' })).status).toBe(303);
    const session = [...stripe.sessions.values()].find((s) => s.metadata.family === 'clinical-interview' && s.metadata.booking_id === String(booking.id))!;
    const paid = stripe.pay(session.id);
    expect((await postEvent('checkout.session.completed', paid)).status).toBe(200);
    expect((await ops(stack, 'clinical-interview', 'bookings', 'cancel', '--id', String(booking.id))).status).toBe(0);
    const refund = await eventually(() => stripe.refunds.find((r) => r.payment_intent === paid.payment_intent), {
      timeoutMs: 20_000,
      what: 'the refund at Stripe',
    });
    const entry = async () => (await ledgerOf(deps(), 'demo-northwind', CI)).find((e) => e.booking_id === booking.id && e.kind === 'refund')!;
    await eventually(async () => (await entry()).refund_status === 'sent', { timeoutMs: 10_000, what: 'the refund sent' });
    expect((await postEvent('refund.failed', { ...refund, status: 'failed' })).status).toBe(200);
    expect((await entry()).refund_status).toBe('failed');
    expect((await postEvent('refund.updated', { ...refund, status: 'pending' })).status).toBe(200);
    expect((await entry()).refund_status).toBe('failed');
  }, 60_000);
});
