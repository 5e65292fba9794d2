import * as account from '../../api/routes/registration-monitoring-account.js';
import { deleteUser } from '../../core/access/team.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(account.deleteTeamUser, async ({ deps, caller, params, acting }) => {
  await deleteUser(deps, caller.clientId, params.id, acting);
  return { status: 204 };
});
