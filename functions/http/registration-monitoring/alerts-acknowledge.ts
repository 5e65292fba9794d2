import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { acknowledgeOne, getAlert } from '../../core/registration-monitoring/alerts.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  registrationMonitoring.acknowledgeAlert,
  async ({ deps, caller, params, body, acting }) => ({
    status: 200,
    body: await acknowledgeOne(deps, caller.clientId, params.id, { userId: acting?.id ?? null, note: body.note ?? null }),
  }),
  { resource: ({ deps, caller, params }) => getAlert(deps, caller.clientId, params.id) },
);
