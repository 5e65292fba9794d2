import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../../lib/local/emulators.js';
import type { LocalStack } from '../../lib/local/stack.js';
import { PROJECT_ROOT } from '../../lib/routes.js';
import { eventually } from '../support/eventually.js';
import { startTestStack } from '../support/local-stack.js';
import { invocationsOf, readmeSession, RECORDING_PRELUDE } from '../support/readme-session.js';

/**
 * A newcomer pastes the README's session into one terminal, top to bottom:
 * every request answers as the README says (2xx unless its comment names the
 * status), every operator command exits 0 unless its comment says "exit N",
 * and the webhook receiver it starts verifies the signature of what arrives.
 */

let stack: LocalStack;
beforeAll(async () => {
  // With the request groups' demo requests, which it uses.
  stack = await startTestStack({}, { demoRequests: true });
}, 60_000);
afterAll(() => stack?.stop());

it('every sh block of the README is in the session or says why not', () => {
  const { script, unmarked } = readmeSession();
  expect(unmarked).toEqual([]);
  expect(script).toContain('/auth/token');
  expect(script).toContain('npm run ops');
});

it('the README session runs as written, in order, against a fresh stack', async () => {
  const { script } = readmeSession();
  const receiverPort = String(await freePort());
  const session = script
    .replaceAll('http://127.0.0.1:3000', stack.info.base_url)
    .replaceAll('127.0.0.1:4000', `127.0.0.1:${receiverPort}`)
    .replaceAll('--port 4000', `--port ${receiverPort}`);
  const expected = invocationsOf(session);
  const work = mkdtempSync(join(tmpdir(), 'readme-'));
  const calls = mkdtempSync(join(tmpdir(), 'readme-calls-'));

  // Its own process group, so the receiver it leaves in the background ends with it.
  const shell = spawn('bash', ['-c', RECORDING_PRELUDE + session], {
    cwd: work,
    detached: true,
    env: { ...process.env, PROJECT_ROOT, CALLS: calls, DATA_DIR: dirname(stack.info.mailbox_dir), LOG_LEVEL: 'silent' },
  });
  let output = '';
  shell.stdout.on('data', (c) => (output += c));
  shell.stderr.on('data', (c) => (output += c));
  try {
    await new Promise<void>((resolve, reject) => {
      shell.on('error', reject);
      shell.on('exit', () => resolve());
    });

    const recorded = readdirSync(calls)
      .filter((f) => f.endsWith('.cmd'))
      .sort()
      .map((f) => {
        const base = join(calls, f.slice(0, -4));
        const kind = readFileSync(`${base}.cmd`, 'utf8').trim();
        if (kind === 'curl') {
          const statuses = existsSync(`${base}.head`)
            ? [...readFileSync(`${base}.head`, 'utf8').matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]))
            : [];
          return { kind, result: statuses.at(-1) };
        }
        return { kind, result: existsSync(`${base}.exit`) ? Number(readFileSync(`${base}.exit`, 'utf8')) : undefined };
      });

    const outcome = (i: number) => {
      const want = expected[i]!;
      const got = recorded[i];
      const ok =
        got?.kind === want.kind &&
        (want.expect === 'background' ||
          (want.expect === undefined ? (want.kind === 'curl' ? got.result !== undefined && got.result < 400 : got.result === 0) : got.result === want.expect));
      return { line: want.line, expected: want.expect ?? (want.kind === 'curl' ? '< 400' : 'exit 0'), got: got?.result, ok };
    };
    const failures = expected.map((_, i) => outcome(i)).filter((o) => !o.ok);
    if (failures.length) console.log(output);
    expect(failures).toEqual([]);
    expect(recorded).toHaveLength(expected.length);
    // What it downloads goes to the data directory: nothing lands where the reader pastes it (the repository).
    expect(readdirSync(work)).toEqual([]);

    // The receiver the README starts got the test event, and its signature verified with the secret the API gave.
    await eventually(() => /webhook\.test webhook-id=evt_\S+: signature verified ✔/.test(output), {
      timeoutMs: 30_000,
      what: 'the receiver to verify a webhook.test delivery',
    });
    expect(output).not.toMatch(/does NOT verify/);
    // The refused top-up named the client, and wrote nothing.
    expect(output).toContain('No client cl_nobody');
  } finally {
    try {
      process.kill(-shell.pid!, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
}, 300_000);
