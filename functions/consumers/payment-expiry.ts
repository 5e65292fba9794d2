import { expireUnpaidBookings } from '../core/bookings/payment-expiry.js';
import { clinicalBookings } from '../core/clinical-interview/bookings.js';
import { CLINICAL_FAMILY } from '../core/clinical-interview/catalog.js';
import { depsFromEnv } from '../core/platform/deps.js';
import { PRACTICAL_BOOKINGS } from '../core/practical-training/bookings.js';
import { createLogger } from '../middleware/logger.js';
import { VLS_BOOKINGS } from '../core/virtual-life-support/bookings.js';

/** Scheduled: cancels candidate_pays bookings still unpaid at their deadline, in every booking family. */
const deps = depsFromEnv();
const log = createLogger({ worker: 'payment-expiry' });
const KINDS = [clinicalBookings(CLINICAL_FAMILY), PRACTICAL_BOOKINGS, VLS_BOOKINGS];

export async function handler(): Promise<{ cancelled: number }> {
  let cancelled = 0;
  for (const kind of KINDS) cancelled += await expireUnpaidBookings(deps, kind as Parameters<typeof expireUnpaidBookings>[1]);
  if (cancelled > 0) log.info('unpaid bookings cancelled', { cancelled });
  return { cancelled };
}
