import * as account from '../../api/routes/registration-monitoring-account.js';
import { getImport } from '../../core/registration-monitoring/imports.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(account.getImport, async ({ deps, caller, params, query }) => ({
  status: 200,
  body: await getImport(deps, caller.clientId, params.id, query.errors_cursor),
}));
