import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../../functions/core/access/clients.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, startTestStack } from '../support/local-stack.js';

let stack: LocalStack;

beforeAll(async () => {
  stack = await startTestStack({ RATE_LIMIT_REQUESTS: '3', RATE_LIMIT_WINDOW_SECONDS: '3600' });
});
afterAll(() => stack?.stop());

it('answers 429 with Retry-After and RateLimit headers once a client spends its window', async () => {
  const base = stack.info.families['clinical-interview']!;
  const { access_token } = (await call(`${base}/auth/token`, { body: { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' } })).body;
  const answers = [];
  for (let i = 0; i < 4; i++) answers.push(await call(`${base}/auth/token`, { token: access_token }));
  const statuses = answers.map((answer) => answer.status);
  const last = answers.at(-1)!;
  expect(statuses).toEqual([200, 200, 200, 429]);
  expect(last.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
  const retryAfter = Number(last.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(last.headers.get('ratelimit-policy')).toBe('"default";q=3;w=3600');
  expect(last.headers.get('ratelimit')).toBe(`"default";r=0;t=${retryAfter}`);

  // Refused again without writing the client's access record: its count stays where the first refusal left it.
  const deps = { ...depsFromEnv(), table: stack.info.table_name };
  const countNow = async () =>
    (await deps.db.send(new GetCommand({ TableName: deps.table, Key: clientKeys.access('demo-riverside'), ConsistentRead: true }))).Item!
      .clinical_interview_requests;
  expect(await countNow()).toBe(4);
  for (let i = 0; i < 3; i++) {
    const again = await call(`${base}/auth/token`, { token: access_token });
    expect(again.status).toBe(429);
    expect(again.headers.get('ratelimit')).toMatch(/^"default";r=0;t=\d+$/);
    expect(Number(again.headers.get('retry-after'))).toBeGreaterThan(0);
  }
  expect(await countNow()).toBe(4);

  // The other demo client is not affected.
  const other = (await call(`${base}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' } })).body;
  expect((await call(`${base}/auth/token`, { token: other.access_token })).status).toBe(200);
});
