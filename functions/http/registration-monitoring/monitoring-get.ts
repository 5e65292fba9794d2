import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { getMonitoring } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.getMonitoring, async ({ deps, caller, params }) => ({ status: 200, body: await getMonitoring(deps, caller.clientId, params.id) }));
