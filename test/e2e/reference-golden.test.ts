import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { depsFromEnv } from '../../functions/core/platform/deps.js';
import { referenceKeys } from '../../functions/core/portal-v2/references.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { eventually } from '../support/eventually.js';
import { call, mailTo, startTestStack } from '../support/local-stack.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

/**
 * The reference requests' recorded behaviour.
 * One scripted session: create, get, list, reminders, the referee's form
 * (opened, completed, declined), the candidate's page, cancel, expiry, the
 * reference and its PDF's text, every e-mail and every webhook event. Only
 * uuids, timestamps, dates, link tokens, ports and webhook ids are normalised;
 * everything else must equal test/e2e/golden/reference-requests.json.
 * `UPDATE_GOLDEN=1` records it anew (review the diff: it is the contract).
 */

const GOLDEN = join(dirname(fileURLToPath(import.meta.url)), 'golden', 'reference-requests.json');

let stack: LocalStack;
let receiver: Receiver;
let base: string;
let token: string;

beforeAll(async () => {
  stack = await startTestStack({}, { scheduleIntervalMs: 500 });
  receiver = await startReceiver();
  base = stack.info.families['portal-v2']!;
  token = (await call(`${base}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' } })).body.access_token;
});
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
});

const MONTHS = 'January|February|March|April|May|June|July|August|September|October|November|December';

/** Replaces what differs from run to run, and nothing else. */
function normalise(text: string): string {
  return text
    .replaceAll(base, '<base>')
    .replace(/http:\/\/127\.0\.0\.1:\d+/g, '<origin>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/msg_[A-Za-z0-9_-]+/g, '<msg>')
    .replace(/whsec_[A-Za-z0-9+/=]+/g, 'whsec_<secret>')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<timestamp>')
    .replace(/\/(reference-form|reference-submit)\/[A-Za-z0-9_-]{20,}/g, '/$1/<token>')
    .replace(new RegExp(`\\b\\d{1,2} (${MONTHS}) \\d{4}\\b`, 'g'), '<date>')
    .replace(new RegExp(`\\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*,? `, 'g'), '<weekday> ')
    .replace(/\b\d\d:\d\d(:\d\d)?\b/g, '<time>')
    .replace(/\/CreationDate \(D:\d+[^)]*\)/g, '/CreationDate (<date>)');
}

const record: Record<string, unknown> = {};
const note = (name: string, value: unknown) => void (record[name] = JSON.parse(normalise(JSON.stringify(value))));

const api = async (name: string, path: string, init: Parameters<typeof call>[1] = {}) => {
  const response = await call(`${base}${path}`, { token, ...init });
  note(name, { status: response.status, body: response.body });
  return response;
};
const page = async (name: string, url: string, form?: Record<string, string>) => {
  const response = await fetch(
    url,
    form ? { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() } : {},
  );
  note(name, { status: response.status, content_type: response.headers.get('content-type'), html: await response.text() });
};

/** The strings a PDF shows, in order (its text operators). */
const pdfText = (pdf: Buffer) => [...pdf.toString('latin1').matchAll(/\((.*?)\) ?Tj/g)].map((m) => m[1]);

const mails = (address: string) => {
  const dir = stack.info.mailbox_dir;
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .filter((m) => m.includes(`To: ${address}\n`))
    .map((m) => m.replace(/^(Message-ID|Date): .*$/gm, '$1: <varies>'))
    .sort();
};

const linkIn = (mail: string, kind: string) => new RegExp(`(http://\\S+/${kind}/[A-Za-z0-9_-]+)`).exec(mail)![1]!;

const backdate = async (key: { pk: string; sk: string }, field: string, iso: string, extra: Record<string, string> = {}) => {
  const deps = depsFromEnv();
  const sets = Object.keys(extra)
    .map((k, i) => `, ${k} = :x${i}`)
    .join('');
  await deps.db.send(
    new UpdateCommand({
      TableName: deps.table,
      Key: key,
      UpdateExpression: `SET ${field} = :at${sets}`,
      ExpressionAttributeValues: { ':at': iso, ...Object.fromEntries(Object.values(extra).map((v, i) => [`:x${i}`, v])) },
    }),
  );
};

const REFEREE_A = {
  referee_name: 'Grace Holt',
  referee_email: 'grace.holt@nhs.example',
  referee_organisation: 'St Thomas Hospital',
  referee_position: 'Ward Manager',
  referee_phone: '+44 7700 900200',
  relationship_to_candidate: 'Line manager',
};
const REFEREE_B = { referee_name: 'Omar Reid', referee_email: 'omar.reid@nhs.example', referee_organisation: "Guy's Hospital", referee_position: 'Matron' };
const REFEREE_C = {
  referee_name: 'Lena Park',
  referee_email: 'lena.park@nhs.example',
  referee_organisation: 'Kings College Hospital',
  referee_position: 'Sister',
};
const RATINGS = {
  q_clinical_competence: '5',
  q_reliability: '4',
  q_communication: '4',
  q_teamwork: '3',
  q_safeguarding: 'None that I know of',
  q_reemploy: 'Yes',
};

it('answers, renders, e-mails and announces reference requests exactly as recorded', async () => {
  const hooks = await api('subscribe', '/webhooks', {
    body: {
      name: 'Golden',
      url: receiver.url,
      events: [
        'reference_request.created',
        'reference.completed',
        'reference.declined',
        'reference_request.completed',
        'reference_request.cancelled',
        'reference_request.expired',
      ],
    },
  });
  expect(hooks.status).toBe(201);

  // Client adds two referees; one is reminded, one completes, one declines.
  const created = await api('create client_adds', '/reference-requests', {
    body: {
      candidate_id: 1,
      collection_mode: 'client_adds',
      references_required: 1,
      template_id: 1,
      expiry_days: 14,
      notes: 'Ward 7',
      referees: [REFEREE_A, REFEREE_B],
    },
  });
  expect(created.status).toBe(201);
  const a = created.body.data;
  await api('get', `/reference-requests/${a.id}`);
  await api('list by candidate', '/reference-requests?candidate_id=1&limit=5');
  await api('list by status', '/reference-requests?status=pending&limit=5');

  await api('reminders too soon', `/reference-requests/${a.id}/reminders`, { method: 'POST' });
  const [refA, refB] = a.references;
  await backdate(referenceKeys.reference('demo-northwind', a.id, refA.id), 'sent_at', new Date(Date.now() - 25 * 3600_000).toISOString());
  await api('reminders', `/reference-requests/${a.id}/reminders`, { method: 'POST' });

  const formA = linkIn((await mailTo(stack, REFEREE_A.referee_email))[0]!, 'reference-form');
  const formB = linkIn((await mailTo(stack, REFEREE_B.referee_email))[0]!, 'reference-form');
  await page('form page', formA);
  await api('get after opening', `/reference-requests/${a.id}`);
  await page('form invalid', formA, { action: 'submit', q_clinical_competence: '9' });
  await page('form decline', formB, { action: 'decline', reason: 'I never worked with this person' });
  await page('form submit', formA, { action: 'submit', ...RATINGS });
  await page('form again', formA, { action: 'submit', ...RATINGS });
  await page('form declined page', formB);
  await api('get completed', `/reference-requests/${a.id}`);
  await api('reference', `/references/${refA.id}`);
  await api('reference declined', `/references/${refB.id}`);
  await api('pdf not ready', `/references/${refB.id}/pdf`);
  const pdf = await fetch(`${base}/references/${refA.id}/pdf`, { headers: { authorization: `Bearer ${token}` } });
  note('pdf', {
    status: pdf.status,
    content_type: pdf.headers.get('content-type'),
    disposition: pdf.headers.get('content-disposition'),
    text: pdfText(Buffer.from(await pdf.arrayBuffer())),
  });

  // The candidate names a referee on their page; then the agency cancels.
  const candidate = await api('candidate', '/candidates', { body: { first_name: 'Kate', last_name: 'Marsden', email: 'kate.marsden@example.org' } });
  const b = (
    await api('create candidate_provides', '/reference-requests', {
      body: { candidate_id: candidate.body.data.id, collection_mode: 'candidate_provides', references_required: 1, template_id: 1 },
    })
  ).body.data;
  const submit = linkIn((await mailTo(stack, 'kate.marsden@example.org'))[0]!, 'reference-submit');
  await page('submit page', submit);
  await page('submit invalid', submit, { r0_referee_name: 'Dr Who', r0_referee_email: 'not-an-email' });
  await page('submit self', submit, {
    r0_referee_name: 'Kate',
    r0_referee_email: 'kate.marsden@example.org',
    r0_referee_organisation: 'Self',
    r0_referee_position: 'Self',
  });
  const c = REFEREE_C;
  await page('submit', submit, {
    r0_referee_name: c.referee_name,
    r0_referee_email: c.referee_email,
    r0_referee_organisation: c.referee_organisation,
    r0_referee_position: c.referee_position,
  });
  await api('add referee', `/reference-requests/${b.id}/referees`, {
    body: { referee_name: 'Sam Fox', referee_email: 'sam.fox@nhs.example', referee_organisation: 'Barts', referee_position: 'Nurse' },
  });
  await api('cancel', `/reference-requests/${b.id}/cancel`, { method: 'POST' });
  await api('cancel again', `/reference-requests/${b.id}/cancel`, { method: 'POST' });
  await page('form after cancel', linkIn((await mailTo(stack, c.referee_email))[0]!, 'reference-form'));
  await api('reminders closed', `/reference-requests/${b.id}/reminders`, { method: 'POST' });

  // A third request runs out of time: the sweep expires it.
  const d = (
    await api('create to expire', '/reference-requests', {
      body: {
        candidate_id: 2,
        collection_mode: 'client_adds',
        template_id: 1,
        expiry_days: 1,
        referees: [{ ...REFEREE_A, referee_email: 'grace.holt2@nhs.example' }],
      },
    })
  ).body.data;
  const due = new Date(Date.now() - 1000).toISOString();
  await backdate(referenceKeys.request('demo-northwind', d.id), 'expires_at', due, { gsi1sk: referenceKeys.open(due, 'demo-northwind', d.id).gsi1sk });
  await eventually(async () => (await call(`${base}/reference-requests/${d.id}`, { token })).body.data.references[0].status === 'expired', {
    timeoutMs: 15_000,
    what: 'the sweep',
  });
  await api('get expired', `/reference-requests/${d.id}`);
  await api('validation', '/reference-requests', {
    body: {
      candidate_id: 1,
      collection_mode: 'client_adds',
      template_id: 1,
      referees: [{ ...REFEREE_A, referee_email: 'ada.nightingale@example.org' }],
      references_required: 11,
    },
  });
  await api('not found', '/reference-requests/999999');

  // Events: created ×3, declined, completed (reference and request), cancelled, expired.
  const events = await receiver.waitFor(8);
  await new Promise((r) => setTimeout(r, 1500)); // nothing further may arrive (an extra event is a change too)
  note(
    'events',
    events.map((e) => JSON.parse(e.body)).sort((x, y) => (JSON.stringify(x) < JSON.stringify(y) ? -1 : 1)),
  );
  await Promise.all([mailTo(stack, REFEREE_A.referee_email, 2), mailTo(stack, 'sam.fox@nhs.example')]);
  note(
    'e-mails',
    Object.fromEntries(
      [REFEREE_A.referee_email, REFEREE_B.referee_email, c.referee_email, 'kate.marsden@example.org', 'sam.fox@nhs.example'].map((to) => [to, mails(to)]),
    ),
  );

  const actual = JSON.stringify(record, null, 2) + '\n';
  if (process.env.UPDATE_GOLDEN === '1' || !existsSync(GOLDEN)) {
    mkdirSync(dirname(GOLDEN), { recursive: true });
    writeFileSync(GOLDEN, actual);
  }
  expect(actual).toBe(readFileSync(GOLDEN, 'utf8'));
});
