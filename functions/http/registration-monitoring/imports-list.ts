import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { listImports } from '../../core/registration-monitoring/imports.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.listImports, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listImports(deps, caller.clientId, { limit: Number(query.limit), cursor: query.cursor }),
}));
