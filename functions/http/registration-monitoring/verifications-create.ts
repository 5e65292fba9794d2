import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { checkWorker } from '../../core/registration-monitoring/verify.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';

/** 201 for a check this call ran; 200 for one it answers (under 5 minutes old, or another caller's in flight). */
export const handler = monitoringHandler(
  registrationMonitoring.verifyWorker,
  async ({ deps, caller, params, query, acting }) => {
    const { status, verification } = await checkWorker(deps, caller.clientId, params.id, {
      trigger: 'manual',
      fresh: query.fresh,
      requestedBy: acting?.id ?? null,
    });
    return { status, body: verification };
  },
  { idempotency },
);
