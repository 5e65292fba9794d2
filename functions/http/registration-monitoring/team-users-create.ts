import * as account from '../../api/routes/registration-monitoring-account.js';
import { createUser } from '../../core/access/team.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  account.createTeamUser,
  async ({ deps, caller, body, acting }) => ({ status: 201, body: await createUser(deps, caller.clientId, body, acting) }),
  { idempotency },
);
