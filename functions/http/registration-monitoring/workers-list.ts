import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { listWorkers } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.listWorkers, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listWorkers(deps, caller.clientId, query),
}));
