import { request as httpRequest } from 'node:http';
import type { LocalStack } from '../../lib/local/stack.js';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { call, startTestStack } from '../support/local-stack.js';
import { startReceiver } from '../support/receiver.js';

/** Design section 4: anonymous callers are throttled, answers carry their security headers, and no log line holds a capability. */

let stack: LocalStack;
let base: string;
const NORTHWIND = { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' };
const RIVERSIDE = { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' };

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families['clinical-interview']!;
});
afterAll(() => stack?.stop());

const exchange = (credentials: { client_id: string; client_secret: string }) => call(`${base}/auth/token`, { body: credentials });

function expectSecurityHeaders(headers: Headers, html: boolean) {
  expect(headers.get('x-content-type-options')).toBe('nosniff');
  expect(headers.get('cache-control')).toBe('no-store');
  if (html) {
    expect(headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(headers.get('referrer-policy')).toBe('no-referrer');
  }
}

it('an integration that signs in often is never throttled', async () => {
  // More than any failure limit allows.
  for (let i = 0; i < 21; i++) expect((await exchange(NORTHWIND)).status).toBe(200);
});

it('JSON answers and HTML pages, errors included, carry the security headers', async () => {
  const token = (await exchange(NORTHWIND)).body.access_token;
  const list = await call(`${base}/bookings`, { token });
  expect(list.status).toBe(200);
  expectSecurityHeaders(list.headers, false);
  const missing = await call(`${base}/bookings/424242`, { token });
  expect(missing.status).toBe(404);
  expectSecurityHeaders(missing.headers, false);

  const { booking_url } = (await call(`${base}/client/booking-url`, { token })).body;
  const page = await fetch(booking_url);
  expect(page.status).toBe(200);
  expectSecurityHeaders(page.headers, true);
  const notFound = await fetch(`${base}/pay/${'x'.repeat(30)}`);
  expect(notFound.status).toBe(404);
  expectSecurityHeaders(notFound.headers, true);
});

it('no log line holds a link token or a hold hash', async () => {
  const lines: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const level = process.env.LOG_LEVEL;
  process.env.LOG_LEVEL = 'info';
  process.stdout.write = (chunk: string | Uint8Array) => (lines.push(String(chunk)), true);
  try {
    const token = (await exchange(NORTHWIND)).body.access_token;
    const { booking_url } = (await call(`${base}/client/booking-url`, { token })).body;
    const pageToken = booking_url.split('/').pop();
    await fetch(booking_url);
    const slot = (await call(`${base}/timeslots?interview_type_id=1`, { token })).body.data[0];
    const hold = (await call(`${base}/timeslots/hold`, { token, body: { interview_type_id: 1, date: slot.date, time: slot.time } })).body.hold_hash;
    expect((await call(`${base}/timeslots/hold/${hold}`, { method: 'DELETE', token })).status).toBe(204);
    const logged = lines.join('');
    expect(logged).toContain('"route":"GET /book/{token}"');
    expect(logged).toContain(`/book/${pageToken.slice(0, 6)}…`);
    expect(logged).not.toContain(pageToken);
    expect(logged).not.toContain(hold);
    expect(logged).not.toContain(token);
  } finally {
    process.stdout.write = write;
    process.env.LOG_LEVEL = level;
  }
});

it('a public link answers one visitor at most 30 requests a minute, then 429 with Retry-After', async () => {
  const token = (await exchange(RIVERSIDE)).body.access_token;
  const { booking_url } = (await call(`${base}/client/booking-url`, { token })).body;
  // The window is a clock minute: start the run early in one, so that it ends in the same one.
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 40_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
  // Ten at a time; then the 31st. (Other visitors of the link are not refused: seat-and-link-hoarding.test.ts.)
  const statuses: number[] = [];
  for (let i = 0; i < 3; i++) {
    const batch = await Promise.all(Array.from({ length: 10 }, () => fetch(booking_url).then(async (r) => (await r.arrayBuffer(), r.status))));
    statuses.push(...batch);
  }
  const last = await fetch(booking_url);
  expect(statuses.filter((s) => s === 200)).toHaveLength(30);
  expect(last.status).toBe(429);
  expect(Number(last.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(last.headers.get('content-type')).toMatch(/^text\/html/);
}, 120_000);

/** A JSON POST sent from another loopback address (the local server sees it as the source address, as API Gateway's sourceIp). */
function postFrom(address: string, url: string, body: unknown): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: any }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      { method: 'POST', localAddress: address, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text ? JSON.parse(text) : undefined }));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** The start of a clock minute, so that a run of requests counted per minute ends in the same one. */
async function earlyInMinute() {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 30_000) await new Promise((r) => setTimeout(r, 60_000 - intoMinute + 100));
}

it('of 30 wrong secrets sent at once for a client id, 10 are checked and 20 refused; that address is refused for 15 minutes, the right secret from another address still signs in', async () => {
  await earlyInMinute();
  const statuses = await Promise.all(Array.from({ length: 30 }, () => exchange({ ...RIVERSIDE, client_secret: 'wrong' }).then((r) => r.status)));
  expect(statuses.filter((s) => s === 401)).toHaveLength(10);
  expect(statuses.filter((s) => s === 429)).toHaveLength(20);
  const refused = await exchange(RIVERSIDE);
  expect(refused.status).toBe(429);
  expect(refused.body).toMatchObject({ type: '/problems/rate-limited', status: 429 });
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(refused.body).not.toHaveProperty('retry_after_seconds');
  // The client's own servers, elsewhere, are not locked out.
  const elsewhere = await postFrom('127.0.0.2', `${base}/auth/token`, RIVERSIDE);
  expect(elsewhere.status).toBe(200);
  expect(elsewhere.body.access_token).toEqual(expect.any(String));
  // Another client from the same address still signs in: that address has 10 failures of its 20.
  expect((await exchange(NORTHWIND)).status).toBe(200);
}, 60_000);

it('twenty failed exchanges or refreshes from one address stop every exchange and refresh from it, and no other address', async () => {
  const address = '127.0.0.3';
  await earlyInMinute();
  for (let i = 0; i < 10; i++) expect((await postFrom(address, `${base}/auth/token`, { client_id: `nobody-${i}`, client_secret: 'x' })).status).toBe(401);
  for (let i = 0; i < 10; i++) expect((await postFrom(address, `${base}/auth/refresh`, { refresh_token: `forged-${i}` })).status).toBe(401);
  expect((await postFrom(address, `${base}/auth/token`, NORTHWIND)).status).toBe(429);
  expect((await postFrom(address, `${base}/auth/refresh`, { refresh_token: 'forged' })).status).toBe(429);
  expect((await postFrom('127.0.0.4', `${base}/auth/token`, NORTHWIND)).status).toBe(200);
}, 120_000);

it('an Idempotency-Key replays a new webhook secret to its client, but the table keeps no secret in clear', async () => {
  const receiver = await startReceiver();
  try {
    const token = (await exchange(NORTHWIND)).body.access_token;
    const headers = { 'idempotency-key': `hook-${Date.now()}` };
    const body = { name: 'Secret keeper', url: receiver.url, events: ['booking.created'] };
    const created = await call(`${base}/webhooks`, { token, headers, body });
    expect(created.status).toBe(201);
    const secret = created.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const replayed = await call(`${base}/webhooks`, { token, headers, body });
    expect(replayed.status).toBe(201);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body.secret).toBe(secret);
    const { db } = depsFromEnv();
    const items = [];
    let ExclusiveStartKey: Record<string, unknown> | undefined;
    do {
      const page = await db.send(new ScanCommand({ TableName: stack.info.table_name, ExclusiveStartKey }));
      items.push(...page.Items!);
      ExclusiveStartKey = page.LastEvaluatedKey;
    } while (ExclusiveStartKey);
    const records = items.filter((i) => i.entity === 'idempotency');
    expect(records.length).toBeGreaterThan(0);
    const secretPart = secret.slice('whsec_'.length, 30);
    expect(records.filter((r) => JSON.stringify(r).includes(secretPart) || Buffer.from(JSON.stringify(r)).toString('base64').includes(secretPart))).toEqual([]);
  } finally {
    await receiver.close();
  }
});
