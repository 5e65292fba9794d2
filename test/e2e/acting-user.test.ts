import type { LocalStack } from '../../lib/local/stack.js';
import { call, startTestStack, type JsonResponse } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * Team roles hold on every operation of a family with team users, shared ones
 * included: an unknown, disabled or
 * unpermitted `Acting-User` is 403 `acting-user-not-permitted` with the
 * permission, and nothing is read or written. And authentication comes before
 * the media type (section 5): no token is 401 whatever the content type.
 */

let stack: LocalStack;
let receiver: Receiver;
let monitoring: string;
let portal: string;
let rmToken: string;
let v2Token: string;
const users: Record<'viewer' | 'billing' | 'reader' | 'disabled' | 'admin', number> = { viewer: 0, billing: 0, reader: 0, disabled: 0, admin: 0 };
const UNKNOWN = '999999';

const credentials = { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' };
const as = (user: number | string) => ({ 'acting-user': String(user) });
const problem = (r: JsonResponse) => [r.status, r.body?.type, r.body?.permission];

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  monitoring = stack.info.families['registration-monitoring']!;
  portal = stack.info.families['portal-v2']!;
  rmToken = (await call(`${monitoring}/auth/token`, { body: credentials })).body.access_token;
  v2Token = (await call(`${portal}/auth/token`, { body: credentials })).body.access_token;
  // The account's team, made by the account itself (no Acting-User): built-in roles, a custom role that reads workers, a disabled admin.
  const role = await call(`${monitoring}/team/roles`, { token: rmToken, body: { name: 'Worker reader', permissions: ['workers:read'] } });
  expect(role.status).toBe(201);
  const add = async (name: string, role_id: string, status = 'active') => {
    const created = await call(`${monitoring}/team/users`, {
      token: rmToken,
      body: { name, email: `${name.toLowerCase().replace(/\W/g, '.')}@riverside.example`, role_id, status, alert_min_severity: 'none' },
    });
    expect([name, created.status]).toEqual([name, 201]);
    return created.body.id as number;
  };
  users.viewer = await add('Val Viewer', 'viewer');
  users.billing = await add('Bill Billing', 'billing');
  users.reader = await add('Rae Reader', role.body.id);
  users.disabled = await add('Dee Disabled', 'admin', 'disabled');
  users.admin = await add('Ada Admin', 'admin');
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

describe('registration monitoring: the webhook operations need webhooks:manage', () => {
  const refused = () => [users.viewer, users.billing, users.reader, users.disabled, UNKNOWN];
  const NOT_PERMITTED = [403, '/problems/acting-user-not-permitted', 'webhooks:manage'];

  it('refuses a viewer, a billing user, a custom role with workers:read, a disabled user and an unknown one on each, and changes nothing', async () => {
    const hooks = `${monitoring}/webhooks`;
    const endpoint = (await call(hooks, { token: rmToken, body: { name: 'Compliance', url: receiver.url, events: ['worker.created', 'webhook.test'] } })).body;
    expect(endpoint).toMatchObject({ id: expect.any(Number), is_active: true });
    const before = (await call(`${hooks}/${endpoint.id}`, { token: rmToken })).body;
    const listed = async () => ((await call(`${hooks}?limit=100`, { token: rmToken })).body.data as { id: number }[]).map((e) => e.id);
    const endpoints = await listed();
    const id = endpoint.id as number;
    const body = { name: 'Compliance', url: receiver.url, events: ['worker.created'] };
    const since = new Date(Date.now() - 3_600_000).toISOString();

    for (const who of refused()) {
      const attempts: [string, Promise<JsonResponse>][] = [
        ['create', call(hooks, { token: rmToken, headers: as(who), body })],
        ['list', call(hooks, { token: rmToken, headers: as(who) })],
        ['get', call(`${hooks}/${id}`, { token: rmToken, headers: as(who) })],
        ['disable', call(`${hooks}/${id}`, { method: 'PUT', token: rmToken, headers: as(who), body: { events: ['worker.created'], is_active: false } })],
        ['rotate', call(`${hooks}/${id}/rotate-secret`, { method: 'POST', token: rmToken, headers: as(who) })],
        ['test', call(`${hooks}/${id}/test`, { method: 'POST', token: rmToken, headers: as(who) })],
        ['replay', call(`${hooks}/${id}/replay`, { token: rmToken, headers: as(who), body: { since } })],
        ['logs', call(`${hooks}/${id}/logs`, { token: rmToken, headers: as(who) })],
        ['delete', call(`${hooks}/${id}`, { method: 'DELETE', token: rmToken, headers: as(who) })],
      ];
      for (const [what, attempt] of attempts) expect([who, what, ...problem(await attempt)]).toEqual([who, what, ...NOT_PERMITTED]);
      // Even a body the operation would refuse: the acting user is refused first.
      expect([who, ...problem(await call(hooks, { token: rmToken, headers: as(who), body: { name: '' } }))]).toEqual([who, ...NOT_PERMITTED]);
    }

    // Nothing happened: the same endpoints, this one as it was (active, its secret); no test event sent.
    const after = (await call(`${hooks}/${id}`, { token: rmToken })).body;
    expect(after).toEqual(before);
    expect(await listed()).toEqual(endpoints);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(receiver.received.filter((r) => r.body.includes('webhook.test'))).toEqual([]);
  });

  it('lets a user with webhooks:manage (and the account itself) do them; a refused attempt leaves its Idempotency-Key unused', async () => {
    const hooks = `${monitoring}/webhooks`;
    const body = { name: 'Admin hook', url: receiver.url, events: ['worker.created'] };
    const key = { 'idempotency-key': `acting-${Date.now()}` };
    expect(problem(await call(hooks, { token: rmToken, headers: { ...as(users.viewer), ...key }, body }))).toEqual([
      403,
      '/problems/acting-user-not-permitted',
      'webhooks:manage',
    ]);
    const created = await call(hooks, { token: rmToken, headers: { ...as(users.admin), ...key }, body });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect((await call(`${hooks}/${id}/rotate-secret`, { method: 'POST', token: rmToken, headers: as(users.admin) })).status).toBe(200);
    expect((await call(`${hooks}/${id}/test`, { method: 'POST', token: rmToken, headers: as(users.admin) })).status).toBe(202);
    expect(
      (await call(`${hooks}/${id}`, { method: 'PUT', token: rmToken, headers: as(users.admin), body: { events: ['worker.created'], is_active: false } })).body
        .is_active,
    ).toBe(false);
    expect((await call(`${hooks}/${id}`, { method: 'DELETE', token: rmToken, headers: as(users.admin) })).status).toBe(204);
  });

  it("refuses an unknown or disabled user on the token's own operations too", async () => {
    for (const who of [users.disabled, UNKNOWN]) {
      expect([who, ...problem(await call(`${monitoring}/auth/token`, { token: rmToken, headers: as(who) }))]).toEqual([
        who,
        403,
        '/problems/acting-user-not-permitted',
        undefined,
      ]);
    }
    expect((await call(`${monitoring}/auth/token`, { token: rmToken, headers: as(users.billing) })).status).toBe(200);
  });
});

describe('portal v2: an unknown or disabled acting user is refused on every operation', () => {
  const NOT_A_USER = [403, '/problems/acting-user-not-permitted', undefined];

  it('lists, candidates, cancel and reminders: 403 before anything is read or written; an active team user may', async () => {
    const cand = await call(`${portal}/candidates`, {
      token: v2Token,
      body: { first_name: 'Kate', last_name: 'Acting', email: `kate.${Date.now()}@example.org` },
    });
    expect(cand.status).toBe(201);
    const request = await call(`${portal}/training-requests`, { token: v2Token, body: { candidate_id: cand.body.data.id, subjects: ['fire_safety'] } });
    expect(request.status).toBe(201);
    const id = request.body.data.id as number;
    const before = (await call(`${portal}/training-requests/${id}`, { token: v2Token })).body.data;

    for (const who of [users.disabled, UNKNOWN]) {
      const attempts: [string, Promise<JsonResponse>][] = [
        ['list requests', call(`${portal}/training-requests`, { token: v2Token, headers: as(who) })],
        ['list reference requests', call(`${portal}/reference-requests`, { token: v2Token, headers: as(who) })],
        ['list candidates', call(`${portal}/candidates`, { token: v2Token, headers: as(who) })],
        ['get candidate', call(`${portal}/candidates/${cand.body.data.id}`, { token: v2Token, headers: as(who) })],
        [
          'create candidate',
          call(`${portal}/candidates`, { token: v2Token, headers: as(who), body: { first_name: 'No', last_name: 'One', email: `no.one.${who}@example.org` } }),
        ],
        [
          'create request',
          call(`${portal}/training-requests`, { token: v2Token, headers: as(who), body: { candidate_id: cand.body.data.id, subjects: ['moving_handling'] } }),
        ],
        ['reminders', call(`${portal}/training-requests/${id}/reminders`, { method: 'POST', token: v2Token, headers: as(who) })],
        ['cancel', call(`${portal}/training-requests/${id}/cancel`, { method: 'POST', token: v2Token, headers: as(who) })],
        ['webhooks', call(`${portal}/webhooks`, { token: v2Token, headers: as(who) })],
      ];
      for (const [what, attempt] of attempts) {
        const answer = await attempt;
        const expected = what === 'webhooks' ? [403, '/problems/acting-user-not-permitted', 'webhooks:manage'] : NOT_A_USER;
        expect([who, what, ...problem(answer)]).toEqual([who, what, ...expected]);
      }
    }

    // Nothing changed: still pending, no reminder counted, no second candidate or request.
    const after = (await call(`${portal}/training-requests/${id}`, { token: v2Token })).body.data;
    expect(after).toEqual(before);
    const candidates = (await call(`${portal}/candidates?limit=100`, { token: v2Token })).body.data as { email: string }[];
    expect(candidates.filter((c) => c.email.startsWith('no.one.'))).toEqual([]);

    // An active team user without any particular permission may: the rule is "an active user of the account".
    expect((await call(`${portal}/training-requests/${id}/reminders`, { method: 'POST', token: v2Token, headers: as(users.viewer) })).status).toBe(200);
    expect((await call(`${portal}/training-requests/${id}/cancel`, { method: 'POST', token: v2Token, headers: as(users.viewer) })).body.data.status).toBe(
      'cancelled',
    );
    // Webhooks need webhooks:manage here too.
    expect(problem(await call(`${portal}/webhooks`, { token: v2Token, headers: as(users.viewer) }))).toEqual([
      403,
      '/problems/acting-user-not-permitted',
      'webhooks:manage',
    ]);
    expect((await call(`${portal}/webhooks`, { token: v2Token, headers: as(users.admin) })).status).toBe(200);
  });
});

describe('authentication before the media type', () => {
  it('POST /imports with no token is 401 whatever the content type; with a token, a wrong type is 415', async () => {
    for (const type of ['application/json', 'text/plain', 'application/xml', 'text/csv']) {
      const answer = await fetch(`${monitoring}/imports`, { method: 'POST', headers: { 'content-type': type }, body: 'first_name,last_name\nA,B\n' });
      expect([type, answer.status, answer.headers.get('www-authenticate')]).toEqual([type, 401, 'Bearer']);
      expect(((await answer.json()) as { type: string }).type).toBe('/problems/invalid-token');
    }
    const malformed = await fetch(`${monitoring}/workers`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"first_name":' });
    expect(malformed.status).toBe(401);
    const wrongType = await fetch(`${monitoring}/imports`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rmToken}`, 'content-type': 'application/json' },
      body: '{}',
    });
    expect(wrongType.status).toBe(415);
  });
});
