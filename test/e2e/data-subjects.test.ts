import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cancelBooking, completeInterview } from '../../functions/core/clinical-interview/booking-admin.js';
import { cancelVlsBooking } from '../../functions/core/virtual-life-support/operator.js';
import { attachReport } from '../../functions/core/clinical-interview/report-uploads.js';
import { listUsers } from '../../functions/core/access/team.js';
import { GROUP_KINDS } from '../../functions/core/portal-v2/request-groups.js';
import { createS3Client } from '../../functions/core/documents/attach.js';
import { subjectHash } from '../../functions/core/data-rights/subject.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { candidate, startedBooking } from '../support/clinical.js';
import { eventually } from '../support/eventually.js';
import { call, DEMO_CREDENTIALS, mailTo, startTestStack } from '../support/local-stack.js';
import { ops } from '../support/ops.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { linkIn, PDF, post, upload } from '../support/request-pages.js';

/**
 * A person's data rights in the clinical interview API, end to end: the
 * export, the erasure refused while a booking is open, then done, with its
 * pages 410, its report deleted, and a scan of the table, the documents
 * bucket and the log finding the address nowhere but in another agency's data.
 */

let stack: LocalStack;
let deps: Deps;
let base: string;
let northwind: string;
let riverside: string;
let receiver: Receiver;

const ADDRESS = 'mary.seacole.e2e@example.org';
// As the agency types it: matched without regard to case.
const TYPED = 'Mary.Seacole.E2E@Example.ORG';
const mary = { ...candidate, first_name: 'Mary', last_name: 'Seacole', email: ADDRESS };
const trainee = { first_name: 'Mary', last_name: 'Seacole', email: TYPED, phone: '+447700900321', job_role: 'Healthcare Assistant' };

beforeAll(async () => {
  stack = await startTestStack();
  receiver = await startReceiver();
  deps = depsFromEnv();
  base = stack.info.families['clinical-interview']!;
  const token = async (who: keyof typeof DEMO_CREDENTIALS) => (await call(`${base}/auth/token`, { body: DEMO_CREDENTIALS[who] })).body.access_token as string;
  [northwind, riverside] = await Promise.all([token('northwind'), token('riverside')]);
}, 60_000);
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

async function book(token: string, payOption: string, headers: Record<string, string> = {}) {
  // A day ahead: a candidate_pays booking must leave time to pay.
  const slot = (await call(`${base}/timeslots?interview_type_id=1`, { token })).body.data.find(
    (s: { date: string }) => s.date > new Date(Date.now() + 86_400_000).toISOString().slice(0, 10),
  );
  const held = await call(`${base}/timeslots/hold`, { token, body: { interview_type_id: 1, date: slot.date, time: slot.time } });
  const created = await call(`${base}/bookings`, { token, headers, body: { ...mary, email: TYPED, hold_hash: held.body.hold_hash, pay_option: payOption } });
  expect([created.status, created.body.detail]).toEqual([201, undefined]);
  return created.body;
}

/** Polls a request until it has finished. */
const finished = (path: string, token = northwind, url = base) =>
  eventually(
    async () => {
      const r = await call(`${url}${path}`, { token });
      // Portal v2 answers in its envelope (`data`).
      const body = r.body && 'status' in r.body ? r.body : r.body?.data;
      return r.status === 200 && !['queued', 'running'].includes(body.status) && body;
    },
    { timeoutMs: 30_000, intervalMs: 200, what: `${path} to finish` },
  );

/** Every table item with the address in it, in any case. */
async function itemsWithAddress(address = ADDRESS): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(new ScanCommand({ TableName: deps.table, ExclusiveStartKey }));
    found.push(...(page.Items ?? []).filter((i) => JSON.stringify(i).toLowerCase().includes(address)));
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return found;
}

/** The documents bucket's objects whose bytes carry the address. */
async function objectsWithAddress(): Promise<string[]> {
  const s3 = createS3Client();
  const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: stack.info.documents_bucket }));
  const found: string[] = [];
  for (const { Key } of Contents) {
    const body = await (await s3.send(new GetObjectCommand({ Bucket: stack.info.documents_bucket, Key }))).Body!.transformToString();
    if (body.toLowerCase().includes(ADDRESS)) found.push(Key!);
  }
  return found;
}

it('exports, refuses while a booking is open, erases (pages 410, report deleted, address nowhere in clear), and a second erasure finds nothing', async () => {
  // An interview that took place, with its report; one to come, unpaid, booked under an Idempotency-Key; and another agency's booking for her.
  // The agency's webhooks: the bookings' events carry her address (their delivery log too); the erasure's carries its hash only.
  const hook = await call(`${base}/webhooks`, {
    token: northwind,
    body: { name: 'HR', url: receiver.url, events: ['booking.created', 'data_subject.erased'] },
  });
  expect(hook.status).toBe(201);
  // An endpoint the agency deletes before the erasure: its delivery logs, kept 30 days, are found and cleared all the same.
  const oldHook = await call(`${base}/webhooks`, { token: northwind, body: { name: 'Old HR', url: receiver.url, events: ['booking.created'] } });
  expect(oldHook.status).toBe(201);
  const past = await startedBooking(deps, 'demo-northwind', 1, 'credits', mary);
  await completeInterview(deps, past.id);
  await attachReport(deps, createS3Client(), past.id, Buffer.from(`%PDF-1.4\n% Interview report: Mary Seacole <${ADDRESS}>\n%%EOF\n`));
  const upcoming = await book(northwind, 'candidate_pays', { 'idempotency-key': `mary-${Date.now()}` });
  const theirs = await book(riverside, 'balance');
  const paymentMail = await eventually(async () => (await mailTo(stack, ADDRESS)).find((m) => m.includes('/pay/')), {
    timeoutMs: 15_000,
    intervalMs: 100,
    what: 'the payment e-mail',
  });
  const paymentLink = /(http:\/\/\S+\/pay\/\S+)/.exec(paymentMail)![1]!;
  expect(await objectsWithAddress()).toHaveLength(1);
  await eventually(() => receiver.received.filter((r) => r.body.includes(ADDRESS)).length >= 4, {
    timeoutMs: 20_000,
    what: 'both booking.created deliveries to both endpoints',
  });
  expect((await fetch(`${base}/webhooks/${oldHook.body.id}`, { method: 'DELETE', headers: { authorization: `Bearer ${northwind}` } })).status).toBe(204);

  // The export: every booking of hers with this agency, the report listed with where to download it.
  const exportStarted = await call(`${base}/data-subjects/exports`, { token: northwind, body: { email: TYPED } });
  expect(exportStarted).toMatchObject({ status: 202, body: { id: expect.any(Number), status: 'queued' } });
  const exported = await finished(`/data-subjects/exports/${exportStarted.body.id}`);
  expect(exported).toMatchObject({ status: 'completed', expires_at: expect.any(String) });
  expect(exported.data.bookings.map((b: { id: number }) => b.id).sort()).toEqual([past.id, upcoming.id].sort());
  expect(exported.data.bookings.every((b: { candidate: { email: string } }) => b.candidate.email === ADDRESS)).toBe(true);
  expect(exported.data.files).toEqual([{ what: `Interview report of booking ${past.id}`, download: `/bookings/${past.id}/interview-report` }]);
  expect((await call(`${base}/data-subjects/exports/${exportStarted.body.id}`, { token: riverside })).status).toBe(404);

  // Refused while the booking to come waits for payment, naming it; then while it is to come.
  const refused = await call(`${base}/data-subjects/erasures`, { token: northwind, body: { email: ADDRESS } });
  expect(refused.status).toBe(409);
  expect(refused.body).toMatchObject({
    type: '/problems/subject-has-active-bookings',
    active_bookings: [{ type: 'booking', id: upcoming.id, reason: expect.stringMatching(/payment/) }],
  });
  await cancelBooking(deps, upcoming.id, `Mary (${ADDRESS}) asked us to erase her data`);

  const started = await call(`${base}/data-subjects/erasures`, { token: northwind, body: { email: TYPED } });
  expect(started).toMatchObject({ status: 202, body: { id: expect.any(Number), status: 'queued' } });
  const erased = await finished(`/data-subjects/erasures/${started.body.id}`);
  expect(erased).toMatchObject({
    status: 'completed',
    // Two bookings and their change-log copies; the report; the kept response of the idempotent booking; the export.
    counts: { records: 4, files: 1, idempotency_records: 1, exports: 1, messages: expect.any(Number), webhook_deliveries: 4 },
    kept: [{ what: expect.stringContaining(`Bookings ${past.id}`), why: expect.stringContaining('HMRC'), until: expect.stringMatching(/^20\d\d-\d\d-\d\d$/) }],
  });

  const event = await eventually(() => receiver.received.find((r) => r.body.includes('"data_subject.erased"')), {
    timeoutMs: 20_000,
    what: 'data_subject.erased',
  });
  expect(JSON.parse(event.body).data).toEqual({
    id: started.body.id,
    email_sha256: subjectHash(ADDRESS),
    counts: erased.counts,
    kept: erased.kept,
    erased_at: expect.any(String),
  });
  expect(event.body.toLowerCase()).not.toContain(ADDRESS);

  // What the agency and the candidate now see.
  for (const id of [past.id, upcoming.id]) {
    const booking = (await call(`${base}/bookings/${id}`, { token: northwind })).body;
    expect(booking.candidate).toEqual({ name: 'Erased', email: null, phone: null, job_role: null, nmc_number: null });
    expect(booking.id).toBe(id);
  }
  expect((await call(`${base}/bookings/${past.id}`, { token: northwind })).body).toMatchObject({
    interview_status: 'completed',
    interview_report_available: false,
  });
  expect((await fetch(`${base}/bookings/${past.id}/interview-report`, { headers: { authorization: `Bearer ${northwind}` } })).status).toBe(404);
  expect((await fetch(paymentLink)).status).toBe(410);
  // The export is gone with her data.
  expect((await call(`${base}/data-subjects/exports/${exportStarted.body.id}`, { token: northwind })).body).toMatchObject({ status: 'expired', data: null });

  // The address is nowhere in clear: only the other agency's booking (and its change-log copy) still has it.
  const left = await itemsWithAddress();
  expect(left.map((i) => [i.pk, i.sk])).toEqual(left.map((i) => ['CLIENT#demo-riverside', i.sk]));
  expect((await call(`${base}/bookings/${theirs.id}`, { token: riverside })).body.candidate.email).toBe(ADDRESS);
  expect(await objectsWithAddress()).toEqual([]);
  const log = join(dirname(stack.info.mailbox_dir), 'logs', 'local.log');
  if (existsSync(log)) expect(readFileSync(log, 'utf8').toLowerCase()).not.toContain(ADDRESS);

  // Erasing her again finds nothing.
  const again = await call(`${base}/data-subjects/erasures`, { token: northwind, body: { email: ADDRESS } });
  expect(again.status).toBe(202);
  expect(await finished(`/data-subjects/erasures/${again.body.id}`)).toMatchObject({
    status: 'completed',
    counts: { records: 0, files: 0, messages: 0, webhook_deliveries: 0, idempotency_records: 0, exports: 0 },
    kept: [],
  });

  // The operator's audit: each request, by whom and when, with the hash and never the address.
  const audit = await ops(stack, 'data-subjects', 'list', '--client-id', 'demo-northwind');
  expect(audit.status).toBe(0);
  const records = JSON.parse(audit.stdout) as { action: string; job_id: number; subject_hash: string; status: string }[];
  expect(records.map((r) => [r.action, r.job_id, r.status])).toEqual([
    ['export', exportStarted.body.id, 'completed'],
    ['erasure', started.body.id, 'completed'],
    ['erasure', again.body.id, 'completed'],
  ]);
  expect(records.every((r) => r.subject_hash === subjectHash(TYPED))).toBe(true);
  expect(audit.stdout.toLowerCase()).not.toContain(ADDRESS);
}, 120_000);

describe.each([
  {
    family: 'practical-training',
    async book(url: string, token: string) {
      const event = (await call(`${url}/training-events?course_id=1&available_only=true`, { token })).body.data.find((e: { id: number }) => e.id !== 1);
      const held = await call(`${url}/seats/hold`, { token, body: { training_event_id: event.id } });
      return call(`${url}/bookings`, { token, body: { ...trainee, hold_hash: held.body.hold_hash, pay_option: 'credits' } });
    },
    cancel: (url: string, token: string, id: number) => call(`${url}/bookings/${id}/cancel`, { token, body: { reason: `Asked by ${ADDRESS}` } }),
    erased: {},
  },
  {
    family: 'virtual-life-support',
    async book(url: string, token: string) {
      const slot = (await call(`${url}/timeslots?course_id=1`, { token })).body.data.at(-1);
      const held = await call(`${url}/timeslots/hold`, { token, body: { course_id: 1, date: slot.date, time: slot.time } });
      return call(`${url}/bookings`, {
        token,
        body: {
          ...trainee,
          delivery_address: { line1: '4 Mill Road', town: 'Leeds', postcode: 'ls6 2ab' },
          hold_hash: held.body.hold_hash,
          pay_option: 'credits',
        },
      });
    },
    cancel: (_url: string, _token: string, id: number) => cancelVlsBooking(deps, id, `Asked by ${ADDRESS}`),
    erased: { delivery_address: null },
  },
])('$family', ({ family, book, cancel, erased }) => {
  it('exports the booking, refuses to erase while it is to come, then erases it', async () => {
    const url = stack.info.families[family]!;
    const token = (await call(`${url}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token as string;
    const booked = await book(url, token);
    expect(booked.status).toBe(201);
    const id = booked.body.id as number;

    const exportStarted = await call(`${url}/data-subjects/exports`, { token, body: { email: TYPED } });
    expect(exportStarted.status).toBe(202);
    const exported = await finished(`/data-subjects/exports/${exportStarted.body.id}`, token, url);
    expect(exported.data.bookings.map((b: { id: number; candidate: { email: string } }) => [b.id, b.candidate.email])).toEqual([[id, ADDRESS]]);

    const refused = await call(`${url}/data-subjects/erasures`, { token, body: { email: ADDRESS } });
    expect([refused.status, refused.body.active_bookings]).toEqual([409, [{ type: 'booking', id, reason: 'has not taken place yet' }]]);
    await cancel(url, token, id);

    const started = await call(`${url}/data-subjects/erasures`, { token, body: { email: ADDRESS } });
    expect(started.status).toBe(202);
    expect(await finished(`/data-subjects/erasures/${started.body.id}`, token, url)).toMatchObject({ status: 'completed', counts: { records: 2, exports: 1 } });
    const booking = (await call(`${url}/bookings/${id}`, { token })).body;
    expect(booking).toMatchObject({ id, booking_status: 'cancelled', candidate: { name: 'Erased', email: null, phone: null }, ...erased });
    expect((await itemsWithAddress()).filter((i) => i.pk === 'CLIENT#demo-northwind')).toEqual([]);
  }, 60_000);
});

describe('registration-monitoring', () => {
  it('exports a worker with their checks and evidence; an owner erases them, the worker is archived and the checks are kept', async () => {
    const url = stack.info.families['registration-monitoring']!;
    const token = (await call(`${url}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token as string;
    const users = await listUsers(deps, 'demo-northwind');
    const as = (role: string) => ({ 'acting-user': String(users.find((u) => u.role_id === role)!.id) });
    const created = await call(`${url}/workers`, {
      token,
      body: { first_name: 'Mary', last_name: 'Seacole', email: TYPED, job_role: 'Registered Nurse', registration: { register: 'nmc', number: '26Z 0417X' } },
    });
    expect([created.status, created.body.errors]).toEqual([201, undefined]);
    const id = created.body.id as number;
    expect((await call(`${url}/workers/${id}/verifications`, { method: 'POST', token })).status).toBeLessThan(300);

    // Only a user whose role may manage the team (owner, admin) may ask.
    expect((await call(`${url}/data-subjects/exports`, { token, headers: as('compliance_manager'), body: { email: ADDRESS } })).body.type).toBe(
      '/problems/acting-user-not-permitted',
    );
    const exportStarted = await call(`${url}/data-subjects/exports`, { token, headers: as('owner'), body: { email: ADDRESS } });
    expect(exportStarted.status).toBe(202);
    const exported = await finished(`/data-subjects/exports/${exportStarted.body.id}`, token, url);
    expect(exported.data.workers.map((w: { id: number; email: string }) => [w.id, w.email])).toEqual([[id, ADDRESS]]);
    expect(exported.data.verifications.length).toBeGreaterThan(0);
    expect(exported.data.evidence.length).toBeGreaterThan(0);

    const started = await call(`${url}/data-subjects/erasures`, { token, headers: as('owner'), body: { email: TYPED } });
    expect(started.status).toBe(202);
    const erased = await finished(`/data-subjects/erasures/${started.body.id}`, token, url);
    expect(erased).toMatchObject({
      status: 'completed',
      counts: { records: 1, exports: 1 },
      kept: [{ what: expect.stringContaining(`worker ${id}`), why: expect.stringContaining('registration'), until: expect.stringMatching(/^20\d\d-/) }],
    });
    const worker = (await call(`${url}/workers/${id}`, { token })).body;
    expect(worker).toMatchObject({ id, first_name: 'Erased', email: null, external_ref: null, archived_at: expect.any(String) });
    expect((await call(`${url}/workers/${id}/verifications`, { token })).body.data.length).toBeGreaterThan(0);
    expect((await itemsWithAddress()).filter((i) => i.pk === 'CLIENT#demo-northwind')).toEqual([]);
  }, 60_000);
});

describe('portal-v2', () => {
  it('exports a candidate with their requests, references and files; refuses while a booking stands; erases (pages 410, file deleted, address nowhere)', async () => {
    const url = stack.info.families['portal-v2']!;
    const token = (await call(`${url}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token as string;
    const address = 'florence.pv2.e2e@example.org';
    const who = (await call(`${url}/candidates`, { token, body: { first_name: 'Florence', last_name: 'Nightingale', email: address, phone: '+447700900444' } }))
      .body.data as { id: number };
    const referee = { referee_name: 'Ward Sister', referee_email: 'sister.pv2.e2e@nhs.example', referee_organisation: 'Scutari', referee_position: 'Sister' };
    const refRequest = await call(`${url}/reference-requests`, {
      token,
      body: {
        candidate_id: who.id,
        template_id: 1,
        expiry_days: 14,
        collection_mode: 'client_adds',
        references_required: 1,
        notes: 'Call after 5pm',
        referees: [referee],
      },
    });
    expect([refRequest.status, refRequest.body.errors]).toEqual([201, undefined]);
    const form = linkIn((await mailTo(stack, referee.referee_email))[0]!, 'reference-form');
    const training = (await call(`${url}/training-requests`, { token, body: { candidate_id: who.id, subjects: ['fire_safety'], notes: 'Ward 7' } })).body.data;
    const page = linkIn(
      (await mailTo(stack, address)).find((m) => m.includes('/request-submit/'))!,
      'request-submit',
    );
    const fields = await post(page, {
      item_id: String(training.items[0].id),
      completed_on: new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10),
      provider: 'Skills Academy',
      cstf_aligned: 'yes',
    });
    expect((await upload(await fields.text(), PDF, 'application/pdf')).status).toBe(200);
    const itemKey = (
      await deps.db.send(
        new QueryCommand({
          TableName: deps.table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :items)',
          ExpressionAttributeValues: { ':pk': 'CLIENT#demo-northwind', ':items': GROUP_KINDS.training!.keys.itemsOf(training.id) },
          ConsistentRead: true,
        }),
      )
    ).Items![0]!;
    const fileKey = (itemKey.file as { key: string }).key;

    // As in registration monitoring: an acting user must be able to manage the team (owner, admin); without the header the account asks.
    const users = await listUsers(deps, 'demo-northwind');
    const manager = { 'acting-user': String(users.find((u) => u.role_id === 'compliance_manager')!.id) };
    expect((await call(`${url}/data-subjects/erasures`, { token, headers: manager, body: { email: address } })).body.type).toBe(
      '/problems/acting-user-not-permitted',
    );
    const exportStarted = await call(`${url}/data-subjects/exports`, { token, body: { email: address.toUpperCase() } });
    expect([exportStarted.status, exportStarted.body.data.status]).toEqual([202, 'queued']);
    const exported = (await finished(`/data-subjects/exports/${exportStarted.body.data.id}`, token, url)).data;
    expect(exported.candidates.map((c: { id: number; email: string }) => [c.id, c.email])).toEqual([[who.id, address]]);
    expect(exported.reference_requests.map((r: { id: number; notes: string }) => [r.id, r.notes])).toEqual([[refRequest.body.data.id, 'Call after 5pm']]);
    expect(exported.references.map((r: { referee_email: string }) => r.referee_email)).toEqual([referee.referee_email]);
    expect(exported.request_groups.map((r: { id: number; kind: string }) => [r.kind, r.id])).toEqual([['training', training.id]]);
    expect(exported.request_items[0]).toMatchObject({ data: { provider: 'Skills Academy' }, file: { name: expect.any(String) } });
    expect(exported.files).toEqual([
      { what: expect.stringContaining(`training request ${training.id}`), download: `/training/${training.id}/items/${training.items[0].id}/file` },
    ]);
    expect(JSON.stringify(exported)).not.toMatch(/form_token|submission_token/);

    // A booking made through a request item stands: the erasure waits for the agency.
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: { pk: itemKey.pk, sk: itemKey.sk },
        UpdateExpression: 'SET #s = :b, booking_id = :id',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':b': 'booked', ':id': 9 },
      }),
    );
    const refused = await call(`${url}/data-subjects/erasures`, { token, body: { email: address } });
    expect([refused.status, refused.body.type]).toEqual([409, '/problems/subject-has-active-bookings']);
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: { pk: itemKey.pk, sk: itemKey.sk },
        UpdateExpression: 'SET #s = :s REMOVE booking_id',
        ExpressionAttributeNames: { '#s': 'status' },
        ExpressionAttributeValues: { ':s': itemKey.status },
      }),
    );

    const started = await call(`${url}/data-subjects/erasures`, { token, body: { email: address } });
    expect(started.status).toBe(202);
    const erased = await finished(`/data-subjects/erasures/${started.body.data.id}`, token, url);
    expect(erased).toMatchObject({ status: 'completed', counts: { files: 1 }, kept: [] });
    expect((await call(`${url}/candidates/${who.id}`, { token })).body.data).toMatchObject({ first_name: 'Erased', email: null, phone: null });
    expect((await call(`${url}/reference-requests/${refRequest.body.data.id}`, { token })).body.data).toMatchObject({ status: 'cancelled', notes: null });
    const group = (await call(`${url}/training-requests/${training.id}`, { token })).body.data;
    expect(group).toMatchObject({ status: 'cancelled', notes: null });
    expect(group.items[0].data).toBeNull();
    expect((await fetch(page)).status).toBe(410);
    expect((await fetch(form)).status).toBe(410);
    const s3 = createS3Client();
    const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: stack.info.documents_bucket, Prefix: fileKey }));
    expect(Contents).toEqual([]);
    expect((await itemsWithAddress(address)).filter((i) => i.pk === 'CLIENT#demo-northwind')).toEqual([]);
  }, 90_000);
});
