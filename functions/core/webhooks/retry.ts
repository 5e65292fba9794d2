/**
 * When and from which queue a webhook delivery is tried. Pure and SDK-free:
 * the queue table (lib/queues.ts) builds the lanes and sizes them from the
 * schedule at synth time.
 */

/**
 * The delivery queues: an endpoint whose latest
 * attempt failed, timed out or took longer than FAST_LANE_BUDGET_SECONDS is
 * delivered from the slow lane, so that its hanging POSTs never hold the
 * pollers that healthy endpoints are served by; and one that has not failed
 * yet holds a fast-lane batch for the budget at most, not its timeout.
 */
export const DELIVERY_LANES = { fast: 'deliveries', slow: 'deliveries_slow' } as const;
export type Lane = keyof typeof DELIVERY_LANES;

/**
 * At most this many attempts at one endpoint in one batch of a lane; the
 * others are queued again a little later. The slow lane's endpoints are
 * struggling: a burst reaches them a few at a time. A healthy endpoint takes
 * a whole batch (deferring there cost a burst of events to one endpoint 90 %
 * of its throughput and a re-queue per event), so it has at most the fast
 * lane's pollers × 10 attempts in flight.
 */
export const MAX_ATTEMPTS_PER_ENDPOINT_PER_BATCH: Record<Lane, number> = { fast: 10, slow: 3 };
export const DEFER_SECONDS = 2;

/**
 * How long the fast lane waits for an answer.
 * An attempt still unanswered after this is given up on as failed, so the
 * endpoint is delivered from the slow lane (with its whole timeout_seconds)
 * from then on: a new endpoint that hangs holds a fast-lane batch this long,
 * not its timeout. An endpoint stays in the slow lane until an attempt there
 * is answered within this budget.
 */
export const FAST_LANE_BUDGET_SECONDS = 2;

/** Seconds before each retry; the deliveries queue allows RETRY_SCHEDULE.length + 1 receives. */
export const RETRY_SCHEDULE = [5, 300, 1800, 7200, 18000, 36000, 36000];
/** The longest visibility timeout SQS accepts. */
export const MAX_VISIBILITY_SECONDS = 12 * 3600;

/** Seconds until the retry after `attempt`: the schedule's step ±20 %, or the receiver's Retry-After kept within [step, 2×step]. */
export function retryDelay(schedule: number[], attempt: number, retryAfterSeconds?: number, random = Math.random): number {
  const step = schedule[attempt - 1]!;
  const delay = retryAfterSeconds !== undefined ? Math.min(Math.max(retryAfterSeconds, step), 2 * step) : step * (0.8 + 0.4 * random());
  return Math.min(Math.round(delay), MAX_VISIBILITY_SECONDS);
}
