import * as account from '../../api/routes/registration-monitoring-account.js';
import { deleteRole } from '../../core/access/team-roles.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(account.deleteTeamRole, async ({ deps, caller, params }) => {
  await deleteRole(deps, caller.clientId, params.roleId);
  return { status: 204 };
});
