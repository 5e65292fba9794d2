import type { JobMessage } from '../../../functions/core/jobs/jobs.js';
import { jobsConsumer } from '../../../functions/core/jobs/tasks.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import type { QueueMessage } from '../../../functions/core/platform/sqs.js';
import { listAlerts } from '../../../functions/core/registration-monitoring/alerts.js';
import { getBatch, startBatch } from '../../../functions/core/registration-monitoring/batch.js';
// Its tasks' runner, as the jobs worker loads it.
import '../../../functions/core/registration-monitoring/batch-tasks.js';
import { dispatchDue } from '../../../functions/core/registration-monitoring/due.js';
import { checksConsumer } from '../../../functions/core/registration-monitoring/queued-checks.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { archiveWorker } from '../../../functions/core/registration-monitoring/workers.js';
import { outboxItems } from '../../support/kit.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * Batch verification on the jobs engine, and the rules that hold when manual,
 * batch and scheduled checks of one worker race, with their messages
 * delivered twice: one usage record per completed check that was not a
 * reuse, one unresolved alert per worker and type, one alert.created.
 */

let deps: Deps;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock('2026-11-21T10:00:00.000Z');
  deps = await testDeps({ clock });
});

const { newClient, newWorker, usageRecords, verifications } = monitoringFixtures(() => deps);

let delivered = 0;
const asMessage = (body: string, receiveCount = 1): QueueMessage => ({ id: `m${++delivered}`, body, receiveCount, receiptHandle: `r${delivered}` });
const jobMessages = async (clientId: string, jobId: number) =>
  (await outboxItems(deps))
    .filter((i) => i.kind === 'job' && (JSON.parse(i.payload) as JobMessage).job_id === jobId && (JSON.parse(i.payload) as JobMessage).client_id === clientId)
    .map((i) => i.payload);
const checkMessages = async (clientId: string) =>
  (await outboxItems(deps)).filter((i) => i.kind === 'check' && JSON.parse(i.payload).client_id === clientId).map((i) => i.payload);
const eventsOf = async (type: string) =>
  (await outboxItems(deps))
    .filter((i) => i.kind === 'event')
    .map((i) => JSON.parse(i.payload) as { type: string; client_id: string; data: Record<string, unknown> })
    .filter((e) => e.type === type);

it('a batch job checks each worker once, skips archived and foreign ones, bills each check once though its message comes twice, and closes once', async () => {
  const clientId = await newClient();
  const other = await newClient();
  const clean = await newWorker(clientId, 'nmc', '11A9001B');
  const restricted = await newWorker(clientId, 'hcpc', 'PA9005');
  const archived = await newWorker(clientId, 'gmc', '7009001');
  await archiveWorker(deps, clientId, archived.id);
  const foreign = await newWorker(other, 'gmc', '7109001');
  const job = await startBatch(deps, clientId, { worker_ids: [clean.id, restricted.id, archived.id, foreign.id, clean.id] }, null);
  expect(job).toMatchObject({ status: 'queued', counts: { total: 4, completed: 0, errored: 0, skipped: 0 } });
  await expect(startBatch(deps, clientId, { all: true }, null)).rejects.toMatchObject({ code: 'job-running', extensions: { job_id: job.id } });

  const [body] = await jobMessages(clientId, job.id);
  // Delivered twice at once (a visibility time-out that ran out), then once more after.
  const consume = jobsConsumer(deps);
  await Promise.all([consume([asMessage(body!)]), consume([asMessage(body!, 2)])]);
  await consume([asMessage(body!, 3)]);

  const polled = await getBatch(deps, clientId, job.id);
  expect(polled).toMatchObject({ status: 'completed', counts: { total: 4, completed: 2, errored: 0, skipped: 2 } });
  expect(polled.finished_at).not.toBeNull();
  expect(await usageRecords(clientId)).toHaveLength(2);
  const checks = await verifications(clientId);
  expect(checks.map((v) => [v.worker_id, v.trigger, v.job_id]).sort()).toEqual(
    [
      [clean.id, 'batch', job.id],
      [restricted.id, 'batch', job.id],
    ].sort(),
  );
  expect((await eventsOf('verification_job.completed')).filter((e) => e.client_id === clientId)).toHaveLength(1);
  await expect(getBatch(deps, other, job.id)).rejects.toMatchObject({ code: 'not-found' });
  // The job is over: another may start.
  expect((await startBatch(deps, clientId, { all: true }, null)).counts.total).toBe(2);
});

it('manual, batch and scheduled checks of lapsed workers at once, each queued message delivered twice: usage records equal completed checks, one alert and one alert.created per worker', async () => {
  const clientId = await newClient();
  const workers = [];
  for (let i = 0; i < 4; i++) workers.push(await newWorker(clientId, 'nmc', `2${i}A9002B`)); // lapsed
  const ids = workers.map((w) => w.id);
  await dispatchDue(deps);
  const job = await startBatch(deps, clientId, { worker_ids: ids }, null);
  const [jobBody] = await jobMessages(clientId, job.id);
  const scheduled = await checkMessages(clientId);
  expect(scheduled).toHaveLength(4);

  const consume = jobsConsumer(deps);
  const checks = checksConsumer(deps);
  await Promise.all([
    ...ids.map((id) => checkWorker(deps, clientId, id, { trigger: 'manual' })),
    ...ids.map((id) => checkWorker(deps, clientId, id, { trigger: 'manual', fresh: true })),
    consume([asMessage(jobBody!)]),
    consume([asMessage(jobBody!, 2)]),
    checks(scheduled.map((b) => asMessage(b))),
    checks(scheduled.map((b) => asMessage(b, 2))),
  ]);
  // Later: fresh manual checks bill again; the alert only counts them.
  clock.advance(60);
  for (const id of ids) await checkWorker(deps, clientId, id, { trigger: 'manual', fresh: true });

  const completed = (await verifications(clientId)).filter((v) => v.status === 'completed');
  const usage = await usageRecords(clientId);
  expect(usage.map((u) => u.verification_id).sort()).toEqual(completed.map((v) => v.id).sort());
  expect(completed.length).toBeGreaterThanOrEqual(2 * ids.length);
  const alerts = (await listAlerts(deps, clientId, { limit: 100 })).data;
  expect(alerts.map((a) => a.worker_id).sort()).toEqual([...ids].sort());
  expect(alerts.every((a) => a.type === 'registration.status_changed' && a.status === 'open')).toBe(true);
  expect(alerts.reduce((sum, a) => sum + a.occurrences, 0)).toBe(completed.length);
  const created = (await eventsOf('alert.created')).filter((e) => e.client_id === clientId);
  expect(created.map((e) => e.data.worker_id).sort()).toEqual([...ids].sort());
  expect((await getBatch(deps, clientId, job.id)).status).toBe('completed');
});
