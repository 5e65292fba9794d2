import type { LocalStack } from '../../lib/local/stack.js';
import { call, demoTokens, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/** Design section 4, "Precedence and hostile paths": a bad path is 404, never 500, and another client's object is 404 before its body is read. */

let stack: LocalStack;
let receiver: Receiver;
let tokens: Awaited<ReturnType<typeof demoTokens>>;

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  tokens = await demoTokens(stack);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const ci = () => stack.info.families['clinical-interview']!;
const portal = () => stack.info.families['portal-v2']!;
const long = 'a'.repeat(3000);
const label = (path: string) => path.replace(long, '<3000 characters>');

it.each(
  [
    ['DELETE', 'clinical-interview', `/timeslots/hold/${long}`],
    ['GET', 'clinical-interview', `/bookings/${long}`],
    ['GET', 'clinical-interview', '/bookings/99999999999999999999'],
    ['GET', 'clinical-interview', '/bookings/0x10'],
    ['GET', 'clinical-interview', '/webhooks/-1'],
    ['GET', 'portal-v2', `/reference-requests/${long}`],
    ['GET', 'portal-v2', '/references/1e3/pdf'],
  ].map(([method, family, path]) => [method!, family!, label(path!), path!]),
)('%s %s %s is a JSON 404', async (method, family, _label, path) => {
  const response = await call(`${stack.info.families[family]}${path}`, { method, token: tokens[family]!.northwind });
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
  expect(response.body.detail).not.toContain(long);
});

it.each(
  [
    ['GET', 'clinical-interview', `/book/${long}`],
    ['POST', 'clinical-interview', `/book/${long}`],
    ['GET', 'clinical-interview', `/pay/${long}`],
    ['POST', 'clinical-interview', `/pay/${long}`],
    ['GET', 'portal-v2', `/reference-form/${long}`],
    ['POST', 'portal-v2', `/reference-form/${long}`],
    ['GET', 'portal-v2', `/reference-submit/${long}`],
    ['POST', 'portal-v2', `/reference-submit/${long}`],
    ['GET', 'portal-v2', '/reference-form/short'],
  ].map(([method, family, path]) => [method!, family!, label(path!), path!]),
)('the public page %s %s %s is a 404 page', async (method, family, _label, path) => {
  const response = await fetch(`${stack.info.families[family]}${path}`, {
    method,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: method === 'POST' ? 'slot=x' : undefined,
  });
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await response.text()).not.toContain(long);
});

describe("another client's object is 404 before its body is validated", () => {
  it('PUT /webhooks/{id}', async () => {
    const created = await call(`${ci()}/webhooks`, {
      token: tokens['clinical-interview']!.northwind,
      body: { name: 'Mine', url: receiver.url, events: ['booking.created'] },
    });
    expect(created.status).toBe(201);
    const path = `${ci()}/webhooks/${created.body.id}`;
    const foreign = await call(path, { method: 'PUT', token: tokens['clinical-interview']!.riverside, body: { events: 'nonsense' } });
    expect(foreign.status).toBe(404);
    const missing = await call(`${ci()}/webhooks/987654`, { method: 'PUT', token: tokens['clinical-interview']!.riverside, body: { events: 'nonsense' } });
    expect(missing.status).toBe(404);
    expect(foreign.body.type).toBe(missing.body.type);
    // The owner with the same bad body learns what is wrong with it.
    const own = await call(path, { method: 'PUT', token: tokens['clinical-interview']!.northwind, body: { events: 'nonsense' } });
    expect(own.status).toBe(422);
  });

  it('POST /reference-requests/{id}/referees', async () => {
    const northwind = tokens['portal-v2']!.northwind;
    const candidate = await call(`${portal()}/candidates`, { token: northwind, body: { first_name: 'Ada', last_name: 'Lovelace', email: 'ada@example.com' } });
    const templates = await call(`${portal()}/templates`, { token: northwind });
    const request = await call(`${portal()}/reference-requests`, {
      token: northwind,
      body: { candidate_id: candidate.body.data.id, collection_mode: 'candidate_provides', template_id: templates.body.data[0].id },
    });
    expect(request.status).toBe(201);
    const path = `${portal()}/reference-requests/${request.body.data.id}/referees`;
    const foreign = await call(path, { token: tokens['portal-v2']!.riverside, body: { referee_email: 'not an e-mail' } });
    expect(foreign.status).toBe(404);
    const own = await call(path, { token: northwind, body: { referee_email: 'not an e-mail' } });
    expect(own.status).toBe(422);
  });
});

it.each(
  [
    ['PUT', 'clinical-interview', '/auth/token', 'GET, POST, DELETE'],
    ['HEAD', 'clinical-interview', '/bookings', 'GET, POST'],
    ['DELETE', 'portal-v2', `/reference-form/${long}`, 'GET, POST'],
  ].map(([method, family, path, allow]) => [method!, family!, label(path!), allow!, path!]),
)('%s %s %s is 405 with Allow: %s', async (method, family, _label, allow, path) => {
  const response = await fetch(`${stack.info.families[family]}${path}`, { method, headers: { authorization: `Bearer ${tokens[family]!.northwind}` } });
  expect(response.status).toBe(405);
  expect(response.headers.get('allow')).toBe(allow);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  if (method !== 'HEAD') expect(await response.json()).toMatchObject({ type: '/problems/method-not-allowed', status: 405 });
});

it('a path no family operation has is a JSON 404 in a current family too', async () => {
  const response = await call(`${ci()}/nowhere`, { token: tokens['clinical-interview']!.northwind });
  expect(response.status).toBe(404);
  expect(response.headers.get('content-type')).toBe('application/problem+json');
  expect(response.body).toMatchObject({ type: '/problems/not-found', status: 404 });
});
