import { depsFromEnv } from '../core/platform/deps.js';
import { purgeDueRequests } from '../core/portal-v2/request-purge.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled: deletes request files and blanks item data whose retention has ended (an EventBridge rule in the cloud, a timer locally). */
const deps = depsFromEnv();
const log = createLogger({ worker: 'request-purge' });

export async function handler(): Promise<{ purged: number }> {
  const purged = await purgeDueRequests(deps);
  // Counts only: no item data or file names in logs.
  if (purged > 0) log.info('request retention purged', { purged });
  return { purged };
}
