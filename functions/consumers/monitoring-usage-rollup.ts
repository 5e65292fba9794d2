import { depsFromEnv } from '../core/platform/deps.js';
import { rollupIfDue } from '../core/registration-monitoring/billing.js';
import { createLogger } from '../middleware/logger.js';

/** Scheduled, hourly: from 02:00 on the 1st, last month's registration monitoring usage goes to the ledger, one entry per client, once. */
const deps = depsFromEnv();
const log = createLogger({ worker: 'monitoring-usage-rollup' });

export async function handler(): Promise<{ rolled_up: number }> {
  const rolled = await rollupIfDue(deps);
  if (rolled) log.info('monitoring usage rolled up', { clients: rolled.length, created: rolled.filter((r) => r.created).length });
  return { rolled_up: rolled?.length ?? 0 };
}
