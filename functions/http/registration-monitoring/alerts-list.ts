import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { listAlerts } from '../../core/registration-monitoring/alerts.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.listAlerts, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listAlerts(deps, caller.clientId, query),
}));
