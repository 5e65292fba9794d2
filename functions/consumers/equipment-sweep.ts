import { depsFromEnv } from '../core/platform/deps.js';
import { sweepEquipment } from '../core/virtual-life-support/equipment.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled hourly: virtual life-support kit past its deadline becomes overdue (late fee, event) or lost (lost fee), once each. */
const deps = depsFromEnv();
const log = createLogger({ worker: 'equipment-sweep' });

export async function handler(): Promise<{ overdue: number; lost: number }> {
  const counts = await sweepEquipment(deps);
  if (counts.overdue + counts.lost > 0) log.info('equipment deadlines passed', counts);
  return counts;
}
