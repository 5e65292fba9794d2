import { spawn, type ChildProcess } from 'node:child_process';
import { LEDGER_CSV_COLUMNS } from '../../lib/ops/clients.js';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../lib/local/emulators.js';
import { PROJECT_ROOT } from '../../lib/routes.js';
import { eventually } from '../support/eventually.js';
import { call } from '../support/local-stack.js';
import { startReceiver } from '../support/receiver.js';

/** The README's commands, run as a user runs them: `npm start`, `npm run ops`, Ctrl-C. */

interface Started {
  child: ChildProcess;
  output: () => string;
  info: any;
}

const children: ChildProcess[] = [];
// A failed test must not leave a stack running: its pipes would keep jest from exiting.
afterAll(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGINT');
});

async function npmStart(env: { PORT: string; DATA_DIR: string }): Promise<Started> {
  // Its own process group, so that Ctrl-C can be sent as a terminal sends it: to the whole group.
  const child = spawn('npm', ['start'], { cwd: PROJECT_ROOT, env: { ...process.env, ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const infoPath = join(env.DATA_DIR, 'local.json');
  const deadline = Date.now() + 60_000;
  // local.json is written just before the banner is printed: wait for both (a busy machine can put seconds between them).
  while (!existsSync(infoPath) || !output.includes('Ctrl-C stops everything')) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) throw new Error(`npm start did not write ${infoPath} and its banner: ${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, output: () => output, info: JSON.parse(readFileSync(infoPath, 'utf8')) };
}

/**
 * Ctrl-C, then wait for the stack's shutdown to finish: removing local.json is
 * its last step, after the server, pollers and emulators have stopped.
 */
async function ctrlC(started: Started): Promise<string> {
  const exited = new Promise<string>((resolve) => started.child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}`)));
  process.kill(-started.child.pid!, 'SIGINT');
  const how = await exited;
  const infoPath = join(started.info.mailbox_dir, '..', 'local.json');
  // Stopping waits for the emulators to exit: slow on a loaded machine, so the wait is generous.
  const stopped = await eventually(() => !existsSync(infoPath), { timeoutMs: 60_000, intervalMs: 100 }).then(
    () => true,
    () => false,
  );
  return stopped ? `${how}, stopped` : `${how}, still running`;
}

/**
 * The operator CLI. Not spawnSync: a blocked event loop misses the server
 * closing an idle keep-alive socket (after 5 s), and the next fetch reuses it
 * and fails with "other side closed".
 */
function ops(dataDir: string, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '-s', 'ops', '--', ...args], { cwd: PROJECT_ROOT, env: { ...process.env, DATA_DIR: dataDir } });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

it('npm start serves both families, keeps its data across restarts, runs beside another stack, and stops on Ctrl-C', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'npm-start-'));
  const port = String(await freePort());
  const first = await npmStart({ PORT: port, DATA_DIR: dataDir });

  // What it prints and writes: base URLs, the docs URL, demo credentials.
  expect(first.info).toMatchObject({
    base_url: `http://127.0.0.1:${port}`,
    families: {
      'clinical-interview': `http://127.0.0.1:${port}/clinical-interview`,
      'portal-v2': `http://127.0.0.1:${port}/portal/v2`,
    },
    docs_url: `http://127.0.0.1:${port}/docs`,
  });
  expect(first.info.clients).toEqual([
    { name: expect.any(String), client_id: 'demo-northwind', client_secret: expect.any(String), invoice_enabled: true },
    { name: expect.any(String), client_id: 'demo-riverside', client_secret: expect.any(String), invoice_enabled: false },
  ]);
  for (const line of [first.info.families['clinical-interview'], first.info.families['portal-v2'], first.info.docs_url, 'demo-northwind']) {
    expect(first.output()).toContain(line);
  }
  const docs = await fetch(first.info.docs_url);
  expect(docs.status).toBe(200);
  expect(await docs.text()).toContain('/clinical-interview/auth/token');

  // The operator CLI reaches the running stack and creates a client whose secret works at once.
  const created = await ops(dataDir, 'clients', 'create', '--name', 'Persisted Agency');
  expect(created.status).toBe(0);
  const credentials = JSON.parse(created.stdout);
  expect(credentials.client_secret).toMatch(/^cs_/);
  const portal = first.info.families['portal-v2'];
  expect((await call(`${portal}/auth/token`, { body: { client_id: credentials.client_id, client_secret: credentials.client_secret } })).status).toBe(200);

  // An operator completes an interview and attaches its report; the agency downloads it; finance exports the month.
  const ci = first.info.families['clinical-interview'];
  const agency = (await call(`${ci}/auth/token`, { body: { client_id: 'demo-northwind', client_secret: first.info.clients[0].client_secret } })).body
    .access_token;
  const slot = (await call(`${ci}/timeslots?interview_type_id=1`, { token: agency })).body.data[0];
  const receiver = await startReceiver();
  expect((await call(`${ci}/webhooks`, { token: agency, body: { name: 'Logs', url: receiver.url, events: ['booking.created'] } })).status).toBe(201);
  const held = (await call(`${ci}/timeslots/hold`, { token: agency, body: { interview_type_id: 1, date: slot.date, time: slot.time } })).body;
  const booked = await call(`${ci}/bookings`, {
    token: agency,
    body: {
      hold_hash: held.hold_hash,
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.org',
      phone: '+447700900123',
      job_role: 'RN',
      nmc_number: '12A3456B',
      pay_option: 'invoice',
    },
  });
  const booking = booked.body;
  // The interview has not taken place yet: the operator cannot complete it (test/e2e/ops.test.ts completes one that has).
  const early = await ops(dataDir, 'clinical-interview', 'bookings', 'complete', '--id', String(booking.id));
  expect(early.status).toBe(2);
  expect(early.stderr).toMatch(/once the interview has started/);
  const pdf = join(dataDir, 'report.pdf');
  writeFileSync(pdf, '%PDF-1.4\n% interview report\n%%EOF\n');
  const month = new Date().toISOString().slice(0, 7);
  const csv = await ops(dataDir, 'ledger', 'list', '--month', month, '--csv');
  expect(csv.status).toBe(0);
  const lines = csv.stdout.trim().split('\r\n');
  expect(lines[0]).toBe(LEDGER_CSV_COLUMNS.join(','));
  expect(lines.some((l) => l.includes(`,clinical-interview,demo-northwind,invoice,4500,GBP,,${booking.id},1,`))).toBe(true);
  expect((await ops(dataDir, 'clinical-interview', 'bookings', 'attach-report', '--id', '999999', '--file', pdf)).status).toBe(2);

  // The banner and local.json name the facades: whose tokens they take, and the deprecated one's sunset.
  expect(first.output()).toMatch(/ services +http:\/\/127\.0\.0\.1:\d+\/services +\(docs: [^)]+\)\n +clinical-interview tokens\n/);
  expect(first.output()).toMatch(
    / practical-training-legacy +http:\/\/127\.0\.0\.1:\d+\/practical-training-legacy +\(docs: [^)]+\)\n +practical-training tokens; deprecated, sunset 2027-06-30\n/,
  );
  expect(first.output()).toMatch(/ portal-v1 +http:\/\/127\.0\.0\.1:\d+\/portal\/v1 +\(docs: [^)]+\)\n +portal-v2 tokens; deprecated, sunset 2027-06-30\n/);
  expect(first.info.token_families).toEqual({ services: 'clinical-interview', 'practical-training-legacy': 'practical-training', 'portal-v1': 'portal-v2' });
  expect(first.info.deprecations['practical-training-legacy']).toEqual({
    deprecated_at: '2026-01-01T00:00:00.000Z',
    sunset_at: '2027-06-30T00:00:00.000Z',
    brownouts: [],
    successor: 'practical-training',
  });

  // The request logs went to the data directory, not to the terminal with the banner.
  const logFile = join(dataDir, 'logs', 'local.log');
  await eventually(() => readFileSync(logFile, 'utf8').includes('"route":"POST /bookings"'), { what: 'the request log in logs/local.log' });
  expect(first.output()).not.toContain('"route"');
  expect(first.output()).toContain(logFile);

  // The booking's request id follows its work: the e-mail it sent and the webhook it delivered log it too.
  await receiver.waitFor(1);
  await receiver.close();
  const requestId = booked.headers.get('x-request-id')!;
  const logLines = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l));
  const caused = (worker: string) => logLines().some((l) => l.worker === worker && l.correlation_id === requestId);
  await eventually(() => caused('email-sender') && caused('webhook-delivery'), { what: `the e-mail and webhook workers' log lines of request ${requestId}` });
  // Business metrics as EMF lines: a booking by family and pay option, a webhook attempt by lane and outcome, no client id among the dimensions.
  const metrics = (name: string) => logLines().filter((l) => l._aws?.CloudWatchMetrics?.[0]?.Metrics?.some((m: { Name: string }) => m.Name === name));
  await eventually(() => metrics('WebhookAttempts').length > 0, { what: 'the WebhookAttempts metric in the log' });
  expect(metrics('BookingsCreated')).toContainEqual(expect.objectContaining({ family: 'clinical-interview', pay_option: 'invoice', BookingsCreated: 1 }));
  for (const line of metrics('BookingsCreated')) expect(line._aws.CloudWatchMetrics[0].Dimensions[0]).toEqual(expect.arrayContaining(['family', 'pay_option']));
  expect(metrics('WebhookAttempts')).toContainEqual(
    expect.objectContaining({ family: 'clinical-interview', lane: 'fast', outcome: 'delivered', WebhookAttempts: 1 }),
  );
  expect(JSON.stringify(logLines().filter((l) => l._aws))).not.toContain('demo-northwind');

  // A second stack on the same data directory refuses, names the holder, and leaves the first one whole.
  const second = spawn('npm', ['start'], {
    cwd: PROJECT_ROOT,
    env: { ...process.env, PORT: String(await freePort()), DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let refusal = '';
  second.stderr.on('data', (c) => (refusal += c));
  second.stdout.on('data', (c) => (refusal += c));
  expect(await new Promise((resolve) => second.once('exit', resolve))).toBe(1);
  expect(refusal).toContain(`is in use by the local stack of process ${JSON.parse(readFileSync(join(dataDir, 'stack.lock'), 'utf8')).pid} (port ${port}`);
  expect(existsSync(join(dataDir, 'local.json'))).toBe(true);
  expect((await fetch(first.info.docs_url)).status).toBe(200);

  // A stack on a busy port says so at once, naming the port, and starts nothing: no emulator, no demo e-mail.
  const busyDir = mkdtempSync(join(tmpdir(), 'npm-start-busy-'));
  const busy = spawn('npm', ['start'], { cwd: PROJECT_ROOT, env: { ...process.env, PORT: port, DATA_DIR: busyDir }, stdio: ['ignore', 'pipe', 'pipe'] });
  let busyOutput = '';
  busy.stderr.on('data', (c) => (busyOutput += c));
  busy.stdout.on('data', (c) => (busyOutput += c));
  expect(await new Promise((resolve) => busy.once('exit', resolve))).toBe(1);
  expect(busyOutput).toContain(`Port ${port} is in use by another program`);
  expect(busyOutput).not.toContain('EADDRINUSE');
  expect(readdirSync(join(busyDir, 'mailbox'))).toEqual([]);
  expect(existsSync(join(busyDir, 'stack.lock'))).toBe(false);

  expect(await ctrlC(first)).toMatch(/^(SIGINT|exit 0), stopped$/);
  expect(existsSync(join(dataDir, 'stack.lock'))).toBe(false);
  expect(first.output()).toContain('SIGINT: stopping the local stack');

  // Started again on the same DATA_DIR, it finds what it left; another stack runs beside it.
  const otherDir = mkdtempSync(join(tmpdir(), 'npm-start-other-'));
  const [again, other] = await Promise.all([npmStart({ PORT: port, DATA_DIR: dataDir }), npmStart({ PORT: String(await freePort()), DATA_DIR: otherDir })]);
  try {
    const exchange = (base: string) => call(`${base}/auth/token`, { body: { client_id: credentials.client_id, client_secret: credentials.client_secret } });
    expect((await exchange(again.info.families['portal-v2'])).status).toBe(200);
    // The other stack has its own data: that client does not exist there, but its demo clients do.
    expect((await exchange(other.info.families['portal-v2'])).status).toBe(401);
    const demo = other.info.clients[0];
    expect(
      (await call(`${other.info.families['clinical-interview']}/auth/token`, { body: { client_id: demo.client_id, client_secret: demo.client_secret } }))
        .status,
    ).toBe(200);
  } finally {
    expect(await ctrlC(again)).toMatch(/stopped$/);
    expect(await ctrlC(other)).toMatch(/stopped$/);
  }
}, 420_000);

it('the operator CLI says how to start the stack when none is running', async () => {
  const result = await ops(mkdtempSync(join(tmpdir(), 'no-stack-')), 'clients', 'list');
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(/npm start/);
  expect(result.stderr).toMatch(/DATA_DIR=… is found with the same DATA_DIR/);
}, 30_000);
