import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { getBatch } from '../../core/registration-monitoring/batch.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(registrationMonitoring.getVerificationJob, async ({ deps, caller, params }) => ({ status: 200, body: await getBatch(deps, caller.clientId, params.id) }));
