import type { LocalStack } from '../../lib/local/stack.js';
import { rowBody } from '../../functions/core/registration-monitoring/import-rows.js';
import { eventually } from '../support/eventually.js';
import { call, DEMO_CREDENTIALS, startTestStack, type JsonResponse } from '../support/local-stack.js';

/**
 * CSV imports over HTTP: 10,000
 * rows with bad ones at known lines give errors equal to what POST /workers
 * answers for the same data; 5 MiB is taken and one byte more is 413; a real
 * import commits row by row and a second upload of it changes nothing.
 */

let stack: LocalStack;
let base: string;
let token: string;

beforeAll(async () => {
  stack = await startTestStack();
  base = stack.info.families['registration-monitoring']!;
  token = (await call(`${base}/auth/token`, { body: DEMO_CREDENTIALS.northwind })).body.access_token;
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const HEADER = ['First_Name', 'last_name', 'REGISTER', 'registration_number', 'external_ref', 'email', 'frequency'];
type Cells = Record<string, string>;
const csv = (rows: Cells[]) => [HEADER.join(','), ...rows.map((r) => HEADER.map((h) => r[h.toLowerCase()] ?? '').join(','))].join('\r\n') + '\r\n';
const upload = (body: string | Buffer, query = '', type = 'text/csv') =>
  fetch(`${base}/imports${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': type }, body }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as JsonResponse['body'],
  }));

/** The import once its job has closed (these have failed rows). */
const finished = (id: number) =>
  eventually(
    async () => {
      const polled = (await call(`${base}/imports/${id}`, { token })).body;
      return polled.status === 'completed_with_errors' && polled;
    },
    { timeoutMs: 30_000, what: `import ${id} to finish` },
  );

/** Every error of an import, page after page. */
async function allErrors(id: number) {
  const errors = [];
  let cursor: string | null = null;
  do {
    const page: { body: { errors: { data: unknown[]; next_cursor: string | null } } } = await call(
      `${base}/imports/${id}${cursor ? `?errors_cursor=${encodeURIComponent(cursor)}` : ''}`,
      { token },
    );
    errors.push(...page.body.errors.data);
    cursor = page.body.errors.next_cursor;
  } while (cursor);
  return errors as { row: number; column: string; value: string | null; code: string; detail: string; pointer: string }[];
}

const good = (k: number, prefix = 'K'): Cells => ({
  first_name: 'Ada',
  last_name: `Row${k}`,
  register: 'nmc',
  registration_number: `12${prefix}${String(k).padStart(4, '0')}Z`,
  external_ref: `IMP-${prefix}-${k}`,
  email: `row${k}@example.org`,
  frequency: 'weekly',
});
/** One bad field per kind; the rows at k % 100 === 7 take them in turn. */
const BAD: ((c: Cells) => Cells)[] = [
  (c) => ({ ...c, registration_number: '12K12' }),
  (c) => ({ ...c, last_name: '' }),
  (c) => ({ ...c, email: 'not-an-address' }),
  (c) => ({ ...c, register: 'xyz' }),
  (c) => ({ ...c, frequency: 'hourly' }),
];

it('10,000 rows, 1 % bad at known lines: each error has the row, column, code, pointer and detail POST /workers answers for the same data', async () => {
  const rows = Array.from({ length: 10_000 }, (_, k) => (k % 100 === 7 ? BAD[Math.floor(k / 100) % BAD.length]!(good(k)) : good(k)));
  // A repeated worker at the end: duplicate-in-file, pointing at its first line.
  rows[9_999] = { ...good(3), last_name: 'Again' };
  const file = csv(rows);
  expect(Buffer.byteLength(file)).toBeLessThan(5 * 1024 * 1024);
  const started = await upload(file, '?dry_run=true');
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ status: 'validated', dry_run: true, counts: { rows_total: 10_000, created: 9_899, failed: 101 }, warnings: [] });
  const errors = await allErrors(started.body.id);
  const lineOf = (k: number) => k + 2; // the header is line 1
  const badRows = rows.map((_, k) => k).filter((k) => k % 100 === 7);
  expect(errors.map((e) => e.row)).toEqual([...badRows.map(lineOf), lineOf(9_999)]);
  expect(errors.at(-1)).toEqual({
    row: lineOf(9_999),
    column: 'external_ref',
    value: 'IMP-K-3',
    code: 'duplicate-in-file',
    detail: `The same worker as line ${lineOf(3)}`,
    pointer: '/external_ref',
  });

  // What POST /workers says for the same data, kind by kind.
  for (const k of badRows.slice(0, BAD.length)) {
    const answer = await call(`${base}/workers`, { token, body: rowBody(rows[k]!) });
    expect(answer.status).toBe(422);
    const error = errors.find((e) => e.row === lineOf(k))!;
    expect({ code: error.code, pointer: error.pointer, detail: error.detail }).toEqual({
      code: answer.body.type.replace('/problems/', ''),
      pointer: answer.body.errors[0].pointer,
      detail: answer.body.errors[0].detail,
    });
    expect(error.column).toBe(
      {
        '/registration/number': 'registration_number',
        '/last_name': 'last_name',
        '/email': 'email',
        '/registration/register': 'register',
        '/monitoring/frequency': 'frequency',
      }[error.pointer],
    );
  }
  // The dry run wrote no worker.
  expect((await call(`${base}/workers?external_ref=IMP-K-0`, { token })).body.data).toEqual([]);
}, 120_000);

it('5 MiB is taken, one byte more is 413; a file without a required column or of another type is refused', async () => {
  const head = 'first_name,last_name,register,registration_number,notes\r\nAda,Lovelace,nmc,12K0001Z,';
  const exact = head + 'x'.repeat(5 * 1024 * 1024 - Buffer.byteLength(head) - 2) + '\r\n';
  expect(Buffer.byteLength(exact)).toBe(5 * 1024 * 1024);
  const taken = await upload(exact, '?dry_run=true');
  expect(taken.status).toBe(202);
  expect(taken.body.warnings).toEqual(['Column "notes" is not imported']);
  const over = await upload(`${exact}x`, '?dry_run=true');
  expect([over.status, over.body.type]).toEqual([413, '/problems/payload-too-large']);
  const noColumn = await upload('first_name,last_name,register\r\nAda,Lovelace,nmc\r\n');
  expect([noColumn.status, noColumn.body.type]).toEqual([422, '/problems/import-invalid-file']);
  expect((await upload('{"a":1}', '', 'application/json')).status).toBe(415);
  expect((await upload(Buffer.from([0x66, 0x69, 0xff, 0xfe]), '')).body.type).toBe('/problems/import-invalid-file');
});

it('an import commits row by row from the queue (multipart), then the same file again changes nothing', async () => {
  const rows = [...Array.from({ length: 6 }, (_, k) => good(k, 'M')), BAD[0]!(good(6, 'M')), BAD[2]!(good(7, 'M'))];
  const form = new FormData();
  form.append('file', new Blob([csv(rows)], { type: 'text/csv' }), 'team-a.csv');
  const started = await fetch(`${base}/imports`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }).then(async (r) => ({
    status: r.status,
    body: (await r.json()) as JsonResponse['body'],
  }));
  expect(started.status).toBe(202);
  expect(started.body).toMatchObject({ status: 'queued', dry_run: false, mode: 'upsert', file: { name: 'team-a.csv' }, counts: { rows_total: 8, failed: 2 } });
  const done = await finished(started.body.id);
  expect(done.counts).toEqual({ rows_total: 8, created: 6, updated: 0, unchanged: 0, failed: 2 });
  expect(done.errors.data.map((e: { row: number }) => e.row)).toEqual([8, 9]);
  expect((await call(`${base}/workers?external_ref=IMP-M-5`, { token })).body.data[0]).toMatchObject({
    last_name: 'Row5',
    monitoring: { frequency: 'weekly' },
  });
  const again = await upload(csv(rows));
  const second = await finished(again.body.id);
  expect(second.counts).toEqual({ rows_total: 8, created: 0, updated: 0, unchanged: 6, failed: 2 });
  const listed = (await call(`${base}/imports?limit=2`, { token })).body.data.map((i: { id: number }) => i.id);
  expect(listed).toEqual([again.body.id, started.body.id]);
}, 90_000);

it("an upload's file name is checked like any name: over 255 characters, a path or a hostile character is 422 at the field and nothing is stored", async () => {
  const file = csv([good(0, 'N')]);
  const multipart = (name: string, query = '?dry_run=true') => {
    const form = new FormData();
    form.append('file', new Blob([file], { type: 'text/csv' }), name);
    return fetch(`${base}/imports${query}`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form }).then(async (r) => ({
      status: r.status,
      body: (await r.json()) as JsonResponse['body'],
    }));
  };
  const importsBefore = (await call(`${base}/imports?limit=100`, { token })).body.data.length;
  for (const name of [
    `${'a'.repeat(252)}.csv!`,
    `${'x'.repeat(5000)}.csv`,
    '../../etc/passwd.csv',
    'C:\\Users\\ann\\team.csv',
    'team<script>.csv',
    'team\u200B.csv',
  ]) {
    const refused = await multipart(name);
    expect([name.slice(0, 20), refused.status]).toEqual([name.slice(0, 20), 422]);
    expect(refused.body).toMatchObject({ type: '/problems/validation', errors: [{ pointer: '/file/filename', detail: expect.any(String) }] });
  }
  for (const name of ['a/b.csv', 'x'.repeat(256)]) {
    const refused = await upload(file, `?dry_run=true&name=${encodeURIComponent(name)}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([{ parameter: 'name', detail: expect.any(String) }]);
  }
  expect((await call(`${base}/imports?limit=100`, { token })).body.data).toHaveLength(importsBefore);
  // 255 characters, spaces, accents and brackets are a name.
  const longest = `${'é'.repeat(247)} (1).csv`;
  expect(longest).toHaveLength(255);
  const taken = await multipart(longest);
  expect(taken.status).toBe(202);
  expect(taken.body.file.name).toBe(longest);
}, 60_000);
