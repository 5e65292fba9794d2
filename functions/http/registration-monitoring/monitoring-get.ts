import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getMonitoring } from '../../core/registration-monitoring/monitoring-settings.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getMonitoring, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getMonitoring(deps, caller.clientId, params.id),
}));
