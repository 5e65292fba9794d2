import { PutCommand } from '@aws-sdk/lib-dynamodb';
import {
  backfillLockIndex,
  claimUnit,
  holdUnitPart,
  locksBetween,
  moveUnitParts,
  readLocks,
  unitId,
  unitKeys,
} from '../../../functions/core/inventory/units.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { transact } from '../../../functions/core/platform/transact.js';
import { CI } from '../../support/clinical.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * Listings read a range of days' locks through the index, one query per
 * month the range touches: a fortnight costs what a day costs.
 */

let deps: Deps;
let clock: TestClock;
let queries = 0;
beforeAll(async () => {
  clock = testClock('2026-11-23T08:00:00.000Z');
  deps = await testDeps({ clock });
  deps.db.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'QueryCommand') queries++;
      return next(args);
    },
    { step: 'initialize', name: 'countQueries' },
  );
});

const unit = (date: string, name: string) => unitKeys.unit(CI, date, 'R1', name);
const inForce = async (from: string, to: string) => {
  queries = 0;
  const locks = await locksBetween(deps, CI, from, to);
  return {
    queries,
    units: [...locks.values()]
      .filter((l) => String(l.sk).startsWith('R1#'))
      .map((l) => `${String(l.pk).slice(-10)} ${String(l.sk)} ${String(l.state)}`)
      .sort(),
  };
};

it('reads every lock of a range, and only that range, in one query per month; moved locks follow their unit', async () => {
  const now = clock();
  const expires = new Date(now.getTime() + 1800_000).toISOString();
  await transact(deps, [
    holdUnitPart(deps, unit('2026-12-01', 'A'), { client_id: 'cl_a', expires_at: expires, hold_hash: 'h1' }, now, 'a'),
    claimUnit(deps, unit('2026-12-14', 'B'), { bookingId: 7, clientId: 'cl_b' }, now, 'b'),
    claimUnit(deps, unit('2026-12-15', 'C'), { bookingId: 8, clientId: 'cl_c' }, now, 'c'),
    claimUnit(deps, unit('2027-01-02', 'D'), { bookingId: 9, clientId: 'cl_d' }, now, 'd'),
  ]);

  // A fortnight inside one month: one query, the 15th left out.
  expect(await inForce('2026-12-01', '2026-12-14')).toEqual({ queries: 1, units: ['2026-12-01 R1#A held', '2026-12-14 R1#B booked'] });
  // A single day: the same one query.
  expect(await inForce('2026-12-15', '2026-12-15')).toEqual({ queries: 1, units: ['2026-12-15 R1#C booked'] });
  // Across a year's end: one query for each month.
  expect(await inForce('2026-12-10', '2027-01-05')).toEqual({
    queries: 2,
    units: ['2026-12-14 R1#B booked', '2026-12-15 R1#C booked', '2027-01-02 R1#D booked'],
  });

  // An operator moves the booking on the 14th to another unit: the index follows.
  const from = unit('2026-12-14', 'B');
  const lock = (await readLocks(deps, [from])).get(unitId(from))!;
  await transact(deps, moveUnitParts(deps, from, unit('2026-12-14', 'E'), lock, now));
  expect((await inForce('2026-12-14', '2026-12-14')).units).toEqual(['2026-12-14 R1#E booked']);
});

it('a lock written before the index joins it through the backfill, once', async () => {
  const old = unitKeys.unit(CI, '2027-02-03', 'R1', 'Z');
  await deps.db.send(new PutCommand({ TableName: deps.table, Item: { ...old, entity: 'unit-lock', state: 'booked', booking_id: 70, client_id: 'cl_old' } }));
  expect((await inForce('2027-02-03', '2027-02-03')).units).toEqual([]);
  expect(await backfillLockIndex(deps)).toBeGreaterThanOrEqual(1);
  expect((await inForce('2027-02-03', '2027-02-03')).units).toEqual(['2027-02-03 R1#Z booked']);
  expect(await backfillLockIndex(deps)).toBe(0);
});
