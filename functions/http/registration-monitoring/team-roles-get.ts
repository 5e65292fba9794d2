import * as registrationMonitoring from '../../api/routes/registration-monitoring.js';
import { getRole } from '../../core/access/team.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(registrationMonitoring.getTeamRole, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getRole(deps, caller.clientId, params.roleId),
}));
