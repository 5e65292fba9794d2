import * as account from '../../api/routes/registration-monitoring-account.js';
import { listImports } from '../../core/registration-monitoring/imports.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(account.listImports, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listImports(deps, caller.clientId, { limit: Number(query.limit), cursor: query.cursor }),
}));
