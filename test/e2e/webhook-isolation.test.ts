import { DEFAULT_TIMEOUT_SECONDS } from '../../functions/core/webhooks/delivery-timeout.js';
import { createClient } from '../../functions/core/access/clients.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * Design section 7, Isolation: other tenants' endpoints that never answer do
 * not delay a healthy client's deliveries. Latency is measured as a client
 * sees it: from the POST that creates the event to the webhook's arrival.
 */

const HANGING = 100;
const SAMPLES = 5;

let stack: LocalStack;
let healthy: Receiver;
let hanging: Receiver;
let healthyHook: string;
let healthyToken: string;
/** Each hanging endpoint's URL on the API and the token of the client that owns it. */
const hangingHooks: { hook: string; token: string }[] = [];

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

beforeAll(async () => {
  stack = await startTestStack();
  healthy = await startReceiver();
  hanging = await startReceiver();
  hanging.script(...Array<'hang'>(100_000).fill('hang'));

  const base = stack.info.families['clinical-interview']!;
  healthyToken = (await call(`${base}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' } })).body.access_token;
  const endpoint = await call(`${base}/webhooks`, { token: healthyToken, body: { name: 'Healthy', url: healthy.url, events: ['booking.created'] } });
  healthyHook = `${base}/webhooks/${endpoint.body.id}`;

  // At most 20 endpoints per client and family: the hanging ones belong to other clients, in both families.
  const deps = depsFromEnv();
  for (let c = 0; hangingHooks.length < HANGING; c++) {
    const { client, clientSecret } = await createClient(deps, { name: `Hanging agency ${c}` });
    for (const family of ['clinical-interview', 'portal-v2'] as const) {
      const familyBase = stack.info.families[family]!;
      const token = (await call(`${familyBase}/auth/token`, { body: { client_id: client.clientId, client_secret: clientSecret } })).body.access_token;
      const kind = family === 'portal-v2' ? 'reference_request.created' : 'booking.created';
      const created = await Promise.all(
        Array.from({ length: Math.min(20, HANGING - hangingHooks.length) }, (_, n) =>
          call(`${familyBase}/webhooks`, { token, body: { name: `Hangs ${n}`, url: hanging.url, events: [kind] } }),
        ),
      );
      for (const r of created) {
        expect(r.status).toBe(201);
        hangingHooks.push({ hook: `${familyBase}/webhooks/${(r.body.data ?? r.body).id}`, token });
      }
    }
  }
}, 60_000);
afterAll(async () => {
  await healthy?.close();
  await hanging?.close();
  await stack?.stop();
});

/** One webhook.test for the healthy endpoint: milliseconds from the request that creates it to its arrival. */
async function healthyLatency(): Promise<number> {
  const started = Date.now();
  const queued = await call(`${healthyHook}/test`, { method: 'POST', token: healthyToken });
  expect(queued.status).toBe(202);
  const got = await eventually(() => healthy.received.find((r) => r.headers['webhook-id'] === queued.body.event_id), {
    timeoutMs: 120_000,
    intervalMs: 10,
    what: 'the healthy delivery',
  });
  return got.at - started;
}

/** A webhook.test for every hanging endpoint, all created before the call returns. */
async function hangEverywhere(): Promise<void> {
  const answers = await Promise.all(hangingHooks.map(({ hook, token }) => call(`${hook}/test`, { method: 'POST', token })));
  expect(answers.map((a) => a.status)).toEqual(hangingHooks.map(() => 202));
}

it(`never makes a healthy client's delivery wait behind ${HANGING} hanging endpoints of other clients`, async () => {
  const baseline: number[] = [];
  for (let i = 0; i < SAMPLES; i++) baseline.push(await healthyLatency());

  // Every hanging endpoint has now been tried and has failed (timed out) at least once.
  await hangEverywhere();
  await hanging.waitFor(HANGING, 60_000);
  await eventually(
    async () => {
      const failing = await Promise.all(hangingHooks.map(async ({ hook, token }) => (await call(hook, { token })).body));
      return failing.every((e) => (e.data ?? e).consecutive_failures > 0);
    },
    { timeoutMs: 90_000, intervalMs: 1000, what: 'every hanging endpoint to have failed once' },
  );

  // While they keep hanging: their retries, and before each sample a new event each, some of which are already hanging at the receiver.
  const loaded: number[] = [];
  for (let i = 0; i < SAMPLES; i++) {
    const before = hanging.received.length;
    await hangEverywhere();
    await hanging.waitFor(before + 10, 60_000);
    loaded.push(await healthyLatency());
  }
  // A delivery queued behind a hanging one waits out its timeout_seconds (10 s). Half of that, or 2× the
  // baseline on a machine slow enough to need more, tells a blocked lane from a busy machine.
  const bound = Math.max(2 * median(baseline), (DEFAULT_TIMEOUT_SECONDS * 1000) / 2);
  const report = `baseline ${baseline.join(', ')} ms; while others hang ${loaded.join(', ')} ms; bound ${bound} ms`;
  expect({ report, withinBound: median(loaded) <= bound }).toEqual({ report, withinBound: true });
}, 240_000);
