import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, mailTo, startTestStack, type JsonResponse } from '../support/local-stack.js';
import { ops as runOps } from '../support/ops.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/** Registration monitoring over HTTP: the family's tokens, workers and webhooks. */

let stack: LocalStack;
let receiver: Receiver;
let base: string;
let token: string;
let other: string;
const ops = (...args: string[]) => runOps(stack, ...args);
type Credentials = { client_id: string; client_secret: string };
let fresh: Credentials;

const exchange = (c: Credentials) => call(`${base}/auth/token`, { body: c });

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  base = stack.info.families['registration-monitoring']!;
  const created = await ops('clients', 'create', '--name', 'Harbour Staffing');
  expect(created.status).toBe(0);
  fresh = JSON.parse(created.stdout) as Credentials;
  other = (await exchange({ client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' })).body.access_token;
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const worker = (overrides: Record<string, unknown> = {}) => ({
  first_name: 'Grace',
  last_name: 'Adeyemi',
  external_ref: 'EMP-0193',
  email: 'grace@example.org',
  job_role: 'Registered Nurse',
  registration: { register: 'nmc', number: '12a 9001b' },
  ...overrides,
});
const post = (body: unknown, t = token) => call(`${base}/workers`, { token: t, body });
const patch = (id: number, body: unknown, type = 'application/merge-patch+json') =>
  call(`${base}/workers/${id}`, { method: 'PATCH', token, body, headers: { 'content-type': type } });
const problem = (r: JsonResponse) => [r.status, r.body.type];

describe('an account without monitoring', () => {
  it('is refused a token (403) until the operator enables monitoring with its first owner; enabling again changes nothing', async () => {
    expect(problem(await exchange(fresh))).toEqual([403, '/problems/forbidden']);
    const enabled = await ops(
      'registration-monitoring',
      'account',
      'enable',
      '--client-id',
      fresh.client_id,
      '--owner-name',
      'Nia Brooks',
      '--owner-email',
      'Nia.Brooks@harbour.example',
    );
    expect(enabled.status).toBe(0);
    const owner = JSON.parse(enabled.stdout);
    expect(owner).toMatchObject({ role_id: 'owner', status: 'active', email: 'nia.brooks@harbour.example' });
    const again = await ops(
      'registration-monitoring',
      'account',
      'enable',
      '--client-id',
      fresh.client_id,
      '--owner-name',
      'Someone Else',
      '--owner-email',
      'x@harbour.example',
    );
    expect(JSON.parse(again.stdout).id).toBe(owner.id);
    const pair = await exchange(fresh);
    expect(pair.status).toBe(200);
    token = pair.body.access_token;
    // A token of this family works nowhere else, and another family's not here.
    expect((await call(`${stack.info.families['practical-training']}/courses`, { token })).status).toBe(401);
  }, 60_000);
});

describe('workers', () => {
  it('creates a worker with its number upper-cased, unverified and due a check at once; HCPC infers the profession', async () => {
    const created = await post(worker());
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      registration: { register: 'nmc', number: '12A9001B', profession: null },
      outcome: 'unverified',
      registration_status: null,
      open_alerts: 0,
      archived_at: null,
      monitoring: { enabled: true, frequency: 'daily', paused_until: null, last_checked_at: null },
    });
    expect(created.body.monitoring.next_check_at).not.toBeNull();
    const hcpc = await post(worker({ external_ref: null, first_name: 'Priya', registration: { register: 'hcpc', number: 'pyl12345' } }));
    expect(hcpc.body.registration).toEqual({ register: 'hcpc', number: 'PYL12345', profession: 'PYL' });
    const gmc = await post(worker({ external_ref: 'EMP-2', registration: { register: 'gmc', number: '7012345' }, monitoring: { enabled: false } }));
    expect(gmc.body.monitoring).toMatchObject({ enabled: false, next_check_at: null });
  });

  it.each([
    [{ register: 'nmc', number: '1234567' }, '/registration/number', 'NMC PIN'],
    [{ register: 'gmc', number: '12A3456B' }, '/registration/number', 'GMC reference number'],
    [{ register: 'hcpc', number: 'ZZ123' }, '/registration/number', 'HCPC number'],
    [{ register: 'hcpc', number: 'PA123', profession: 'OT' }, '/registration/profession', 'profession prefix'],
    [{ register: 'ukcc', number: '1' }, '/registration/register', 'One of nmc, hcpc, gmc'],
  ])('refuses the registration %j at %s', async (registration, pointer, detail) => {
    const refused = await post(worker({ external_ref: null, registration }));
    expect(problem(refused)).toEqual([422, '/problems/validation']);
    expect(refused.body.errors).toEqual([{ pointer, detail: expect.stringContaining(detail) }]);
  });

  it('keeps (register, number) and external_ref unique, naming the worker that has them, even under concurrent creates', async () => {
    const first = (await post(worker({ external_ref: 'DUP-1', registration: { register: 'nmc', number: '33X1234Y' } }))).body;
    const sameNumber = await post(worker({ external_ref: 'DUP-2', registration: { register: 'nmc', number: '33x1234y' } }));
    expect([...problem(sameNumber), sameNumber.body.worker_id]).toEqual([422, '/problems/worker-duplicate', first.id]);
    const sameRef = await post(worker({ external_ref: 'DUP-1', registration: { register: 'nmc', number: '33X1234Z' } }));
    expect([...problem(sameRef), sameRef.body.worker_id]).toEqual([422, '/problems/worker-duplicate', first.id]);
    // Another client may monitor the same number.
    expect((await post(worker({ external_ref: 'DUP-1', registration: { register: 'nmc', number: '33X1234Y' } }), other)).status).toBe(201);

    const racing = await Promise.all(
      Array.from({ length: 6 }, (_, i) => post(worker({ external_ref: `RACE-${i}`, registration: { register: 'gmc', number: '7654321' } }))),
    );
    expect(racing.map((r) => r.status).sort()).toEqual([201, 422, 422, 422, 422, 422]);
  });

  it("lists newest first with filters; another client's worker and malformed ids are 404", async () => {
    const all = (await call(`${base}/workers?limit=100`, { token })).body.data as { id: number; registration: { register: string } }[];
    expect(all.map((w) => w.id)).toEqual([...all.map((w) => w.id)].sort((a, b) => b - a));
    const hcpc = (await call(`${base}/workers?register=hcpc`, { token })).body.data;
    expect(hcpc.map((w: { registration: { number: string } }) => w.registration.number)).toEqual(['PYL12345']);
    expect((await call(`${base}/workers?q=pyl123`, { token })).body.data).toHaveLength(1);
    expect((await call(`${base}/workers?external_ref=EMP-2`, { token })).body.data.map((w: { external_ref: string }) => w.external_ref)).toEqual(['EMP-2']);
    expect((await call(`${base}/workers?monitored=false`, { token })).body.data.map((w: { external_ref: string }) => w.external_ref)).toEqual(['EMP-2']);
    const paged = await call(`${base}/workers?limit=2`, { token });
    expect(paged.body.data).toHaveLength(2);
    const next = await call(`${base}/workers?limit=2&cursor=${paged.body.next_cursor}`, { token });
    expect(next.body.data[0].id).toBeLessThan(paged.body.data[1].id);
    expect(problem(await call(`${base}/workers?outcome=great`, { token }))).toEqual([422, '/problems/validation']);

    const mine = all[0]!.id;
    expect((await call(`${base}/workers/${mine}`, { token })).status).toBe(200);
    expect(problem(await call(`${base}/workers/${mine}`, { token: other }))).toEqual([404, '/problems/not-found']);
    // Another client's worker is 404 before its body is read.
    expect((await call(`${base}/workers/${mine}`, { method: 'PUT', token: other, body: { nonsense: true } })).status).toBe(404);
    expect((await call(`${base}/workers/abc`, { token })).status).toBe(404);
    expect((await call(`${base}/workers/0`, { token })).status).toBe(404);
  });

  it('PUT replaces every writable field; a changed number frees the old one', async () => {
    const w = (await post(worker({ external_ref: 'PUT-1', phone: '+447700900111', registration: { register: 'nmc', number: '44A1111B' } }))).body;
    const replaced = await call(`${base}/workers/${w.id}`, {
      method: 'PUT',
      token,
      body: { first_name: 'Grace', last_name: 'Okafor', registration: { register: 'nmc', number: '44A2222B' } },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({
      last_name: 'Okafor',
      phone: null,
      external_ref: null,
      email: null,
      registration: { number: '44A2222B' },
      outcome: 'unverified',
    });
    expect(replaced.body.updated_at >= w.updated_at).toBe(true);
    // The old number and reference are free again.
    expect((await post(worker({ external_ref: 'PUT-1', registration: { register: 'nmc', number: '44A1111B' } }))).status).toBe(201);
    expect(problem(await call(`${base}/workers/${w.id}`, { method: 'PUT', token, body: { first_name: '' } }))).toEqual([422, '/problems/validation']);
  });

  it('PATCH merges a JSON Merge Patch onto the worker and checks the result; application/json is 415', async () => {
    const w = (await post(worker({ external_ref: 'PATCH-1', phone: '+447700900222', registration: { register: 'hcpc', number: 'PA5555' } }))).body;
    expect(problem(await patch(w.id, { phone: null }, 'application/json'))).toEqual([415, '/problems/unsupported-media-type']);
    const changed = await patch(w.id, { phone: null, job_role: 'Paramedic', monitoring: { frequency: 'weekly' } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      phone: null,
      job_role: 'Paramedic',
      first_name: 'Grace',
      external_ref: 'PATCH-1',
      monitoring: { enabled: true, frequency: 'weekly' },
      registration: { number: 'PA5555', profession: 'PA' },
    });
    // The profession follows a new number: it is derived, not merged.
    expect((await patch(w.id, { registration: { number: 'OT777' } })).body.registration).toEqual({ register: 'hcpc', number: 'OT777', profession: 'OT' });
    const invalid = await patch(w.id, { registration: { register: 'gmc' } });
    expect(problem(invalid)).toEqual([422, '/problems/validation']);
    expect(invalid.body.errors[0].pointer).toBe('/registration/number');
    expect(problem(await patch(w.id, { first_name: null }))).toEqual([422, '/problems/validation']);
    expect(problem(await patch(w.id, [1, 2]))).toEqual([422, '/problems/validation']);
  });

  it('DELETE archives: still readable, listed only with archived=true, no writes, number free; a second DELETE is 204', async () => {
    const w = (await post(worker({ external_ref: 'ARC-1', registration: { register: 'nmc', number: '55A5555B' } }))).body;
    expect((await call(`${base}/workers/${w.id}`, { method: 'DELETE', token })).status).toBe(204);
    const read = await call(`${base}/workers/${w.id}`, { token });
    expect(read.body.archived_at).not.toBeNull();
    expect(read.body.monitoring.next_check_at).toBeNull();
    const ids = async (q: string) => (await call(`${base}/workers?limit=100${q}`, { token })).body.data.map((x: { id: number }) => x.id);
    expect(await ids('')).not.toContain(w.id);
    expect(await ids('&archived=true')).toEqual([w.id]);
    const refused = await call(`${base}/workers/${w.id}`, { method: 'PUT', token, body: worker() });
    expect([...problem(refused), refused.body.worker_id]).toEqual([422, '/problems/worker-archived', w.id]);
    expect(problem(await patch(w.id, { phone: null }))).toEqual([422, '/problems/worker-archived']);
    expect((await call(`${base}/workers/${w.id}`, { method: 'DELETE', token })).status).toBe(204);
    expect((await post(worker({ external_ref: 'ARC-1', registration: { register: 'nmc', number: '55A5555B' } }))).status).toBe(201);
  });

  it('an Idempotency-Key makes a retried create one worker', async () => {
    const body = worker({ external_ref: 'IDEM-1', registration: { register: 'gmc', number: '7000001' } });
    const headers = { 'idempotency-key': 'create-idem-1' };
    const [a, b] = [await call(`${base}/workers`, { token, body, headers }), await call(`${base}/workers`, { token, body, headers })];
    expect([a.status, b.status, b.headers.get('idempotent-replayed'), b.body.id]).toEqual([201, 201, 'true', a.body.id]);
  });
});

describe('webhooks of the family', () => {
  it('delivers worker events; the test delivery is queued (202)', async () => {
    const created = await call(`${base}/webhooks`, {
      token,
      body: { name: 'Compliance', url: receiver.url, events: ['worker.created', 'worker.archived', 'webhook.test'] },
    });
    expect(created.status).toBe(201);
    expect((await call(`${base}/webhooks`, { token, body: { name: 'x', url: receiver.url, events: ['booking.created'] } })).status).toBe(422);
    const test = await call(`${base}/webhooks/${created.body.id}/test`, { method: 'POST', token });
    expect(test.status).toBe(202);
    expect(test.body).toEqual({ event_id: expect.stringMatching(/^evt_/), status: 'queued' });
    const w = (await post(worker({ external_ref: 'HOOK-1', registration: { register: 'nmc', number: '66A6666B' } }))).body;
    await call(`${base}/workers/${w.id}`, { method: 'DELETE', token });
    // Events of earlier tests may still be on their way; these are the ones of this worker.
    const of = () =>
      receiver.received
        .map((r) => JSON.parse(r.body) as { type: string; data: { id?: number; archived_at?: string | null } })
        .filter((e) => e.type === 'webhook.test' || e.data.id === w.id);
    await eventually(() => of().length >= 3, { what: "the test event and the worker's two events" });
    expect(
      of()
        .map((e) => e.type)
        .sort(),
    ).toEqual(['webhook.test', 'worker.archived', 'worker.created']);
    expect(of().find((e) => e.type === 'worker.archived')!.data).toMatchObject({ id: w.id, archived_at: expect.any(String) });
  });
});

describe('checks and alerts', () => {
  const verify = (id: number, q = '') => call(`${base}/workers/${id}/verifications${q}`, { method: 'POST', token });

  it("verifies now: 201 with the simulated register's verbatim text; 200 for a check under 5 minutes old; fresh=true checks again with the diff", async () => {
    const w = (await post(worker({ external_ref: 'CHK-1', registration: { register: 'nmc', number: '70A9005B' } }))).body;
    const first = await verify(w.id);
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      worker_id: w.id,
      trigger: 'manual',
      status: 'completed',
      simulated: true,
      billable: true,
      charge: { amount: 50, currency: 'GBP' },
      source: { adapter: 'simulated-register', mode: 'simulated' },
      outcome: 'review',
      result: {
        found: true,
        name_match: 'exact',
        registration_status: 'registered',
        status_text: 'Registered (effective)',
        annotations: [{ type: 'conditions_of_practice' }],
      },
      reasons: [{ code: 'conditions_of_practice' }],
      changes: [],
      error: null,
    });
    const reused = await verify(w.id);
    expect([reused.status, reused.body.id]).toEqual([200, first.body.id]);
    const fresh = await verify(w.id, '?fresh=true');
    expect(fresh.status).toBe(201);
    expect(fresh.body.id).not.toBe(first.body.id);
    expect((await call(`${base}/workers/${w.id}`, { token })).body).toMatchObject({ outcome: 'review', registration_status: 'registered', open_alerts: 1 });

    const today = new Date().toISOString().slice(0, 10);
    const history = await call(`${base}/workers/${w.id}/verifications?from=2026-01-01&to=2099-12-31`, { token });
    expect(history.body.data.map((v: { id: number }) => v.id)).toEqual([fresh.body.id, first.body.id]);
    expect((await call(`${base}/workers/${w.id}/verifications?to=2000-01-01`, { token })).body.data).toEqual([]);
    expect(problem(await call(`${base}/workers/${w.id}/verifications?from=${today}&to=2000-01-01`, { token }))).toEqual([422, '/problems/validation']);
    expect((await call(`${base}/workers/${w.id}/verifications`, { token: other })).status).toBe(404);
    expect((await call(`${base}/workers/${w.id}/verifications`, { method: 'POST', token: other })).status).toBe(404);
  });

  it('a batch job: 202 queued, polled to completed with its counts; foreign ids skipped; another client cannot read it', async () => {
    const a = (await post(worker({ external_ref: 'JOB-1', registration: { register: 'nmc', number: '71A9001B' } }))).body;
    const b = (await post(worker({ external_ref: 'JOB-2', registration: { register: 'gmc', number: '7109006' } }))).body;
    const started = await call(`${base}/verification-jobs`, { token, body: { worker_ids: [a.id, b.id, 999_999] } });
    expect(started.status).toBe(202);
    expect(started.body).toMatchObject({ status: 'queued', counts: { total: 3, completed: 0, errored: 0, skipped: 0 }, requested_by: null });
    const done = await eventually(
      async () => {
        const polled = await call(`${base}/verification-jobs/${started.body.id}`, { token });
        expect(polled.body.status).toBe('completed');
        return polled.body;
      },
      { timeoutMs: 30_000, what: 'the job to complete' },
    );
    expect(done.counts).toEqual({ total: 3, completed: 2, errored: 0, skipped: 1 });
    const history = await call(`${base}/workers/${b.id}/verifications`, { token });
    expect(history.body.data[0]).toMatchObject({ trigger: 'batch', job_id: started.body.id, outcome: 'review' });
    expect((await call(`${base}/verification-jobs/${started.body.id}`, { token: other })).status).toBe(404);
    expect(problem(await call(`${base}/verification-jobs`, { token, body: { worker_ids: [a.id], all: true } }))).toEqual([422, '/problems/validation']);
  }, 60_000);

  it('a lapsed worker fails with one critical alert; acknowledging it one by one and in bulk; archiving resolves it', async () => {
    const w = (await post(worker({ external_ref: 'CHK-2', registration: { register: 'gmc', number: '7029002' } }))).body;
    const checked = await verify(w.id);
    expect(checked.body).toMatchObject({ outcome: 'fail', result: { registration_status: 'lapsed', status_text: 'Not registered - administrative erasure' } });
    const alerts = await call(`${base}/alerts?worker_id=${w.id}`, { token });
    expect(alerts.body.data).toHaveLength(1);
    const alert = alerts.body.data[0];
    expect(alert).toMatchObject({
      type: 'registration.status_changed',
      severity: 'critical',
      status: 'open',
      occurrences: 1,
      verification_ids: [checked.body.id],
    });
    expect((await call(`${base}/alerts?severity=critical&status=open`, { token })).body.data.map((a: { id: number }) => a.id)).toContain(alert.id);
    expect((await call(`${base}/alerts/${alert.id}`, { token })).body.id).toBe(alert.id);
    expect((await call(`${base}/alerts/${alert.id}`, { token: other })).status).toBe(404);
    // Another client's alert is 404 before the body is read.
    expect((await call(`${base}/alerts/${alert.id}/acknowledge`, { token: other, body: { note: 42 } })).status).toBe(404);

    const acked = await call(`${base}/alerts/${alert.id}/acknowledge`, { token, body: { note: 'Told the ward manager' } });
    expect([acked.status, acked.body.status, acked.body.note]).toEqual([200, 'acknowledged', 'Told the ward manager']);
    expect((await call(`${base}/alerts/${alert.id}/acknowledge`, { token, body: {} })).status).toBe(200);

    const bulk = await call(`${base}/alerts/acknowledge`, { token, body: { alert_ids: [alert.id, alert.id, 999_999] } });
    expect(bulk.body.data).toEqual([
      { id: alert.id, result: 'already_acknowledged' },
      { id: 999_999, result: 'not_found', problem: expect.objectContaining({ type: '/problems/not-found', status: 404 }) },
    ]);
    expect(problem(await call(`${base}/alerts/acknowledge`, { token, body: { alert_ids: Array.from({ length: 101 }, (_, i) => i + 1) } }))).toEqual([
      422,
      '/problems/validation',
    ]);

    expect((await call(`${base}/workers/${w.id}`, { method: 'DELETE', token })).status).toBe(204);
    expect((await call(`${base}/alerts/${alert.id}`, { token })).body).toMatchObject({ status: 'resolved', resolution: 'worker_archived' });
    expect(problem(await call(`${base}/alerts/${alert.id}/acknowledge`, { token, body: {} }))).toEqual([422, '/problems/alert-resolved']);
    expect(problem(await verify(w.id))).toEqual([422, '/problems/worker-archived']);
  });

  it("the demo client's first checks already ran: outcomes and alerts of the magic numbers", async () => {
    const demo = (await exchange({ client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' })).body.access_token;
    const workers = (await call(`${base}/workers?limit=100&q=DEMO-`, { token: demo })).body.data as { external_ref: string; outcome: string }[];
    const outcome = Object.fromEntries(workers.map((w) => [w.external_ref, w.outcome]));
    expect(outcome).toMatchObject({
      'DEMO-01': 'clear',
      'DEMO-04': 'clear',
      'DEMO-05': 'fail',
      'DEMO-06': 'review',
      'DEMO-08': 'fail',
      'DEMO-09': 'review',
      'DEMO-10': 'review',
      'DEMO-11': 'clear',
    });
    const types = (await call(`${base}/alerts?limit=100`, { token: demo })).body.data.map((a: { type: string }) => a.type).sort();
    expect(types).toEqual([
      'registration.expiring',
      'registration.name_mismatch',
      'registration.not_found',
      'registration.restricted',
      'registration.restricted',
      'registration.status_changed',
    ]);
    // Evidence, usage, the team and an import with two bad rows are there too.
    expect((await call(`${base}/evidence?limit=100`, { token: demo })).body.data.length).toBeGreaterThanOrEqual(12);
    expect((await call(`${base}/billing/usage`, { token: demo })).body.checks.billable).toBeGreaterThanOrEqual(12);
    expect((await call(`${base}/team/users`, { token: demo })).body.data.map((u: { role_id: string }) => u.role_id)).toEqual([
      'owner',
      'compliance_manager',
      'viewer',
    ]);
    const [demoImport] = (await call(`${base}/imports`, { token: demo })).body.data;
    expect(demoImport).toMatchObject({ file: { name: 'demo-new-starters.csv' }, counts: { rows_total: 5, failed: 2 } });
    const errors = (await call(`${base}/imports/${demoImport.id}`, { token: demo })).body.errors.data;
    expect(errors.map((e: { row: number; column: string }) => [e.row, e.column])).toEqual([
      [4, 'registration_number'],
      [5, 'email'],
    ]);
  });
});

describe('evidence and monitoring settings', () => {
  const db = () => DynamoDBDocumentClient.from(new DynamoDBClient({}), { marshallOptions: { removeUndefinedValues: true } });
  const evidenceItem = (id: number) => ({ pk: `CLIENT#${fresh.client_id}`, sk: `EVIDENCE#registration-monitoring#${String(id).padStart(10, '0')}` });

  it('each completed check has evidence in a hash chain: PDF with the simulated banner, exact JSON with its digest; a flipped byte refuses; a rewritten record breaks the next link', async () => {
    const w = (await post(worker({ external_ref: 'EVI-1', registration: { register: 'nmc', number: '80A9001B' } }))).body;
    const first = (await call(`${base}/workers/${w.id}/verifications`, { method: 'POST', token })).body;
    const second = (await call(`${base}/workers/${w.id}/verifications?fresh=true`, { method: 'POST', token })).body;
    const third = (await call(`${base}/workers/${w.id}/verifications?fresh=true`, { method: 'POST', token })).body;
    expect(first.evidence_id).toBe(first.id);
    const list = (await call(`${base}/evidence?worker_id=${w.id}`, { token })).body.data;
    expect(list.map((e: { seq: number }) => e.seq)).toEqual([3, 2, 1]);
    expect(list[2].prev_sha256).toBeNull();
    expect(list[1].prev_sha256).toBe(list[2].sha256);
    expect((await call(`${base}/evidence/${first.id}`, { token })).body).toMatchObject({
      verification_id: first.id,
      simulated: true,
      formats: ['pdf', 'json'],
    });
    expect((await call(`${base}/evidence/${first.id}`, { token: other })).status).toBe(404);

    const asJson = await fetch(`${base}/evidence/${first.id}/download`, { headers: { authorization: `Bearer ${token}`, accept: 'application/json' } });
    const bytes = Buffer.from(await asJson.arrayBuffer());
    expect(asJson.headers.get('repr-digest')).toBe(`sha-256=:${createHash('sha256').update(bytes).digest('base64')}:`);
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(list[2].sha256);
    const pdf = await fetch(`${base}/evidence/${first.id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text).toContain('SIMULATED REGISTER');
    expect(text).toContain(list[2].sha256);

    // The stored record is a read-only file, written once: one byte flipped in it (as only someone at the disk could), it is never served.
    const { Item } = await db().send(new GetCommand({ TableName: stack.info.table_name, Key: evidenceItem(second.id) }));
    const file = join(dirname(stack.info.mailbox_dir), 'evidence', String(Item!.object_key));
    expect(statSync(file).mode & 0o222).toBe(0);
    const body = readFileSync(file, 'utf8');
    expect(createHash('sha256').update(body).digest('hex')).toBe(Item!.sha256);
    const flipped = body.replace('"outcome":"clear"', '"outcome":"clean"');
    chmodSync(file, 0o644);
    writeFileSync(file, flipped);
    expect(problem(await call(`${base}/evidence/${second.id}/download`, { token, headers: { accept: 'application/json' } }))).toEqual([
      500,
      '/problems/evidence-integrity',
    ]);
    // Rewritten and re-hashed (a new file, and the record pointed at it): it reads as whole, but the next record's link no longer holds.
    const rehashed = createHash('sha256').update(flipped).digest('hex');
    const forged = String(Item!.object_key).replace(String(Item!.sha256), rehashed);
    writeFileSync(join(dirname(stack.info.mailbox_dir), 'evidence', forged), flipped);
    await db().send(
      new UpdateCommand({
        TableName: stack.info.table_name,
        Key: evidenceItem(second.id),
        UpdateExpression: 'SET sha256 = :h, object_key = :k',
        ExpressionAttributeValues: { ':h': rehashed, ':k': forged },
      }),
    );
    expect((await call(`${base}/evidence/${second.id}/download`, { token, headers: { accept: 'application/json' } })).status).toBe(200);
    const verified = await ops('registration-monitoring', 'evidence', 'verify', '--client-id', fresh.client_id);
    expect(verified.status).toBe(1);
    expect(JSON.parse(verified.stdout).broken).toMatchObject({ worker_id: w.id, evidence_id: third.id, seq: 3 });
  }, 60_000);

  it("the month's usage grows by one billable check at its register's price; the operator may roll up only a month that has ended", async () => {
    const month = new Date().toISOString().slice(0, 7);
    const before = (await call(`${base}/billing/usage`, { token })).body;
    expect(before).toMatchObject({ period: month, ledger_entry_id: null });
    const w = (await post(worker({ external_ref: 'USE-1', registration: { register: 'gmc', number: '7089001' } }))).body;
    expect((await call(`${base}/workers/${w.id}/verifications`, { method: 'POST', token })).status).toBe(201);
    const after = (await call(`${base}/billing/usage?period=${month}`, { token })).body;
    expect(after.checks.billable - before.checks.billable).toBe(1);
    expect(after.checks.by_register.gmc - before.checks.by_register.gmc).toBe(1);
    expect(after.amount.amount - before.amount.amount).toBe(75);
    expect(problem(await call(`${base}/billing/usage?period=2026-13`, { token }))).toEqual([422, '/problems/validation']);
    // This month is still counting: rolled up now, the rest of it would never be billed (the roll-up itself: test/integration/registration-monitoring/billing.test.ts).
    const early = await ops('registration-monitoring', 'usage', 'rollup', '--month', month);
    expect(early.status).toBe(2);
    expect(early.stderr).toContain('once the month has ended');
    expect((await call(`${base}/billing/usage`, { token })).body.ledger_entry_id).toBeNull();
    // Two months back has ended whatever the hour (last month is still settling until 02:00 on the 1st).
    const past = new Date(`${month}-01T00:00:00Z`);
    past.setUTCMonth(past.getUTCMonth() - 2);
    const ended = await ops('registration-monitoring', 'usage', 'rollup', '--month', past.toISOString().slice(0, 7));
    expect(ended.status).toBe(0);
    expect(JSON.parse(ended.stdout).find((r: { client_id: string }) => r.client_id === fresh.client_id)).toBeUndefined();
    expect((await ops('registration-monitoring', 'usage', 'rollup', '--month', '2026-13')).status).toBe(2);
  }, 60_000);

  it('the operator seeds the simulated register: a seeded number is found under its own name; seeding again adds nothing; a bad count is a usage error', async () => {
    const seeded = await ops('registration-monitoring', 'register', 'seed', '--count', '3');
    expect(seeded.status).toBe(0);
    const out = JSON.parse(seeded.stdout) as {
      simulated: boolean;
      created: number;
      existing: number;
      entries: { register: string; number: string; name: string; status: string }[];
    };
    expect(out).toMatchObject({ simulated: true, created: 9, existing: 0 });
    const again = JSON.parse((await ops('registration-monitoring', 'register', 'seed', '--count', '3')).stdout);
    expect(again).toMatchObject({ created: 0, existing: 9 });
    expect(await ops('registration-monitoring', 'register', 'seed', '--count', '0')).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('--count is 1 to'),
    });
    const nurse = out.entries.find((e) => e.register === 'nmc' && e.status === 'registered')!;
    const [first_name, last_name] = nurse.name.split(' ');
    const w = (await post(worker({ first_name, last_name, external_ref: 'SEED-1', registration: { register: 'nmc', number: nurse.number } }))).body;
    const check = await call(`${base}/workers/${w.id}/verifications`, { method: 'POST', token });
    expect(check.body).toMatchObject({ status: 'completed', outcome: 'clear', simulated: true, result: { found: true, name_on_register: nurse.name } });
  }, 60_000);

  it('reads and changes monitoring settings, one by one and in bulk', async () => {
    const w = (await post(worker({ external_ref: 'SET-1', registration: { register: 'gmc', number: '7080001' } }))).body;
    expect((await call(`${base}/workers/${w.id}/monitoring`, { token })).body).toMatchObject({ enabled: true, frequency: 'daily', paused_until: null });
    const put = await call(`${base}/workers/${w.id}/monitoring`, { method: 'PUT', token, body: { frequency: 'weekly', paused_until: '2026-12-24' } });
    expect(put.body).toMatchObject({ enabled: true, frequency: 'weekly', paused_until: '2026-12-24' });
    expect(problem(await call(`${base}/workers/${w.id}/monitoring`, { method: 'PUT', token, body: { frequency: 'hourly' } }))).toEqual([
      422,
      '/problems/validation',
    ]);
    const bulk = await call(`${base}/monitoring/bulk`, { token, body: { worker_ids: [w.id, w.id, 999_999], settings: { enabled: false } } });
    expect(bulk.body.data).toEqual([
      { id: w.id, result: 'updated' },
      { id: 999_999, result: 'not_found', problem: expect.objectContaining({ status: 404 }) },
    ]);
    expect((await call(`${base}/workers/${w.id}/monitoring`, { token })).body).toMatchObject({ enabled: false, next_check_at: null });
  });
});

describe('team and Acting-User', () => {
  const as = (user: number | string) => ({ 'acting-user': String(user) });
  it('team users act within their role (checked after the path 404, before the body), are recorded, and get alert e-mails by severity; the last owner stays', async () => {
    const users = (await call(`${base}/team/users`, { token })).body.data;
    const owner = users.find((u: { role_id: string }) => u.role_id === 'owner');
    expect(owner).toMatchObject({ email: 'nia.brooks@harbour.example', status: 'active' });
    const cm = await call(`${base}/team/users`, {
      token,
      body: { name: 'Priya Shah', email: 'priya@harbour.example', role_id: 'compliance_manager', alert_min_severity: 'medium' },
    });
    expect(cm.status).toBe(201);
    const viewer = (await call(`${base}/team/users`, { token, body: { name: 'Vic Stone', email: 'vic@harbour.example', role_id: 'viewer' } })).body;
    expect(problem(await call(`${base}/team/users`, { token, body: { name: 'Again', email: 'PRIYA@harbour.example', role_id: 'viewer' } }))).toEqual([
      422,
      '/problems/team-user-duplicate',
    ]);

    // A viewer reads but does not write; a path that names nothing of the caller's is 404 first.
    expect((await call(`${base}/workers?limit=1`, { token, headers: as(viewer.id) })).status).toBe(200);
    expect(problem(await call(`${base}/workers`, { token, headers: as(viewer.id), body: worker({ external_ref: 'ACT-1' }) }))).toEqual([
      403,
      '/problems/acting-user-not-permitted',
    ]);
    expect((await call(`${base}/workers/999999`, { method: 'PUT', token, headers: as(viewer.id), body: {} })).status).toBe(404);
    expect(problem(await call(`${base}/workers?limit=1`, { token, headers: as('999999') }))).toEqual([403, '/problems/acting-user-not-permitted']);
    expect(problem(await call(`${base}/team/users`, { token, headers: as(cm.body.id) }))).toEqual([403, '/problems/acting-user-not-permitted']);

    // The compliance manager checks a worker whose registration expires in 20 days: recorded, and e-mailed (medium).
    const w = (
      await call(`${base}/workers`, {
        token,
        headers: as(cm.body.id),
        body: worker({ external_ref: 'ACT-2', registration: { register: 'nmc', number: '72A9010B' } }),
      })
    ).body;
    const check = await call(`${base}/workers/${w.id}/verifications`, { method: 'POST', token, headers: as(cm.body.id) });
    expect(check.body).toMatchObject({ requested_by: cm.body.id, outcome: 'review' });
    const [mail] = await mailTo(stack, 'priya@harbour.example');
    expect(mail).toContain('Subject: [SIMULATED] medium alert for Grace Adeyemi: registration.expiring');
    const alert = (await call(`${base}/alerts?worker_id=${w.id}`, { token })).body.data[0];
    expect((await call(`${base}/alerts/${alert.id}/acknowledge`, { token, headers: as(cm.body.id), body: {} })).body.acknowledged_by).toBe(cm.body.id);

    // The account keeps an owner; only an owner makes one.
    expect(problem(await call(`${base}/team/users/${owner.id}`, { method: 'DELETE', token }))).toEqual([422, '/problems/last-owner']);
    const admin = (await call(`${base}/team/users`, { token, body: { name: 'Ade Admin', email: 'ade@harbour.example', role_id: 'admin' } })).body;
    expect(
      problem(
        await call(`${base}/team/users/${viewer.id}`, {
          method: 'PUT',
          token,
          headers: as(admin.id),
          body: { name: 'Vic Stone', email: 'vic@harbour.example', role_id: 'owner' },
        }),
      ),
    ).toEqual([422, '/problems/owner-required']);
    expect(
      (
        await call(`${base}/team/users/${viewer.id}`, {
          method: 'PUT',
          token,
          headers: as(owner.id),
          body: { name: 'Vic Stone', email: 'vic@harbour.example', role_id: 'owner' },
        })
      ).body.role_id,
    ).toBe('owner');
    expect((await call(`${base}/team/users/${owner.id}`, { method: 'DELETE', token, headers: as(viewer.id) })).status).toBe(204);
    const roles = (await call(`${base}/team/roles`, { token })).body.data;
    expect(roles.find((r: { id: string }) => r.id === 'owner')).toMatchObject({ built_in: true, user_count: 1 });
    expect(problem(await call(`${base}/team/roles/viewer`, { method: 'DELETE', token }))).toEqual([422, '/problems/role-built-in']);
    expect((await call(`${base}/team/roles/NOT-A-ROLE`, { token })).status).toBe(404);
  }, 60_000);
});
