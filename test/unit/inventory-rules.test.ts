import { paymentDueAt } from '../../functions/core/bookings/kind.js';
import { holdState, type Hold } from '../../functions/core/inventory/holds.js';
import { lockInForce, seatNames, shuffled } from '../../functions/core/inventory/units.js';

/** The pure rules of the inventory and booking engines. */

const at = (iso: string) => new Date(iso);

describe('picking units', () => {
  it('shuffles into a permutation, drawing one random index per position', () => {
    const draws: number[] = [];
    const out = shuffled(['a', 'b', 'c', 'd'], (n) => (draws.push(n), 0));
    expect([...out].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(draws).toEqual([4, 3, 2]);
    expect(out).toEqual(['b', 'c', 'd', 'a']);
  });

  it('does not favour the first unit: over many shuffles each unit comes first about as often', () => {
    const firsts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const first = shuffled(seatNames(4))[0]!;
      firsts.set(first, (firsts.get(first) ?? 0) + 1);
    }
    expect([...firsts.keys()].sort()).toEqual(['S01', 'S02', 'S03', 'S04']);
    for (const count of firsts.values()) expect(count).toBeGreaterThan(800);
  });

  it('names the seats of a pool S01 … S<C>', () => {
    expect(seatNames(12)).toEqual(['S01', 'S02', 'S03', 'S04', 'S05', 'S06', 'S07', 'S08', 'S09', 'S10', 'S11', 'S12']);
  });
});

describe('unit locks and holds by the clock', () => {
  const now = at('2026-11-23T10:00:00.000Z');
  it('a booked lock is in force; a held one only until its expiry; none is free', () => {
    expect(lockInForce(undefined, now)).toBe(false);
    expect(lockInForce({ state: 'booked' }, now)).toBe(true);
    expect(lockInForce({ state: 'held', expires_at: '2026-11-23T10:00:00.001Z' }, now)).toBe(true);
    expect(lockInForce({ state: 'held', expires_at: '2026-11-23T10:00:00.000Z' }, now)).toBe(false);
  });

  it('a hold is usable by its own holder only, until it expires or is used', () => {
    const hold: Hold = { hold_hash: 'h', client_id: 'cl_a', family: 'clinical-interview', expires_at: '2026-11-23T10:30:00.000Z', status: 'active' };
    const agency = { type: 'client', clientId: 'cl_a' } as const;
    const invite = { type: 'invite', clientId: 'cl_a', inviteId: 3 } as const;
    expect(holdState(hold, agency, now)).toBe('usable');
    expect(holdState(hold, invite, now)).toBe('not-found');
    expect(holdState({ ...hold, invite_id: 3 }, invite, now)).toBe('usable');
    expect(holdState({ ...hold, invite_id: 3 }, agency, now)).toBe('not-found');
    expect(holdState(hold, { type: 'client', clientId: 'cl_b' }, now)).toBe('not-found');
    expect(holdState({ ...hold, status: 'released' }, agency, now)).toBe('not-found');
    expect(holdState({ ...hold, status: 'used' }, agency, now)).toBe('used');
    expect(holdState({ ...hold, status: 'expired' }, agency, now)).toBe('expired');
    expect(holdState(hold, agency, at('2026-11-23T10:30:00.000Z'))).toBe('expired');
  });
});

describe('the payment deadline', () => {
  const clinical = { afterBookingHours: 24, beforeStartHours: 2 };
  const training = { afterBookingHours: 48, beforeStartHours: 12 };
  const booked = at('2026-11-23T10:00:00.000Z');

  it('is 24 hours after booking when the start is far off', () => {
    expect(paymentDueAt(booked, at('2026-12-10T09:00:00.000Z'), clinical).toISOString()).toBe('2026-11-24T10:00:00.000Z');
  });

  it('is 2 hours before the start when that comes first', () => {
    expect(paymentDueAt(booked, at('2026-11-24T11:00:00.000Z'), clinical).toISOString()).toBe('2026-11-24T09:00:00.000Z');
    expect(paymentDueAt(booked, at('2026-11-24T12:00:00.000Z'), clinical).toISOString()).toBe('2026-11-24T10:00:00.000Z');
  });

  it("takes each family's settings (practical training: 48 hours, 12 hours before)", () => {
    expect(paymentDueAt(booked, at('2026-12-10T09:00:00.000Z'), training).toISOString()).toBe('2026-11-25T10:00:00.000Z');
    expect(paymentDueAt(booked, at('2026-11-25T18:00:00.000Z'), training).toISOString()).toBe('2026-11-25T06:00:00.000Z');
  });
});
