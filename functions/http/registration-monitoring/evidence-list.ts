import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { listEvidence } from '../../core/registration-monitoring/evidence.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.listEvidence, async ({ deps, caller, query }) => ({ status: 200, body: await listEvidence(deps, caller.clientId, query) }));
