import * as account from '../../api/routes/registration-monitoring-account.js';
import { getRole } from '../../core/access/team-roles.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(account.getTeamRole, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getRole(deps, caller.clientId, params.roleId),
}));
