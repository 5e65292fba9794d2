import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { requireWorker, setMonitoring } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  registrationMonitoring.putMonitoring,
  async ({ deps, caller, params, body }) => ({ status: 200, body: await setMonitoring(deps, caller.clientId, params.id, body) }),
  { resource: ({ deps, caller, params }) => requireWorker(deps, caller.clientId, params.id) },
);
