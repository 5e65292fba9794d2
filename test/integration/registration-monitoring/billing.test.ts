import { ledgerKeys } from '../../../functions/core/commerce/ledger.js';
import { queryAll } from '../../../functions/core/platform/db.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { getEvidence } from '../../../functions/core/registration-monitoring/evidence.js';
import { rollupIfDue, rollupMonth, usageSummary, type RolledUp } from '../../../functions/core/registration-monitoring/billing.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/** The month's usage as a client reads it, and the roll-up to the ledger: run twice (and twice at once), one entry. */

let deps: Deps;
let clock: TestClock;
const { newClient, newWorker } = monitoringFixtures(() => deps);

beforeAll(async () => {
  clock = testClock('2026-11-21T10:00:00.000Z');
  deps = await testDeps({ clock });
});

const ledgerOf = async (clientId: string) =>
  queryAll(deps, {
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': ledgerKeys.partition(clientId, 'registration-monitoring') },
    ConsistentRead: true,
  });

it("the month's usage counts billable checks by register, trigger and day; errors and reuses are not billed; the roll-up writes one ledger entry however often it runs", async () => {
  const clientId = await newClient();
  const quiet = await newClient();
  const nurse = await newWorker(clientId, 'nmc', '81A9001B');
  const doctor = await newWorker(clientId, 'gmc', '8109005');
  const silent = await newWorker(clientId, 'hcpc', 'OT819012', { enabled: false, frequency: 'daily', paused_until: null });
  await checkWorker(deps, clientId, nurse.id, { trigger: 'manual' });
  await checkWorker(deps, clientId, nurse.id, { trigger: 'manual' }); // reused: not billed
  await checkWorker(deps, clientId, doctor.id, { trigger: 'manual' });
  await checkWorker(deps, clientId, silent.id, { trigger: 'manual', budgetMs: 50 }); // the register does not answer
  clock.advance(86_400);
  await checkWorker(deps, clientId, doctor.id, { trigger: 'scheduled' });

  const summary = await usageSummary(deps, clientId, '2026-11');
  expect(summary).toMatchObject({
    period: '2026-11',
    checks: { billable: 3, not_billable: 1, by_register: { nmc: 1, hcpc: 0, gmc: 2 }, by_trigger: { manual: 2, scheduled: 1, batch: 0 } },
    amount: { amount: 50 + 75 + 75, currency: 'GBP' },
    workers: { monitored: 2, total: 3 },
    ledger_entry_id: null,
  });
  expect(summary.unit_prices).toEqual([
    { register: 'nmc', price: { amount: 50, currency: 'GBP' } },
    { register: 'hcpc', price: { amount: 50, currency: 'GBP' } },
    { register: 'gmc', price: { amount: 75, currency: 'GBP' } },
  ]);
  expect(summary.daily).toHaveLength(30);
  expect(summary.daily.filter((d) => d.billable > 0)).toEqual([
    { date: '2026-11-21', billable: 2 },
    { date: '2026-11-22', billable: 1 },
  ]);
  expect((await usageSummary(deps, quiet, '2026-11')).checks.billable).toBe(0);

  // Before 02:00 on the 1st the schedule leaves the month open, and the operator may not close it: later checks would go unbilled.
  clock.set('2026-12-01T01:59:00.000Z');
  expect(await rollupIfDue(deps)).toBeUndefined();
  for (const month of ['2026-11', '2026-12', '2027-03']) await expect(rollupMonth(deps, month)).rejects.toMatchObject({ code: 'invalid-state' });
  expect(await ledgerOf(clientId)).toEqual([]);
  clock.set('2026-12-01T02:05:00.000Z');
  const [first, second] = await Promise.all([rollupIfDue(deps), rollupMonth(deps, '2026-11')]);
  const again = await rollupMonth(deps, '2026-11');
  expect(await rollupIfDue(deps)).toBeUndefined(); // the month's marker: done
  const ledger = await ledgerOf(clientId);
  expect(ledger).toHaveLength(1);
  expect(ledger[0]).toMatchObject({ kind: 'monitoring_usage', amount: 200, unit: 'GBP', family: 'registration-monitoring', client_id: clientId });
  const mine = (r: RolledUp[] | undefined) => r?.find((x) => x.client_id === clientId);
  expect(new Set([mine(first), mine(second), mine(again)].map((r) => r?.ledger_entry_id))).toEqual(new Set([ledger[0]!.id]));
  expect(again.map((r) => r.created)).toEqual(again.map(() => false));
  expect(await ledgerOf(quiet)).toEqual([]);
  expect((await usageSummary(deps, clientId, '2026-11')).ledger_entry_id).toBe(ledger[0]!.id);
});

it('prices and evidence retention are configuration: a check is charged at the configured price, frozen on its record, and its evidence kept the configured years', async () => {
  const priced = await testDeps({ clock, config: { monitoringUnitPrices: { nmc: 40, hcpc: 55, gmc: 120 }, evidenceRetentionYears: 8 } });
  const fixtures = monitoringFixtures(() => priced);
  const clientId = await fixtures.newClient();
  const doctor = await fixtures.newWorker(clientId, 'gmc', '8209001');
  const { verification } = await checkWorker(priced, clientId, doctor.id, { trigger: 'manual' });
  expect(verification.charge).toEqual({ amount: 120, currency: 'GBP' });
  expect(await fixtures.usageRecords(clientId)).toEqual([expect.objectContaining({ charge: { amount: 120, currency: 'GBP' } })]);
  const summary = await usageSummary(priced, clientId, verification.checked_at.slice(0, 7));
  expect(summary.unit_prices).toEqual([
    { register: 'nmc', price: { amount: 40, currency: 'GBP' } },
    { register: 'hcpc', price: { amount: 55, currency: 'GBP' } },
    { register: 'gmc', price: { amount: 120, currency: 'GBP' } },
  ]);
  expect(summary.amount).toEqual({ amount: 120, currency: 'GBP' });
  const evidence = await getEvidence(priced, clientId, verification.evidence_id!);
  expect(evidence.retention_until.slice(0, 4)).toBe(String(Number(verification.checked_at.slice(0, 4)) + 8));
});
