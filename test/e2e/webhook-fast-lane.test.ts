import { createClient } from '../../functions/core/access/clients.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { DELIVERY_LANES, FAST_LANE_BUDGET_SECONDS } from '../../functions/core/webhooks/retry.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { QUEUES } from '../../lib/queues.js';
import { eventually } from '../support/eventually.js';
import { call, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * Design section 7, Isolation, for endpoints that have not failed yet: they
 * are delivered from the fast lane, so their first hang happens there. Each
 * run gives a new client 20 endpoints (the most one client may have) whose
 * receiver never answers, within their 30 s timeout. The first of them are
 * tested one after another, each once its POST is hanging, so that each has
 * a batch of its own and together they take every one of the fast lane's
 * concurrent batches; the rest follow at once. Then another client's
 * webhook.test must arrive within 2× its baseline, or its baseline + 2 s on a
 * machine slow enough to need more, in every run, not on average.
 */

const RUNS = 4;
const HANGING = 20;
const HANGING_TIMEOUT_SECONDS = 30;
/** The fast lane's concurrent batches (its pollers locally, its event source's maximum concurrency in the cloud). */
const FAST_BATCHES = QUEUES.find((q) => q.id === DELIVERY_LANES.fast)!.maxConcurrency;
/** How long a late delivery is waited for before the run is counted as failed (its latency then reads as this). */
const GIVE_UP_MS = 20_000;

let stack: LocalStack;
let healthy: Receiver;
let hanging: Receiver;
let base: string;
let healthyHook: string;
let healthyToken: string;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

beforeAll(async () => {
  stack = await startTestStack();
  healthy = await startReceiver();
  hanging = await startReceiver();
  hanging.script(...Array<'hang'>(100_000).fill('hang'));
  base = stack.info.families['clinical-interview']!;
  healthyToken = (await call(`${base}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' } })).body.access_token;
  const endpoint = await call(`${base}/webhooks`, { token: healthyToken, body: { name: 'Healthy', url: healthy.url, events: ['booking.created'] } });
  expect(endpoint.status).toBe(201);
  healthyHook = `${base}/webhooks/${endpoint.body.id}`;
}, 60_000);
afterAll(async () => {
  await healthy?.close();
  await hanging?.close();
  await stack?.stop();
});

/** One webhook.test for the healthy endpoint: milliseconds from the request that creates it to its arrival (GIVE_UP_MS if it has not arrived by then). */
async function healthyLatency(): Promise<number> {
  const started = Date.now();
  const queued = await call(`${healthyHook}/test`, { method: 'POST', token: healthyToken });
  expect(queued.status).toBe(202);
  try {
    const got = await eventually(() => healthy.received.find((r) => r.headers['webhook-id'] === queued.body.event_id), {
      timeoutMs: GIVE_UP_MS,
      intervalMs: 10,
      what: 'the healthy delivery',
    });
    return got.at - started;
  } catch {
    return GIVE_UP_MS;
  }
}

/** A new client with HANGING endpoints that never answer: their URLs on the API and the client's token. */
async function newHangingClient(run: number): Promise<{ hooks: string[]; token: string }> {
  const { client, clientSecret } = await createClient(depsFromEnv(), { name: `Hanging agency ${run}` });
  const token = (await call(`${base}/auth/token`, { body: { client_id: client.clientId, client_secret: clientSecret } })).body.access_token;
  const created = await Promise.all(
    Array.from({ length: HANGING }, (_, n) =>
      call(`${base}/webhooks`, {
        token,
        body: { name: `Hangs ${n}`, url: hanging.url, events: ['booking.created'], timeout_seconds: HANGING_TIMEOUT_SECONDS },
      }),
    ),
  );
  expect(created.map((r) => r.status)).toEqual(created.map(() => 201));
  return { hooks: created.map((r) => `${base}/webhooks/${r.body.id}`), token };
}

/** The endpoint's consecutive_failures. */
async function failures(hook: string, token: string): Promise<number> {
  const { body } = await call(hook, { token });
  return (body.data ?? body).consecutive_failures;
}

/** A webhook.test for a hanging endpoint; with `arrived`, once its POST is hanging at the receiver. */
async function testHanging(hook: string, token: string, arrived: boolean): Promise<void> {
  const queued = await call(`${hook}/test`, { method: 'POST', token });
  expect(queued.status).toBe(202);
  if (!arrived) return;
  await eventually(() => hanging.received.some((r) => r.headers['webhook-id'] === queued.body.event_id), {
    timeoutMs: 30_000,
    intervalMs: 10,
    what: 'a hanging delivery to reach its receiver',
  });
}

it(`keeps a healthy client's delivery on time while ${HANGING} new endpoints of another client hang, in each of ${RUNS} runs`, async () => {
  const baseline: number[] = [];
  for (let i = 0; i < 5; i++) baseline.push(await healthyLatency());
  const usual = median(baseline);
  const bound = Math.max(2 * usual, usual + 2000);

  const loaded: number[] = [];
  const clients: { hooks: string[]; token: string }[] = [];
  for (let run = 0; run < RUNS; run++) {
    const { hooks, token } = await newHangingClient(run);
    clients.push({ hooks, token });
    // One at a time until every fast-lane batch could be holding one, then the rest together.
    for (const hook of hooks.slice(0, FAST_BATCHES)) await testHanging(hook, token, true);
    await Promise.all(hooks.slice(FAST_BATCHES).map((hook) => testHanging(hook, token, false)));
    loaded.push(await healthyLatency());
    // Each run starts from an idle fast lane: every endpoint of this one has been tried, given up on and moved to the slow lane.
    await eventually(async () => (await Promise.all(hooks.map((hook) => failures(hook, token)))).every((n) => n > 0), {
      timeoutMs: 90_000,
      intervalMs: 500,
      what: 'every hanging endpoint to have failed once',
    });
  }

  const report = `baseline ${baseline.join(', ')} ms (median ${usual}); while new endpoints hang ${loaded.join(', ')} ms; bound ${bound} ms`;
  expect({ report, late: loaded.filter((ms) => ms > bound).length }).toEqual({ report, late: 0 });

  // The hanging endpoints' first attempts were given up on at the fast lane's budget (which moved them to the slow lane).
  const { hooks, token } = clients[0]!;
  const first = await eventually(
    async () => {
      const body = (await call(`${hooks[0]}/logs`, { token })).body;
      return (body.data as { attempt: number; error: string | null; duration_ms: number }[]).find((l) => l.attempt === 1);
    },
    { timeoutMs: 10_000, what: "the first attempt's log" },
  );
  expect(first.error).toBe(`no answer within ${FAST_LANE_BUDGET_SECONDS} s, the fast lane's budget`);
  expect(first.duration_ms).toBeLessThan((FAST_LANE_BUDGET_SECONDS + 1) * 1000);
}, 300_000);
