import type { Deps } from '../../../functions/core/platform/deps.js';
import { BURST_SECONDS } from '../../../functions/core/registration-monitoring/register-bucket.js';
import { runQueuedCheck } from '../../../functions/core/registration-monitoring/queued-checks.js';
import { verificationHistory } from '../../../functions/core/registration-monitoring/verifications.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * Each register's token bucket under an injected clock: 1 call a second, so
 * a bucket of 30; queued checks leave the last 6 to people's, and wait.
 */

let deps: Deps;
let clock: TestClock;
const { newClient, newWorker } = monitoringFixtures(() => deps);

beforeAll(async () => {
  clock = testClock('2026-11-21T10:00:00.000Z');
  deps = await testDeps({ clock, config: { registerRatePerSecond: 1 } });
});

it('queued checks take the bucket down to its manual reserve and then wait; manual checks take the reserve, then record rate_limited; the clock refills it; each register has its own', async () => {
  expect(BURST_SECONDS).toBe(30);
  const clientId = await newClient();
  const nurses = [];
  for (let i = 0; i < 32; i++) nurses.push(await newWorker(clientId, 'nmc', `${10 + i}A9001B`));
  // 24 scheduled checks fit above the reserve of 6 (20 % of 30).
  for (const w of nurses.slice(0, 24)) expect((await checkWorker(deps, clientId, w.id, { trigger: 'scheduled' })).status).toBe(201);
  // The 25th waits: nothing is recorded, so its message comes back later.
  await expect(runQueuedCheck(deps, clientId, nurses[24]!.id, { kind: 'job', jobId: 1, requestedBy: null })).rejects.toMatchObject({ name: 'RegisterBusy' });
  expect((await verificationHistory(deps, clientId, nurses[24]!.id, { limit: 10 })).data).toEqual([]);
  // People's checks take the reserve...
  for (const w of nurses.slice(25, 31))
    expect((await checkWorker(deps, clientId, w.id, { trigger: 'manual' })).verification).toMatchObject({ status: 'completed' });
  // ...and then find it empty: an error check, unbilled.
  const limited = await checkWorker(deps, clientId, nurses[31]!.id, { trigger: 'manual' });
  expect(limited.verification).toMatchObject({ status: 'error', billable: false, charge: null, error: { code: 'rate_limited' } });
  // Another register's bucket is untouched.
  const doctor = await newWorker(clientId, 'gmc', '7339001');
  expect((await checkWorker(deps, clientId, doctor.id, { trigger: 'scheduled' })).verification.status).toBe('completed');

  // Ten seconds later: ten tokens, of which four are above the reserve for the waiting check and its like.
  clock.advance(10);
  const again = await runQueuedCheck(deps, clientId, nurses[24]!.id, { kind: 'job', jobId: 1, requestedBy: null });
  expect(again).toMatchObject({ result: 'checked', verification: { status: 'completed' } });
  for (const w of nurses.slice(0, 3)) expect((await checkWorker(deps, clientId, w.id, { trigger: 'scheduled', fresh: true })).status).toBe(201);
  await expect(checkWorker(deps, clientId, nurses[3]!.id, { trigger: 'scheduled', fresh: true })).rejects.toMatchObject({ name: 'RegisterBusy' });
  expect((await checkWorker(deps, clientId, nurses[31]!.id, { trigger: 'manual', fresh: true })).verification.status).toBe('completed');
}, 60_000);

it('concurrent checks never take the same token: a full bucket of 30 gives exactly 30 manual calls', async () => {
  const fresh = await testDeps({ clock, config: { registerRatePerSecond: 1 } });
  const fixtures = monitoringFixtures(() => fresh);
  const clientId = await fixtures.newClient();
  const doctors = [];
  for (let i = 0; i < 34; i++) doctors.push(await fixtures.newWorker(clientId, 'gmc', `7${String(i).padStart(2, '0')}9001`));
  const answers = await Promise.all(doctors.map((w) => checkWorker(fresh, clientId, w.id, { trigger: 'manual' })));
  expect(answers.filter((a) => a.verification.status === 'completed')).toHaveLength(30);
  expect(answers.filter((a) => a.verification.error?.code === 'rate_limited')).toHaveLength(4);
}, 60_000);
