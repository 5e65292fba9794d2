import type { Deps } from '../../../functions/core/platform/deps.js';
import { key } from '../../../functions/core/platform/key-registry.js';
import * as TABLE_KEYS from '../../../functions/core/platform/table-keys.js';
import { acknowledgeMany, listAlerts } from '../../../functions/core/registration-monitoring/alerts.js';
import { addTimelineStep } from '../../../functions/core/registration-monitoring/simulated-register.js';
import { checkWorker } from '../../../functions/core/registration-monitoring/verify.js';
import { verificationHistory } from '../../../functions/core/registration-monitoring/verifications.js';
import { archiveWorker, getWorker } from '../../../functions/core/registration-monitoring/workers.js';
import { transact, TransactionFailed } from '../../../functions/core/platform/transact.js';
import { usageParts } from '../../../functions/core/registration-monitoring/usage.js';
import { outboxItems } from '../../support/kit.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/** The check engine against DynamoDB Local: one check at a time per worker, one usage record per completed check, one alert per condition. */

let deps: Deps;
let clock: TestClock;

beforeAll(async () => {
  clock = testClock('2026-11-21T10:00:00.000Z');
  deps = await testDeps({ clock });
});

const { newClient, newWorker, itemsOf, usageRecords, verifications } = monitoringFixtures(() => deps);

describe('verify now', () => {
  it('ten concurrent calls make one check, one usage record and one alert; the others answer that check (200)', async () => {
    const clientId = await newClient();
    const w = await newWorker(clientId, 'nmc', '12A9002B'); // lapsed
    const answers = await Promise.all(Array.from({ length: 10 }, () => checkWorker(deps, clientId, w.id, { trigger: 'manual', fresh: true })));
    const ran = answers.filter((a) => a.status === 201);
    expect(ran).toHaveLength(1);
    expect(new Set(answers.map((a) => a.verification.id))).toEqual(new Set([ran[0]!.verification.id]));
    expect(ran[0]!.verification).toMatchObject({
      status: 'completed',
      outcome: 'fail',
      simulated: true,
      billable: true,
      charge: { amount: 50, currency: 'GBP' },
      result: { registration_status: 'lapsed', status_text: 'Lapsed' },
    });
    expect(await usageRecords(clientId)).toHaveLength(1);
    expect(await verifications(clientId)).toHaveLength(1);
    const alerts = (await listAlerts(deps, clientId, { limit: 100 })).data;
    expect(alerts.map((a) => [a.type, a.severity, a.status])).toEqual([['registration.status_changed', 'critical', 'open']]);
    expect(await getWorker(deps, clientId, w.id)).toMatchObject({ outcome: 'fail', registration_status: 'lapsed', open_alerts: 1 });
    const created = (await outboxItems(deps))
      .filter((o) => o.kind === 'event')
      .map((o) => JSON.parse(o.payload) as { type: string; data: { worker_id: number } })
      .filter((e) => e.type === 'alert.created' && e.data.worker_id === w.id);
    expect(created).toHaveLength(1);
  });

  it('a check under 5 minutes old is answered again, uncharged; fresh=true checks again and bills again; a repeat bumps the alert silently', async () => {
    const clientId = await newClient();
    const w = await newWorker(clientId, 'hcpc', 'PA9005'); // conditions of practice
    const first = await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
    const again = await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
    expect([first.status, again.status, again.verification.id]).toEqual([201, 200, first.verification.id]);
    expect(await usageRecords(clientId)).toHaveLength(1);
    const fresh = await checkWorker(deps, clientId, w.id, { trigger: 'manual', fresh: true });
    expect(fresh.status).toBe(201);
    expect(fresh.verification).toMatchObject({ outcome: 'review', changes: [] });
    expect(await usageRecords(clientId)).toHaveLength(2);
    const [alert] = (await listAlerts(deps, clientId, { limit: 10 })).data;
    expect(alert).toMatchObject({
      type: 'registration.restricted',
      severity: 'high',
      occurrences: 2,
      verification_ids: [first.verification.id, fresh.verification.id],
    });
  });

  it('timelines run on the injected clock: 9013 lapses on day 2 (alert opened) and is back on day 4 (resolved, with the diff)', async () => {
    const clientId = await newClient();
    const w = await newWorker(clientId, 'gmc', '7019013');
    const day0 = await checkWorker(deps, clientId, w.id, { trigger: 'scheduled' });
    expect(day0.verification).toMatchObject({ outcome: 'clear', result: { registration_status: 'registered', licence_to_practise: true } });
    clock.advance(2 * 86_400);
    const day2 = await checkWorker(deps, clientId, w.id, { trigger: 'scheduled' });
    expect(day2.verification.outcome).toBe('fail');
    expect(day2.verification.changes).toEqual(expect.arrayContaining([{ field: 'registration_status', from: 'registered', to: 'lapsed' }]));
    clock.advance(2 * 86_400);
    const day4 = await checkWorker(deps, clientId, w.id, { trigger: 'scheduled' });
    expect(day4.verification.outcome).toBe('clear');
    const [alert] = (await listAlerts(deps, clientId, { limit: 10 })).data;
    expect(alert).toMatchObject({
      type: 'registration.status_changed',
      status: 'resolved',
      resolution: 'condition_cleared',
      details: { from: 'registered', to: 'lapsed' },
    });
    expect((await getWorker(deps, clientId, w.id)).open_alerts).toBe(0);
    expect((await verificationHistory(deps, clientId, w.id, { limit: 10 })).data.map((v) => v.outcome)).toEqual(['clear', 'fail', 'clear']);
  });

  it('an operator step on the simulated register overrides its scenario from its time on', async () => {
    const clientId = await newClient();
    const w = await newWorker(clientId, 'nmc', '40A9001B');
    expect((await checkWorker(deps, clientId, w.id, { trigger: 'manual' })).verification.outcome).toBe('clear');
    await addTimelineStep(deps, 'nmc', '40A9001B', { at: clock().toISOString(), set: { status: 'suspended' } });
    const after = await checkWorker(deps, clientId, w.id, { trigger: 'manual', fresh: true });
    expect(after.verification).toMatchObject({ outcome: 'fail', result: { status_text: 'Suspended' } });
  });

  it('a register past the budget is an error check: unbilled, the outcome kept; three in a row raise verification.unavailable; a completed check resolves it', async () => {
    const clientId = await newClient();
    const w = await newWorker(clientId, 'hcpc', 'OT9012');
    for (let i = 0; i < 3; i++) {
      const answer = await checkWorker(deps, clientId, w.id, { trigger: 'retry', budgetMs: 100 });
      expect(answer.verification).toMatchObject({ status: 'error', billable: false, charge: null, outcome: null, error: { code: 'timeout' } });
    }
    expect(await usageRecords(clientId)).toHaveLength(0);
    expect((await getWorker(deps, clientId, w.id)).outcome).toBe('unverified');
    expect((await listAlerts(deps, clientId, { limit: 10 })).data.map((a) => [a.type, a.status])).toEqual([['verification.unavailable', 'open']]);
    // The operator makes the register answer: the check completes and the alert resolves.
    await addTimelineStep(deps, 'hcpc', 'OT9012', { at: clock().toISOString(), set: { status: 'registered' } });
    // The full budget: a loaded machine may take more than 100 ms over the register's own DynamoDB read.
    expect((await checkWorker(deps, clientId, w.id, { trigger: 'manual' })).verification).toMatchObject({ status: 'completed', outcome: 'clear' });
    expect((await listAlerts(deps, clientId, { limit: 10 })).data.map((a) => [a.type, a.status, a.resolution])).toEqual([
      ['verification.unavailable', 'resolved', 'condition_cleared'],
    ]);
    expect(await usageRecords(clientId)).toHaveLength(1);
  });

  it('a replayed usage write after commit counts nothing twice', async () => {
    const clientId = await newClient();
    const check = {
      verification_id: 424242,
      worker_id: 1,
      register: 'gmc' as const,
      trigger: 'batch' as const,
      checked_at: clock().toISOString(),
      billable: true,
    };
    await transact(deps, usageParts(deps, clientId, check));
    await expect(transact(deps, usageParts(deps, clientId, check))).rejects.toBeInstanceOf(TransactionFailed);
    expect(await usageRecords(clientId)).toHaveLength(1);
    const [month] = await itemsOf(clientId, key(TABLE_KEYS.client.sk.usageMonth, 'registration-monitoring', ''));
    expect(month).toMatchObject({ billable: 1, amount: 75, register_gmc: 1, trigger_batch: 1 });
  });

  it('archiving resolves open alerts (worker_archived); acknowledging in bulk answers each id', async () => {
    const clientId = await newClient();
    const otherClient = await newClient();
    const w = await newWorker(clientId, 'nmc', '41A9011B'); // name differs
    await checkWorker(deps, clientId, w.id, { trigger: 'manual' });
    const [alert] = (await listAlerts(deps, clientId, { limit: 10 })).data;
    expect(alert).toMatchObject({ type: 'registration.name_mismatch', severity: 'high', details: { to: 'Jordan Whitmore' } });
    const foreign = await newWorker(otherClient, 'nmc', '42A9002B');
    await checkWorker(deps, otherClient, foreign.id, { trigger: 'manual' });
    const [theirs] = (await listAlerts(deps, otherClient, { limit: 10 })).data;
    const results = await acknowledgeMany(deps, clientId, [alert!.id, alert!.id, theirs!.id === alert!.id ? 999_999 : theirs!.id], {
      userId: null,
      note: 'seen',
    });
    expect(results.map((r) => r.result)).toEqual(['acknowledged', 'not_found']);
    expect((await acknowledgeMany(deps, clientId, [alert!.id], { userId: null, note: null }))[0]!.result).toBe('already_acknowledged');
    await archiveWorker(deps, clientId, w.id);
    expect((await listAlerts(deps, clientId, { limit: 10 })).data[0]).toMatchObject({ status: 'resolved', resolution: 'worker_archived' });
    expect((await acknowledgeMany(deps, clientId, [alert!.id], { userId: null, note: null }))[0]!.result).toBe('resolved');
    await expect(checkWorker(deps, clientId, w.id, { trigger: 'manual' })).rejects.toMatchObject({ code: 'worker-archived' });
  });
});
