import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { listWorkers } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.listWorkers, async ({ deps, caller, query }) => ({ status: 200, body: await listWorkers(deps, caller.clientId, query) }));
