import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { replaceWorker, requireWorker } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  registrationMonitoring.replaceWorker,
  async ({ deps, caller, params, body }) => ({ status: 200, body: await replaceWorker(deps, caller.clientId, params.id, () => body) }),
  { resource: ({ deps, caller, params }) => requireWorker(deps, caller.clientId, params.id) },
);
