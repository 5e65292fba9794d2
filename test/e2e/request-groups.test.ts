import { createHash } from 'node:crypto';
import { createClient } from '../../functions/core/access/clients.js';
import { listUsers } from '../../functions/core/access/team.js';
import { DOCUMENTS_BUCKET_ENV } from '../../functions/core/documents/kinds.js';
import { createObjectReader, S3ReadError } from '../../functions/core/documents/signed-get.js';
import { eventKindsOf } from '../../functions/core/events/kinds.js';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';
import { linkIn, PDF, PNG, post, upload, uploadForm } from '../support/request-pages.js';

/**
 * Portal v2 request groups end to end:
 * the agency's operations, the candidate's no-JavaScript page with files
 * posted straight to the bucket under a signed policy, third parties'
 * forms, review, events and the races between reviews.
 */

let stack: LocalStack;
let receiver: Receiver;
let base: string;
let northwind: string;
let riverside: string;

const token = async (client_id: string, client_secret: string) =>
  (await call(`${base}/auth/token`, { body: { client_id, client_secret } })).body.access_token as string;

beforeAll(async () => {
  // With the request groups' demo requests, which it uses.
  stack = await startTestStack({}, { demoRequests: true });
  receiver = await startReceiver();
  base = stack.info.families['portal-v2']!;
  northwind = await token('demo-northwind', 'cs_demo_northwind_local_only');
  riverside = await token('demo-riverside', 'cs_demo_riverside_local_only');
  const hook = await call(`${base}/webhooks`, {
    token: northwind,
    body: { name: 'Groups', url: receiver.url, events: eventKindsOf('portal-v2').filter((k) => k !== 'webhook.test' && !k.startsWith('reference')) },
  });
  expect(hook.status).toBe(201);
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

let n = 0;
/** A candidate of their own per test, so e-mails are told apart. */
async function candidate(as = northwind) {
  const email = `cand${++n}.${Date.now()}@example.org`;
  const created = await call(`${base}/candidates`, { token: as, body: { first_name: 'Kate', last_name: `Marsden${n}`, email } });
  expect(created.status).toBe(201);
  return created.body.data as { id: number; email: string };
}

const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);

const events = (type: string, requestId?: number) =>
  receiver.received
    .map((r) => JSON.parse(r.body))
    .filter((e) => e.type === type && (requestId === undefined || (e.data.request_id ?? e.data.id) === requestId));

describe('training requests', () => {
  it('the candidate gives each subject on a page without JavaScript, the file goes to the bucket, the agency reviews, and the request completes', async () => {
    const who = await candidate();
    const created = await call(`${base}/training-requests`, {
      token: northwind,
      body: { candidate_id: who.id, subjects: ['fire_safety', 'moving_handling'], notes: 'Ward 7' },
    });
    expect(created.status).toBe(201);
    expect(created.body.message).toBe('Training request created');
    const request = created.body.data;
    expect(request).toMatchObject({
      kind: 'training',
      status: 'pending',
      status_label: 'Awaiting candidate',
      outcome: null,
      items_required: 2,
      items_completed: 0,
      is_complete: false,
      details: { subjects: ['fire_safety', 'moving_handling'] },
    });
    expect(request.items.map((i: { type: string; status: string; actor: { mode: string } }) => [i.type, i.status, i.actor.mode])).toEqual([
      ['fire_safety', 'requested', 'candidate_upload'],
      ['moving_handling', 'requested', 'candidate_upload'],
    ]);
    const [mail] = await mailTo(stack, who.email);
    const page = linkIn(mail!, 'request-submit');
    expect(page).toBe(request.submission_url);

    const shown = await fetch(page);
    expect(shown.status).toBe(200);
    const html = await shown.text();
    expect(html).toContain('Northwind Nursing Agency');
    expect(html).not.toContain('<script');
    const [fire, moving] = request.items;

    // A lapsed course is refused on the page: fire safety is refreshed every 24 months.
    const lapsed = await post(page, { item_id: String(fire.id), completed_on: daysAgo(800), provider: 'Skills Academy', cstf_aligned: 'yes' });
    expect(lapsed.status).toBe(422);
    expect(await lapsed.text()).toContain('This course has lapsed');
    const future = await post(page, { item_id: String(fire.id), completed_on: '2999-01-01', provider: 'Skills Academy' });
    expect(future.status).toBe(422);

    const fields = await post(page, { item_id: String(fire.id), completed_on: daysAgo(30), provider: 'Skills Academy', cstf_aligned: 'yes' });
    expect(fields.status).toBe(200);
    const fieldsHtml = await fields.text();
    // The browser posts under the uploads prefix (a day's lifecycle); attached, the file moves to the item's key and the upload goes.
    const uploadKey = uploadForm(fieldsHtml).fields.key!;
    expect(uploadKey).toMatch(new RegExp(`^portal-v2/request-upload/demo-northwind/${request.id}/${fire.id}/[0-9a-f-]{36}$`));
    const attached = await upload(fieldsHtml, PDF, 'application/pdf');
    expect(attached).toMatchObject({ bucketStatus: 303, status: 200 });
    expect(attached.html).toContain('your file was received');
    await expect(createObjectReader()(process.env[DOCUMENTS_BUCKET_ENV]!, uploadKey)).rejects.toBeInstanceOf(S3ReadError);

    const after = (await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data;
    const item = after.items[0];
    expect(item).toMatchObject({
      status: 'submitted',
      data: { completed_on: daysAgo(30), provider: 'Skills Academy', cstf_aligned: true, level: null },
      file: {
        content_type: 'application/pdf',
        size: PDF.length,
        sha256: createHash('sha256').update(PDF).digest('hex'),
        scan_status: 'not_scanned',
        purged_at: null,
      },
    });
    expect(item.valid_until).toMatch(/^\d{4}-\d\d-\d\d$/);
    expect(after.status).toBe('in_progress');

    // The file: a 303 to a short-lived signed link, the same bytes.
    const file = await fetch(`${base}/training-requests/${request.id}/items/${fire.id}/file`, {
      headers: { authorization: `Bearer ${northwind}` },
      redirect: 'manual',
    });
    expect(file.status).toBe(303);
    const signed = file.headers.get('location')!;
    expect(signed).toContain('X-Amz-Expires=300');
    expect(new URL(signed).pathname).toContain(`/portal-v2/request-file/demo-northwind/${request.id}/${fire.id}/${uploadKey.split('/').pop()}`);
    expect(Buffer.from(await (await fetch(signed)).arrayBuffer()).equals(PDF)).toBe(true);
    expect((await call(`${base}/training-requests/${request.id}/items/${moving.id}/file`, { token: northwind })).status).toBe(404);

    // The second subject as a PNG; then every outstanding item is submitted: awaiting review.
    const second = await post(page, { item_id: String(moving.id), completed_on: daysAgo(10), provider: 'Moving Ltd', level: 'Level 2' });
    expect((await upload(await second.text(), PNG, 'image/png')).status).toBe(200);
    const review = (await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data;
    expect(review).toMatchObject({ status: 'awaiting_review', status_label: 'Awaiting Review' });

    // Rejected: the candidate is told why, with the same link, and submits again.
    const rejected = await call(`${base}/training-requests/${request.id}/items/${moving.id}/reject`, { token: northwind, body: { reason: 'Not legible' } });
    expect(rejected.status).toBe(200);
    expect(rejected.body.data.items[1]).toMatchObject({
      status: 'rejected',
      rejection_reason: 'Not legible',
      reviewed_at: expect.any(String),
      reviewed_by: null,
    });
    const [, rejection] = await mailTo(stack, who.email, 2).then((m) => m.sort((a) => (a.includes('again') ? 1 : -1)));
    expect(rejection).toContain('Not legible');
    expect(rejection).toContain(page);
    expect((await call(`${base}/training-requests/${request.id}/items/${moving.id}/accept`, { method: 'POST', token: northwind })).status).toBe(409);
    const again = await post(page, { item_id: String(moving.id), completed_on: daysAgo(10), provider: 'Moving Ltd' });
    expect((await upload(await again.text(), PDF, 'application/pdf')).status).toBe(200);

    expect((await call(`${base}/training-requests/${request.id}/items/${fire.id}/accept`, { method: 'POST', token: northwind })).body.data.status).toBe(
      'awaiting_review',
    );
    const done = await call(`${base}/training-requests/${request.id}/items/${moving.id}/accept`, { method: 'POST', token: northwind });
    expect(done.body.message).toBe(`Item ${moving.id} accepted`);
    expect(done.body.data).toMatchObject({ status: 'completed', outcome: 'satisfied', items_completed: 2, is_complete: true });
    expect((await call(`${base}/training-requests/${request.id}/cancel`, { method: 'POST', token: northwind })).status).toBe(409);

    const pdf = await fetch(`${base}/training-requests/${request.id}/pdf`, { headers: { authorization: `Bearer ${northwind}` } });
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const text = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(text).toContain(createHash('sha256').update(PDF).digest('hex'));
    expect(text).not.toContain('xxxxxxxxxxxxxxxx');

    // Deliveries arrive in any order: wait for all of them.
    await eventually(
      () =>
        events('training_request.completed', request.id).length === 1 &&
        events('request_item.accepted', request.id).length === 2 &&
        events('request_item.rejected', request.id).length === 1,
      {
        timeoutMs: 15_000,
        what: 'the review and completed events',
      },
    );
    expect(events('training_request.created', request.id)).toHaveLength(1);
    expect(events('training_request.submitted', request.id).length).toBeGreaterThanOrEqual(1);
    expect(events('request_item.accepted', request.id)).toHaveLength(2);
    expect(events('request_item.rejected', request.id)[0].data).toMatchObject({ kind: 'training', request_id: request.id, rejection_reason: 'Not legible' });

    const listed = (await call(`${base}/training-requests?candidate_id=${who.id}&status=completed`, { token: northwind })).body.data;
    expect(listed.map((r: { id: number }) => r.id)).toEqual([request.id]);
  });

  it('never attaches a file whose bytes are not a PDF, JPEG or PNG, nor one over 10 MiB; 10 MiB exactly is fine', async () => {
    const who = await candidate();
    const request = (await call(`${base}/training-requests`, { token: northwind, body: { candidate_id: who.id, subjects: ['resuscitation'] } })).body.data;
    const page = request.submission_url as string;
    const item = request.items[0].id;
    const fields = async () => (await post(page, { item_id: String(item), completed_on: daysAgo(5), provider: 'Resus UK' })).text();

    const spoofed = await upload(await fields(), Buffer.from('MZ this is an executable, not a PDF'), 'application/pdf');
    expect(spoofed.status).toBe(422);
    expect(spoofed.html).toContain('must be a PDF, JPEG or PNG');
    const oversize = await upload(await fields(), Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(10 * 1024 * 1024 - 4)]), 'application/pdf');
    expect(oversize.bucketStatus).toBe(400);
    expect(oversize.bucketBody).toContain('EntityTooLarge');
    const stored = (await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data.items[0];
    expect(stored).toMatchObject({ status: 'requested', file: null });

    const exact = await upload(await fields(), Buffer.concat([Buffer.from('%PDF-'), Buffer.alloc(10 * 1024 * 1024 - 5)]), 'text/plain');
    expect(exact.status).toBe(200);
    expect((await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data.items[0].file).toMatchObject({
      size: 10 * 1024 * 1024,
      content_type: 'application/pdf',
    });

    // A key that is not this item's is refused, whatever the bucket says.
    const forged = await fetch(`${page}/uploaded?key=${encodeURIComponent(`portal-v2/request-file/demo-riverside/1/1/${crypto.randomUUID()}`)}`);
    expect(forged.status).toBe(422);
  });

  it('two returns from the bucket for one upload at once (a reload, two tabs): the file stays attached and downloadable', async () => {
    const who = await candidate();
    const request = (await call(`${base}/training-requests`, { token: northwind, body: { candidate_id: who.id, subjects: ['fire_safety'] } })).body.data;
    const item = request.items[0].id;
    const html = await (await post(request.submission_url, { item_id: String(item), completed_on: daysAgo(5), provider: 'Resus UK' })).text();
    const { action, fields } = uploadForm(html);
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([PDF], { type: 'application/pdf' }), 'evidence');
    const stored = await fetch(action, { method: 'POST', body: form, redirect: 'manual' });
    expect(stored.status).toBe(303);
    const back = stored.headers.get('location')!;
    const statuses = (await Promise.all([fetch(back), fetch(back)])).map((r) => r.status);
    expect(statuses).toContain(200);

    const file = await fetch(`${base}/training-requests/${request.id}/items/${item}/file`, {
      headers: { authorization: `Bearer ${northwind}` },
      redirect: 'manual',
    });
    expect(file.status).toBe(303);
    const bytes = await fetch(file.headers.get('location')!);
    expect(bytes.status).toBe(200);
    expect(Buffer.from(await bytes.arrayBuffer()).equals(PDF)).toBe(true);
  });

  it('gives one winner when an accept and a reject race for one item, and one completed event', async () => {
    const who = await candidate();
    const ids: number[] = [];
    for (let round = 0; round < 4; round++) {
      const request = (await call(`${base}/training-requests`, { token: northwind, body: { candidate_id: who.id, subjects: ['information_governance'] } })).body
        .data;
      const item = request.items[0].id;
      const fields = await post(request.submission_url, { item_id: String(item), completed_on: daysAgo(3), provider: 'IG Ltd' });
      expect((await upload(await fields.text(), PDF, 'application/pdf')).status).toBe(200);
      const path = `${base}/training-requests/${request.id}/items/${item}`;
      const answers = await Promise.all([
        call(`${path}/accept`, { method: 'POST', token: northwind }),
        call(`${path}/reject`, { token: northwind, body: { reason: 'Race' } }),
      ]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
      const final = (await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data;
      expect(final.status).toBe(answers[0].status === 200 ? 'completed' : 'in_progress');
      ids.push(request.id);
    }
    // Each request: one review event; a completed event exactly when the accept won.
    const settled = () =>
      ids.every(
        (id) =>
          events('request_item.accepted', id).length + events('request_item.rejected', id).length === 1 &&
          events('training_request.completed', id).length === events('request_item.accepted', id).length,
      );
    await eventually(settled, { timeoutMs: 15_000, what: 'one review event and at most one completed event each' });
    expect(settled()).toBe(true);
  });
});

describe('third-party forms', () => {
  it('training verification: each issuer confirms or denies on their form; a denial makes the request not satisfied', async () => {
    const who = await candidate();
    const issuer = (name: string) => ({
      course_title: `${name} course`,
      completed_on: daysAgo(100),
      issuer_organisation: `${name} Training`,
      issuer_contact_name: `${name} Clerk`,
      issuer_contact_email: `${name.toLowerCase()}.${Date.now()}@training.example`,
    });
    const [a, b] = [issuer('Alpha'), issuer('Beta')];
    const self = await call(`${base}/training-verification-requests`, {
      token: northwind,
      body: { candidate_id: who.id, certificates: [a, { ...b, issuer_contact_email: who.email }] },
    });
    expect(self.status).toBe(422);
    expect(self.body.errors[0].pointer).toBe('/certificates/1/issuer_contact_email');
    // A completion date is at most today: a later one is refused at its pointer, and nothing is created or sent.
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const future = await call(`${base}/training-verification-requests`, {
      token: northwind,
      body: { candidate_id: who.id, certificates: [a, { ...b, completed_on: later }] },
    });
    expect(future.status).toBe(422);
    expect(future.body.errors).toEqual([{ pointer: '/certificates/1/completed_on', detail: 'This date cannot be in the future' }]);
    expect((await call(`${base}/training-verification-requests?candidate_id=${who.id}`, { token: northwind })).body.data).toEqual([]);
    const request = (await call(`${base}/training-verification-requests`, { token: northwind, body: { candidate_id: who.id, certificates: [a, b] } })).body
      .data;
    expect(request).toMatchObject({ status: 'pending', submission_url: null });
    expect(request.items[0]).toMatchObject({
      status: 'sent',
      actor: { mode: 'issuer_form', email: a.issuer_contact_email },
      data: { course_title: 'Alpha course' },
    });

    const formA = linkIn((await mailTo(stack, a.issuer_contact_email))[0]!, 'request-form');
    const formB = linkIn((await mailTo(stack, b.issuer_contact_email))[0]!, 'request-form');
    expect(await (await fetch(formA)).text()).toContain('Alpha course');
    expect((await call(`${base}/training-verification-requests/${request.id}`, { token: northwind })).body.data.items[0].status).toBe('opened');
    // The candidate's page and the forms do not take each other's links.
    expect((await fetch(formA.replace('/request-form/', '/request-submit/'))).status).toBe(404);

    const noReason = await post(formB, { item_id: String(request.items[1].id), issuer_name: 'Bea', issuer_position: 'Registrar', decision: 'deny' });
    expect(noReason.status).toBe(422);
    expect((await post(formA, { item_id: String(request.items[0].id), issuer_name: 'Al', issuer_position: 'Registrar', decision: 'confirm' })).status).toBe(
      200,
    );
    expect(
      (
        await post(formB, {
          item_id: String(request.items[1].id),
          issuer_name: 'Bea',
          issuer_position: 'Registrar',
          decision: 'deny',
          reason: 'No such certificate',
        })
      ).status,
    ).toBe(200);
    expect((await post(formB, { item_id: String(request.items[1].id), issuer_name: 'Bea', issuer_position: 'Registrar', decision: 'confirm' })).status).toBe(
      409,
    );
    const after = (await call(`${base}/training-verification-requests/${request.id}`, { token: northwind })).body.data;
    expect(after).toMatchObject({ status: 'completed', outcome: 'not_satisfied' });
    expect(after.items.map((i: { status: string }) => i.status)).toEqual(['confirmed', 'denied']);
    // Nothing to review: a third party's answer is final.
    expect(
      (await call(`${base}/training-verification-requests/${request.id}/items/${request.items[0].id}/accept`, { method: 'POST', token: northwind })).status,
    ).toBe(409);
  });

  it('appraisal: the submitted appraisal brings the appraiser a form; accepted and confirmed completes it', async () => {
    const who = await candidate();
    const request = (await call(`${base}/appraisal-requests`, { token: northwind, body: { candidate_id: who.id } })).body.data;
    const page = request.submission_url as string;
    const appraiser = `appraiser.${Date.now()}@nhs.example`;
    const base_ = {
      item_id: String(request.items[0].id),
      appraisal_date: daysAgo(20),
      appraiser_name: 'Dr Ann Lee',
      appraiser_email: appraiser,
      appraiser_register: 'gmc',
      organisation: 'Riverside NHS',
      outcome: 'satisfactory',
      next_due_on: daysAgo(-340),
    };
    const bad = await post(page, { ...base_, appraiser_number: '12A3456B' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('A GMC number is 7 digits');
    const ok = await post(page, { ...base_, appraiser_number: '1234567' });
    expect((await upload(await ok.text(), PDF, 'application/pdf')).status).toBe(200);
    const after = (await call(`${base}/appraisal-requests/${request.id}`, { token: northwind })).body.data;
    expect(after.items.map((i: { type: string; status: string }) => [i.type, i.status])).toEqual([
      ['appraisal', 'submitted'],
      ['appraiser_confirmation', 'sent'],
    ]);
    await call(`${base}/appraisal-requests/${request.id}/items/${request.items[0].id}/accept`, { method: 'POST', token: northwind });
    const form = linkIn((await mailTo(stack, appraiser))[0]!, 'request-form');
    expect(
      (await post(form, { item_id: String(after.items[1].id), issuer_name: 'Dr Ann Lee', issuer_position: 'Appraiser', decision: 'confirm' })).status,
    ).toBe(200);
    expect((await call(`${base}/appraisal-requests/${request.id}`, { token: northwind })).body.data).toMatchObject({
      status: 'completed',
      outcome: 'satisfied',
    });
  });
});

describe('agency operations on every group', () => {
  it('certificates: per-kind fields; reminders once per actor per day; cancel closes the page', async () => {
    const who = await candidate();
    const request = (
      await call(`${base}/certificate-requests`, {
        token: northwind,
        body: { candidate_id: who.id, certificates: [{ kind: 'dbs' }, { kind: 'right_to_work', label: 'Passport' }] },
      })
    ).body.data;
    expect(request.items.map((i: { type: string }) => i.type)).toEqual(['dbs', 'right_to_work']);
    const page = request.submission_url as string;
    const dbs = await post(page, {
      item_id: String(request.items[0].id),
      certificate_number: '12345',
      issued_on: daysAgo(30),
      level: 'basic',
      barred_lists__adults: 'yes',
      workforce: 'Adult',
    });
    expect(dbs.status).toBe(422);
    const html = await dbs.text();
    expect(html).toContain('A DBS certificate number is 12 digits');

    const reminded = await call(`${base}/certificate-requests/${request.id}/reminders`, { method: 'POST', token: northwind });
    expect(reminded.body.message).toBe('0 reminders sent');
    const cancelled = await call(`${base}/certificate-requests/${request.id}/cancel`, { method: 'POST', token: northwind });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', submission_url: null });
    expect(cancelled.body.data.items.map((i: { status: string }) => i.status)).toEqual(['cancelled', 'cancelled']);
    expect((await fetch(page)).status).toBe(410);
    expect((await post(page, { item_id: String(request.items[0].id) })).status).toBe(410);
    expect((await call(`${base}/certificate-requests/${request.id}/reminders`, { method: 'POST', token: northwind })).status).toBe(409);
    await eventually(() => events('certificate_request.cancelled', request.id).length === 1, { timeoutMs: 15_000, what: 'the cancelled event' });
  });

  it("never shows another client's request or item, before the body is read; unknown groups and malformed ids are 404", async () => {
    const who = await candidate();
    const request = (await call(`${base}/training-requests`, { token: northwind, body: { candidate_id: who.id, subjects: ['fire_safety'] } })).body.data;
    const item = request.items[0].id;
    for (const path of [
      `/training-requests/${request.id}`,
      `/training-requests/${request.id}/pdf`,
      `/training-requests/${request.id}/items/${item}/file`,
      '/haircut-requests',
      `/training-requests/x1`,
    ]) {
      expect([path, (await call(`${base}${path}`, { token: riverside })).status]).toEqual([path, 404]);
    }
    for (const path of ['cancel', 'reminders', `items/${item}/accept`])
      expect((await call(`${base}/training-requests/${request.id}/${path}`, { method: 'POST', token: riverside })).status).toBe(404);
    expect((await call(`${base}/training-requests/${request.id}/items/${item}/reject`, { token: riverside, body: {} })).status).toBe(404);
    expect((await call(`${base}/certificate-requests/${request.id}`, { token: northwind })).status).toBe(404);
    const foreign = await call(`${base}/training-requests`, { token: riverside, body: { candidate_id: who.id, subjects: ['fire_safety'] } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ pointer: '/candidate_id', detail: `No candidate ${who.id}` }]);
    const invalid = await call(`${base}/training-requests`, { token: northwind, body: { candidate_id: who.id, subjects: ['fire_safety', 'fire_safety'] } });
    expect(invalid.status).toBe(422);
    // The reference routes still answer as before beside the groups.
    expect((await call(`${base}/reference-requests`, { token: northwind })).status).toBe(200);
    expect((await call(`${base}/templates?kind=training`, { token: northwind })).status).toBe(200);
  });

  it('Acting-User: a review needs requests:review (after the 404, before the body) and is recorded as reviewed_by', async () => {
    const team = await listUsers(depsFromEnv(), 'demo-northwind');
    const viewer = team.find((u) => u.role_id === 'viewer')!;
    const manager = team.find((u) => u.role_id === 'compliance_manager')!;
    const as = (user: number | string) => ({ 'acting-user': String(user) });
    const who = await candidate();
    const request = (
      await call(`${base}/certificate-requests`, {
        token: northwind,
        body: {
          candidate_id: who.id,
          certificates: [
            { kind: 'other', label: 'Badge' },
            { kind: 'other', label: 'Letter' },
          ],
        },
      })
    ).body.data;
    const [mail] = await mailTo(stack, who.email);
    const page = linkIn(mail!, 'request-submit');
    for (const item of request.items)
      expect((await upload(await (await post(page, { item_id: String(item.id), description: 'A signed letter' })).text(), PDF, 'application/pdf')).status).toBe(
        200,
      );
    const items = `${base}/certificate-requests/${request.id}/items`;
    const [first, second] = request.items.map((i: { id: number }) => i.id);

    // Another client's item is 404 whoever acts; then the role: a viewer is 403 even with a bad body.
    expect((await call(`${items}/${first}/accept`, { method: 'POST', token: riverside, headers: as(viewer.id) })).status).toBe(404);
    for (const refused of [
      await call(`${items}/${first}/accept`, { method: 'POST', token: northwind, headers: as(viewer.id) }),
      await call(`${items}/${second}/reject`, { token: northwind, headers: as(viewer.id), body: {} }),
      await call(`${items}/${first}/accept`, { method: 'POST', token: northwind, headers: as('usr_7') }),
    ]) {
      expect([refused.status, refused.body.type, refused.body.permission]).toEqual([403, '/problems/acting-user-not-permitted', 'requests:review']);
    }
    expect((await call(`${base}/certificate-requests/${request.id}`, { token: northwind })).body.data.status).toBe('awaiting_review');
    // A read of a kind without health data needs no permission, but an acting user must be an active one of the account.
    expect((await call(`${base}/certificate-requests/${request.id}`, { token: northwind, headers: as(viewer.id) })).status).toBe(200);
    const stranger = await call(`${base}/certificate-requests/${request.id}`, { token: northwind, headers: as(99999) });
    expect([stranger.status, stranger.body.type]).toEqual([403, '/problems/acting-user-not-permitted']);

    const accepted = await call(`${items}/${first}/accept`, { method: 'POST', token: northwind, headers: as(manager.id) });
    expect(accepted.body.data.items.find((i: { id: number }) => i.id === first)).toMatchObject({ status: 'accepted', reviewed_by: manager.id });
    await call(`${items}/${second}/reject`, { token: northwind, headers: as(manager.id), body: { reason: 'Unsigned' } });
    const stored = (await call(`${base}/certificate-requests/${request.id}`, { token: northwind })).body.data.items;
    expect(stored.map((i: { status: string; reviewed_by: number | null }) => [i.status, i.reviewed_by])).toEqual([
      ['accepted', manager.id],
      ['rejected', manager.id],
    ]);
    const pdf = await fetch(`${base}/certificate-requests/${request.id}/pdf`, { headers: { authorization: `Bearer ${northwind}` } });
    // The PDF's shown text, its wrapped lines joined again: the reviewer by name.
    const shown = [
      ...Buffer.from(await pdf.arrayBuffer())
        .toString('latin1')
        .matchAll(/\(((?:\\.|[^\\)])*)\) Tj/g),
    ]
      .map((m) => m[1]!.replace(/\\(.)/g, '$1'))
      .join(' ');
    expect(shown).toContain(`by ${manager.name} (team user ${manager.id})`);
  });

  it('has demo data: one request of each group, each in another state', async () => {
    const states: Record<string, string> = {};
    for (const group of [
      'training-requests',
      'certificate-requests',
      'appraisal-requests',
      'training-verification-requests',
      'occupational-health-requests',
      'practical-training-requests',
      'life-support-requests',
    ]) {
      const [first] = (await call(`${base}/${group}?limit=100`, { token: northwind })).body.data.slice(-1);
      states[group] = first.status;
    }
    expect(states).toEqual({
      'training-requests': 'completed',
      'certificate-requests': 'awaiting_review',
      'appraisal-requests': 'pending',
      'training-verification-requests': 'in_progress',
      'occupational-health-requests': 'cancelled',
      'practical-training-requests': 'expired',
      'life-support-requests': 'pending',
    });
  });

  it('occupational health needs the entitlement (403 without)', async () => {
    const deps = depsFromEnv();
    const { client, clientSecret } = await createClient(deps, { name: 'No OH Ltd' });
    const t = await token(client.clientId, clientSecret);
    const who = await candidate(t);
    const response = await call(`${base}/occupational-health-requests`, { token: t, body: { candidate_id: who.id, collection_mode: 'candidate_provides' } });
    expect(response.status).toBe(403);
    expect(response.body.detail).toBe('This account does not include occupational health requests');
  });
});
