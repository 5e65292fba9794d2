import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/** Design section 7, Replay: past events sent to an endpoint again, with their original webhook-ids. */

let stack: LocalStack;
let receiver: Receiver;
let base: string;
const token: Record<string, string> = {};

beforeAll(async () => {
  // A failed attempt is retried only after ten minutes here: what reaches the receiver again is the replay.
  const previous = process.env.WEBHOOK_RETRY_SCHEDULE;
  stack = await startTestStack({ WEBHOOK_RETRY_SCHEDULE: '600' });
  if (previous === undefined) delete process.env.WEBHOOK_RETRY_SCHEDULE;
  else process.env.WEBHOOK_RETRY_SCHEDULE = previous;
  receiver = await startReceiver();
  base = stack.info.families['clinical-interview']!;
  for (const [who, secret] of [
    ['northwind', 'cs_demo_northwind_local_only'],
    ['riverside', 'cs_demo_riverside_local_only'],
  ]) {
    token[who!] = (await call(`${base}/auth/token`, { body: { client_id: `demo-${who}`, client_secret: secret } })).body.access_token;
  }
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

it('replays the failed events by default, every event with all: true, each with its original webhook-id', async () => {
  const before = new Date(Date.now() - 60_000).toISOString();
  const endpoint = (await call(`${base}/webhooks`, { token: token.northwind, body: { name: 'Replay', url: receiver.url, events: ['booking.created'] } })).body;
  const hooks = `${base}/webhooks/${endpoint.id}`;

  receiver.script({ status: 200 }, { status: 500 });
  const delivered = (await call(`${hooks}/test`, { method: 'POST', token: token.northwind })).body.event_id;
  await receiver.waitFor(1);
  const failed = (await call(`${hooks}/test`, { method: 'POST', token: token.northwind })).body.event_id;
  await receiver.waitFor(2);
  await eventually(async () => (await call(`${hooks}/logs`, { token: token.northwind })).body.data.length === 2, { what: 'two attempts logged' });

  const replay = await call(`${hooks}/replay`, { token: token.northwind, body: { since: before } });
  expect(replay.status).toBe(202);
  expect(replay.body).toEqual({ replayed: 1, event_ids: [failed] });
  const [again] = (await receiver.waitFor(3)).slice(2);
  expect(again!.headers['webhook-id']).toBe(failed);
  expect(JSON.parse(again!.body)).toEqual(JSON.parse(receiver.received[1]!.body));

  const all = await call(`${hooks}/replay`, { token: token.northwind, body: { since: before, all: true } });
  expect(all.body).toEqual({ replayed: 2, event_ids: [delivered, failed] });
  const replayed = (await receiver.waitFor(5)).slice(3).map((r) => r.headers['webhook-id']);
  expect(replayed.sort()).toEqual([delivered, failed].sort());
  // Nothing since now: nothing to replay.
  expect((await call(`${hooks}/replay`, { token: token.northwind, body: { since: new Date().toISOString() } })).body).toEqual({ replayed: 0, event_ids: [] });
});

it("refuses more than 14 days back, a future or malformed since, and another client's endpoint", async () => {
  const endpoint = (await call(`${base}/webhooks`, { token: token.northwind, body: { name: 'Mine', url: receiver.url, events: ['booking.created'] } })).body;
  const replay = (body: unknown, who = 'northwind') => call(`${base}/webhooks/${endpoint.id}/replay`, { token: token[who], body });
  const tooOld = await replay({ since: new Date(Date.now() - 15 * 86_400_000).toISOString() });
  expect(tooOld.status).toBe(422);
  expect(tooOld.body.errors).toEqual([{ pointer: '/since', detail: 'At most 14 days back' }]);
  expect((await replay({ since: new Date(Date.now() + 3_600_000).toISOString() })).status).toBe(422);
  expect((await replay({ since: 'yesterday' })).body.errors[0].pointer).toBe('/since');
  expect((await replay({ since: 'yesterday' }, 'riverside')).status).toBe(404);

  expect(
    (await call(`${base}/webhooks/${endpoint.id}`, { method: 'PUT', token: token.northwind, body: { events: ['booking.created'], is_active: false } })).status,
  ).toBe(200);
  const off = await replay({ since: new Date(Date.now() - 60_000).toISOString() });
  expect(off.status).toBe(409);
});
