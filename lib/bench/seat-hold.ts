import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { holdSeat, releaseSeat } from '../../functions/core/practical-training/seats.js';
import { createTrainingEvent, loadCatalogue, PRACTICAL_FAMILY } from '../../functions/core/practical-training/catalogue.js';
import { holdRecordKeys } from '../../functions/core/inventory/hold-records.js';
import type { Tally } from '../../functions/core/inventory/units.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { addDays } from '../../functions/core/platform/time.js';
import { percentiles, round, run, timed } from './measure.js';

const CAPACITY = 40;
const TAKEN = 36; // 90 % occupancy
const HOLDERS = 8;

/**
 * Seat holds under contention, against the same holds uncontended, in one run:
 * one training event of 40 seats with 36 held for the whole run and 8
 * clients each holding one of the 4 left and releasing it, over and over;
 * and the same 8 clients each on an event of their own, in alternating
 * slices. The target is on
 * the tail: `p95_ms` at most twice `uncontended_p95_ms`, with no error and
 * no seat held twice at once. `attempts_per_hold` (transactions tried per
 * hold obtained; a try that finds every seat taken is `refused`) is kept as
 * a cost figure: holders that read the pool at once start at different free
 * seats (their turns at the event's queue), but a seat read free may be
 * committed to another holder before the try, and that try loses.
 */
export async function seatHoldContention(deps: Deps, seconds: number) {
  const catalogue = await loadCatalogue(deps);
  const course = catalogue.courses.find((c) => c.active)!;
  const location = catalogue.locations.find((l) => l.active)!;
  const newEvent = (startTime: string) =>
    createTrainingEvent(deps, {
      course_id: course.id,
      location_id: location.id,
      date: addDays(new Date().toISOString().slice(0, 10), 40),
      start_time: startTime,
      capacity: CAPACITY,
    });
  const event = await newEvent('07:15');
  for (let i = 0; i < TAKEN; i++) await holdSeat(deps, { type: 'client', clientId: `bench-filler-${event.id}-${i}` }, event.id);

  const own = await Promise.all(Array.from({ length: HOLDERS }, (_, w) => newEvent(`${String(8 + w).padStart(2, '0')}:30`)));
  const tally: Tally = { attempts: 0 };
  const contended: number[] = [];
  const uncontended: number[] = [];
  let holds = 0;
  let refused = 0;
  let errors = 0;
  let took = 0;
  /** Each hold's seat and the time it was certainly held: from its answer until its release was sent. */
  const held: { seat: string; from: number; to: number }[] = [];
  const holderOf = (w: number) => ({ type: 'client' as const, clientId: `bench-seat-${event.id}-${w}` });
  // The 8 holders on the last 4 seats, then each alone on an event of its own, in alternating slices
  // (a drift in the machine's speed slows both alike).
  for (let slice = 0; slice < 4; slice++) {
    const contendedSlice = await run(
      async (w) => {
        const holder = holderOf(w);
        try {
          const hold = await timed(contended, () => holdSeat(deps, holder, event.id, tally));
          const from = performance.now();
          holds++;
          const seat = await seatOf(deps, hold.hold_hash);
          held.push({ seat, from, to: performance.now() });
          await releaseSeat(deps, holder, hold.hold_hash);
        } catch (err) {
          if (err instanceof DomainError && err.code === 'event-full') refused++;
          else if (err instanceof DomainError) throw err;
          else errors++; // what the API would answer with a 5xx
        }
      },
      seconds / 4,
      HOLDERS,
    );
    took += contendedSlice.seconds;
    await run(
      async (w) => {
        const holder = holderOf(w);
        const hold = await timed(uncontended, () => holdSeat(deps, holder, own[w]!.id));
        await releaseSeat(deps, holder, hold.hold_hash);
      },
      seconds / 4,
      HOLDERS,
    );
  }
  const latency = percentiles(contended);
  const alone = percentiles(uncontended);
  return {
    capacity: CAPACITY,
    occupied: TAKEN,
    holders: HOLDERS,
    holds,
    refused,
    errors,
    oversold: overlaps(held),
    holds_per_s: round(holds / took),
    attempts_per_hold: round(tally.attempts / Math.max(1, holds)),
    p50_ms: latency.p50,
    p95_ms: latency.p95,
    uncontended_p95_ms: alone.p95,
    ratio_p95_vs_uncontended: round(latency.p95 / alone.p95),
  };
}

/** Holds of one seat whose held times overlap: two holders had it at once. */
function overlaps(held: { seat: string; from: number; to: number }[]): number {
  const sorted = [...held].sort((a, b) => a.seat.localeCompare(b.seat) || a.from - b.from);
  let count = 0;
  let until = -Infinity;
  sorted.forEach((h, i) => {
    if (i > 0 && sorted[i - 1]!.seat !== h.seat) until = -Infinity;
    if (h.from < until) count++;
    until = Math.max(until, h.to);
  });
  return count;
}

/** The seat a hold took, from its stored record (read outside the timed part). */
async function seatOf(deps: Deps, holdHash: string): Promise<string> {
  const { Item } = await deps.db.send(
    new GetCommand({ TableName: deps.table, Key: holdRecordKeys.hold(PRACTICAL_FAMILY, holdHash), ProjectionExpression: 'seat' }),
  );
  return String(Item?.seat);
}
