import { depsFromEnv } from '../core/platform/deps.js';
import { purgeDueRequests } from '../core/portal-v2/request-purge.js';
import { sweepExpiredEvidence } from '../core/registration-monitoring/evidence-store.js';
import { createLogger } from '../middleware/logger.js';

/**
 * Scheduled: deletes request files and blanks item data whose retention has ended (an EventBridge rule in the cloud,
 * a timer locally); locally also the registration evidence files past their retention (in the cloud the bucket's
 * lifecycle rule does that, and this sweep does nothing).
 */
const deps = depsFromEnv();
const log = createLogger({ worker: 'request-purge' });

export async function handler(): Promise<{ purged: number; evidence_files: number }> {
  const purged = await purgeDueRequests(deps);
  const evidenceFiles = await sweepExpiredEvidence(deps);
  // Counts only: no item data or file names in logs.
  if (purged > 0 || evidenceFiles > 0) log.info('retention purged', { purged, evidence_files: evidenceFiles });
  return { purged, evidence_files: evidenceFiles };
}
