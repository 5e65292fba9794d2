import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { esbuildOptions } from '../../lib/bundling.js';
import { PROJECT_ROOT } from '../../lib/routes.js';
import { lambdaEnv } from '../support/bundle-asset.js';
import { testDeps } from '../support/env.js';

/** A function's bundle, built in memory with the deployed options: the modules it imports, those whose code it holds, and its text. */
async function bundleOf(entry: string) {
  const { metafile, outputFiles } = await build({
    ...esbuildOptions(),
    entryPoints: [join(PROJECT_ROOT, entry)],
    write: false,
    metafile: true,
    outfile: join(tmpdir(), 'bundle-check.mjs'),
  });
  const held = Object.entries(Object.values(metafile.outputs)[0]!.inputs).filter(([, input]) => input.bytesInOutput > 0);
  return { inputs: Object.keys(metafile.inputs), held: held.map(([path]) => path), text: outputFiles[0]!.text };
}

/**
 * A handler bundled as deployed (the SDK inside, the lazily-used credential
 * providers left out) runs from a folder with no node_modules, with
 * credentials from the environment as Lambda gives them, and reaches DynamoDB.
 */
it('a bundled handler talks to DynamoDB with nothing but its bundle', async () => {
  const deps = await testDeps();
  const out = mkdtempSync(join(tmpdir(), 'handler-asset-'));
  const { metafile } = await build({
    ...esbuildOptions(),
    entryPoints: [join(PROJECT_ROOT, 'functions/http/shared/auth-token-inspect.ts')],
    outfile: join(out, 'index.mjs'),
    metafile: true,
  });
  // The SDK's endpoint discovery (unused: no operation adds its middleware) is a stub, without its cache (lib/bundling.ts).
  expect(Object.keys(metafile.inputs).filter((i) => /node_modules\/(mnemonist|@aws-sdk\/(middleware-endpoint-discovery|endpoint-cache))\//.test(i))).toEqual(
    [],
  );
  expect(Object.keys(metafile.inputs)).toContain('lib/bundling/no-endpoint-discovery.mjs');
  // The default credential chain is its environment link alone (Lambda's credentials are there), which the call below uses.
  expect(Object.keys(metafile.inputs).filter((i) => i.includes('node_modules/@aws-sdk/credential-provider-node/'))).toEqual([]);
  expect(Object.keys(metafile.inputs)).toContain('lib/bundling/env-credentials.mjs');
  // SHA-256 and MD5 are Node's alone, without the SDK's pure-JavaScript fallbacks.
  const held = Object.entries(Object.values(metafile.outputs)[0]!.inputs).filter(([, input]) => input.bytesInOutput > 0);
  expect(held.filter(([i]) => /checksum\/(sha256\/Sha256Js|md5\/Md5Js)\.js$/.test(i))).toEqual([]);
  expect(Object.keys(metafile.inputs)).toContain('lib/bundling/native-checksums.mjs');
  // http and https are taken as CommonJS: their ESM facades would load undici at every cold start.
  const bundle = readFileSync(join(out, 'index.mjs'), 'utf8');
  expect(bundle).not.toMatch(/from\s*"(node:)?https?"/);
  // The SDK's event-stream codec is swapped for a stub that throws (no call here streams events).
  expect(bundle).toContain('Event streams are not bundled');
  expect(bundle).not.toContain('EventStreamCodec');
  writeFileSync(
    join(out, 'invoke.mjs'),
    `import { handler } from './index.mjs';
const event = { version: '2.0', routeKey: 'GET /auth/token', rawPath: '/auth/token', headers: { authorization: 'Bearer not-a-token' },
  stageVariables: { family: 'clinical-interview' },
  requestContext: { requestId: 'r1', domainName: 'x', http: { method: 'GET', path: '/auth/token', sourceIp: '203.0.113.9' } } };
const result = await handler(event, {});
process.stdout.write(JSON.stringify(result));`,
  );
  const env = lambdaEnv(deps.table);
  const result = JSON.parse(execFileSync(process.execPath, [join(out, 'invoke.mjs')], { cwd: out, env, encoding: 'utf8' }));
  // 401 after looking the token up in DynamoDB: the bundled SDK made the call.
  expect(result.statusCode).toBe(401);
  expect(JSON.parse(result.body)).toMatchObject({ type: '/problems/invalid-token' });

  // Without credentials in the environment the bundle does not look elsewhere: it fails, and says why.
  const { AWS_ACCESS_KEY_ID: _key, AWS_SECRET_ACCESS_KEY: _secret, ...noCredentials } = env;
  const failed = execFileSync(process.execPath, [join(out, 'invoke.mjs')], { cwd: out, env: { ...noCredentials, LOG_LEVEL: 'info' }, encoding: 'utf8' });
  expect(failed).toContain('Unable to find environment variable credentials');
  expect(JSON.parse(failed.slice(failed.lastIndexOf('{"statusCode"')))).toMatchObject({ statusCode: 500 });
});

/** The bundles' hashes (lib/bundling/native-checksums.mjs) give the SDK's own digests: plain, keyed (request signatures chain keys) and after a digest. */
it("the bundles' SHA-256 and MD5 digest as the SDK's do", async () => {
  const sdk = await import('@smithy/core/checksum');
  const ours = (await import(join(PROJECT_ROOT, 'lib/bundling/native-checksums.mjs'))) as typeof sdk;
  const digests = async (
    Hash: new (secret?: string | Uint8Array) => { update(d: string | Uint8Array): void; digest(): Promise<Uint8Array>; reset(): void },
    secret?: string | Uint8Array,
  ) => {
    const hash = new Hash(secret);
    hash.update('AWS4-HMAC-SHA256\n20261128T120000Z');
    hash.update(new Uint8Array([0, 1, 2, 255]));
    const first = Buffer.from(await hash.digest()).toString('hex');
    if (secret) return [first];
    hash.update('more');
    const second = Buffer.from(await hash.digest()).toString('hex');
    hash.reset();
    hash.update('');
    return [first, second, Buffer.from(await hash.digest()).toString('hex')];
  };
  expect(await digests(ours.Sha256)).toEqual(await digests(sdk.Sha256));
  expect(await digests(ours.Sha256, 'AWS4secret')).toEqual(await digests(sdk.Sha256, 'AWS4secret'));
  expect(await digests(ours.Sha256, new Uint8Array([9, 8, 7]))).toEqual(await digests(sdk.Sha256, new Uint8Array([9, 8, 7])));
  expect(await digests(ours.Md5)).toEqual(await digests(sdk.Md5));
  expect((await digests(ours.Sha256))[2]).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  // The rest of the module is the SDK's.
  expect(
    Object.keys(sdk).filter((name) => !['default', 'module.exports'].includes(name) && typeof (ours as Record<string, unknown>)[name] !== 'function'),
  ).toEqual([]);
});

/**
 * The portal's request pages serve the groups whose items have pages; a
 * booking kind's items are answered on their course family's invite page,
 * so the pages carry neither the booking kinds nor what closing one takes
 * (4.5 KB of each page when they did).
 */
it("the portal's request pages do not load the booking kinds", async () => {
  for (const entry of ['functions/http/portal-v2/request-form-submit.ts', 'functions/http/portal-v2/request-submit-uploaded.ts']) {
    const { held } = await bundleOf(entry);
    expect(held.some((i) => i.endsWith('portal-v2/request-pages.ts'))).toBe(true);
    expect(held.filter((i) => /portal-v2\/(booking-kinds|request-groups)\.ts$|inventory\/hold-records\.ts$|bookings\/invite-keys\.ts$/.test(i))).toEqual([]);
  }
});

/**
 * A course family's booking made with a portal request's invite moves the
 * request's item in its own transaction; its functions load that step
 * (portal-v2/booking-follow.ts), never the request groups' module with every
 * group's declaration, page and invite code (25–40 KB of each bundle when
 * they did), nor the invite page's own dates or times (the booking answers
 * with its form alone). Making a booking otherwise loads neither that step
 * nor what only changing one takes (the family's booking-changes.ts: ~6 KB
 * of each booking function when the kind carried it).
 */
it("a course family's booking functions load the portal's item step only when booking with an invite, and never what changing a booking takes", async () => {
  const requestGroups = /portal-v2\/(request-groups|booking-invites|request-files)\.ts$|portal-v2\/groups\/index\.ts$/;
  for (const [entry, withInvite] of [
    ['functions/http/practical-training/bookings-create.ts', false],
    ['functions/http/virtual-life-support/bookings-create.ts', false],
    ['functions/http/practical-training/booking-page-submit.ts', false],
    ['functions/http/virtual-life-support/booking-page-submit.ts', false],
    ['functions/http/practical-training/invite-page-book.ts', true],
    ['functions/http/virtual-life-support/invite-page-book.ts', true],
  ] as const) {
    const { held, text } = await bundleOf(entry);
    expect([entry, held.some((i) => i.endsWith('portal-v2/booking-follow.ts'))]).toEqual([entry, withInvite]);
    expect(held.filter((i) => requestGroups.test(i) || i.endsWith('/booking-changes.ts'))).toEqual([]);
    // The invite page's booking answers with its form alone: the page's dates and times are the page's (~7 KB).
    if (withInvite) expect([entry, /Choose this (date|time)/.test(text)]).toEqual([entry, false]);
  }
  // What changing takes is where the changes are: a cancellation holds it.
  expect((await bundleOf('functions/http/practical-training/bookings-cancel.ts')).held).toEqual(
    expect.arrayContaining(['functions/core/practical-training/booking-changes.ts', 'functions/core/portal-v2/booking-follow.ts']),
  );
});

/**
 * A function's bundle holds its own operation of the route table, not its
 * family's every operation and schema: each operation is its own export,
 * plain data a bundler can leave out. Reading a request group loads neither
 * how requests are created nor the course families' invite engines, and
 * creating one of a fixed group loads no other group.
 */
it("a function's bundle holds its own operation, not its family's table", async () => {
  const accept = await bundleOf('functions/http/portal-v2/group-items-accept.ts');
  expect(accept.text).toContain('portal-v2/group-items-accept');
  expect(accept.text).not.toContain('portal-v2/candidates-list');
  expect(
    accept.inputs.filter((i) => /portal-v2\/(request-create|booking-invites)\.ts$|practical-training\/invites\.ts$|virtual-life-support\/invites\.ts$/.test(i)),
  ).toEqual([]);
  const v1Get = await bundleOf('functions/http/portal-v1/training-requests-get.ts');
  expect(v1Get.text).not.toContain('portal-v1/candidates-list');
  expect(v1Get.inputs.filter((i) => /portal-v2\/(request-create|booking-invites)\.ts$/.test(i))).toEqual([]);
  // Portal v1's create is for one fixed group: it carries that group's declaration, not the others' nor the invite engines.
  const v1Create = await bundleOf('functions/http/portal-v1/training-requests-create.ts');
  expect(v1Create.text).toContain('Training request');
  for (const title of ['Certificate request', 'Occupational health request', 'Appraisal request', 'Training verification request'])
    expect(v1Create.text).not.toContain(title);
  expect(
    v1Create.inputs.filter((i) =>
      /portal-v2\/(request-groups|booking-invites)\.ts$|practical-training\/invites\.ts$|virtual-life-support\/invites\.ts$/.test(i),
    ),
  ).toEqual([]);
  const worker = await bundleOf('functions/http/registration-monitoring/workers-get.ts');
  expect(worker.text).not.toContain('registration-monitoring/alerts-list');
  // The operations every family offers are plain data too.
  const webhook = await bundleOf('functions/http/shared/webhooks-get.ts');
  expect(webhook.text).toContain('shared/webhooks-get');
  expect(webhook.text).not.toContain('shared/webhooks-list');
  expect(webhook.text).not.toContain('shared/auth-token-exchange');
});

/**
 * package.json says the project's modules have no side effects but for the
 * ones it lists, so that bundles leave out modules nothing uses. A module
 * that does something when loaded (a call at its top level, as a job kind
 * registering itself) must be listed, or a bundle that imports it only for
 * that would drop it.
 */
it('every module that acts when loaded is listed in package.json sideEffects', async () => {
  const listed = (JSON.parse(readFileSync(join(PROJECT_ROOT, 'package.json'), 'utf8')) as { sideEffects: string[] }).sideEffects.map((p) =>
    p.replace(/^\.\//, ''),
  );
  const modules = execFileSync('git', ['ls-files', 'functions'], { cwd: PROJECT_ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f.endsWith('.ts'));
  // A call or loop at column 0 (`registerJobKind({…})`, `something.add(…)`, `for (…) register(…)`): top-level declarations, imports and exports start otherwise.
  const acting = modules.filter((f) =>
    /^(?!export\b|import\b|const\b|let\b|function\b|async\b|class\b|type\b|interface\b)[\w$.]+(<[^>]*>)?\(/m.test(readFileSync(join(PROJECT_ROOT, f), 'utf8')),
  );
  // A function's entry module is its bundle's root, never imported for its effects; url-guard.ts fills its own list only; the route table checks its exports when loaded and changes nothing.
  const isEntry = (f: string) => /^functions\/(http|consumers)\//.test(f) && !f.split('/').pop()!.startsWith('_');
  const ownOnly = ['functions/core/webhooks/url-guard.ts', 'functions/api/routes/index.ts'];
  const mutatingOthers = acting.filter((f) => !ownOnly.includes(f) && !isEntry(f));
  expect(mutatingOthers.sort()).toEqual([...listed].sort());
  // Each jobs consumer has its kinds' task runners registered (registration monitoring's by loading their modules, the data subject requests' by a call), and only its own.
  const jobs = await bundleOf('functions/consumers/jobs.ts');
  const subjectJobs = await bundleOf('functions/consumers/subject-jobs.ts');
  const monitoringRunners = ['the register did not answer', 'lost a race and nothing was recorded'];
  const subjectRunners = ['The export is larger than one stored document holds'];
  const runners = [...monitoringRunners, ...subjectRunners];
  for (const text of ['monitoring-verification', 'monitoring-import', ...monitoringRunners]) expect(jobs.text).toContain(text);
  for (const text of subjectRunners) expect(jobs.text).not.toContain(text);
  for (const text of subjectRunners) expect(subjectJobs.text).toContain(text);
  for (const text of monitoringRunners) expect(subjectJobs.text).not.toContain(text);
  // Starting or reading a job carries none of the work its tasks do.
  for (const handler of ['verification-jobs-create', 'verification-jobs-get', 'imports-create', 'imports-get']) {
    const api = await bundleOf(`functions/http/registration-monitoring/${handler}.ts`);
    for (const text of runners) expect(api.text).not.toContain(text);
  }
});

/**
 * A function's bundle holds the schemas it uses, not every schema of the
 * modules it imports them from: each module-level value that is built by a
 * call is written `/* @__PURE__ *\/ built(() => …)` (functions/api/schemas/fields.ts says why).
 */
it("a function's bundle holds the schemas it uses, and every schema module is written so", async () => {
  const ts = (await import('typescript')).default;
  const dir = join(PROJECT_ROOT, 'functions/api/schemas');
  const unmarked: string[] = [];
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.ts'))) {
    const source = ts.createSourceFile(file, readFileSync(join(dir, file), 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of source.statements.filter(ts.isVariableStatement)) {
      for (const declaration of statement.declarationList.declarations) {
        const value = declaration.initializer;
        if (!value || ts.isArrowFunction(value) || ts.isFunctionExpression(value)) continue;
        let call = false;
        const visit = (node: import('typescript').Node): void => {
          if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return;
          if (ts.isCallExpression(node)) call = true;
          else ts.forEachChild(node, visit);
        };
        visit(value);
        const marked = ts.isCallExpression(value) && value.expression.getText(source) === 'built' && value.getFullText(source).includes('/* @__PURE__ */');
        if (call && !marked) unmarked.push(`${file}: ${declaration.name.getText(source)}`);
      }
    }
  }
  expect(unmarked).toEqual([]);

  const { text } = await bundleOf('functions/http/practical-training/seats-hold.ts');
  expect(text).toContain('training_event_id');
  // The family's other schemas, and the clinical candidate fields they take, stay out.
  expect(text).not.toContain('Only bookings with this attendance');
  expect(text).not.toContain('Events starting on or after this day');
  expect(text).not.toContain('job_role');
});
