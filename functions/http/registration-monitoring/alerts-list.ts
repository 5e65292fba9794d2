import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { listAlerts } from '../../core/registration-monitoring/alerts.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.listAlerts, async ({ deps, caller, query }) => ({ status: 200, body: await listAlerts(deps, caller.clientId, query) }));
