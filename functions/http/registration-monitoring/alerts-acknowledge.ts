import { registrationMonitoring } from '../../api/routes/registration-monitoring.js';
import { acknowledgeOne, getAlert } from '../../core/registration-monitoring/alerts.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  registrationMonitoring.acknowledgeAlert,
  async ({ deps, caller, params, body }) => ({ status: 200, body: await acknowledgeOne(deps, caller.clientId, params.id, { userId: null, note: body.note ?? null }) }),
  { resource: ({ deps, caller, params }) => getAlert(deps, caller.clientId, params.id) },
);
