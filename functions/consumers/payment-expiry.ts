import { expireUnpaidBookings } from '../core/bookings/payment-expiry.js';
import { depsFromEnv } from '../core/platform/deps.js';
import { BOOKING_KINDS } from '../core/registries/booking-kinds.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled: cancels candidate_pays bookings still unpaid at their deadline, in every booking family. */
const deps = depsFromEnv();
const log = createLogger({ worker: 'payment-expiry' });

export async function handler(): Promise<{ cancelled: number }> {
  let cancelled = 0;
  for (const kind of Object.values(BOOKING_KINDS)) cancelled += await expireUnpaidBookings(deps, kind);
  if (cancelled > 0) log.info('unpaid bookings cancelled', { cancelled });
  return { cancelled };
}
