import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { archiveWorker } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.archiveWorker, async ({ deps, caller, params }) => {
  await archiveWorker(deps, caller.clientId, params.id);
  return { status: 204 };
});
