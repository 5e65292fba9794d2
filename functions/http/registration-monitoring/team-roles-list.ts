import * as account from '../../api/routes/registration-monitoring-account.js';
import { listRoles } from '../../core/access/team-roles.js';
import { monitoringHandler } from './_acting.js';

/** The built-in roles, then the account's own; every one with how many users hold it. */
export const handler = monitoringHandler(account.listTeamRoles, async ({ deps, caller }) => ({
  status: 200,
  body: { data: await listRoles(deps, caller.clientId), next_cursor: null },
}));
