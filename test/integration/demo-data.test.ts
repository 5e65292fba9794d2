import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { seedDemoData } from '../../functions/core/demo-data.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { isWorkingDay, wallClock } from '../../functions/core/platform/time.js';
import { testClock, testDeps } from '../support/env.js';

/**
 * The demo data as a local stack seeds it, on a day that puts bank holidays
 * and weekends among its dates (Tuesday 29 December 2026: Christmas Day and
 * the Boxing Day holiday just past, New Year's Day ahead).
 */
let deps: Deps;

beforeAll(async () => {
  deps = await testDeps({ clock: testClock('2026-12-29T10:00:00.000Z') });
  await seedDemoData(deps);
}, 120_000);

async function scanAll(prefix: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await deps.db.send(
      new ScanCommand({
        TableName: deps.table,
        FilterExpression: 'begins_with(pk, :p)',
        ExpressionAttributeValues: { ':p': prefix },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

describe('demo data', () => {
  it('puts every training event and life-support session, past and coming, on a working day', async () => {
    const sessions = (await scanAll('TEVENT#')).filter((i) => i.sk === 'TEVENT');
    const days = sessions.map((s) => [s.pk, wallClock(new Date(String(s.start_at)), deps.config.serviceTimeZone).date] as const);
    // Both families, the past ones included (practical training's 9 events, virtual life support's 3 past and its coming sessions).
    expect(days.filter(([pk]) => String(pk).startsWith('TEVENT#practical-training#'))).toHaveLength(9);
    expect(days.filter(([pk]) => String(pk).startsWith('TEVENT#virtual-life-support#')).length).toBeGreaterThan(20);
    expect(days.filter(([, day]) => !isWorkingDay(day, deps.config.bankHolidays))).toEqual([]);
  });

  it("dates each client's opening balances before any debit in its ledger", async () => {
    const byLedger = new Map<string, { kind: string; created_at: string }[]>();
    for (const e of await scanAll('LEDGER#'))
      byLedger.set(String(e.pk), [...(byLedger.get(String(e.pk)) ?? []), { kind: String(e.kind), created_at: String(e.created_at) }]);
    const debited = [...byLedger].filter(([, entries]) => entries.some((e) => e.kind.endsWith('_debit')));
    expect(debited.length).toBeGreaterThan(0); // the demo's past bookings were paid with credits
    for (const [ledger, entries] of debited) {
      const lastTopUp = entries
        .filter((e) => e.kind.endsWith('_topup'))
        .map((e) => e.created_at)
        .sort()
        .at(-1);
      const firstDebit = entries
        .filter((e) => e.kind.endsWith('_debit'))
        .map((e) => e.created_at)
        .sort()[0];
      expect([ledger, lastTopUp! < firstDebit!]).toEqual([ledger, true]);
    }
  });
});
