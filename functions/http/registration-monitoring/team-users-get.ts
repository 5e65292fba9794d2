import * as account from '../../api/routes/registration-monitoring-account.js';
import { getUser } from '../../core/access/team.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(account.getTeamUser, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getUser(deps, caller.clientId, params.id),
}));
