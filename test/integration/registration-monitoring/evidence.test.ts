import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { evidenceJson, evidenceKeys, evidencePdf, sha256Of, verifyChains } from '../../../functions/core/registration-monitoring/evidence.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps } from '../../support/env.js';

/** Evidence in the write-once store (locally: read-only files under EVIDENCE_DIR), byte for byte as hashed; every read re-hashes it. */

let deps: Deps;
let dir: string;
const { newClient, newWorker } = monitoringFixtures(() => deps);
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-'));
  deps = await testDeps({ clock: testClock('2026-11-21T10:00:00.000Z'), config: { evidenceDir: dir } });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const itemOf = async (clientId: string, id: number) =>
  (await deps.db.send(new GetCommand({ TableName: deps.table, Key: evidenceKeys.evidence(clientId, id), ConsistentRead: true }))).Item!;

it('a check writes its record once, as a read-only file keyed by its verification id, byte for byte what its hash and the download say; the table keeps the hash, not the bytes', async () => {
  const clientId = await newClient();
  const w = await newWorker(clientId, 'nmc', '71A9001B');
  const { verification } = await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
  const item = await itemOf(clientId, verification.id);
  expect(item.body).toBeUndefined();
  expect(item.object_key).toMatch(new RegExp(`^${clientId}/${String(verification.id).padStart(10, '0')}-${item.sha256}\\.json$`));
  const file = join(dir, ...String(item.object_key).split('/'));
  expect(statSync(file).mode & 0o222).toBe(0);
  const bytes = readFileSync(file);
  expect(sha256Of(bytes)).toBe(item.sha256);
  expect((await evidenceJson(deps, clientId, verification.id)).body.equals(bytes)).toBe(true);
  expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({ verification_id: verification.id, seq: 1, prev_sha256: null, simulated: true });
});

it('a changed or missing file is never served (evidence-integrity), and evidence-verify names the broken link', async () => {
  const clientId = await newClient();
  const w = await newWorker(clientId, 'gmc', '7719001');
  const first = (await checkWorker(deps, clientId, w.id, { trigger: 'manual' })).verification;
  const second = (await checkWorker(deps, clientId, w.id, { trigger: 'manual', fresh: true })).verification;
  expect(await verifyChains(deps, clientId)).toEqual({ records: 2, broken: null });
  const file = join(dir, ...String((await itemOf(clientId, second.id)).object_key).split('/'));
  chmodSync(file, 0o644);
  writeFileSync(file, readFileSync(file, 'utf8').replace('"outcome":"clear"', '"outcome":"clean"'));
  await expect(evidenceJson(deps, clientId, second.id)).rejects.toMatchObject({ code: 'evidence-integrity' });
  await expect(evidencePdf(deps, clientId, second.id)).rejects.toMatchObject({ code: 'evidence-integrity' });
  expect((await verifyChains(deps, clientId)).broken).toMatchObject({ worker_id: w.id, evidence_id: second.id, seq: 2 });
  rmSync(join(dir, ...String((await itemOf(clientId, first.id)).object_key).split('/')), { force: true });
  await expect(evidenceJson(deps, clientId, first.id)).rejects.toMatchObject({ code: 'evidence-integrity' });
  expect((await verifyChains(deps, clientId)).broken).toMatchObject({ evidence_id: first.id, seq: 1 });
});
