/**
 * When a failed webhook delivery is tried again. Pure and SDK-free: the queue
 * table (lib/queues.ts) sizes the deliveries queue from the schedule at synth
 * time.
 */

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
