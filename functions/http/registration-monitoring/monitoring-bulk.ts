import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { setMonitoringMany } from '../../core/registration-monitoring/monitoring-settings.js';
import { monitoringHandler } from './_acting.js';
import { bulkProblem } from './_bulk.js';

const PROBLEMS = {
  archived: (id: number) => bulkProblem('worker-archived', `Worker ${id} is archived`),
  not_found: (id: number) => bulkProblem('not-found', `No worker ${id}`),
} as const;

export const handler = monitoringHandler(registrationMonitoring.bulkMonitoring, async ({ deps, caller, body }) => {
  const results = await setMonitoringMany(deps, caller.clientId, body.worker_ids, body.settings);
  return {
    status: 200,
    body: { data: results.map(({ id, result }) => (result === 'updated' ? { id, result } : { id, result, problem: PROBLEMS[result](id) })) },
  };
});
