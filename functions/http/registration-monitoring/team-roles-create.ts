import * as account from '../../api/routes/registration-monitoring-account.js';
import { createRole } from '../../core/access/team-roles.js';
import { idempotency } from '../../middleware/idempotency.js';
import { monitoringHandler } from './_acting.js';

export const handler = monitoringHandler(
  account.createTeamRole,
  async ({ deps, caller, body }) => ({ status: 201, body: await createRole(deps, caller.clientId, body) }),
  { idempotency },
);
