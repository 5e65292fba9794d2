import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { verificationHistory } from '../../core/registration-monitoring/verifications.js';
import { requireWorker } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.listVerifications, async ({ deps, caller, params, query }) => {
  await requireWorker(deps, caller.clientId, params.id);
  return { status: 200, body: await verificationHistory(deps, caller.clientId, params.id, query) };
});
