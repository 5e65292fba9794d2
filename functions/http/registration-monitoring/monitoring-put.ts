import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { setMonitoring } from '../../core/registration-monitoring/monitoring-settings.js';
import { requireWorker } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  registrationMonitoring.putMonitoring,
  async ({ deps, caller, params, body }) => ({ status: 200, body: await setMonitoring(deps, caller.clientId, params.id, body) }),
  { resource: ({ deps, caller, params }) => requireWorker(deps, caller.clientId, params.id) },
);
