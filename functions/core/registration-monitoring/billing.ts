import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { listClients } from '../access/clients.js';
import { ledgerPut, newLedgerEntry } from '../commerce/ledger.js';
import { CURRENCY, gbp } from '../commerce/money.js';
import type { Deps } from '../platform/deps.js';
import { key } from '../platform/key-registry.js';
import * as TABLE_KEYS from '../platform/table-keys.js';
import { DomainError } from '../platform/errors.js';
import { wallClock, zonedInstant } from '../platform/time.js';
import { part, transact, TransactionFailed, updateItem } from '../platform/transact.js';
import { MONITORING_FAMILY as FAMILY, REGISTERS } from './registers.js';
import { chargeFor, usageKeys } from './usage.js';
import type { Trigger } from './verifications.js';
import { activeWorkers } from './workers.js';

/**
 * A month's usage and charges, read from the counters each
 * check moves in its own transaction, and the monthly roll-up: one ledger
 * entry per client and month (kind `monitoring_usage`), put in the same
 * transaction that marks the month rolled up, so a second run writes none.
 */

const TRIGGERS: readonly Trigger[] = ['manual', 'scheduled', 'registration_changed', 'batch', 'import', 'retry'];
const ROLLUP = TABLE_KEYS.usageRollup;
export const rollupKeys = { period: (period: string) => ({ pk: key(ROLLUP.pk, FAMILY, period), sk: ROLLUP.sk.period }) };

const daysIn = (period: string) => new Date(Date.UTC(Number(period.slice(0, 4)), Number(period.slice(5, 7)), 0)).getUTCDate();
const count = (month: Record<string, unknown> | undefined, field: string) => Number(month?.[field] ?? 0);

async function monthItem(deps: Deps, clientId: string, period: string) {
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: usageKeys.month(clientId, period), ConsistentRead: true }));
  return Item;
}

/** GET /billing/usage: the month's checks by register, trigger and day, what they come to, and the ledger entry once rolled up. */
export async function usageSummary(deps: Deps, clientId: string, period: string) {
  const month = await monthItem(deps, clientId, period);
  const workers = await activeWorkers(deps, clientId, 'monitoring');
  return {
    period,
    unit_prices: REGISTERS.map((register) => ({ register, price: chargeFor(deps, register) })),
    checks: {
      billable: count(month, 'billable'),
      not_billable: count(month, 'not_billable'),
      by_register: Object.fromEntries(REGISTERS.map((r) => [r, count(month, `register_${r}`)])),
      by_trigger: Object.fromEntries(TRIGGERS.map((t) => [t, count(month, `trigger_${t}`)])),
    },
    amount: gbp(count(month, 'amount')),
    workers: { monitored: workers.filter((w) => (w.monitoring as { enabled: boolean }).enabled).length, total: workers.length },
    daily: Array.from({ length: daysIn(period) }, (_, i) => String(i + 1).padStart(2, '0')).map((d) => ({
      date: `${period}-${d}`,
      billable: count(month, `day_${d}`),
    })),
    ledger_entry_id: (month?.ledger_entry_id as string | undefined) ?? null,
  };
}

export type RolledUp = { client_id: string; ledger_entry_id: string; amount: number; created: boolean };

/** One client's month to the ledger: the entry and the month's mark in one transaction, the mark put only if absent. */
async function rollupClient(deps: Deps, clientId: string, period: string): Promise<RolledUp | undefined> {
  const month = await monthItem(deps, clientId, period);
  if (!month || count(month, 'billable') === 0) return undefined;
  if (month.ledger_entry_id) return { client_id: clientId, ledger_entry_id: String(month.ledger_entry_id), amount: count(month, 'amount'), created: false };
  const entry = newLedgerEntry(deps, {
    client_id: clientId,
    family: FAMILY,
    kind: 'monitoring_usage',
    amount: count(month, 'amount'),
    unit: CURRENCY,
    balance_after: null,
    booking_id: null,
    interview_type: null,
    product: null,
    note: `Registration monitoring ${period}: ${count(month, 'billable')} billable checks`,
  });
  try {
    await transact(deps, [
      part(
        'month',
        updateItem(
          deps,
          usageKeys.month(clientId, period),
          { set: { ledger_entry_id: entry.id, rolled_up_amount: entry.amount } },
          { expression: 'attribute_exists(pk) AND attribute_not_exists(ledger_entry_id)' },
        ),
      ),
      part('ledger', ledgerPut(deps, entry)),
    ]);
    return { client_id: clientId, ledger_entry_id: entry.id, amount: entry.amount, created: true };
  } catch (err) {
    // Another run rolled it up first.
    if (err instanceof TransactionFailed && err.has('month')) return rollupClient(deps, clientId, period);
    throw err;
  }
}

/** `ops registration-monitoring usage rollup --month`: every client with monitoring, for a month that has ended. */
export async function rollupMonth(deps: Deps, period: string): Promise<RolledUp[]> {
  // A month still counting would be billed for its usage so far, and its marker would keep the rest from ever being billed.
  const from = settledAt(period, deps.config.serviceTimeZone);
  if (deps.clock() < from)
    throw new DomainError('invalid-state', `The usage of ${period} can be rolled up from ${from.toISOString()}, once the month has ended`);
  const clients = (await listClients(deps)).filter((c) => c.monitoringEnabled);
  const done: RolledUp[] = [];
  for (const c of clients) {
    const rolled = await rollupClient(deps, c.clientId, period);
    if (rolled) done.push(rolled);
  }
  await deps.db.send(
    new PutCommand({
      TableName: deps.table,
      Item: { ...rollupKeys.period(period), entity: 'usage-rollup', period, clients: done.length, rolled_up_at: deps.clock().toISOString() },
    }),
  );
  return done;
}

/** The month before now's, in the service time zone. */
export function previousPeriod(now: Date, timeZone: string): string {
  const today = wallClock(now, timeZone).date;
  const first = new Date(`${today.slice(0, 7)}-01T00:00:00Z`);
  first.setUTCMonth(first.getUTCMonth() - 1);
  return first.toISOString().slice(0, 7);
}

/** When a month's usage is settled: 02:00 on the 1st after it (service time zone), when checks count in the next month. */
function settledAt(period: string, timeZone: string): Date {
  const next = new Date(`${period}-01T00:00:00Z`);
  next.setUTCMonth(next.getUTCMonth() + 1);
  return zonedInstant(next.toISOString().slice(0, 10), '02:00', timeZone)!;
}

/**
 * The `monitoring-usage-rollup` schedule (hourly): once the month before is
 * settled, it is rolled up once; later runs find its marker and stop.
 */
export async function rollupIfDue(deps: Deps): Promise<RolledUp[] | undefined> {
  const now = deps.clock();
  const period = previousPeriod(now, deps.config.serviceTimeZone);
  if (now < settledAt(period, deps.config.serviceTimeZone)) return undefined;
  const { Item } = await deps.db.send(new GetCommand({ TableName: deps.table, Key: rollupKeys.period(period), ConsistentRead: true }));
  return Item ? undefined : rollupMonth(deps, period);
}
