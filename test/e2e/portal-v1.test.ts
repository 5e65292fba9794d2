// First: the brownout window must be in the environment before the edge loads.
import { PORTAL_V1_BROWNOUT } from '../support/portal-v1-brownout.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { createClient, setFamilyAccess } from '../../functions/core/access/clients.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { loadConfig } from '../../functions/core/platform/config.js';
import * as portalV1 from '../../functions/api/routes/portal-v1.js';
import { httpHandler } from '../../functions/middleware/http-handler.js';
import { eventually } from '../support/eventually.js';
import { ops } from '../support/ops.js';
import { call, DEMO_CREDENTIALS, startTestStack, type JsonResponse } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * Portal v1, deprecated: portal v2
 * tokens, v2's objects byte for byte, the two webhook operations, the
 * deprecation headers on every answer (errors and 429 included), 410 in
 * brownouts and after the sunset, and who still calls it.
 */

let stack: LocalStack;
let receiver: Receiver;
let v1: string;
let v2: string;
let token: string;

beforeAll(async () => {
  // A small rate limit, so that a 429 can be seen with its headers.
  stack = await startTestStack({ RATE_LIMIT_REQUESTS: '60' });
  receiver = await startReceiver();
  v1 = stack.info.families['portal-v1']!;
  v2 = stack.info.families['portal-v2']!;
  token = (await call(`${v2}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const expectDeprecated = (response: JsonResponse, successorPath: string) => {
  expect(response.headers.get('deprecation')).toBe('@1767225600');
  expect(response.headers.get('sunset')).toBe('Wed, 30 Jun 2027 00:00:00 GMT');
  const link = response.headers.get('link')!;
  expect(link).toContain(`<${v1}/docs>; rel="deprecation"; type="text/html"`);
  expect(link).toContain(`<${v2}${successorPath}>; rel="successor-version"`);
};

it('takes portal v2 tokens and answers with portal v2 objects, byte for byte', async () => {
  const candidate = await call(`${v1}/candidates`, { token, body: { first_name: 'Ann', last_name: 'Lee', email: `ann.${Date.now()}@example.org` } });
  expect(candidate.status).toBe(201);
  expectDeprecated(candidate, '/candidates');
  const id = candidate.body.data.id;
  expect((await call(`${v1}/candidates/${id}`, { token })).body).toEqual((await call(`${v2}/candidates/${id}`, { token })).body);

  for (const [path, body] of [
    ['/training-requests', { candidate_id: id, subjects: ['fire_safety', 'resuscitation'] }],
    ['/occupational-health-requests', { candidate_id: id, collection_mode: 'candidate_provides', epp_role: true }],
    ['/certificate-requests', { candidate_id: id, certificates: [{ kind: 'dbs' }, { kind: 'identity' }] }],
  ] as const) {
    const created = await call(`${v1}${path}`, { token, body });
    expect([path, created.status]).toEqual([path, 201]);
    expectDeprecated(created, path);
    const request = created.body.data;
    // Links go to portal v2's pages, where they are served.
    expect(request.submission_url).toMatch(new RegExp(`^${v2}/request-submit/`));
    const [one, two] = await Promise.all([call(`${v1}${path}/${request.id}`, { token }), call(`${v2}${path}/${request.id}`, { token })]);
    expect(JSON.stringify(one.body)).toBe(JSON.stringify(two.body));
    const [list1, list2] = await Promise.all([call(`${v1}${path}?candidate_id=${id}`, { token }), call(`${v2}${path}?candidate_id=${id}`, { token })]);
    expect(JSON.stringify(list1.body)).toBe(JSON.stringify(list2.body));
    expect(list1.body.data.map((r: { id: number }) => r.id)).toEqual([request.id]);
  }
  // Cancel, reminders and review are portal v2's only.
  expect((await call(`${v1}/training-requests/1/cancel`, { method: 'POST', token })).status).toBe(404);
  // Other families' tokens are not portal v2's.
  const clinical = (await call(`${stack.info.families['clinical-interview']}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
  expect((await call(`${v1}/candidates`, { token: clinical })).status).toBe(401);
  expect((await call(`${v1}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).status).toBe(404);
});

it('subscribes (webhook 1) a portal v2 endpoint that takes only v1 kinds, and unsubscribes (webhook 2) only those', async () => {
  const subscribed = await call(`${v1}/webhooks`, { token, body: { url: receiver.url, name: 'Legacy compliance' } });
  expect(subscribed.status).toBe(201);
  expectDeprecated(subscribed, '/webhooks');
  expect(subscribed.body.data.secret).toMatch(/^whsec_/);
  const endpoint = subscribed.body.data;
  expect(endpoint.events).toContain('training_request.created');
  expect(endpoint.events).not.toContain('appraisal_request.created');
  // It is a portal v2 endpoint: v2 shows it.
  expect((await call(`${v2}/webhooks/${endpoint.id}`, { token })).body.data).toMatchObject({ id: endpoint.id, name: 'Legacy compliance' });
  const refused = await call(`${v1}/webhooks`, { token, body: { url: receiver.url, events: ['appraisal_request.created'] } });
  expect(refused.status).toBe(422);
  expectDeprecated(refused, '/webhooks');

  const who = (await call(`${v2}/candidates`, { token, body: { first_name: 'Bo', last_name: 'Ng', email: `bo.${Date.now()}@example.org` } })).body.data;
  const training = (await call(`${v2}/training-requests`, { token, body: { candidate_id: who.id, subjects: ['fire_safety'] } })).body.data;
  const appraisal = (await call(`${v2}/appraisal-requests`, { token, body: { candidate_id: who.id } })).body.data;
  await call(`${v2}/appraisal-requests/${appraisal.id}/cancel`, { method: 'POST', token });
  await call(`${v2}/training-requests/${training.id}/cancel`, { method: 'POST', token });
  // Deliveries are not ordered: wait for both training events, whichever lands first.
  const trainingTypes = () => new Set(receiver.received.map((r) => JSON.parse(r.body).type).filter((t: string) => t.startsWith('training_request.')));
  await eventually(() => trainingTypes().has('training_request.created') && trainingTypes().has('training_request.cancelled'), {
    timeoutMs: 30_000,
    what: 'the training creation and cancellation',
  });
  const types = receiver.received.map((r) => JSON.parse(r.body).type);
  expect(types.filter((t) => t.startsWith('training_request.'))).toEqual(expect.arrayContaining(['training_request.created', 'training_request.cancelled']));
  expect(types.some((t) => t.startsWith('appraisal_request.'))).toBe(false);

  // An endpoint made through v2 is not v1's to delete.
  const v2Made = (await call(`${v2}/webhooks`, { token, body: { name: 'v2', url: receiver.url, events: ['training_request.created'] } })).body.data;
  const notMine = await call(`${v1}/webhooks/${v2Made.id}`, { method: 'DELETE', token });
  expect(notMine.status).toBe(404);
  expectDeprecated(notMine, '/webhooks');
  expect((await call(`${v2}/webhooks/${v2Made.id}`, { token })).status).toBe(200);
  const deleted = await fetch(`${v1}/webhooks/${endpoint.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } });
  expect(deleted.status).toBe(204);
  expect(deleted.headers.get('deprecation')).toBe('@1767225600');
  expect((await call(`${v2}/webhooks/${endpoint.id}`, { token })).status).toBe(404);
});

it('is a flag on the client: without it every call is 403 (still deprecated); the operator may take it away, but not give it after the deprecation', async () => {
  const deps = depsFromEnv();
  // Made now, after the deprecation: no portal v1.
  const { client, clientSecret } = await createClient(deps, { name: `Late Agency ${Date.now()}` });
  const late = (await call(`${v2}/auth/token`, { body: { client_id: client.clientId, client_secret: clientSecret } })).body.access_token;
  for (const [path, init] of [
    ['/candidates', {}],
    ['/training-requests/1', {}],
    ['/webhooks', { body: { url: 'https://example.org/hook' } }],
  ] as const) {
    const refused = await call(`${v1}${path}`, { token: late, ...init });
    expect([path, refused.status, refused.headers.get('content-type'), refused.body.type]).toEqual([
      path,
      403,
      'application/problem+json',
      '/problems/forbidden',
    ]);
    expect(refused.headers.get('deprecation')).toBe('@1767225600');
  }
  // Its portal v2 is untouched.
  expect((await call(`${v2}/candidates`, { token: late })).status).toBe(200);

  const on = await ops(stack, 'clients', 'portal-v1', client.clientId, '--on');
  expect(on.status).toBe(2);
  expect(on.stderr).toContain('deprecated since 2026-01-01T00:00:00.000Z');
  expect((await call(`${v1}/candidates`, { token: late })).status).toBe(403);

  // Given before the deprecation (the clock moved back), then taken away by the operator.
  await setFamilyAccess({ ...deps, clock: () => new Date('2025-12-31T23:59:59Z') }, client.clientId, 'portal-v1', true);
  expect((await call(`${v1}/candidates`, { token: late })).status).toBe(200);
  const off = await ops(stack, 'clients', 'portal-v1', client.clientId, '--off');
  expect([off.status, off.stdout.trim()]).toEqual([0, `Portal v1 disabled for ${client.clientId}`]);
  expect((await call(`${v1}/candidates`, { token: late })).status).toBe(403);
  // The demo clients keep it (the README's session).
  expect((await call(`${v1}/candidates`, { token })).status).toBe(200);
}, 60_000);

it('says it is deprecated on every answer, 401, 404, 405, 422 and 429 included', async () => {
  const unauthorised = await call(`${v1}/training-requests`);
  expect(unauthorised.status).toBe(401);
  expectDeprecated(unauthorised, '/training-requests');
  const missing = await call(`${v1}/certificate-requests/999999`, { token });
  expect(missing.status).toBe(404);
  expectDeprecated(missing, '/certificate-requests');
  // Paths the family has no operation for (the cloud stack's $default route): 404 with the headers, the successor being portal v2 itself.
  for (const [method, path] of [
    ['POST', '/training-requests/1/cancel'],
    ['POST', '/auth/token'],
    ['GET', '/no-such-thing'],
    ['GET', '/candidates/%E0%A4%A'],
  ] as const) {
    const unknown = await call(`${v1}${path}`, { method, token });
    expect([method, path, unknown.status]).toEqual([method, path, 404]);
    expect(unknown.body).toMatchObject({ type: '/problems/not-found', status: 404 });
    expectDeprecated(unknown, '');
  }
  // A path it has, with a method it lacks: 405 with Allow, as deprecated as the rest.
  const wrongMethod = await call(`${v1}/candidates/1`, { method: 'PUT', token });
  expect(wrongMethod.status).toBe(405);
  expect(wrongMethod.headers.get('allow')).toBe('GET');
  expect(wrongMethod.body).toMatchObject({ type: '/problems/method-not-allowed', status: 405 });
  expectDeprecated(wrongMethod, '');
  const invalid = await call(`${v1}/occupational-health-requests`, { token, body: { candidate_id: 1, collection_mode: 'by_post' } });
  expect(invalid.status).toBe(422);
  expectDeprecated(invalid, '/occupational-health-requests');
  // 60 a minute: 121 requests, ten at a time, put more than 60 in one window even if they straddle a minute's end.
  let limited: JsonResponse | undefined;
  for (let i = 0; i < 13 && !limited; i++) {
    const answers = await Promise.all(Array.from({ length: i === 12 ? 1 : 10 }, () => call(`${v1}/candidates?limit=1`, { token })));
    for (const answer of answers) {
      expectDeprecated(answer, '/candidates');
      if (answer.status === 429) limited ??= answer;
    }
  }
  expect(limited?.body.type).toBe('/problems/rate-limited');
});

it('counts who still calls it, per client and day, for the operator', async () => {
  const listed = await ops(stack, 'deprecated', 'callers', '--family', 'portal-v1', '--days', '2');
  expect(listed.status).toBe(0);
  const callers = JSON.parse(listed.stdout) as { client_id: string; calls: number; last_call_at: string }[];
  expect(callers.find((c) => c.client_id === 'demo-riverside')!.calls).toBeGreaterThanOrEqual(20);
});

describe('with the clock given', () => {
  // The edge of one v1 operation, on a clock the test sets: no stack needed past the configuration.
  const at = (iso: string) => {
    const deps = { ...depsFromEnv(), config: loadConfig(process.env), clock: () => new Date(iso) };
    return httpHandler(portalV1.listTrainingRequests, async () => ({ status: 200, body: { data: [], next_cursor: null } }), { deps });
  };
  const event = {
    version: '2.0',
    routeKey: 'GET /training-requests',
    rawPath: '/training-requests',
    rawQueryString: '',
    headers: {},
    requestContext: { http: { method: 'GET', path: '/training-requests', sourceIp: '127.0.0.1' }, requestId: 'r1', domainName: 'x.example', stage: '$default' },
    stageVariables: { family: 'portal-v1' },
    isBase64Encoded: false,
  };
  const answer = async (iso: string) => {
    const result = await at(iso)(structuredClone(event) as never, {} as never);
    return { status: result.statusCode, headers: result.headers ?? {}, body: JSON.parse(result.body ?? '{}') };
  };

  it('answers 410 api-sunset before authentication from the sunset on and inside a brownout; otherwise the operation (here 401)', async () => {
    expect(stack.info.deprecations['portal-v1']!.brownouts).toEqual([PORTAL_V1_BROWNOUT]);
    expect((await answer('2026-11-22T10:00:00Z')).status).toBe(401);
    const inside = await answer('2027-03-02T14:30:00Z');
    expect(inside.status).toBe(410);
    expect(inside.body).toMatchObject({ type: '/problems/api-sunset', brownout_ends_at: '2027-03-02T15:00:00.000Z', sunset: '2027-06-30T00:00:00.000Z' });
    expect(inside.headers['retry-after']).toBeUndefined();
    expect(inside.headers.deprecation).toBe('@1767225600');
    expect((await answer('2027-03-02T15:00:00Z')).status).toBe(401);
    const after = await answer('2027-06-30T00:00:00Z');
    expect(after.status).toBe(410);
    expect(after.body.brownout_ends_at ?? null).toBeNull();
  });
});
