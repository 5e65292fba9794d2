import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getImport } from '../../core/registration-monitoring/imports.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getImport, async ({ deps, caller, params, query }) => ({
  status: 200,
  body: await getImport(deps, caller.clientId, params.id, query.errors_cursor),
}));
