import { depsFromEnv } from '../core/platform/deps.js';
import { dispatchDue } from '../core/registration-monitoring/due.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled: queues the registration monitoring checks that are due, from the due items' hour buckets (never a scan). */
const deps = depsFromEnv();
const log = createLogger({ worker: 'monitoring-dispatch' });

export async function handler(): Promise<{ queued: number }> {
  const { queued, queries } = await dispatchDue(deps);
  if (queued > 0) log.info('monitoring checks queued', { queued, queries });
  return { queued };
}
