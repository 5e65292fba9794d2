import { addDays } from '../../functions/core/platform/time.js';
import { alternating, json, round } from './measure.js';

/**
 * A listing over 14 days against the same listing over 1 day, at the same
 * concurrency, in alternating slices of one run: requests a second and their
 * ratio. The cost of a listing should not grow with its range (target ≥ 0.5).
 */
export async function rangeRatio(
  url: (from: string, to: string) => string,
  from: string,
  tokenOf: (worker: number) => string,
  seconds: number,
  concurrency = 32,
) {
  const fortnight = url(from, addDays(from, 13));
  const day = url(from, from);
  const r = await alternating(
    async (w) => void (await json(fortnight, { token: tokenOf(w) })),
    async (w) => void (await json(day, { token: tokenOf(w) })),
    seconds,
    concurrency,
  );
  return { days_14_per_s: round(r.a), days_1_per_s: round(r.b), ratio: round(r.a / r.b) };
}
