import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { clientKeys } from '../../../functions/core/access/clients.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { acknowledgeOne, getAlert, listAlerts } from '../../../functions/core/registration-monitoring/alerts.js';
import { backfillRegistrationRetention } from '../../../functions/core/registration-monitoring/evidence-backfill.js';
import { sweepExpiredEvidence } from '../../../functions/core/registration-monitoring/evidence-store.js';
import { evidenceJson, evidenceKeys, getEvidence, listEvidence, verifyChains } from '../../../functions/core/registration-monitoring/evidence.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { verificationHistory } from '../../../functions/core/registration-monitoring/verifications.js';
import { archiveWorker, createWorker, DEFAULT_MONITORING } from '../../../functions/core/registration-monitoring/workers.js';
import { professionOf } from '../../../functions/core/registration-monitoring/registers.js';
import { findErasable } from '../../../functions/core/data-rights/find.js';
import { subjectHash } from '../../../functions/core/data-rights/subject.js';
import { registrationMonitoringSubjects } from '../../../functions/core/registration-monitoring/data-subject.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/** Registration checks, their evidence and resolved alerts are kept six years from the check, then go: by the clock at once, by TTL and the sweep afterwards. */

const START = '2026-11-21T10:00:00.000Z';
const SIX_YEARS_ON = '2032-11-21T10:00:00.000Z';
const epoch = (iso: string) => Math.floor(Date.parse(iso) / 1000);

let deps: Deps;
let clock: TestClock;
let dir: string;
const { newClient, newWorker } = monitoringFixtures(() => deps);
const dirs: string[] = [];

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'evidence-retention-'));
  dirs.push(dir);
  clock = testClock(START);
  deps = await testDeps({ clock, config: { evidenceDir: dir } });
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const recordsOf = async (clientId: string) =>
  (
    await deps.db.send(
      new QueryCommand({
        TableName: deps.table,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': clientKeys.partition(clientId) },
        ConsistentRead: true,
      }),
    )
  ).Items!.filter((i) => ['verification', 'evidence', 'alert'].includes(String(i.entity)));

/** A lapsed worker checked once (one alert), then archived (the alert resolves an hour later). */
async function checkedAndArchived() {
  const clientId = await newClient();
  const w = await newWorker(clientId, 'nmc', '12A9002B');
  const { verification } = await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
  const [alert] = (await listAlerts(deps, clientId, { limit: 10 })).data;
  clock.advance(3600);
  await archiveWorker(deps, clientId, w.id);
  return { clientId, workerId: w.id, verification, alertId: alert!.id };
}

it('a check, its evidence and the alert it raised carry their end six years from the check as the table TTL (epoch seconds); an alert gets it when it resolves', async () => {
  const clientId = await newClient();
  const w = await newWorker(clientId, 'nmc', '12A9002B');
  const { verification } = await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
  const open = await recordsOf(clientId);
  expect(open.find((i) => i.entity === 'alert')).toMatchObject({ status: 'open' });
  expect(open.find((i) => i.entity === 'alert')!.ttl).toBeUndefined();
  clock.advance(3600);
  await archiveWorker(deps, clientId, w.id);
  const items = await recordsOf(clientId);
  expect(items.find((i) => i.entity === 'verification')).toMatchObject({ id: verification.id, retention_until: SIX_YEARS_ON, ttl: epoch(SIX_YEARS_ON) });
  expect(items.find((i) => i.entity === 'evidence')).toMatchObject({ id: verification.id, retention_until: SIX_YEARS_ON, ttl: epoch(SIX_YEARS_ON) });
  expect(items.find((i) => i.entity === 'alert')).toMatchObject({
    status: 'resolved',
    retention_until: '2032-11-21T11:00:00.000Z',
    ttl: epoch('2032-11-21T11:00:00.000Z'),
  });
});

it('past its end a record answers as gone, whether or not TTL has removed it: evidence not-found, empty lists, an alert not-found; a second before, all is there', async () => {
  const { clientId, workerId, verification, alertId } = await checkedAndArchived();
  clock.set('2032-11-21T09:59:59.000Z');
  expect((await getEvidence(deps, clientId, verification.id)).id).toBe(verification.id);
  expect((await verificationHistory(deps, clientId, workerId, { limit: 10 })).data).toHaveLength(1);
  expect(await verifyChains(deps, clientId)).toEqual({ records: 1, broken: null });
  clock.set(SIX_YEARS_ON);
  await expect(getEvidence(deps, clientId, verification.id)).rejects.toMatchObject({ code: 'not-found' });
  await expect(evidenceJson(deps, clientId, verification.id)).rejects.toMatchObject({ code: 'not-found' });
  expect((await listEvidence(deps, clientId, { limit: 10 })).data).toEqual([]);
  expect((await verificationHistory(deps, clientId, workerId, { limit: 10 })).data).toEqual([]);
  expect(await verifyChains(deps, clientId)).toEqual({ records: 0, broken: null });
  // The alert resolved an hour after the check: kept an hour longer.
  expect((await getAlert(deps, clientId, alertId)).status).toBe('resolved');
  clock.advance(3600);
  await expect(getAlert(deps, clientId, alertId)).rejects.toMatchObject({ code: 'not-found' });
  await expect(acknowledgeOne(deps, clientId, alertId, { userId: null, note: null })).rejects.toMatchObject({ code: 'not-found' });
  expect((await listAlerts(deps, clientId, { limit: 10 })).data).toEqual([]);
  // The items themselves are TTL's to remove.
  expect(await recordsOf(clientId)).toHaveLength(3);
});

it("a person's export or erasure finds their checks, evidence and alerts until the end, and not from it, whatever TTL has done", async () => {
  const clientId = await newClient();
  const email = `grace.${Date.now()}@example.org`;
  const w = await createWorker(deps, clientId, {
    first_name: 'Grace',
    last_name: 'Adeyemi',
    external_ref: null,
    email,
    phone: null,
    job_role: null,
    registration: { register: 'nmc', number: '12A9002B', profession: professionOf('nmc', '12A9002B') },
    monitoring: DEFAULT_MONITORING,
  });
  await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
  const found = async () => {
    const { found, linked } = await findErasable(deps, registrationMonitoringSubjects, clientId, subjectHash(email));
    return [...found, ...linked].map((i) => String(i.entity)).sort();
  };
  clock.set('2032-11-21T09:59:59.000Z');
  expect(await found()).toEqual(['alert', 'evidence', 'verification', 'worker']);
  clock.set(SIX_YEARS_ON);
  // The alert is still open (the worker lapsed and is still monitored): it has no end.
  expect(await found()).toEqual(['alert', 'worker']);
});

it('a chain whose oldest records went starts at the oldest record kept', async () => {
  const clientId = await newClient();
  const w = await newWorker(clientId, 'gmc', '7719001');
  await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
  clock.advance(400 * 86_400);
  const second = (await checkWorker(deps, clientId, w.id, { trigger: 'manual', fresh: true })).verification;
  clock.set('2032-12-01T10:00:00.000Z');
  expect(await verifyChains(deps, clientId)).toEqual({ records: 1, broken: null });
  expect((await getEvidence(deps, clientId, second.id)).seq).toBe(2);
});

it('locally, the hourly sweep deletes evidence files once their retention is over, and only those', async () => {
  const { clientId, verification } = await checkedAndArchived();
  const item = (await deps.db.send(new GetCommand({ TableName: deps.table, Key: evidenceKeys.evidence(clientId, verification.id), ConsistentRead: true })))
    .Item!;
  const file = join(dir, ...String(item.object_key).split('/'));
  expect(existsSync(file)).toBe(true);
  clock.set('2032-11-21T09:59:59.000Z');
  expect(await sweepExpiredEvidence(deps)).toBe(0);
  expect(existsSync(file)).toBe(true);
  clock.set(SIX_YEARS_ON);
  expect(await sweepExpiredEvidence(deps)).toBe(1);
  expect(existsSync(file)).toBe(false);
  expect(await sweepExpiredEvidence(deps)).toBe(0);
});

it('backfill registration-retention gives older checks, evidence and resolved alerts their end and TTL, leaves open alerts, and is idempotent', async () => {
  const { clientId } = await checkedAndArchived();
  const other = await newClient();
  const w = await newWorker(other, 'nmc', '12A9002B');
  await checkWorker(deps, other, w.id, { trigger: 'manual' }); // its alert stays open
  // As written before retention: no ttl, and no retention_until on checks and alerts (evidence always stated it).
  for (const i of [...(await recordsOf(clientId)), ...(await recordsOf(other))]) {
    const remove = i.entity === 'evidence' ? 'REMOVE #ttl' : 'REMOVE #ttl, retention_until';
    await deps.db.send(
      new UpdateCommand({ TableName: deps.table, Key: { pk: i.pk, sk: i.sk }, UpdateExpression: remove, ExpressionAttributeNames: { '#ttl': 'ttl' } }),
    );
  }
  expect(await backfillRegistrationRetention(deps)).toBe(5);
  const items = await recordsOf(clientId);
  expect(items.find((i) => i.entity === 'verification')).toMatchObject({ retention_until: SIX_YEARS_ON, ttl: epoch(SIX_YEARS_ON) });
  expect(items.find((i) => i.entity === 'evidence')).toMatchObject({ retention_until: SIX_YEARS_ON, ttl: epoch(SIX_YEARS_ON) });
  expect(items.find((i) => i.entity === 'alert')).toMatchObject({ retention_until: '2032-11-21T11:00:00.000Z', ttl: epoch('2032-11-21T11:00:00.000Z') });
  const openAlert = (await recordsOf(other)).find((i) => i.entity === 'alert')!;
  expect(openAlert.ttl).toBeUndefined();
  expect(openAlert.retention_until).toBeUndefined();
  expect(await backfillRegistrationRetention(deps)).toBe(0);
});
