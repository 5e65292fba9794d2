import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { createWorker } from '../../core/registration-monitoring/workers.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.createWorker, async ({ deps, caller, body }) => ({ status: 201, body: await createWorker(deps, caller.clientId, body) }));
