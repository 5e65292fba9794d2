import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Stripe from 'stripe';
import { esbuildOptions } from '../../lib/bundling.js';
import { STRIPE_RESOURCES } from '../../lib/bundling/stripe.js';
import { PROJECT_ROOT } from '../../lib/routes.js';
import { lambdaEnv } from '../support/bundle-asset.js';
import { testDeps } from '../support/env.js';
import { startFakeStripe, type FakeStripe } from '../support/fake-stripe.js';

/**
 * The functions that reach Stripe carry the SDK's client with only the
 * resources the product calls (lib/bundling/stripe.ts). Bundled as
 * deployed and run from a folder with no node_modules against the fake
 * Stripe server, they still make checkout sessions and refunds through the
 * SDK (with its retries and idempotency keys), check events' signatures,
 * and fail loudly on a resource left out.
 */

const run = promisify(execFile);
const STRIPE_FUNCTIONS = [
  'functions/http/shared/stripe-events.ts',
  'functions/http/clinical-interview/payment-page-submit.ts',
  'functions/http/practical-training/pay-submit.ts',
  'functions/http/virtual-life-support/pay-submit.ts',
  'functions/consumers/refund-sender.ts',
];
const SECRET = 'whsec_bundle_test';

let fake: FakeStripe;
beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(async () => fake?.close());

it("the Stripe functions' bundles hold only the SDK resources the product calls", async () => {
  const kept = STRIPE_RESOURCES.map((m) => m.replace(/^\.\//, '').replace(/index\.js$/, ''));
  for (const entry of STRIPE_FUNCTIONS) {
    const { metafile } = await build({
      ...esbuildOptions(),
      entryPoints: [join(PROJECT_ROOT, entry)],
      write: false,
      metafile: true,
      outfile: join(tmpdir(), 'stripe-check.mjs'),
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toContain('node_modules/.cache/bundling/stripe.mjs');
    const resources = inputs.filter((i) => i.startsWith('node_modules/stripe/esm/resources')).map((i) => i.replace('node_modules/stripe/esm/', ''));
    expect(resources.filter((r) => !kept.some((k) => r.startsWith(k)))).toEqual([]);
    expect(resources.length).toBeGreaterThan(0);
  }
});

it('a bundled Stripe client makes sessions and refunds, checks signatures and refuses resources left out', async () => {
  const out = mkdtempSync(join(tmpdir(), 'stripe-asset-'));
  const entry = join(out, 'entry.ts');
  // The product's own client (its timeouts and retries), calling what checkout.ts, refunds.ts and stripe-events.ts call.
  writeFileSync(
    entry,
    `import { stripeClient, stripeSettings } from ${JSON.stringify(join(PROJECT_ROOT, 'functions/core/commerce/stripe.ts'))};
const settings = await stripeSettings();
const stripe = stripeClient(settings, 'worker');
const result = {};
const session = await stripe.checkout.sessions.create(
  { mode: 'payment', line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: 4500, product_data: { name: 'BLS' } } }],
    customer_email: 'ada@example.org', metadata: { booking_id: '7' }, success_url: 'http://page/?s={CHECKOUT_SESSION_ID}', cancel_url: 'http://page/' },
  { idempotencyKey: 'req-1' });
result.session = { id: session.id, url: session.url, amount_total: session.amount_total };
const paymentIntent = process.argv[2];
if (paymentIntent) {
  const refund = await stripe.refunds.create({ payment_intent: paymentIntent, amount: 4500, metadata: { ledger_entry_id: 'L1' } }, { idempotencyKey: 'L1' });
  result.refund = { id: refund.id, status: refund.status, amount: refund.amount };
}
const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'refund.updated', data: { object: { id: 're_1' } } });
result.event = stripe.webhooks.constructEvent(payload, process.env.SIGNATURE, settings.webhookSecret).type;
try { stripe.webhooks.constructEvent(payload.replace('re_1', 're_2'), process.env.SIGNATURE, settings.webhookSecret); } catch (err) { result.tampered = err.type; }
try { await stripe.customers.create({}); } catch (err) { result.leftOut = err.message; }
process.stdout.write(JSON.stringify(result));`,
  );
  await build({ ...esbuildOptions(), entryPoints: [entry], outfile: join(out, 'index.mjs') });
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'refund.updated', data: { object: { id: 're_1' } } });
  const signature = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload, secret: SECRET });
  const env = { PATH: process.env.PATH, STRIPE_SECRET_KEY: 'sk_test_bundle', STRIPE_WEBHOOK_SECRET: SECRET, STRIPE_API_URL: fake.url, SIGNATURE: signature };

  const first = JSON.parse((await run(process.execPath, [join(out, 'index.mjs')], { cwd: out, env })).stdout);
  expect(first.session).toMatchObject({ id: expect.stringMatching(/^cs_/), url: `${fake.url}/pay/${first.session.id}`, amount_total: 4500 });
  expect(fake.requests.find((r) => r.path === '/v1/checkout/sessions')).toMatchObject({
    method: 'POST',
    headers: expect.objectContaining({ 'idempotency-key': 'req-1', authorization: 'Bearer sk_test_bundle' }),
    form: expect.objectContaining({ customer_email: 'ada@example.org', metadata: { booking_id: '7' } }),
  });
  expect(first.event).toBe('refund.updated');
  expect(first.tampered).toBe('StripeSignatureVerificationError');
  expect(first.leftOut).toContain("Stripe's CustomerResource is not bundled");

  // The candidate pays; the refund goes through the SDK's retry (Stripe fails once) with the same Idempotency-Key.
  const paid = fake.pay(first.session.id);
  fake.failNext(1, 500, '/v1/refunds');
  const second = JSON.parse((await run(process.execPath, [join(out, 'index.mjs'), paid.payment_intent!], { cwd: out, env })).stdout);
  expect(second.refund).toMatchObject({ id: expect.stringMatching(/^re_/), status: 'pending', amount: 4500 });
  const refunds = fake.requests.filter((r) => r.path === '/v1/refunds');
  expect(refunds).toHaveLength(2);
  expect(refunds.map((r) => r.headers['idempotency-key'])).toEqual(['L1', 'L1']);
  expect(fake.refunds).toEqual([expect.objectContaining({ payment_intent: paid.payment_intent, amount: 4500, metadata: { ledger_entry_id: 'L1' } })]);
});

it('the bundled Stripe events function takes a signed event and refuses a tampered one', async () => {
  const deps = await testDeps();
  const out = mkdtempSync(join(tmpdir(), 'stripe-events-asset-'));
  await build({ ...esbuildOptions(), entryPoints: [join(PROJECT_ROOT, 'functions/http/shared/stripe-events.ts')], outfile: join(out, 'index.mjs') });
  const payload = JSON.stringify({ id: 'evt_bundle_1', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } });
  const signature = new Stripe('sk_test_unused').webhooks.generateTestHeaderString({ payload, secret: SECRET });
  writeFileSync(
    join(out, 'invoke.mjs'),
    `import { handler } from './index.mjs';
const body = process.argv[2];
const event = { version: '2.0', routeKey: 'POST /payments/stripe-events', rawPath: '/payments/stripe-events', body, isBase64Encoded: false,
  headers: { 'content-type': 'application/json', 'stripe-signature': ${JSON.stringify(signature)}, 'content-length': String(Buffer.byteLength(body)) },
  stageVariables: { family: 'clinical-interview' },
  requestContext: { requestId: 'r1', domainName: 'x', http: { method: 'POST', path: '/payments/stripe-events', sourceIp: '203.0.113.9' } } };
process.stdout.write(JSON.stringify(await handler(event, {})));`,
  );
  const env = {
    ...lambdaEnv(deps.table),
    PAYMENT_PROVIDER: 'stripe',
    STRIPE_SECRET_KEY: 'sk_test_bundle',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_URL: fake.url,
  };
  const invoke = async (body: string) => JSON.parse((await run(process.execPath, [join(out, 'invoke.mjs'), body], { cwd: out, env })).stdout);
  const taken = await invoke(payload);
  expect(taken).toMatchObject({ statusCode: 200 });
  expect(JSON.parse(taken.body)).toEqual({ received: true });
  const tampered = await invoke(payload.replace('cus_1', 'cus_2'));
  expect(tampered.statusCode).toBe(400);
  expect(JSON.parse(tampered.body)).toMatchObject({ type: '/problems/invalid-signature' });
});
