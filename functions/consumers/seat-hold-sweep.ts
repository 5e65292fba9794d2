import { depsFromEnv } from '../core/platform/deps.js';
import { sweepSeatHolds } from '../core/practical-training/seats.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled: announces practical training seat holds that expired unused (`seat_hold.expired`, once each). The seats were free already. */
const deps = depsFromEnv();
const log = createLogger({ worker: 'seat-hold-sweep' });

export async function handler(): Promise<{ announced: number }> {
  const announced = await sweepSeatHolds(deps);
  if (announced > 0) log.info('expired seat holds announced', { announced });
  return { announced };
}
