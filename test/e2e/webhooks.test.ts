import type { LocalStack } from '../../lib/local/stack.js';
import { verify } from '../../functions/core/webhooks/signing.js';
import { eventually } from '../support/eventually.js';
import { call, demoTokens, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

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

const SPEC_FIELDS = [
  'id',
  'name',
  'url',
  'events',
  'secret_prefix',
  'is_active',
  'timeout_seconds',
  'last_delivered_at',
  'last_response_code',
  'consecutive_failures',
  'created_at',
];

describe.each([
  ['clinical-interview', (body: any) => body, 'booking.created'],
  ['portal-v2', (body: any) => body.data, 'reference_request.created'],
] as const)('webhook endpoints in %s', (family, unwrap, kind) => {
  const base = () => stack.info.families[family]!;
  const as = (who: 'northwind' | 'riverside') => tokens[family]![who];

  it('create shows the secret once; reads show only its prefix; PUT answers the whole endpoint object', async () => {
    const created = await call(`${base()}/webhooks`, { token: as('northwind'), body: { name: 'Ops', url: receiver.url, events: [kind] } });
    expect(created.status).toBe(201);
    const endpoint = unwrap(created.body);
    if (family === 'portal-v2') expect(created.body.message).toEqual(expect.any(String));
    expect(endpoint).toMatchObject({
      name: 'Ops',
      url: receiver.url,
      events: [kind],
      is_active: true,
      timeout_seconds: 10,
      consecutive_failures: 0,
      last_delivered_at: null,
      last_response_code: null,
    });
    expect(endpoint.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint.secret_prefix).toBe(`${endpoint.secret.slice(0, 10)}••••••••`);

    const read = unwrap((await call(`${base()}/webhooks/${endpoint.id}`, { token: as('northwind') })).body);
    expect(Object.keys(read).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(JSON.stringify(read)).not.toContain(endpoint.secret);

    const updated = await call(`${base()}/webhooks/${endpoint.id}`, {
      method: 'PUT',
      token: as('northwind'),
      body: { events: [kind, 'webhook.test'], is_active: false, timeout_seconds: 5 },
    });
    expect(updated.status).toBe(200);
    expect(Object.keys(unwrap(updated.body)).sort()).toEqual([...SPEC_FIELDS].sort());
    expect(unwrap(updated.body)).toMatchObject({ events: [kind, 'webhook.test'], is_active: false, timeout_seconds: 5, name: 'Ops' });

    const listed = (await call(`${base()}/webhooks`, { token: as('northwind') })).body;
    expect(listed.data.map((e: { id: number }) => e.id)).toContain(endpoint.id);
    expect((await call(`${base()}/webhooks`, { token: as('riverside') })).body.data.map((e: { id: number }) => e.id)).not.toContain(endpoint.id);

    const rotated = unwrap((await call(`${base()}/webhooks/${endpoint.id}/rotate-secret`, { method: 'POST', token: as('northwind') })).body);
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(endpoint.secret);

    expect((await call(`${base()}/webhooks/${endpoint.id}`, { method: 'DELETE', token: as('northwind') })).status).toBe(204);
    expect((await call(`${base()}/webhooks/${endpoint.id}`, { token: as('northwind') })).status).toBe(404);
  });

  it("another client's endpoint is 404 for every operation", async () => {
    const endpoint = unwrap((await call(`${base()}/webhooks`, { token: as('northwind'), body: { name: 'Mine', url: receiver.url, events: [kind] } })).body);
    const path = `${base()}/webhooks/${endpoint.id}`;
    const attempts = [
      call(path, { token: as('riverside') }),
      call(path, { method: 'PUT', token: as('riverside'), body: { events: [kind], is_active: false } }),
      call(path, { method: 'DELETE', token: as('riverside') }),
      call(`${path}/rotate-secret`, { method: 'POST', token: as('riverside') }),
      call(`${path}/test`, { method: 'POST', token: as('riverside') }),
      call(`${path}/logs`, { token: as('riverside') }),
    ];
    for (const response of await Promise.all(attempts)) {
      expect(response.status).toBe(404);
      expect(response.body.type).toBe('/problems/not-found');
    }
    expect(unwrap((await call(path, { token: as('northwind') })).body)).toMatchObject({ is_active: true, name: 'Mine' });
  });

  it('refuses bad endpoints with 422 pointing at the field', async () => {
    const cases: [object, string][] = [
      [{ name: 'x', url: 'ftp://example.com/hook', events: [kind] }, '/url'],
      [{ name: 'x', url: 'http://169.254.169.254/latest', events: [kind] }, '/url'],
      [{ name: 'x', url: 'http://10.0.0.1/hook', events: [kind] }, '/url'],
      // IPv6 that a NAT64 or 6to4 gateway would carry on to an IPv4 address; a port below 1024 other than 443.
      [{ name: 'x', url: 'https://[64:ff9b::5db8:d822]/hook', events: [kind] }, '/url'],
      [{ name: 'x', url: 'https://[2002:5db8:d822::1]/hook', events: [kind] }, '/url'],
      [{ name: 'x', url: 'https://93.184.216.34:25/hook', events: [kind] }, '/url'],
      [{ name: 'x', url: receiver.url, events: ['booking.exploded'] }, '/events/0'],
      [{ name: 'x', url: receiver.url, events: [] }, '/events'],
      [{ name: 'x', url: receiver.url, events: [kind], timeout_seconds: 31 }, '/timeout_seconds'],
      [{ url: receiver.url, events: [kind] }, '/name'],
    ];
    for (const [body, pointer] of cases) {
      const response = await call(`${base()}/webhooks`, { token: as('riverside'), body });
      expect(response.status).toBe(422);
      expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
    }
    expect((await call(`${base()}/webhooks`, { token: as('riverside') })).body.data).toEqual([]);
  });

  it('sends a signed webhook.test through the whole local pipeline and logs the attempt', async () => {
    const endpoint = unwrap((await call(`${base()}/webhooks`, { token: as('riverside'), body: { name: 'Test', url: receiver.url, events: [kind] } })).body);
    const queued = await call(`${base()}/webhooks/${endpoint.id}/test`, { method: 'POST', token: as('riverside') });
    expect(queued.status).toBe(202);
    const eventId = unwrap(queued.body).event_id;
    const got = await eventually(() => receiver.received.find((r) => r.headers['webhook-id'] === eventId), {
      timeoutMs: 20_000,
      what: 'the webhook.test delivery',
    });
    expect(JSON.parse(got.body)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: endpoint.id } });
    expect(
      verify(
        endpoint.secret,
        { id: eventId, timestamp: String(got.headers['webhook-timestamp']), signature: String(got.headers['webhook-signature']) },
        got.body,
      ),
    ).toBe(true);

    const logs = await eventually(
      async () => {
        const page = (await call(`${base()}/webhooks/${endpoint.id}/logs`, { token: as('riverside') })).body;
        return page.data.length > 0 && page;
      },
      { what: 'the logged attempt' },
    );
    expect(logs.data[0]).toEqual({
      event_id: eventId,
      event_type: 'webhook.test',
      attempt: 1,
      attempted_at: expect.any(String),
      outcome: 'delivered',
      response_status: 200,
      error: null,
      duration_ms: expect.any(Number),
      next_attempt_at: null,
    });
    expect(unwrap((await call(`${base()}/webhooks/${endpoint.id}`, { token: as('riverside') })).body)).toMatchObject({
      last_response_code: 200,
      consecutive_failures: 0,
      last_delivered_at: expect.any(String),
    });
  });
});

it('an Idempotency-Key is scoped to the family: the same key and body create an endpoint in each, each with its own secret', async () => {
  const headers = { 'idempotency-key': 'one-key-two-families' };
  const body = { name: 'Both', url: receiver.url, events: ['webhook.test'] };
  const create = (family: string) => call(`${stack.info.families[family]}/webhooks`, { token: tokens[family]!.northwind, body, headers });

  const clinical = await create('clinical-interview');
  const portal = await create('portal-v2');
  expect([clinical.status, portal.status]).toEqual([201, 201]);
  expect(portal.headers.get('idempotent-replayed')).toBeNull();
  expect(portal.body.data.secret).toMatch(/^whsec_/);
  expect(portal.body.data.secret).not.toBe(clinical.body.secret);
  const listed = (family: string) => call(`${stack.info.families[family]}/webhooks`, { token: tokens[family]!.northwind });
  expect((await listed('portal-v2')).body.data.map((e: { id: number }) => e.id)).toContain(portal.body.data.id);

  // Within one family the key still replays the first answer.
  const again = await create('clinical-interview');
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(again.body).toEqual(clinical.body);
});

it("a booking reaches the agency's subscribed endpoint as booking.created", async () => {
  const base = stack.info.families['clinical-interview']!;
  const token = tokens['clinical-interview']!.northwind;
  await call(`${base}/webhooks`, { token, body: { name: 'Bookings', url: `${receiver.url}?bookings`, events: ['booking.created'] } });
  const slot = (await call(`${base}/timeslots?interview_type_id=2`, { token })).body.data[0];
  const held = (await call(`${base}/timeslots/hold`, { token, body: { interview_type_id: 2, date: slot.date, time: slot.time } })).body;
  const booking = (
    await call(`${base}/bookings`, {
      token,
      body: {
        hold_hash: held.hold_hash,
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.org',
        phone: '+447700900123',
        job_role: 'RMN',
        nmc_number: '12A3456B',
        pay_option: 'credits',
      },
    })
  ).body;
  const got = await eventually(() => receiver.received.find((r) => r.path.endsWith('?bookings')), { timeoutMs: 20_000, what: 'the booking.created delivery' });
  const delivered = JSON.parse(got.body);
  expect(delivered.type).toBe('booking.created');
  // The resource exactly as the API returned it.
  expect(JSON.stringify(delivered.data)).toBe(JSON.stringify(booking));
});
