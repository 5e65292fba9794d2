import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getAlert } from '../../core/registration-monitoring/alerts.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getAlert, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getAlert(deps, caller.clientId, params.id),
}));
