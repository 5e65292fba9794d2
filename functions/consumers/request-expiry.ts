import { depsFromEnv } from '../core/platform/deps.js';
import { expireDueRequestsOfEveryKind } from '../core/portal-v2/request-kinds.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled: expires requests of every kind whose time is up (an EventBridge rule in the cloud, a timer locally). */
const deps = depsFromEnv();
const log = createLogger({ worker: 'request-expiry' });

export async function handler(): Promise<{ expired: number }> {
  const byKind = await expireDueRequestsOfEveryKind(deps);
  const expired = Object.values(byKind).reduce((a, b) => a + b, 0);
  if (expired > 0) log.info('requests expired', { expired: byKind });
  return { expired };
}
