import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { getAlert } from '../../core/registration-monitoring/alerts.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.getAlert, async ({ deps, caller, params }) => ({ status: 200, body: await getAlert(deps, caller.clientId, params.id) }));
