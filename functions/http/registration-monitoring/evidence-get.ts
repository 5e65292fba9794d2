import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getEvidence } from '../../core/registration-monitoring/evidence.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getEvidence, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getEvidence(deps, caller.clientId, params.id),
}));
