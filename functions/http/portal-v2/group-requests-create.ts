import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { createGroupRequest } from '../../core/portal-v2/group-create.js';
import type { NewGroupRequest } from '../../core/portal-v2/group-engine.js';
import { kindOf } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { inviteLinks } from './_invite-links.js';

export const handler = httpHandler(
  requestGroups.createGroupRequest,
  async ({ deps, family, caller, body, baseUrl, params }) => ({
    status: 201,
    body: single(
      family,
      await createGroupRequest(deps, caller.clientId, params.group, body as NewGroupRequest, baseUrl, inviteLinks),
      `${kindOf(params.group).declaration.title} created`,
    ),
  }),
  { idempotency },
);
