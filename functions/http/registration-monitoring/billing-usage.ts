import * as account from '../../api/routes/registration-monitoring-account.js';
import { usageSummary } from '../../core/registration-monitoring/billing.js';
import { wallClock } from '../../core/platform/time.js';
import { monitoringHandler } from './_acting.js';

/** This month unless `period` names another (service time zone). */
export const handler = monitoringHandler(account.getUsage, async ({ deps, caller, query }) => ({
  status: 200,
  body: await usageSummary(deps, caller.clientId, query.period ?? wallClock(deps.clock(), deps.config.serviceTimeZone).date.slice(0, 7)),
}));
