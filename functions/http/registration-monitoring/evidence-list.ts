import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { listEvidence } from '../../core/registration-monitoring/evidence.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.listEvidence, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listEvidence(deps, caller.clientId, query),
}));
