import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { dispatchDue, type DueCheck } from '../../../functions/core/registration-monitoring/due.js';
import { checksConsumer } from '../../../functions/core/registration-monitoring/queued-checks.js';
import type { Register } from '../../../functions/core/registration-monitoring/registers.js';
import { verificationHistory } from '../../../functions/core/registration-monitoring/verifications.js';
import { setMonitoring } from '../../../functions/core/registration-monitoring/monitoring-settings.js';
import { getWorker, type Frequency } from '../../../functions/core/registration-monitoring/workers.js';
import { outboxItems } from '../../support/kit.js';
import { monitoringFixtures } from '../../support/monitoring.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * The scheduler against DynamoDB Local: the dispatcher reads only the due
 * items (counted at the SDK, no Scan), and the cadence holds under an
 * injected clock: daily, weekly, and daily inside the expiry window.
 */

let deps: Deps;
let clock: TestClock;
/** Every command the counting client sent, with the items each read. */
const sent: { command: string; items: number }[] = [];
let counting: Deps;

beforeAll(async () => {
  clock = testClock('2026-11-21T10:00:00.000Z');
  deps = await testDeps({ clock });
  // The dispatcher's own client, whose middleware counts what it sends and what each answer holds.
  const base = new DynamoDBClient({});
  base.middlewareStack.add(
    (next, context) => async (args) => {
      const out = await next(args);
      sent.push({ command: context.commandName ?? '?', items: ((out.output as { Items?: unknown[] }).Items ?? []).length });
      return out;
    },
    { step: 'initialize', name: 'countCommands' },
  );
  counting = { ...deps, db: DynamoDBDocumentClient.from(base, { marshallOptions: { removeUndefinedValues: true } }) };
});

const fixtures = monitoringFixtures(() => deps);
const newClient = fixtures.newClient;
const newWorker = (clientId: string, register: Register, number: string, frequency: Frequency = 'daily', enabled = true) =>
  fixtures.newWorker(clientId, register, number, { enabled, frequency, paused_until: null });

const ran = new Set<string>();
/** Runs the checks the dispatcher queued since the last call, as the `checks` queue's consumer would; their workers. */
async function runQueuedChecks(): Promise<number[]> {
  const fresh = (await outboxItems(deps)).filter((i) => i.kind === 'check' && !ran.has(i.sk));
  fresh.forEach((i) => ran.add(i.sk));
  const failed = await checksConsumer(deps)(fresh.map((i, k) => ({ id: `m${k}`, body: i.payload, receiveCount: 1, receiptHandle: `r${k}` })));
  expect(failed.size).toBe(0);
  // The checks queue also carries checks' alert e-mails: only the checks count here.
  return fresh
    .map((i) => JSON.parse(i.payload) as DueCheck & { kind?: string })
    .filter((m) => m.kind !== 'alert-emails')
    .map((m) => m.worker_id);
}

async function dispatchCounted() {
  sent.length = 0;
  const result = await dispatchDue(counting);
  const queries = sent.filter((s) => s.command === 'QueryCommand');
  return { ...result, commands: sent.map((s) => s.command), itemsRead: queries.reduce((sum, q) => sum + q.items, 0), queryCount: queries.length };
}

it('the dispatcher never scans: it queries the hour buckets from its cursor and reads only the workers due', async () => {
  // A first run on the new table looks back over the empty hours and moves its cursor past them.
  const first = await dispatchCounted();
  expect(first.commands).not.toContain('ScanCommand');
  const clientId = await newClient();
  const due = [];
  for (let i = 0; i < 24; i++) due.push(await newWorker(clientId, 'gmc', `70${String(i).padStart(3, '0')}01`.slice(0, 7)));
  const off = [];
  for (let i = 0; i < 6; i++) off.push(await newWorker(clientId, 'nmc', `5${i}A1234B`, 'daily', false));
  // Monitoring turned off after creation: its due item goes with it.
  await setMonitoring(deps, clientId, due[0]!.id, { enabled: false, frequency: 'daily', paused_until: null });

  const run = await dispatchCounted();
  expect(run.commands).not.toContain('ScanCommand');
  expect(run.queued).toBe(23);
  expect(run.itemsRead).toBe(23);
  // The cursor leaves at most the last hour behind: two hours of 16 shards, whatever the number of workers.
  expect(run.queryCount).toBeLessThanOrEqual(2 * 16);
  expect(run.queryCount).toBe(run.queries);

  // Dispatched items wait for their checks; a second dispatcher within the lease queues nothing.
  const again = await dispatchCounted();
  expect(again.queued).toBe(0);
  const checked = await runQueuedChecks();
  expect(checked.sort((a, b) => a - b)).toEqual(due.slice(1).map((w) => w.id));
  expect((await getWorker(deps, clientId, due[1]!.id)).monitoring.last_checked_at).not.toBeNull();
  // The checks moved their items to tomorrow: nothing is read now.
  const after = await dispatchCounted();
  expect([after.queued, after.itemsRead]).toEqual([0, 0]);
  const [v] = (await verificationHistory(deps, clientId, due[1]!.id, { limit: 5 })).data;
  expect(v).toMatchObject({ trigger: 'registration_changed', status: 'completed' });
});

it('cadence under the injected clock: daily; weekly; weekly turns daily 14 days before expiry', async () => {
  // A table of its own: only these workers are due over the ten days.
  deps = await testDeps({ clock });
  const clientId = await newClient();
  const daily = await newWorker(clientId, 'nmc', '61A9001B', 'daily');
  const weekly = await newWorker(clientId, 'nmc', '62A9001B', 'weekly');
  const expiring = await newWorker(clientId, 'nmc', '63A9010B', 'weekly'); // expires 20 days after its first lookup
  const days = new Map<number, number[]>([daily, weekly, expiring].map((w) => [w.id, []]));
  const start = Date.parse('2026-11-21T10:00:00.000Z');
  for (let day = 0; day <= 10; day++) {
    // Late in the same hour each day: a worker's check falls in its hour by its id.
    clock.set(new Date(start + day * 86_400_000 + 59 * 60_000 + 59_000).toISOString());
    await dispatchDue(deps);
    for (const id of await runQueuedChecks()) days.get(id)?.push(day);
  }
  expect(days.get(daily.id)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  expect(days.get(weekly.id)).toEqual([0, 7]);
  expect(days.get(expiring.id)).toEqual([0, 6, 7, 8, 9, 10]);
  const [last] = (await verificationHistory(deps, clientId, weekly.id, { limit: 5 })).data;
  expect(last).toMatchObject({ trigger: 'scheduled' });
});
