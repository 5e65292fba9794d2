import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { getWorker } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.getWorker, async ({ deps, caller, params }) => ({ status: 200, body: await getWorker(deps, caller.clientId, params.id) }));
