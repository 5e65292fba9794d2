import { createClient } from '../../functions/core/access/clients.js';
import { setReferenceRequestsEnabled } from '../../functions/core/access/account-settings.js';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { loadReferenceRequest, referenceKeys } from '../../functions/core/portal-v2/references.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';

let stack: LocalStack;
let base: string;
let northwind: string;
let riverside: string;

const token = async (client_id: string, client_secret: string) =>
  (await call(`${base}/auth/token`, { body: { client_id, client_secret } })).body.access_token as string;

beforeAll(async () => {
  // Schedules every half second rather than at their rates, so the expiry sweep is seen to run.
  stack = await startTestStack({}, { scheduleIntervalMs: 500 });
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

const RATINGS = {
  q_clinical_competence: '5',
  q_reliability: '4',
  q_communication: '4',
  q_teamwork: '3',
  q_safeguarding: 'None that I know of',
  q_reemploy: 'Yes',
};

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
    expect(request.references[0]).toMatchObject({
      referee_name: a.referee_name,
      referee_phone: '+447700900200',
      relationship_to_candidate: 'Line manager',
      status: 'sent',
      reminder_count: 0,
      score: null,
      pdf_url: null,
    });
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
    expect(completed).toMatchObject({
      status: 'completed',
      status_label: 'Completed',
      score: 81.3,
      submitted_at: expect.any(String),
      pdf_url: `${base}/references/${completed.id}/pdf`,
    });

    const detail = (await call(`${base}/references/${completed.id}`, { token: northwind })).body.data;
    expect(detail.answers).toMatchObject({ clinical_competence: 5, reliability: 4, safeguarding: 'None that I know of' });
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
    const created = await call(`${base}/candidates`, {
      token: northwind,
      body: { first_name: 'Kate', last_name: 'Marsden', email: `kate.${Date.now()}@example.org` },
    });
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
    const badHtml = await bad.text();
    expect(fieldError(badHtml, 'r0_referee_email')).toBe('Not a valid e-mail address');
    // Fields left empty are named in plain words, never in the validator's.
    expect(fieldError(badHtml, 'r0_referee_organisation')).toBe('Please fill this in');
    expect(badHtml).not.toContain('Invalid key');

    const r = referee();
    const sent = await post(link, {
      r0_referee_name: r.referee_name,
      r0_referee_email: r.referee_email,
      r0_referee_organisation: r.referee_organisation,
      r0_referee_position: r.referee_position,
    });
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
    expect((await call(`${base}/reference-requests?candidate_id=1`, { token: northwind })).body.data.map((x: { id: number }) => x.id)).not.toContain(
      request.id,
    );

    const extra = referee();
    const added = await call(`${base}/reference-requests/${request.id}/referees`, { token: northwind, body: extra });
    expect(added.status).toBe(201);
    expect(added.body.data.references.map((x: { referee_email: string }) => x.referee_email)).toEqual([r.referee_email, extra.referee_email]);
    expect((await mailTo(stack, extra.referee_email)).length).toBe(1);

    // Just sent: the first reminder may go only 24 hours after sending (tested with the clock in the integration tests).
    const reminded = await call(`${base}/reference-requests/${request.id}/reminders`, { method: 'POST', token: northwind });
    expect(reminded.status).toBe(200);
    expect(reminded.body.message).toBe('0 reminders sent');
    expect(
      reminded.body.data.reminders.map((x: { reminded: boolean; reason: string; next_reminder_at: string }) => [
        x.reminded,
        x.reason,
        typeof x.next_reminder_at,
      ]),
    ).toEqual([
      [false, 'reminded_recently', 'string'],
      [false, 'reminded_recently', 'string'],
    ]);

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

  it('has a request whose time is up closed by the scheduled expiry sweep', async () => {
    const request = await createRequest({ collection_mode: 'client_adds', references_required: 1, referees: [referee()] });
    const deps = depsFromEnv();
    // Fourteen days pass: the request falls due.
    const due = new Date(Date.now() - 1000).toISOString();
    await deps.db.send(
      new UpdateCommand({
        TableName: deps.table,
        Key: referenceKeys.request('demo-northwind', request.id),
        UpdateExpression: 'SET expires_at = :due, gsi1sk = :open',
        ExpressionAttributeValues: { ':due': due, ':open': referenceKeys.open(due, 'demo-northwind', request.id).gsi1sk },
      }),
    );
    const deadline = Date.now() + 15_000;
    let stored = await loadReferenceRequest(deps, 'demo-northwind', request.id);
    while (stored?.request.status !== 'expired' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      stored = await loadReferenceRequest(deps, 'demo-northwind', request.id);
    }
    expect(stored!.request.status).toBe('expired');
    expect(stored!.references.map((r) => r.status)).toEqual(['expired']);
  });

  it("never shows another client's request, reference, candidate or PDF", async () => {
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
    const foreign = await call(`${base}/reference-requests`, {
      token: riverside,
      body: { candidate_id: 1, template_id: 1, collection_mode: 'client_adds', referees: [referee()] },
    });
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
    [{ referees: [referee({ referee_phone: '7700 900123' })] }, '/referees/0/referee_phone'],
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

/** The error shown next to a form field on a public page. */
const fieldError = (html: string, field: string) => new RegExp(`id="${field}-error">([^<]*)<`).exec(html)?.[1];

describe('hostile text', () => {
  const HOSTILE = 'Must not contain control, invisible formatting or noncharacter code points';

  it.each([
    ['CR LF (a header injection)', 'Eve\r\nBcc: x@evil.example'],
    ['NUL', 'Eve\u0000'],
    ['a tab', 'Eve\tAdams'],
    ['a C1 control (NEL)', 'Eve\u0085Adams'],
    ['DEL', 'Eve\u007F'],
    ['a right-to-left override', 'Eve\u202Efdp.exe'],
    ['a bidi isolate', '\u2066Eve\u2069'],
    ['a zero-width space', 'E\u200Bve'],
    ['a zero-width joiner', 'E\u200Dve'],
    ['a word joiner', 'E\u2060ve'],
    ['a zero-width no-break space (BOM) inside', 'E\uFEFFve'],
    ['a lone surrogate', 'Eve\uD800'],
  ])('a first name with %s is 422 at /first_name, and no candidate is made', async (_, first_name) => {
    const before = (await call(`${base}/candidates?limit=100`, { token: riverside })).body.data.length;
    const response = await call(`${base}/candidates`, { token: riverside, body: { first_name, last_name: 'Adams', email: `eve.${Date.now()}@example.org` } });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ pointer: '/first_name', detail: HOSTILE }]);
    expect((await call(`${base}/candidates?limit=100`, { token: riverside })).body.data.length).toBe(before);
  });

  it('accepts names in any script, with accents, apostrophes and hyphens', async () => {
    for (const [first_name, last_name] of [
      ['Zoë', "O'Brien-Smith"],
      ['Łukasz', 'Żółć'],
      ['محمد', 'علي'],
      ['أنا', 'דוד'],
      ['Siân', 'Nguyễn'],
    ]) {
      const response = await call(`${base}/candidates`, { token: riverside, body: { first_name, last_name, email: `ok.${Date.now()}@example.org` } });
      expect([first_name, response.status]).toEqual([first_name, 201]);
      expect(response.body.data).toMatchObject({ first_name, last_name });
    }
  });

  it('refuses them in referee names and notes of a request, but lets notes span lines with tabs', async () => {
    const name = await call(`${base}/reference-requests`, {
      token: northwind,
      body: {
        candidate_id: 1,
        template_id: 1,
        collection_mode: 'client_adds',
        referees: [referee({ referee_name: 'Dr \u202EEvil', referee_organisation: 'NHS\r\nTrust' })],
      },
    });
    expect(name.status).toBe(422);
    expect(name.body.errors).toEqual([
      { pointer: '/referees/0/referee_name', detail: HOSTILE },
      { pointer: '/referees/0/referee_organisation', detail: HOSTILE },
    ]);
    for (const notes of ['Ward 7\u0000', 'Ward \u2067 7', 'Ward\u000B7', 'Ward\u200C7']) {
      const response = await call(`${base}/reference-requests`, {
        token: northwind,
        body: { candidate_id: 1, template_id: 1, collection_mode: 'client_adds', referees: [referee()], notes },
      });
      expect([JSON.stringify(notes), response.status, response.body.errors]).toEqual([JSON.stringify(notes), 422, [{ pointer: '/notes', detail: HOSTILE }]]);
    }
    const multiline = await createRequest({ collection_mode: 'client_adds', referees: [referee()], notes: 'Ward 7\r\n\tBay 3\nNights only' });
    expect(multiline.notes).toBe('Ward 7\n\tBay 3\nNights only');
  });

  it("the candidate's page shows the message next to the field and sends nothing", async () => {
    const request = await createRequest({ candidate_id: 2, collection_mode: 'candidate_provides', references_required: 1 });
    const link = request.submission_url as string;
    const r = referee();
    const page = await post(link, {
      r0_referee_name: 'Eve\r\nBcc: x@evil.example',
      r0_referee_email: r.referee_email,
      r0_referee_organisation: 'St\u200B Thomas',
      r0_referee_position: 'Ward Manager',
    });
    expect(page.status).toBe(422);
    const html = await page.text();
    expect(fieldError(html, 'r0_referee_name')).toBe(HOSTILE);
    expect(fieldError(html, 'r0_referee_organisation')).toBe(HOSTILE);
    expect((await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data.references).toEqual([]);
  });

  it("the referee's form refuses them in answers and in a decline reason; ratings are whole numbers 1 to 5, stored as numbers", async () => {
    const r = referee();
    const request = await createRequest({ collection_mode: 'client_adds', references_required: 1, referees: [r] });
    const form = linkIn((await mailTo(stack, r.referee_email))[0]!, 'reference-form');
    const refused = async (fields: Record<string, string>, field: string, message: string) => {
      const response = await post(form, fields);
      expect([JSON.stringify(fields), response.status]).toEqual([JSON.stringify(fields), 422]);
      const html = await response.text();
      expect(fieldError(html, field)).toBe(message);
    };
    for (const rating of ['0x5', '5.0', '5e0', ' 0b101', '+5', '4.5', '0', '6', 'five']) {
      await refused({ action: 'submit', ...RATINGS, q_clinical_competence: rating }, 'q_clinical_competence', 'Choose a rating from 1 to 5');
    }
    await refused({ action: 'submit', ...RATINGS, q_safeguarding: 'None\u202E' }, 'q_safeguarding', HOSTILE);
    await refused({ action: 'submit', ...RATINGS, q_safeguarding: 'None\u0000' }, 'q_safeguarding', HOSTILE);
    await refused({ action: 'decline', reason: 'Conflict\u0007 of interest' }, 'reason', HOSTILE);
    await refused({ action: 'decline', reason: '\u200B' }, 'reason', HOSTILE);

    // A browser sends a textarea's line breaks as CRLF; they are kept as line breaks.
    const done = await post(form, { action: 'submit', ...RATINGS, q_safeguarding: 'None that I know of.\r\n\tChecked the file.' });
    expect(done.status).toBe(200);
    const id = (await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data.references[0].id;
    const detail = (await call(`${base}/references/${id}`, { token: northwind })).body.data;
    expect(detail.answers).toEqual({
      clinical_competence: 5,
      reliability: 4,
      communication: 4,
      teamwork: 3,
      safeguarding: 'None that I know of.\n\tChecked the file.',
      reemploy: 'Yes',
    });
    expect(detail.score).toBe(81.3);
  });
});

describe('self-referencing', () => {
  const MESSAGE = 'A referee must be someone other than the candidate';

  it("refuses the candidate's own e-mail as a referee's on create, whatever its case and spacing", async () => {
    // Candidate 1 is ada.nightingale@example.org.
    const response = await call(`${base}/reference-requests`, {
      token: northwind,
      body: {
        candidate_id: 1,
        template_id: 1,
        collection_mode: 'client_adds',
        referees: [referee(), referee({ referee_email: '  Ada.Nightingale@EXAMPLE.org ' })],
      },
    });
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      type: '/problems/validation',
      errors: [{ pointer: '/referees/1/referee_email', detail: expect.stringContaining(MESSAGE) }],
    });
  });

  it('refuses it behind a +tag in the local part, on create and when a referee is added', async () => {
    const created = await call(`${base}/reference-requests`, {
      token: northwind,
      body: { candidate_id: 1, template_id: 1, collection_mode: 'client_adds', referees: [referee({ referee_email: 'ada.nightingale+referee@example.org' })] },
    });
    expect(created.status).toBe(422);
    expect(created.body).toMatchObject({
      type: '/problems/validation',
      errors: [{ pointer: '/referees/0/referee_email', detail: expect.stringContaining(MESSAGE) }],
    });
    const request = await createRequest({ candidate_id: 1, collection_mode: 'client_adds', referees: [referee()] });
    const added = await call(`${base}/reference-requests/${request.id}/referees`, {
      token: northwind,
      body: referee({ referee_email: 'Ada.Nightingale+Manager@Example.org' }),
    });
    expect(added.status).toBe(422);
    expect(added.body.errors).toEqual([{ pointer: '/referee_email', detail: expect.stringContaining(MESSAGE) }]);
    expect((await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data.references).toHaveLength(1);
  });

  it('refuses it when a referee is added', async () => {
    const request = await createRequest({ candidate_id: 1, collection_mode: 'client_adds', referees: [referee()] });
    const response = await call(`${base}/reference-requests/${request.id}/referees`, {
      token: northwind,
      body: referee({ referee_email: 'ADA.NIGHTINGALE@example.org' }),
    });
    expect(response.status).toBe(422);
    expect(response.body.errors).toEqual([{ pointer: '/referee_email', detail: expect.stringContaining(MESSAGE) }]);
    expect((await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data.references).toHaveLength(1);
  });

  it("the candidate's page says so next to the e-mail field, and e-mails no one", async () => {
    const email = `grace.${Date.now()}@example.org`;
    const candidate = (await call(`${base}/candidates`, { token: northwind, body: { first_name: 'Grace', last_name: 'Hopper', email } })).body.data;
    const request = await createRequest({ candidate_id: candidate.id, collection_mode: 'candidate_provides', references_required: 1 });
    const link = linkIn((await mailTo(stack, email))[0]!, 'reference-submit');
    const other = referee();
    const row = (i: number, r: { referee_name: string; referee_email: string }) => ({
      [`r${i}_referee_name`]: r.referee_name,
      [`r${i}_referee_email`]: r.referee_email,
      [`r${i}_referee_organisation`]: 'St Thomas Hospital',
      [`r${i}_referee_position`]: 'Ward Manager',
    });
    // Row 0 left blank: the error belongs to the row the candidate filled in.
    const page = await post(link, { ...row(1, other), ...row(2, { referee_name: 'Grace Hopper', referee_email: email.toUpperCase() }) });
    expect(page.status).toBe(422);
    const html = await page.text();
    expect(fieldError(html, 'r2_referee_email')).toContain(MESSAGE);
    expect(fieldError(html, 'r1_referee_email')).toBeUndefined();
    expect((await call(`${base}/reference-requests/${request.id}`, { token: northwind })).body.data.references).toEqual([]);

    const fixed = await post(link, row(0, other));
    expect(fixed.status).toBe(200);
    expect(await mailTo(stack, other.referee_email)).toHaveLength(1);
  });
});
