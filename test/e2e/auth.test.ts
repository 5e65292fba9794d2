import type { LocalStack } from '../../lib/local/stack.js';
import { call, startTestStack } from '../support/local-stack.js';
import { ops as runOps } from '../support/ops.js';

let stack: LocalStack;
let ci: string;
let portal: string;
const northwind = { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' };

beforeAll(async () => {
  stack = await startTestStack();
  ci = stack.info.families['clinical-interview']!;
  portal = stack.info.families['portal-v2']!;
});
afterAll(() => stack?.stop());

const token = async (base = ci, credentials = northwind) => (await call(`${base}/auth/token`, { body: credentials })).body;

const ops = (...args: string[]) => runOps(stack, ...args);

describe('token operations over HTTP', () => {
  it('exchange, inspect, refresh and revoke, as docs/api.md says', async () => {
    const exchanged = await call(`${ci}/auth/token`, { body: northwind });
    expect(exchanged.status).toBe(200);
    expect(exchanged.headers.get('cache-control')).toBe('no-store');
    expect(exchanged.body).toEqual({
      token_type: 'Bearer',
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      expires_in: 3600,
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      refresh_expires_in: 2592000,
    });

    const inspected = await call(`${ci}/auth/token`, { token: exchanged.body.access_token });
    expect(inspected.status).toBe(200);
    expect(inspected.body).toEqual({
      active: true,
      client_id: 'demo-northwind',
      family: 'clinical-interview',
      issued_at: expect.any(String),
      expires_at: expect.any(String),
    });
    expect(Date.parse(inspected.body.expires_at) - Date.parse(inspected.body.issued_at)).toBe(3600_000);

    const refreshed = await call(`${ci}/auth/refresh`, { body: { refresh_token: exchanged.body.refresh_token } });
    expect(refreshed.status).toBe(200);
    expect((await call(`${ci}/auth/token`, { token: refreshed.body.access_token })).status).toBe(200);

    const revoked = await call(`${ci}/auth/token`, { method: 'DELETE', token: refreshed.body.access_token });
    expect(revoked.status).toBe(204);
    expect(revoked.body).toBeUndefined();
    const after = await call(`${ci}/auth/token`, { token: refreshed.body.access_token });
    expect(after.status).toBe(401);
    expect(after.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect((await call(`${ci}/auth/refresh`, { body: { refresh_token: refreshed.body.refresh_token } })).status).toBe(401);
  });

  it('answers bad credentials with 401 problem+json, the same for an unknown id and a wrong secret', async () => {
    const wrongSecret = await call(`${ci}/auth/token`, { body: { ...northwind, client_secret: 'nope' } });
    const unknownId = await call(`${ci}/auth/token`, { body: { ...northwind, client_id: 'cl_unknown' } });
    expect(wrongSecret.status).toBe(401);
    expect(wrongSecret.headers.get('content-type')).toBe('application/problem+json');
    expect(wrongSecret.body).toEqual({
      type: '/problems/invalid-credentials',
      title: 'Invalid client credentials',
      status: 401,
      detail: 'The client id or secret is not valid',
    });
    expect(unknownId.status).toBe(wrongSecret.status);
    expect(unknownId.body).toEqual(wrongSecret.body);
  });

  it('detects refresh token reuse and revokes the whole line', async () => {
    const first = await token();
    const second = (await call(`${ci}/auth/refresh`, { body: { refresh_token: first.refresh_token } })).body;
    const reuse = await call(`${ci}/auth/refresh`, { body: { refresh_token: first.refresh_token } });
    expect(reuse.status).toBe(401);
    expect(reuse.body.detail).toMatch(/already used/);
    expect((await call(`${ci}/auth/token`, { token: second.access_token })).status).toBe(401);
  });

  it('refuses a token of one family in the other', async () => {
    const portalToken = await token(portal);
    expect((await call(`${portal}/auth/token`, { token: portalToken.access_token })).body.family).toBe('portal-v2');
    const crossed = await call(`${ci}/auth/token`, { token: portalToken.access_token });
    expect(crossed.status).toBe(401);
    expect(crossed.body.type).toBe('/problems/invalid-token');
    // It says whose token it is and where this API's come from.
    expect(crossed.body.detail).toBe(
      'This access token was issued by the Portal API version 2 (/portal/v2); this API takes tokens from POST /clinical-interview/auth/token',
    );
    // An unknown token says nothing about any family.
    expect((await call(`${ci}/auth/token`, { token: 'not-a-token-at-all' })).body.detail).toBe('The token is missing, unknown, expired or revoked');
  });

  it('asks for a bearer token when none or a malformed header is sent', async () => {
    for (const headers of [{}, { authorization: 'Basic Zm9vOmJhcg==' }, { authorization: 'Bearer' }] as Record<string, string>[]) {
      const response = await call(`${ci}/auth/token`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
    }
  });
});

describe("the operator ends a client's access", () => {
  type Credentials = { client_id: string; client_secret: string };
  let rotatedClient: Credentials;
  let pausedClient: Credentials;
  beforeAll(async () => {
    const created = await Promise.all(['Rotated Agency', 'Paused Agency'].map((name) => ops('clients', 'create', '--name', name)));
    expect(created.map((c) => c.status)).toEqual([0, 0]);
    // The credentials only: the CLI prints the whole account, and a token request takes no other field.
    [rotatedClient, pausedClient] = created.map((c) => {
      const { client_id, client_secret } = JSON.parse(c.stdout) as Credentials;
      return { client_id, client_secret };
    }) as [Credentials, Credentials];
  }, 60_000);

  it('rotate-secret: the old secret, the old access tokens and the old refresh tokens stop working; the new secret works', async () => {
    const old = rotatedClient;
    const first = await token(ci, old);
    const refreshed = (await call(`${ci}/auth/refresh`, { body: { refresh_token: first.refresh_token } })).body;
    const portalPair = await token(portal, old);
    expect((await call(`${ci}/auth/token`, { token: refreshed.access_token })).status).toBe(200);

    const rotated = await ops('clients', 'rotate-secret', '--client-id', old.client_id);
    expect(rotated.status).toBe(0);
    const renewed = JSON.parse(rotated.stdout) as Credentials;

    for (const [base, access] of [
      [ci, refreshed.access_token],
      [portal, portalPair.access_token],
    ]) {
      const response = await call(`${base}/auth/token`, { token: access });
      expect(response.status).toBe(401);
      expect(response.body.type).toBe('/problems/invalid-token');
    }
    expect((await call(`${ci}/auth/refresh`, { body: { refresh_token: refreshed.refresh_token } })).status).toBe(401);
    expect((await call(`${portal}/auth/refresh`, { body: { refresh_token: portalPair.refresh_token } })).status).toBe(401);
    expect((await call(`${ci}/auth/token`, { body: old })).status).toBe(401);

    const fresh = await call(`${ci}/auth/token`, { body: renewed });
    expect(fresh.status).toBe(200);
    expect((await call(`${ci}/auth/token`, { token: fresh.body.access_token })).body).toMatchObject({ active: true, client_id: old.client_id });
    // Other clients carry on.
    expect((await call(`${ci}/auth/token`, { token: (await token()).access_token })).status).toBe(200);
  }, 60_000);

  it('disable: credentials are refused as a wrong secret is, and tokens stop working; enable: new tokens work, old ones stay void', async () => {
    const created = pausedClient;
    const before = await token(portal, created);
    expect((await call(`${portal}/auth/token`, { token: before.access_token })).status).toBe(200);

    expect((await ops('clients', 'disable', created.client_id)).status).toBe(0);
    const refused = await call(`${portal}/auth/token`, { body: created });
    const wrongSecret = await call(`${portal}/auth/token`, { body: { ...created, client_secret: 'cs_wrong' } });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual(wrongSecret.body);
    expect((await call(`${portal}/auth/token`, { token: before.access_token })).status).toBe(401);
    expect((await call(`${portal}/auth/refresh`, { body: { refresh_token: before.refresh_token } })).status).toBe(401);
    const [listed, unknown] = await Promise.all([ops('clients', 'list'), ops('clients', 'disable', 'cl_nobody')]);
    expect(JSON.parse(listed.stdout)).toContainEqual({
      client_id: created.client_id,
      name: 'Paused Agency',
      invoice_enabled: false,
      reference_requests_enabled: true,
      disabled: true,
      created_at: expect.any(String),
    });
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toMatch(/No client cl_nobody/);

    expect((await ops('clients', 'enable', created.client_id)).status).toBe(0);
    const after = await call(`${portal}/auth/token`, { body: created });
    expect(after.status).toBe(200);
    expect((await call(`${portal}/auth/token`, { token: after.body.access_token })).status).toBe(200);
    expect((await call(`${portal}/auth/token`, { token: before.access_token })).status).toBe(401);
  }, 60_000);
});

describe('bad input changes nothing and gets a clear problem', () => {
  it('malformed JSON is 400', async () => {
    const response = await call(`${ci}/auth/token`, { rawBody: '{"client_id":', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ type: '/problems/malformed-json', status: 400 });
  });

  it('a body that is not JSON is 415', async () => {
    const response = await call(`${ci}/auth/token`, { rawBody: 'client_id=x', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(response.status).toBe(415);
    expect(response.body.type).toBe('/problems/unsupported-media-type');
  });

  it('a body over 64 KiB is 413', async () => {
    const response = await call(`${ci}/auth/token`, { body: { ...northwind, padding: 'x'.repeat(64 * 1024) } });
    expect(response.status).toBe(413);
    expect(response.body.type).toBe('/problems/payload-too-large');
  });

  it('invalid fields are 422 with one pointer per field', async () => {
    const response = await call(`${ci}/auth/token`, { body: { client_id: 42 } });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ type: '/problems/validation', status: 422 });
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer).sort()).toEqual(['/client_id', '/client_secret']);
  });

  it('a missing body is 422, not a crash', async () => {
    const response = await call(`${ci}/auth/refresh`, { method: 'POST' });
    expect(response.status).toBe(422);
  });

  it('an unknown operation is 404 problem+json', async () => {
    const response = await call(`${ci}/no-such-thing`);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/problem+json');
  });

  it('every answer carries a request id', async () => {
    const a = await call(`${ci}/auth/token`, { body: northwind });
    const b = await call(`${ci}/auth/token`, { body: { client_id: 1 } });
    expect(a.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(b.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });
});
