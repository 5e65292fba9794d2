import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getBatch } from '../../core/registration-monitoring/batch.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getVerificationJob, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getBatch(deps, caller.clientId, params.id),
}));
