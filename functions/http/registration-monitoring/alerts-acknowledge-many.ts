import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { acknowledgeMany } from '../../core/registration-monitoring/alerts.js';
import { monitoringHandler } from './_acting.js';
import { bulkProblem as problem } from './_bulk.js';

/** Each distinct id answered on its own; a refusal carries the problem that acknowledging that one alert would answer. */
const PROBLEMS = {
  resolved: (id: number) => problem('alert-resolved', `Alert ${id} is resolved`),
  not_found: (id: number) => problem('not-found', `No alert ${id}`),
} as const;

export const handler = monitoringHandler(registrationMonitoring.acknowledgeAlerts, async ({ deps, caller, body, acting }) => {
  const results = await acknowledgeMany(deps, caller.clientId, body.alert_ids, { userId: acting?.id ?? null, note: body.note ?? null });
  return {
    status: 200,
    body: {
      data: results.map(({ id, result }) => (result === 'resolved' || result === 'not_found' ? { id, result, problem: PROBLEMS[result](id) } : { id, result })),
    },
  };
});
