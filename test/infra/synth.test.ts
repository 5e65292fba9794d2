import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../lib/routes.js';

/**
 * CDK synth reads the route and queue tables; it must not load the code that
 * runs in Lambda (the SDK clients, middy), which only slows synth down and
 * ties the app to runtime modules.
 */

const RUNTIME = /\/node_modules\/(@aws-sdk|@smithy|@middy)\//;

/** Runs a TypeScript entry under tsx, as the CDK CLI runs bin/app.ts, and lists every module it loaded. */
function modulesLoadedBy(entry: string): string[] {
  const file = join(mkdtempSync(join(tmpdir(), 'loads-')), 'loads.txt');
  const { CDK_OUTDIR: _outdir, ...env } = process.env;
  execFileSync(process.execPath, ['--import', 'tsx', '--import', join(PROJECT_ROOT, 'test/support/record-loads.mjs'), entry], {
    cwd: PROJECT_ROOT,
    // The stage the CLI would pass; no output directory, so the app is built but not written out.
    env: { ...env, RECORD_LOADS_FILE: file, CDK_CONTEXT_JSON: JSON.stringify({ stage: 'test', 'aws:cdk:bundling-stacks': [] }) },
    stdio: 'pipe',
  });
  return [...new Set(readFileSync(file, 'utf8').split('\n').filter(Boolean))];
}

it('building the CDK app loads no AWS SDK, Smithy or middy module', () => {
  const loaded = modulesLoadedBy('bin/app.ts');
  expect(loaded.some((m) => m.endsWith('/lib/workers-stack.ts'))).toBe(true);
  expect(loaded.some((m) => m.includes('/node_modules/aws-cdk-lib/'))).toBe(true);
  expect(loaded.filter((m) => RUNTIME.test(m))).toEqual([]);
}, 120_000);

it('the check sees a runtime module when one is loaded', () => {
  expect(modulesLoadedBy('functions/core/platform/sqs.ts').filter((m) => RUNTIME.test(m))).toContainEqual(expect.stringContaining('/@aws-sdk/client-sqs/'));
}, 60_000);
