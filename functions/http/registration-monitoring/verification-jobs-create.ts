import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { startBatch } from '../../core/registration-monitoring/batch.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';

/** 202: the job is queued; poll GET /verification-jobs/{id}. */
export const handler = monitoringHandler(
  registrationMonitoring.startVerificationJob,
  async ({ deps, caller, body, acting }) => ({
    status: 202,
    body: await startBatch(deps, caller.clientId, body.all ? { all: true } : { worker_ids: body.worker_ids! }, acting?.id ?? null),
  }),
  { idempotency },
);
