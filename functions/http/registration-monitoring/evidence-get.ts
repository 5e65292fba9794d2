import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { getEvidence } from '../../core/registration-monitoring/evidence.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.getEvidence, async ({ deps, caller, params }) => ({ status: 200, body: await getEvidence(deps, caller.clientId, params.id) }));
