import type { LocalStack } from '../../lib/local/stack.js';
import { call, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/** Design section 4, Abuse limits: at most 20 endpoints per client and family, and the list is paginated. */

let stack: LocalStack;
let receiver: Receiver;
let base: string;
let token: string;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  base = stack.info.families['portal-v2']!;
  token = (await call(`${base}/auth/token`, { body: { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' } })).body.access_token;
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const create = (name: string) => call(`${base}/webhooks`, { token, body: { name, url: receiver.url, events: ['reference.completed'] } });

it('concurrent creates stop at 20 endpoints; deleting one makes room; other families are counted apart', async () => {
  const answers = await Promise.all(Array.from({ length: 24 }, (_, i) => create(`Hook ${i}`)));
  expect(answers.filter((a) => a.status === 201)).toHaveLength(20);
  const refused = answers.filter((a) => a.status !== 201);
  expect(refused.map((a) => a.status)).toEqual([422, 422, 422, 422]);
  expect(refused[0]!.body).toMatchObject({ type: '/problems/limit-reached', limit: 20 });

  // Pages of 7: 7, 7, 6, no duplicates, every endpoint once, oldest first.
  const seen: number[] = [];
  let cursor: string | null = null;
  const sizes: number[] = [];
  do {
    const page: any = await call(`${base}/webhooks?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { token });
    expect(page.status).toBe(200);
    sizes.push(page.body.data.length);
    seen.push(...page.body.data.map((e: { id: number }) => e.id));
    cursor = page.body.next_cursor;
  } while (cursor);
  expect(sizes.slice(0, 3)).toEqual([7, 7, 6]);
  expect(new Set(seen).size).toBe(20);
  expect(seen).toEqual([...seen].sort((a, b) => a - b));
  expect((await call(`${base}/webhooks?limit=0`, { token })).status).toBe(422);

  expect((await call(`${base}/webhooks/${seen[0]}`, { method: 'DELETE', token })).status).toBe(204);
  expect((await create('One more')).status).toBe(201);
  expect((await create('Too many')).status).toBe(422);

  const clinical = stack.info.families['clinical-interview']!;
  const clinicalToken = (await call(`${clinical}/auth/token`, { body: { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' } })).body
    .access_token;
  const other = await call(`${clinical}/webhooks`, { token: clinicalToken, body: { name: 'Bookings', url: receiver.url, events: ['booking.created'] } });
  expect(other.status).toBe(201);
});
