import * as account from '../../api/routes/registration-monitoring-account.js';
import { listUsers, userView } from '../../core/access/team.js';
import { monitoringHandler } from './_acting.js';

/** Every team user of the account, in the order they were added. */
export const handler = monitoringHandler(account.listTeamUsers, async ({ deps, caller }) => ({
  status: 200,
  body: { data: (await listUsers(deps, caller.clientId)).map((u) => userView(deps, u)), next_cursor: null },
}));
