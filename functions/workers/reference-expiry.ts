import { depsFromEnv } from '../core/platform/deps.js';
import { expireDueRequests } from '../core/portal-v2/reference-requests.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled: expires reference requests whose time is up (an EventBridge rule in the cloud, a timer locally). */
const deps = depsFromEnv();
const log = createLogger({ service: 'agency-api', worker: 'reference-expiry' });

export async function handler(): Promise<{ expired: number }> {
  const expired = await expireDueRequests(deps);
  if (expired > 0) log.info('reference requests expired', { expired });
  return { expired };
}
