import { holdSeat, releaseSeat } from '../../functions/core/practical-training/seats.js';
import { createTrainingEvent, loadCatalogue } from '../../functions/core/practical-training/catalogue.js';
import type { Tally } from '../../functions/core/inventory/units.js';
import type { Deps } from '../../functions/core/platform/deps.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { addDays } from '../../functions/core/platform/time.js';
import { round, run } from './measure.js';

const CAPACITY = 40;
const TAKEN = 36; // 90 % occupancy
const HOLDERS = 8;

/**
 * Seat holds under contention: one training event of 40 seats with 36 held
 * for the whole run, and 8 clients each holding one of the 4 left and
 * releasing it, over and over. `attempts_per_hold` is the transactions tried
 * per hold obtained (target ≤ 1.5); a try that finds every seat taken is
 * `refused`, not an attempt.
 */
export async function seatHoldContention(deps: Deps, seconds: number) {
  const catalogue = await loadCatalogue(deps);
  const course = catalogue.courses.find((c) => c.active)!;
  const location = catalogue.locations.find((l) => l.active)!;
  const event = await createTrainingEvent(deps, { course_id: course.id, location_id: location.id, date: addDays(new Date().toISOString().slice(0, 10), 40), start_time: '07:15', capacity: CAPACITY });
  for (let i = 0; i < TAKEN; i++) await holdSeat(deps, { type: 'client', clientId: `bench-filler-${i}` }, event.id);
  const tally: Tally = { attempts: 0 };
  let holds = 0;
  let refused = 0;
  const { seconds: took } = await run(
    async (w) => {
      const holder = { type: 'client' as const, clientId: `bench-seat-${w}` };
      try {
        const hold = await holdSeat(deps, holder, event.id, tally);
        holds++;
        await releaseSeat(deps, holder, hold.hold_hash);
      } catch (err) {
        if (!(err instanceof DomainError && err.code === 'event-full')) throw err;
        refused++;
      }
    },
    seconds,
    HOLDERS,
  );
  return { capacity: CAPACITY, occupied: TAKEN, holders: HOLDERS, holds, refused, holds_per_s: round(holds / took), attempts_per_hold: round(tally.attempts / Math.max(1, holds)) };
}
