import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { replaceWorker, requireWorker } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  registrationMonitoring.replaceWorker,
  async ({ deps, caller, params, body }) => ({ status: 200, body: await replaceWorker(deps, caller.clientId, params.id, () => body) }),
  { resource: ({ deps, caller, params }) => requireWorker(deps, caller.clientId, params.id) },
);
