import { eventPut } from '../../../functions/core/events/outbox.js';
import { getHold, holdUnit, releaseUnitHold, sweepExpiredHolds, type Hold, type Holder, type HoldPolicy } from '../../../functions/core/inventory/holds.js';
import { seatNames, unitKeys, type Tally } from '../../../functions/core/inventory/units.js';
import type { Deps } from '../../../functions/core/platform/deps.js';
import { DomainError } from '../../../functions/core/platform/errors.js';
import { CI } from '../../support/clinical.js';
import { outboxPayloads, settle } from '../../support/kit.js';
import { testClock, testDeps, type TestClock } from '../../support/env.js';

/**
 * The inventory engine on a pool of seats, as practical training and virtual
 * sessions will use it: races, expiry by the clock, invite holders, the sweep.
 */

let deps: Deps;
let clock: TestClock;
beforeAll(async () => {
  clock = testClock('2026-11-23T08:00:00.000Z');
  deps = await testDeps({ clock });
});

const policy: HoldPolicy = { family: CI, seconds: 1800, onePerHolder: true };
let poolNo = 0;
/** A fresh pool of `capacity` seats. */
const newPool = (capacity: number) => {
  const time = `P${++poolNo}`;
  return { units: seatNames(capacity), keyOf: (seat: string) => unitKeys.unit(CI, '2026-12-01', time, seat) };
};
const errors = {
  conflict: () => new DomainError('hold-conflict', 'holder has a hold'),
  unavailable: () => new DomainError('slot-unavailable', 'pool is full'),
};
const client = (n: number | string): Holder => ({ type: 'client', clientId: `cl_seat_${poolNo}_${n}` });
const hold = (pool: ReturnType<typeof newPool>, holder: Holder, p: HoldPolicy = policy, tally?: Tally) =>
  holdUnit(deps, p, holder, pool, (seat) => ({ seat }), errors, tally);

describe('a pool of C units', () => {
  it('gives exactly C of N concurrent holds, each a different unit; after they expire, C new holds succeed with no sweeper', async () => {
    const pool = newPool(5);
    const tallies = Array.from({ length: 20 }, () => ({ attempts: 0 }));
    const first = await settle(tallies.map((tally, i) => hold(pool, client(i), policy, tally)));
    expect(first.ok).toHaveLength(5);
    expect(first.errors).toEqual(Array(15).fill('slot-unavailable'));
    expect(new Set(first.ok.map((h) => h.unit)).size).toBe(5);
    // Each holder tried only units free in its one read, never more than the pool.
    expect(Math.max(...tallies.map((t) => t.attempts))).toBeLessThanOrEqual(5);

    clock.advance(1799);
    expect((await settle([hold(pool, client('late'))])).errors).toEqual(['slot-unavailable']);
    clock.advance(1);
    const second = await settle(Array.from({ length: 12 }, (_, i) => hold(pool, client(`again-${i}`))));
    expect(second.ok).toHaveLength(5);
    expect(second.errors).toEqual(Array(7).fill('slot-unavailable'));
  });

  it('spreads concurrent holders over the pool: with as many units as holders, every one gets a unit', async () => {
    const pool = newPool(12);
    const { ok } = await settle(Array.from({ length: 12 }, (_, i) => hold(pool, client(i))));
    expect(ok).toHaveLength(12);
  });
});

describe('holders', () => {
  it("one active hold per holder; an invite's hold never blocks its agency's, nor the agency's the invite's", async () => {
    const pool = newPool(4);
    const agency = client('agency');
    const invite: Holder = { type: 'invite', clientId: agency.clientId, inviteId: 9 };
    const own = await hold(pool, agency);
    expect(await hold(pool, agency).catch((e) => e.code)).toBe('hold-conflict');
    const invited = await hold(pool, invite);
    expect(invited.hold.invite_id).toBe(9);
    expect(await hold(pool, invite).catch((e) => e.code)).toBe('hold-conflict');

    // The agency cannot release the invite's hold, nor the invite the agency's.
    const unitOf = (h: Hold) => pool.keyOf(String(h.seat));
    expect(await releaseUnitHold(deps, policy, agency, invited.hold.hold_hash, unitOf).catch((e) => e.code)).toBe('not-found');
    expect(await releaseUnitHold(deps, policy, invite, own.hold.hold_hash, unitOf).catch((e) => e.code)).toBe('not-found');
    await releaseUnitHold(deps, policy, invite, invited.hold.hold_hash, unitOf);
    await expect(hold(pool, invite)).resolves.toBeDefined();
  });

  it('a holder with a hold is told so (conflict) even where every unit is taken; a pool mostly free costs one transaction, read or not', async () => {
    const full = newPool(1);
    await hold(full, client('first'));
    const open = newPool(3);
    const holder = client('busy');
    const tally: Tally = { attempts: 0 };
    const own = await hold(open, holder, policy, tally);
    expect(tally.attempts).toBe(1);
    const refused = await hold(full, holder).catch((e: DomainError) => e);
    expect(refused).toMatchObject({ code: 'hold-conflict' });
    expect(await hold(newPool(2), holder).catch((e: DomainError) => e.code)).toBe('hold-conflict');
    await releaseUnitHold(deps, policy, holder, own.hold.hold_hash, (h) => open.keyOf(String(h.seat)));
    expect(await hold(full, holder).catch((e: DomainError) => e.code)).toBe('slot-unavailable');
  });

  it('without the one-hold rule a holder may hold several units', async () => {
    const pool = newPool(3);
    const many = { ...policy, onePerHolder: false };
    const { ok, errors } = await settle([hold(pool, client('x'), many), hold(pool, client('x'), many), hold(pool, client('x'), many)]);
    expect(errors).toEqual([]);
    expect(ok).toHaveLength(3);
  });
});

describe('the expiry sweep', () => {
  it('announces each expired hold once, even with two sweeps at once, and never a released or unexpired one', async () => {
    const announcing: HoldPolicy = {
      ...policy,
      // The clinical catalogue has no expiry event (practical training's is `seat_hold.expired`): a stand-in.
      announce: (d, h) =>
        eventPut(d, {
          type: 'webhook.test',
          family: CI as 'clinical-interview',
          client_id: h.client_id,
          data: { expired_hold: h.hold_hash, status: h.status },
        }),
    };
    const pool = newPool(6);
    const held = await Promise.all([0, 1, 2].map((i) => hold(pool, client(`sweep-${i}`), announcing)));
    const released = held[2]!.hold;
    await releaseUnitHold(deps, announcing, client('sweep-2'), released.hold_hash, (h) => pool.keyOf(String(h.seat)));
    clock.advance(600);
    const later = await hold(pool, client('sweep-later'), announcing);

    expect(await sweepExpiredHolds(deps, announcing)).toBe(0);
    clock.advance(1200);
    const counts = await Promise.all([sweepExpiredHolds(deps, announcing), sweepExpiredHolds(deps, announcing)]);
    expect(counts[0] + counts[1]).toBe(2);
    expect(await sweepExpiredHolds(deps, announcing)).toBe(0);

    const announced = (await outboxPayloads<{ data: { expired_hold?: string; status?: string } }>(deps, 'event'))
      .map((e) => e.data)
      .filter((d) => d.expired_hold);
    expect(announced.map((d) => d.expired_hold).sort()).toEqual([held[0]!.hold.hold_hash, held[1]!.hold.hold_hash].sort());
    expect(announced.every((d) => d.status === 'expired')).toBe(true);
    expect((await getHold(deps, CI, held[0]!.hold.hold_hash))?.status).toBe('expired');
    expect((await getHold(deps, CI, released.hold_hash))?.status).toBe('released');
    expect((await getHold(deps, CI, later.hold.hold_hash))?.status).toBe('active');
  });

  it('is refused for a family that announces nothing', async () => {
    await expect(sweepExpiredHolds(deps, policy)).rejects.toThrow('does not announce');
  });
});
