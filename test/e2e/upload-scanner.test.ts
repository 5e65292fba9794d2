import { DOCUMENTS_BUCKET_ENV } from '../../functions/core/documents/kinds.js';
import { EICAR_TEST_STRING } from '../../functions/core/documents/scanner.js';
import { createObjectReader, S3ReadError } from '../../functions/core/documents/signed-get.js';
import { loadConfig } from '../../functions/core/platform/config.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { call, startTestStack } from '../support/local-stack.js';

/**
 * Uploads pass through the scanner adapter FILE_SCANNER names: the item's `scan_status` is its answer, and
 * a file it finds infected is deleted and refused, never attached. This stack
 * runs the `test` adapter, which flags the EICAR test string; the default
 * (`none`, `not_scanned`) is what the request-groups test sees.
 */

let stack: LocalStack;
let base: string;
let northwind: string;

beforeAll(async () => {
  stack = await startTestStack({ FILE_SCANNER: 'test' });
  base = stack.info.families['portal-v2']!;
  northwind = (await call(`${base}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: 'cs_demo_northwind_local_only' } })).body.access_token;
});
afterAll(async () => {
  await stack?.stop();
});

const post = (url: string, form: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
const unescape = (s: string) => s.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

/** Posts the file to the bucket with the page's upload form, as a browser would, and follows the bucket's redirect back. */
async function upload(html: string, body: Buffer) {
  const found = /<form method="post" action="([^"]+)" enctype="multipart\/form-data">([\s\S]*?)<\/form>/.exec(html);
  if (!found) throw new Error(`No upload form in the page:\n${html}`);
  const fields = Object.fromEntries(
    [...found[2]!.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [unescape(m[1]!), unescape(m[2]!)]),
  );
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([body], { type: 'application/pdf' }), 'evidence.pdf');
  const stored = await fetch(unescape(found[1]!), { method: 'POST', body: form, redirect: 'manual' });
  expect(stored.status).toBe(303);
  const back = await fetch(stored.headers.get('location')!);
  return { status: back.status, html: await back.text(), key: fields.key! };
}

const pdf = (inside: string) => Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.from(inside), Buffer.from('\n%%EOF\n')]);
const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString().slice(0, 10);

it('an upload takes its scan_status from the adapter; one it finds infected is refused, deleted and never attached', async () => {
  const email = `scan.${Date.now()}@example.org`;
  const who = (await call(`${base}/candidates`, { token: northwind, body: { first_name: 'Sam', last_name: 'Scanner', email } })).body.data;
  const created = await call(`${base}/training-requests`, { token: northwind, body: { candidate_id: who.id, subjects: ['fire_safety', 'moving_handling'] } });
  expect(created.status).toBe(201);
  const request = created.body.data;
  const page = request.submission_url as string;
  const [fire, moving] = request.items;
  const fields = async (item: number) => (await post(page, { item_id: String(item), completed_on: daysAgo(20), provider: 'Skills Academy' })).text();

  const infected = await upload(await fields(fire.id), pdf(`stream\n${EICAR_TEST_STRING}\nendstream`));
  expect(infected.status).toBe(422);
  expect(infected.html).toContain('The virus check found something harmful in the file. It was not attached; please upload another.');
  await expect(createObjectReader()(process.env[DOCUMENTS_BUCKET_ENV]!, infected.key)).rejects.toBeInstanceOf(S3ReadError);
  const refused = (await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data.items[0];
  expect(refused).toMatchObject({ id: fire.id, status: 'requested', file: null });
  expect((await call(`${base}/training-requests/${request.id}/items/${fire.id}/file`, { token: northwind })).status).toBe(404);

  const clean = await upload(await fields(moving.id), pdf('a clean certificate'));
  expect(clean.status).toBe(200);
  const attached = (await call(`${base}/training-requests/${request.id}`, { token: northwind })).body.data.items[1];
  expect(attached).toMatchObject({ id: moving.id, status: 'submitted', file: { content_type: 'application/pdf', scan_status: 'clean', purged_at: null } });
});

it('FILE_SCANNER is checked at start: an unknown adapter, or the test adapter outside the local stack, refuses to load', () => {
  const env = { TABLE_NAME: 't' };
  expect(loadConfig(env).fileScanner).toBe('none');
  expect(() => loadConfig({ ...env, FILE_SCANNER: 'clamav' })).toThrow('FILE_SCANNER must be one of none, test, got "clamav"');
  expect(() => loadConfig({ ...env, FILE_SCANNER: 'test' })).toThrow('FILE_SCANNER=test is for the local stack only');
  expect(loadConfig({ ...env, FILE_SCANNER: 'test', LOCAL_STACK: '1' }).fileScanner).toBe('test');
});
