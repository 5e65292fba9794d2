import * as account from '../../api/routes/registration-monitoring-account.js';
import { getRole, replaceRole } from '../../core/access/team-roles.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  account.replaceTeamRole,
  async ({ deps, caller, params, body }) => ({ status: 200, body: await replaceRole(deps, caller.clientId, params.roleId, body) }),
  { resource: ({ deps, caller, params }) => getRole(deps, caller.clientId, params.roleId) },
);
