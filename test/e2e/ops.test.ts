import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '../../functions/core/access/clients.js';
import { createBooking, getBookingItem } from '../../functions/core/clinical-interview/booking-api.js';
import { ledgerForMonth } from '../../functions/core/commerce/ledger.js';
import { availableSlots } from '../../functions/core/clinical-interview/slots.js';
import { createHold } from '../../functions/core/clinical-interview/holds.js';
import { createReferenceRequest } from '../../functions/core/portal-v2/reference-requests.js';
import { depsFromEnv, type Deps } from '../../functions/core/platform/deps.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { candidate, startedBooking } from '../support/clinical.js';
import { links } from '../support/kit.js';
import { call, DEMO_CREDENTIALS, startTestStack } from '../support/local-stack.js';
import { ops } from '../support/ops.js';

/** The operator CLI as an operator meets it: mistakes are one line and exit 2, output speaks the API's snake_case. */

let stack: LocalStack;
let deps: Deps;
const CLIENT = 'demo-riverside';
const ci = () => stack.info.families['clinical-interview']!;
beforeAll(async () => {
  stack = await startTestStack();
  deps = depsFromEnv();
}, 60_000);
afterAll(() => stack?.stop());

const oneLineError = (result: { status: number | null; stderr: string }, pattern: RegExp) => {
  const lines = result.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'));
  expect({ status: result.status, lines }).toEqual({ status: 2, lines: [expect.stringMatching(pattern)] });
};

/** Every key of every object in the output, at any depth. */
const keysOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.flatMap(keysOf) : value && typeof value === 'object' ? Object.entries(value).flatMap(([k, v]) => [k, ...keysOf(v)]) : [];

async function futureBooking() {
  const [slot] = await availableSlots(deps, {
    interviewTypeId: 1,
    from: new Date().toISOString().slice(0, 10),
    to: new Date(Date.now() + 13 * 86_400_000).toISOString().slice(0, 10),
  });
  const hold = await createHold(deps, CLIENT, { interviewTypeId: 1, date: slot!.date, time: slot!.time });
  return createBooking(deps, CLIENT, { ...candidate, hold_hash: hold.hold_hash, pay_option: 'credits' }, links);
}

it('unknown options, options of another command, missing and broken files are one-line errors with exit 2', async () => {
  const broken = join(mkdtempSync(join(tmpdir(), 'ops-')), 'broken.json');
  writeFileSync(broken, '{"name": ');
  const [unknown, foreign, missingTemplate, brokenTemplate, missingReport, badStatus] = await Promise.all([
    ops(stack, 'clients', 'list', '--nope'),
    ops(stack, 'clinical-interview', 'credits', 'topup', '--client-id', CLIENT, '--type-id', '1', '--credits', '2', '--pence', '5'),
    ops(stack, 'portal-v2', 'templates', 'create', '--file', '/no/such/template.json'),
    ops(stack, 'portal-v2', 'templates', 'create', '--file', broken),
    ops(stack, 'clinical-interview', 'bookings', 'attach-report', '--id', '1', '--file', '/no/such/report.pdf'),
    ops(stack, 'clinical-interview', 'bookings', 'list', '--status', 'lost'),
  ]);
  oneLineError(unknown, /^Unknown option '--nope'/);
  oneLineError(foreign, /^clinical-interview credits topup does not take --pence/);
  oneLineError(missingTemplate, /^--file \/no\/such\/template\.json: no such file$/);
  oneLineError(brokenTemplate, /is not JSON/);
  oneLineError(missingReport, /^--file \/no\/such\/report\.pdf: no such file$/);
  oneLineError(badStatus, /^--status is one of booked, pending_payment, cancelled$/);
}, 60_000);

it('answers --help at each level, names what is allowed for a wrong word, and runs an old name once more with a notice', async () => {
  const [top, family, wrong, missing, old, now] = await Promise.all([
    ops(stack, '--help'),
    ops(stack, 'practical-training', '--help'),
    ops(stack, 'vls-bookings', 'list'),
    ops(stack, 'virtual-life-support', 'equipment'),
    ops(stack, 'types', 'list'),
    ops(stack, 'clinical-interview', 'types', 'list'),
  ]);
  expect([top.status, top.stdout]).toEqual([
    0,
    expect.stringMatching(/^ {2}registration-monitoring +Registration assurance monitoring API: account, evidence, checks, usage, register$/m),
  ]);
  expect([family.status, family.stdout]).toEqual([0, expect.stringMatching(/^ {2}bookings cancel +cancel as the operator/m)]);
  oneLineError(wrong, /^"vls-bookings" is not a family or shared resource: clinical-interview, .*\(see npm run ops -- --help\)$/);
  oneLineError(missing, /^virtual-life-support equipment needs an action: dispatch, delivered, return-shipped, returned, sweep /);
  expect({ status: old.status, stdout: JSON.parse(old.stdout) }).toEqual({ status: 0, stdout: JSON.parse(now.stdout) });
  expect(old.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'))).toEqual([
    'renamed: use npm run ops -- clinical-interview types list (the old name goes in a later release)',
  ]);
}, 60_000);

it('top-ups refuse a client that does not exist, and write no ledger entry for it', async () => {
  const [credits, money, real] = await Promise.all([
    ops(stack, 'clinical-interview', 'credits', 'topup', '--client-id', 'nope', '--type-id', '1', '--credits', '5'),
    ops(stack, 'clinical-interview', 'money', 'topup', '--client-id', 'nope', '--pence', '500'),
    ops(stack, 'clinical-interview', 'money', 'topup', '--client-id', CLIENT, '--pence', '500'),
  ]);
  oneLineError(credits, /^No client nope$/);
  oneLineError(money, /^No client nope$/);
  expect(real.status).toBe(0);
  expect(JSON.parse(real.stdout)).toEqual({ client_id: CLIENT, money: { amount: expect.any(Number), currency: 'GBP' } });
  const month = await ledgerForMonth(deps, new Date().toISOString().slice(0, 7));
  expect(month.filter((e) => e.client_id === 'nope')).toEqual([]);
  expect(month.some((e) => e.client_id === CLIENT && e.kind === 'money_topup' && e.amount === 500)).toBe(true);
}, 60_000);

it("lists and shows bookings and reference requests in the API's snake_case", async () => {
  const booking = await futureBooking();
  const request = await createReferenceRequest(
    deps,
    CLIENT,
    {
      candidate_id: 3,
      collection_mode: 'client_adds',
      references_required: 1,
      template_id: 1,
      expiry_days: 14,
      referees: [{ referee_name: 'Dr Jane Smith', referee_email: 'jane@nhs.example', referee_organisation: 'St Thomas', referee_position: 'Ward Manager' }],
    },
    stack.info.families['portal-v2']!,
  );
  const results = await Promise.all([
    ops(stack, 'clinical-interview', 'bookings', 'list', '--client-id', CLIENT, '--status', 'booked'),
    ops(stack, 'clinical-interview', 'bookings', 'show', '--id', String(booking.id)),
    ops(stack, 'portal-v2', 'references', 'list', '--client-id', CLIENT),
    ops(stack, 'portal-v2', 'references', 'show', '--id', String(request.id)),
    ops(stack, 'clinical-interview', 'types', 'list'),
    ops(stack, 'clinical-interview', 'interviewers', 'list'),
    ops(stack, 'clients', 'list'),
  ]);
  expect(results.map((r) => r.status)).toEqual(results.map(() => 0));
  const [list, show, refList, refShow, types, interviewers, clients] = results.map((r) => JSON.parse(r.stdout));
  expect(list.map((b: { id: number }) => b.id)).toContain(booking.id);
  expect(show).toMatchObject({ id: booking.id, client_id: CLIENT, booking_status: 'booked', interview_status: 'scheduled', start_date: booking.start_date });
  expect(refList.map((r: { id: number }) => r.id)).toContain(request.id);
  expect(refShow).toMatchObject({ id: request.id, client_id: CLIENT, status: 'pending', references: [{ referee_name: 'Dr Jane Smith' }] });
  expect(types[0]).toEqual({ id: 1, name: expect.any(String), duration_minutes: 45, price: { amount: 4500, currency: 'GBP' }, active: true });
  expect(interviewers[0].availability[0]).toEqual({ interview_type: { id: 1, name: expect.any(String) }, day: 'mon', start: '09:00', end: '12:45' });
  expect(clients.map((c: { client_id: string }) => c.client_id)).toContain(CLIENT);
  for (const output of [list, show, refList, refShow, types, interviewers, clients]) {
    expect(keysOf(output).filter((k) => !/^[a-z0-9_]+$/.test(k))).toEqual([]);
  }
}, 90_000);

it('reschedule to the date and time it already has changes nothing', async () => {
  const booking = await futureBooking();
  const before = await getBookingItem(deps, CLIENT, booking.id);
  const result = await ops(stack, 'clinical-interview', 'bookings', 'reschedule', '--id', String(booking.id), '--date', before!.date, '--time', before!.time);
  expect(result.status).toBe(0);
  expect(result.stderr).toContain('nothing changed');
  expect(JSON.parse(result.stdout)).toMatchObject({ id: booking.id, start_date: booking.start_date, interviewer: booking.interviewer });
  expect(await getBookingItem(deps, CLIENT, booking.id)).toEqual(before);
}, 60_000);

it('attendance and completion wait until the interview has started; then the report can be attached', async () => {
  const future = await futureBooking();
  const started = await startedBooking(deps, CLIENT, 1);
  const report = join(mkdtempSync(join(tmpdir(), 'ops-')), 'report.pdf');
  writeFileSync(report, '%PDF-1.4\n%%EOF\n');
  const [attendance, complete, startedAttendance] = await Promise.all([
    ops(stack, 'clinical-interview', 'bookings', 'attendance', '--id', String(future.id), '--status', 'attended'),
    ops(stack, 'clinical-interview', 'bookings', 'complete', '--id', String(future.id)),
    ops(stack, 'clinical-interview', 'bookings', 'attendance', '--id', String(started.id), '--status', 'no_show'),
  ]);
  oneLineError(attendance, new RegExp(`^Booking ${future.id} starts .*: attendance can be marked once the interview has started$`));
  oneLineError(complete, /once the interview has started$/);
  expect(await getBookingItem(deps, CLIENT, future.id)).toMatchObject({ attendance: 'pending', interview_status: 'scheduled' });

  expect(startedAttendance.status).toBe(0);
  expect(JSON.parse(startedAttendance.stdout)).toMatchObject({ id: started.id, attendance: 'no_show' });
  const completed = await ops(stack, 'clinical-interview', 'bookings', 'complete', '--id', String(started.id));
  expect(JSON.parse(completed.stdout)).toMatchObject({ interview_status: 'completed', attendance: 'no_show' });
  const attached = await ops(stack, 'clinical-interview', 'bookings', 'attach-report', '--id', String(started.id), '--file', report);
  expect(attached.status).toBe(0);
  expect(JSON.parse(attached.stdout)).toMatchObject({ interview_report_available: true });
  // The agency downloads what the operator attached.
  const token = (await call(`${ci()}/auth/token`, { body: DEMO_CREDENTIALS.riverside })).body.access_token;
  const download = await fetch(`${ci()}/bookings/${started.id}/interview-report`, { headers: { authorization: `Bearer ${token}` } });
  expect(download.headers.get('content-type')).toBe('application/pdf');
  expect(Buffer.from(await download.arrayBuffer()).toString()).toBe('%PDF-1.4\n%%EOF\n');
}, 90_000);

it('gives a client without monitoring its team (create, add-user, users, disable-user), whose users then act in portal v2 by their role', async () => {
  const { client, clientSecret } = await createClient(deps, { name: `Portal Only ${Date.now()}` });
  const id = client.clientId;
  const team = async (...args: string[]) => {
    const result = await ops(stack, 'team', ...args, '--client-id', id);
    expect([args[0], result.status, result.stderr.split('\n').filter((l) => l.trim() && !l.startsWith('npm warn'))]).toEqual([args[0], 0, []]);
    return JSON.parse(result.stdout);
  };
  oneLineError(await ops(stack, 'team', 'add-user', '--client-id', id, '--name', 'Early', '--email', 'early@po.example', '--role', 'viewer'), /team create/);
  const owner = await team('create', '--owner-name', 'Pat Owner', '--owner-email', 'Pat@PO.example');
  expect(owner).toMatchObject({ role_id: 'owner', status: 'active', email: 'pat@po.example', alert_min_severity: 'high' });
  expect((await team('create', '--owner-name', 'Someone', '--owner-email', 'someone@po.example')).id).toBe(owner.id);
  const reviewer = await team('add-user', '--name', 'Rae Review', '--email', 'rae@po.example', '--role', 'compliance_manager');
  const viewer = await team('add-user', '--name', 'Val View', '--email', 'val@po.example', '--role', 'viewer');
  expect((await team('users')).map((u: { role_id: string }) => u.role_id)).toEqual(['owner', 'compliance_manager', 'viewer']);

  // Portal v2: an accept needs requests:review (checked before the item's state: the reviewer gets the 409).
  const v2 = stack.info.families['portal-v2']!;
  const token = (await call(`${v2}/auth/token`, { body: { client_id: id, client_secret: clientSecret } })).body.access_token;
  const who = (await call(`${v2}/candidates`, { token, body: { first_name: 'Ida', last_name: 'Moss', email: `ida.${Date.now()}@example.org` } })).body.data;
  const request = (await call(`${v2}/training-requests`, { token, body: { candidate_id: who.id, subjects: ['fire_safety'] } })).body.data;
  const accept = (user: number) =>
    call(`${v2}/training-requests/${request.id}/items/${request.items[0].id}/accept`, { method: 'POST', token, headers: { 'acting-user': String(user) } });
  expect((await accept(viewer.id)).status).toBe(403);
  expect((await accept(reviewer.id)).status).toBe(409);
  expect((await team('disable-user', '--user-id', String(reviewer.id))).status).toBe('disabled');
  expect((await accept(reviewer.id)).status).toBe(403);
}, 60_000);
