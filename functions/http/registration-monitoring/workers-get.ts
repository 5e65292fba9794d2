import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getWorker } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getWorker, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getWorker(deps, caller.clientId, params.id),
}));
