import { eventKindsOf } from '../../functions/core/events/kinds.js';
import { createRole } from '../../functions/core/access/team-roles.js';
import { createUser } from '../../functions/core/access/team.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { purgeDueRequests } from '../../functions/core/portal-v2/request-purge.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * Occupational health requests as special-category data: outcomes, evidence kinds and dates only; item
 * data and files only in a single request's read (logged), never in lists,
 * webhooks or e-mails; and purged by schedule after their retention.
 */

let stack: LocalStack;
let receiver: Receiver;
let base: string;
let token: string;
const logs: string[] = [];

const stdoutWrite = process.stdout.write.bind(process.stdout);
beforeAll(async () => {
  // Kept for the assertions, not printed: test output carries no log lines.
  process.stdout.write = (chunk: string | Uint8Array, ...rest: unknown[]) => {
    logs.push(String(chunk));
    (rest.find((r) => typeof r === 'function') as (() => void) | undefined)?.();
    return true;
  };
  // Logs on (the tests keep them silent otherwise): what they say about health data is under test.
  stack = await startTestStack({ LOG_LEVEL: 'info' });
  receiver = await startReceiver();
  base = stack.info.families['portal-v2']!;
  token = (await call(`${base}/auth/token`, { body: { client_id: 'demo-riverside', client_secret: 'cs_demo_riverside_local_only' } })).body.access_token;
  const events = eventKindsOf('portal-v2').filter((k) => k.startsWith('occupational_health') || k.startsWith('request_item.'));
  expect((await call(`${base}/webhooks`, { token, body: { name: 'OH', url: receiver.url, events } })).status).toBe(201);
});
afterAll(async () => {
  process.stdout.write = stdoutWrite;
  await receiver?.close();
  await stack?.stop();
});

const post = (url: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(512, 'y'), Buffer.from('\n%%EOF\n')]);

async function upload(html: string): Promise<number> {
  const form = /<form method="post" action="([^"]+)" enctype="multipart\/form-data">([\s\S]*?)<\/form>/.exec(html)!;
  const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));
  const body = new FormData();
  for (const m of form[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) body.append(unescape(m[1]!), unescape(m[2]!));
  body.append('file', new Blob([PDF], { type: 'application/pdf' }), 'scan.pdf');
  const stored = await fetch(unescape(form[1]!), { method: 'POST', body, redirect: 'manual' });
  return (await fetch(stored.headers.get('location')!)).status;
}

it('keeps health data to the request read, out of lists, webhooks and e-mails, and purges files then data by schedule', async () => {
  const who = (await call(`${base}/candidates`, { token, body: { first_name: 'Ola', last_name: 'Berg', email: `ola.${Date.now()}@example.org` } })).body.data;
  const provider = `oh.${Date.now()}@clinic.example`;
  const self = await call(`${base}/occupational-health-requests`, {
    token,
    body: { candidate_id: who.id, collection_mode: 'provider_provides', oh_provider: { name: 'Dr Kay', organisation: 'Clinic', email: who.email } },
  });
  expect(self.status).toBe(422);
  expect(self.body.errors[0].pointer).toBe('/oh_provider/email');
  const created = await call(`${base}/occupational-health-requests`, {
    token,
    body: {
      candidate_id: who.id,
      collection_mode: 'provider_provides',
      oh_provider: { name: 'Dr Kay', organisation: 'Clinic', email: provider },
      epp_role: true,
    },
  });
  expect(created.status).toBe(201);
  const request = created.body.data;
  expect(request.items.map((i: { type: string }) => i.type)).toEqual(['hep_b', 'mmr', 'varicella', 'tb', 'hbsag', 'hcv', 'hiv', 'clearance']);
  expect(request.items.every((i: { actor: { mode: string } }) => i.actor.mode === 'provider_form')).toBe(true);

  // The provider has one form for all items (one e-mail), with files straight to the bucket.
  const mails = await mailTo(stack, provider);
  expect(mails).toHaveLength(1);
  const form = /(http:\/\/\S+\/request-form\/[A-Za-z0-9_-]+)/.exec(mails[0]!)![1]!;
  const [hepB, , , , , , , clearance] = request.items;
  const restricted = await post(form, {
    item_id: String(clearance.id),
    outcome: 'fit',
    restrictions: 'No night shifts',
    issued_by: 'Dr Kay',
    issuer_organisation: 'Clinic',
    issued_on: daysAgo(1),
  });
  expect(restricted.status).toBe(422);
  expect(await upload(await (await post(form, { item_id: String(hepB.id), evidence: 'titre', dated_on: daysAgo(200) })).text())).toBe(200);
  expect(
    await upload(
      await (
        await post(form, { item_id: String(clearance.id), outcome: 'not_fit', issued_by: 'Dr Kay', issuer_organisation: 'Clinic', issued_on: daysAgo(1) })
      ).text(),
    ),
  ).toBe(200);

  // One request's read carries the data, and is logged without it: who, what and when.
  const team = (role_id: string) =>
    createUser(
      depsFromEnv(),
      'demo-riverside',
      { name: `OH ${role_id}`, email: `${role_id}.${Date.now()}@riverside.example`, role_id, status: 'active', alert_min_severity: 'none' },
      null,
    );
  const [viewer, manager] = [await team('viewer'), await team('compliance_manager')];
  const as = (user: number | string) => ({ 'acting-user': String(user) });
  const reads = [
    `/occupational-health-requests/${request.id}`,
    `/occupational-health-requests/${request.id}/items/${hepB.id}/file`,
    `/occupational-health-requests/${request.id}/pdf`,
  ];
  const readLogs = () =>
    logsOf(stack)
      .flatMap((chunk) => chunk.split('\n'))
      .filter((l) => l.includes('health data read') && l.includes(`"group_request_id":${request.id}`));
  // With Acting-User, health:read: a viewer (or no such user) is 403 and reads nothing; another client's request is 404 first.
  for (const path of reads) {
    for (const who of [viewer.id, 'usr_7']) {
      const refused = await call(`${base}${path}`, { token, headers: as(who) });
      expect([path, refused.status, refused.body.type, refused.body.permission]).toEqual([path, 403, '/problems/acting-user-not-permitted', 'health:read']);
    }
  }
  expect(readLogs()).toEqual([]);
  const northwind = (await call(`${base}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' } })).body
    .access_token;
  expect((await call(`${base}${reads[0]}`, { token: northwind, headers: as(viewer.id) })).status).toBe(404);
  const read = (await call(`${base}${reads[0]}`, { token, headers: as(manager.id) })).body.data;
  expect(read.items[0]).toMatchObject({ status: 'submitted', data: { evidence: 'titre', dated_on: daysAgo(200) }, file: { size: PDF.length } });
  const raw = (path: string, headers: Record<string, string> = {}) =>
    fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}`, ...headers }, redirect: 'manual' });
  expect((await raw(reads[1]!, as(manager.id))).status).toBe(303);
  expect((await raw(reads[2]!)).status).toBe(200);
  await eventually(() => readLogs().length >= 3, { what: 'three health reads logged' });
  const logged = readLogs().map((l) => JSON.parse(l.slice(l.indexOf('{'))));
  // The account's own read names no acting user (the logger leaves out empty fields).
  expect(logged.map((l) => [l.what, l.acting_user ?? null, l.kind, l.client_id])).toEqual([
    ['request', manager.id, 'occupational_health', 'demo-riverside'],
    [`file of item ${hepB.id}`, manager.id, 'occupational_health', 'demo-riverside'],
    ['pdf', null, 'occupational_health', 'demo-riverside'],
  ]);
  for (const l of logged) expect(Date.parse(l.timestamp)).toBeGreaterThan(Date.now() - 120_000);
  // Lists and webhooks: outcomes and dates only.
  const listed = (await call(`${base}/occupational-health-requests?candidate_id=${who.id}`, { token })).body.data[0];
  expect(listed.items[0]).toMatchObject({ status: 'submitted', data: null, file: null, submitted_at: expect.any(String) });
  await eventually(() => receiver.received.filter((r) => JSON.parse(r.body).type === 'request_item.submitted').length >= 2, { what: 'the submitted events' });
  for (const r of receiver.received) {
    expect(r.body).not.toContain('titre');
    expect(r.body).not.toContain('not_fit');
    expect(r.body).not.toContain(read.items[0].file.sha256);
  }

  // A reviewer without health:read reviews, and the answer shows them outcomes and dates only.
  const reviewersOnly = await createRole(depsFromEnv(), 'demo-riverside', { name: 'Reviewer without health data', permissions: ['requests:review'] });
  const reviewer = await createUser(
    depsFromEnv(),
    'demo-riverside',
    { name: 'OH reviewer', email: `reviewer.${Date.now()}@riverside.example`, role_id: reviewersOnly.id, status: 'active', alert_min_severity: 'none' },
    null,
  );
  // A rejection reason is not e-mailed (it may speak of health): the form shows it.
  const rejected = await call(`${base}/occupational-health-requests/${request.id}/items/${hepB.id}/reject`, {
    token,
    headers: as(reviewer.id),
    body: { reason: 'Titre below 10 mIU/mL' },
  });
  expect(rejected.status).toBe(200);
  expect(rejected.body.data.items[0]).toMatchObject({ status: 'rejected', reviewed_by: reviewer.id, data: null, file: null });
  expect(rejected.body.data.items[7]).toMatchObject({ status: 'submitted', data: null, file: null });
  const [, rejection] = await mailTo(stack, provider, 2).then((m) => m.sort((a) => (a.includes('again') ? 1 : -1)));
  expect(rejection).not.toContain('Titre below');
  expect(await (await fetch(form)).text()).toContain('Titre below 10 mIU/mL');
  expect(logsOf(stack).some((l) => l.includes('health data read') && l.includes(`"group_request_id":${request.id}`))).toBe(true);
  expect(logsOf(stack).some((l) => l.includes('titre') || l.includes('Titre below'))).toBe(false);

  // Closed: cancelled now. The files go after 365 days, the data after 2190 (the schedule, with the clock moved on).
  // Cancelled by a viewer: outcomes only in the answer; the account itself (no Acting-User) sees the data.
  const cancelled = await call(`${base}/occupational-health-requests/${request.id}/cancel`, { method: 'POST', token, headers: as(viewer.id) });
  expect(cancelled.status).toBe(200);
  expect(cancelled.body.data).toMatchObject({ status: 'cancelled' });
  expect(cancelled.body.data.items.map((i: { data: unknown }) => i.data)).toEqual(cancelled.body.data.items.map(() => null));
  expect((await call(`${base}/occupational-health-requests/${request.id}`, { token })).body.data.items[7].data).toMatchObject({ outcome: 'not_fit' });
  const later = (days: number) => ({ ...depsFromEnv(), clock: () => new Date(Date.now() + days * 86_400_000) });
  await purgeDueRequests(later(364));
  expect((await call(`${base}/occupational-health-requests/${request.id}`, { token })).body.data.items[7].file.purged_at).toBeNull();
  await purgeDueRequests(later(366));
  const filesGone = (await call(`${base}/occupational-health-requests/${request.id}`, { token })).body.data;
  expect(filesGone.items[7]).toMatchObject({ file: { purged_at: expect.any(String), sha256: expect.any(String) }, data: { outcome: 'not_fit' } });
  expect((await call(`${base}/occupational-health-requests/${request.id}/items/${clearance.id}/file`, { token })).status).toBe(404);
  await purgeDueRequests(later(2191));
  const dataGone = (await call(`${base}/occupational-health-requests/${request.id}`, { token })).body.data;
  expect(dataGone.items.map((i: { data: unknown }) => i.data)).toEqual(dataGone.items.map(() => null));
  expect(dataGone).toMatchObject({ status: 'cancelled' });
});

/** The handlers' log lines, as they wrote them to stdout (as in Lambda). */
const logsOf = (_s: LocalStack): string[] => logs;
