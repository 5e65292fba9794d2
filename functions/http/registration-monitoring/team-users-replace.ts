import * as account from '../../api/routes/registration-monitoring-account.js';
import { getUser, replaceUser } from '../../core/access/team.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  account.replaceTeamUser,
  async ({ deps, caller, params, body, acting }) => ({ status: 200, body: await replaceUser(deps, caller.clientId, params.id, body, acting) }),
  { resource: ({ deps, caller, params }) => getUser(deps, caller.clientId, params.id) },
);
