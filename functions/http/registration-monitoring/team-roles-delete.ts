import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { deleteRole } from '../../core/access/team.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.deleteTeamRole, async ({ deps, caller, params }) => {
  await deleteRole(deps, caller.clientId, params.roleId);
  return { status: 204 };
});
