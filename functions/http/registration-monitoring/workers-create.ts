import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { createWorker } from '../../core/registration-monitoring/workers.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.createWorker, async ({ deps, caller, body }) => ({ status: 201, body: await createWorker(deps, caller.clientId, body) }));
