import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { WorkerCreate } from '../../api/schemas/registration-monitoring.js';
import { mergePatch } from '../../core/platform/merge-patch.js';
import { replaceWorker, requireWorker } from '../../core/registration-monitoring/workers.js';
import { parseWith } from '../../middleware/http-handler.js';
import { monitoringHandler } from './_acting.js';

/** JSON Merge Patch (RFC 7396) onto the worker's writable form, then the create schema: the same rules as PUT, and a field the worker does not have is refused at its pointer. */
export const handler = monitoringHandler(
  registrationMonitoring.patchWorker,
  async ({ deps, caller, params, body }) => ({
    status: 200,
    body: await replaceWorker(deps, caller.clientId, params.id, (current) => parseWith(WorkerCreate, mergePatch(current, body), 'body', true)),
  }),
  { resource: ({ deps, caller, params }) => requireWorker(deps, caller.clientId, params.id) },
);
