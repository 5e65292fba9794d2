import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { createWorker } from '../../core/registration-monitoring/workers.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  registrationMonitoring.createWorker,
  async ({ deps, caller, body }) => ({ status: 201, body: await createWorker(deps, caller.clientId, body) }),
  { idempotency },
);
