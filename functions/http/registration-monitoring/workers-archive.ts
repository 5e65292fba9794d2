import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { archiveWorker } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.archiveWorker, async ({ deps, caller, params }) => {
  await archiveWorker(deps, caller.clientId, params.id);
  return { status: 204 };
});
