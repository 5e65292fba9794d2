import { createClient, setReferenceRequestsEnabled } from '../../functions/core/clients.js';
import { depsFromEnv } from '../../functions/core/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';

let stack: LocalStack;
let base: string;
let northwind: string;
let riverside: string;

const token = async (client_id: string, client_secret: string) =>
  (await call(`${base}/auth/token`, { body: { client_id, client_secret } })).body.access_token as string;

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families['portal-v2']!;
  northwind = await token('demo-northwind', 'cs_demo_northwind_local_only');
  riverside = await token('demo-riverside', 'cs_demo_riverside_local_only');
});
afterAll(() => stack?.stop());

let n = 0;
/** A referee with an address no other test uses, so its e-mails can be told apart. */
const referee = (extra: object = {}) => ({
  referee_name: `Referee ${++n}`,
  referee_email: `referee${n}.${Date.now()}@nhs.example`,
  referee_organisation: 'St Thomas Hospital',
  referee_position: 'Ward Manager',
  ...extra,
});

const linkIn = (mail: string, kind: string) => new RegExp(`(http://\\S+/${kind}/\\S+)`).exec(mail)![1]!;
const post = (url: string, form: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() });

const RATINGS = { q_clinical_competence: '5', q_reliability: '4', q_communication: '4', q_teamwork: '3', q_safeguarding: 'None that I know of', q_reemploy: 'Yes' };

async function createRequest(body: object, as = northwind) {
  const response = await call(`${base}/reference-requests`, { token: as, body: { candidate_id: 1, template_id: 1, expiry_days: 14, ...body } });
  expect(response.status).toBe(201);
  return response.body.data;
}

describe('client_adds', () => {
  it('e-mails each referee a working form link; a completed form completes the request, with a score and a PDF', async () => {
    const [a, b] = [referee({ referee_phone: '+44 7700 900200', relationship_to_candidate: 'Line manager' }), referee()];
    const response = await call(`${base}/reference-requests`, {
      token: northwind,
      body: { candidate_id: 1, collection_mode: 'client_adds', references_required: 1, template_id: 1, expiry_days: 14, notes: 'Ward 7', referees: [a, b] },
    });
    expect(response.status).toBe(201);
    expect(response.body.message).toEqual(expect.any(String));
    const request = response.body.data;
    expect(request).toMatchObject({
      candidate_id: 1,
      candidate_name: 'Ada Nightingale',
      candidate_email: 'ada.nightingale@example.org',
      template_id: 1,
      template_name: 'Standard clinical reference',
      collection_mode: 'client_adds',
      status: 'pending',
      references_required: 1,
      references_completed: 0,
      is_fully_referenced: false,
      notes: 'Ward 7',
      is_expired: false,
      requested_by: expect.any(Number),
      submission_url: null,
    });
    expect(request.uuid).toMatch(/^[0-9a-f-]{36}$/);
    expect(request.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(Date.parse(request.expires_at) - Date.parse(request.created_at)).toBe(14 * 86_400_000);
    expect(request.references).toHaveLength(2);
    expect(request.references[0]).toMatchObject({ referee_name: a.referee_name, referee_phone: '+447700900200', relationship_to_candidate: 'Line manager', status: 'sent', reminder_count: 0, score: null, pdf_url: null });
    expect(request.references[1]).toMatchObject({ referee_phone: null, relationship_to_candidate: null });

    const [mail] = await mailTo(stack, a.referee_email);
    expect(mail).toMatch(/Subject: Reference request for Ada Nightingale/);
    const form = linkIn(mail!, 'reference-form');
    expect(form).toBe(request.references[0].form_url);

    const page = await fetch(form);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Northwind Nursing Agency');
    expect(html).toContain('Ada Nightingale');
    expect(html).toMatch(/<label for="q_safeguarding">/);
    const opened = (await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data;
    expect(opened.status).toBe('in_progress');
    expect(opened.references[0]).toMatchObject({ status: 'opened', opened_at: expect.any(String) });

    const incomplete = await post(form, { action: 'submit', q_clinical_competence: '9' });
    expect(incomplete.status).toBe(422);
    expect(await incomplete.text()).toContain('Choose a rating from 1 to 5');

    const done = await post(form, { action: 'submit', ...RATINGS });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Thank you');
    const again = await post(form, { action: 'submit', ...RATINGS });
    expect(again.status).toBe(409);

    const after = (await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data;
    expect(after).toMatchObject({ status: 'completed', references_completed: 1, is_fully_referenced: true });
    const completed = after.references[0];
    // (5-1)/4*100*3 + (4-1)/4*100*2*2 + (3-1)/4*100*1, over weights 8
    expect(completed).toMatchObject({ status: 'completed', status_label: 'Completed', score: 81.3, submitted_at: expect.any(String), pdf_url: `${base}/references/${completed.id}/pdf` });

    const detail = (await call(`${base}/references/${completed.id}`, { token: northwind })).body.data;
    expect(detail.answers).toMatchObject({ clinical_competence: '5', safeguarding: 'None that I know of' });
    const pdf = await fetch(completed.pdf_url, { headers: { authorization: `Bearer ${northwind}` } });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(bytes.toString('latin1')).toContain('(Employment reference for Ada Nightingale)');
    expect((await call(`${base}/references/${request.references[1].id}/pdf`, { token: northwind })).status).toBe(404);
  });

  it('lets a referee decline with a reason', async () => {
    const r = referee();
    const request = await createRequest({ collection_mode: 'client_adds', references_required: 2, referees: [r] });
    const form = linkIn((await mailTo(stack, r.referee_email))[0]!, 'reference-form');
    expect((await post(form, { action: 'decline', reason: '' })).status).toBe(422);
    expect((await post(form, { action: 'decline', reason: 'I never worked with this person' })).status).toBe(200);
    const after = (await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data;
    expect(after.references[0]).toMatchObject({ status: 'declined', status_label: 'Declined', decline_reason: 'I never worked with this person' });
    expect(after).toMatchObject({ status: 'in_progress', references_completed: 0 });
    expect((await post(form, { action: 'submit', ...RATINGS })).status).toBe(409);
  });
});

describe('candidate_provides', () => {
  it('e-mails the candidate a page where they name referees, who are then e-mailed', async () => {
    const created = await call(`${base}/candidates`, { token: northwind, body: { first_name: 'Kate', last_name: 'Marsden', email: `kate.${Date.now()}@example.org` } });
    expect(created.status).toBe(201);
    const candidate = created.body.data;
    const request = await createRequest({ candidate_id: candidate.id, collection_mode: 'candidate_provides', references_required: 1 });
    expect(request.references).toEqual([]);
    expect(request.submission_url).toMatch(/\/reference-submit\//);
    const link = linkIn((await mailTo(stack, candidate.email))[0]!, 'reference-submit');
    expect(link).toBe(request.submission_url);

    expect(await (await fetch(link)).text()).toContain('Referee 1');
    const bad = await post(link, { r0_referee_name: 'Dr Who', r0_referee_email: 'not-an-email' });
    expect(bad.status).toBe(422);
    expect(await bad.text()).toContain('Not a valid e-mail address');

    const r = referee();
    const sent = await post(link, { r0_referee_name: r.referee_name, r0_referee_email: r.referee_email, r0_referee_organisation: r.referee_organisation, r0_referee_position: r.referee_position });
    expect(sent.status).toBe(200);
    expect((await mailTo(stack, r.referee_email)).length).toBe(1);
    const after = (await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data;
    expect(after.references).toEqual([expect.objectContaining({ referee_email: r.referee_email, status: 'sent' })]);
    expect((await post(link, { r0_referee_name: 'Again' })).status).toBe(409);
  });
});

describe('agency operations', () => {
  it('lists by status and candidate, adds a referee, reminds once per 24 hours, and cancelling closes the links', async () => {
    const r = referee();
    const request = await createRequest({ candidate_id: 2, collection_mode: 'client_adds', references_required: 2, referees: [r] });
    const listed = (await call(`${base}/reference-requests?candidate_id=2&status=pending`, { token: northwind })).body;
    expect(listed.data.map((x: { id: number }) => x.id)).toContain(request.id);
    expect((await call(`${base}/reference-requests?candidate_id=1`, { token: northwind })).body.data.map((x: { id: number }) => x.id)).not.toContain(request.id);

    const extra = referee();
    const added = await call(`${base}/reference-requests/${request.id}/referees`, { token: northwind, body: extra });
    expect(added.status).toBe(201);
    expect(added.body.data.references.map((x: { referee_email: string }) => x.referee_email)).toEqual([r.referee_email, extra.referee_email]);
    expect((await mailTo(stack, extra.referee_email)).length).toBe(1);

    // Just sent: the first reminder may go only 24 hours after sending (tested with the clock in the integration tests).
    const reminded = await call(`${base}/reference-requests/${request.id}/reminders`, { method: 'POST', token: northwind });
    expect(reminded.status).toBe(200);
    expect(reminded.body.message).toBe('0 reminders sent');

    const form = linkIn((await mailTo(stack, r.referee_email))[0]!, 'reference-form');
    const cancelled = await call(`${base}/reference-requests/${request.id}/cancel`, { method: 'POST', token: northwind });
    expect(cancelled.body.data).toMatchObject({ status: 'cancelled', status_label: 'Cancelled' });
    expect(cancelled.body.data.references.map((x: { status: string }) => x.status)).toEqual(['cancelled', 'cancelled']);
    const closed = await fetch(form);
    expect(closed.status).toBe(410);
    expect(await closed.text()).toContain('withdrawn');
    expect((await post(form, { action: 'submit', ...RATINGS })).status).toBe(410);
    expect((await call(`${base}/reference-requests/${request.id}/cancel`, { method: 'POST', token: northwind })).status).toBe(409);
    expect((await call(`${base}/reference-requests/${request.id}/referees`, { token: northwind, body: referee() })).status).toBe(409);
  });

  it('never shows another client\'s request, reference, candidate or PDF', async () => {
    const request = await createRequest({ collection_mode: 'client_adds', referees: [referee()] });
    const ref = request.references[0].id;
    for (const path of [`/reference-requests/${request.id}`, `/references/${ref}`, `/references/${ref}/pdf`, '/candidates/1']) {
      const response = await call(`${base}${path}`, { token: riverside });
      expect([path, response.status]).toEqual([path, 404]);
    }
    for (const path of [`/reference-requests/${request.id}/cancel`, `/reference-requests/${request.id}/reminders`]) {
      expect((await call(`${base}${path}`, { method: 'POST', token: riverside })).status).toBe(404);
    }
    expect((await call(`${base}/reference-requests/${request.id}/referees`, { token: riverside, body: referee() })).status).toBe(404);
    expect((await call(`${base}/reference-requests`, { token: riverside })).body.data.map((x: { id: number }) => x.id)).not.toContain(request.id);
    // Nor can it build on another client's candidate.
    const foreign = await call(`${base}/reference-requests`, { token: riverside, body: { candidate_id: 1, template_id: 1, collection_mode: 'client_adds', referees: [referee()] } });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors).toEqual([{ pointer: '/candidate_id', detail: 'No candidate 1' }]);
  });

  it('is forbidden (403) for an account without reference requests', async () => {
    const deps = depsFromEnv();
    const { client, clientSecret } = await createClient(deps, { name: 'No References Ltd' });
    await setReferenceRequestsEnabled(deps, client.clientId, false);
    const response = await call(`${base}/reference-requests`, {
      token: await token(client.clientId, clientSecret),
      body: { candidate_id: 1, template_id: 1, collection_mode: 'candidate_provides' },
    });
    expect(response.status).toBe(403);
    expect(response.body.type).toBe('/problems/forbidden');
  });
});

describe('validation', () => {
  it.each([
    [{ referees: [referee({ referee_email: 'nope' })] }, '/referees/0/referee_email'],
    [{ referees: [referee({ referee_phone: '07700 900123' })] }, '/referees/0/referee_phone'],
    [{ referees: [referee(), { ...referee(), referee_organisation: '' }] }, '/referees/1/referee_organisation'],
    [{ referees: [referee()], references_required: 11 }, '/references_required'],
    [{ referees: [referee()], references_required: 0 }, '/references_required'],
    [{ referees: [referee()], expiry_days: 91 }, '/expiry_days'],
    [{ referees: [referee()], expiry_days: 0 }, '/expiry_days'],
    [{ referees: Array.from({ length: 11 }, () => referee()) }, '/referees'],
    [{ referees: [referee()], notes: 'x'.repeat(2001) }, '/notes'],
    [{ referees: [referee()], template_id: 999 }, '/template_id'],
    [{ referees: [referee()], candidate_id: 999 }, '/candidate_id'],
    [{ referees: [] }, '/referees'],
    [{}, '/referees'],
    [{ referees: [referee()], collection_mode: 'post' }, '/collection_mode'],
  ])('%o is refused at %s', async (fields, pointer) => {
    const response = await call(`${base}/reference-requests`, {
      token: northwind,
      body: { candidate_id: 1, template_id: 1, collection_mode: 'client_adds', ...fields },
    });
    expect(response.status).toBe(422);
    expect(response.body.errors.map((e: { pointer: string }) => e.pointer)).toEqual([pointer]);
  });
});
