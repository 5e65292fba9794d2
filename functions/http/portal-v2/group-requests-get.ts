import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { getGroupRequest, kindOf, logGroupRead, requireGroupRequest } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

// Another client's request is 404 first; then the route's Acting-User rule (health:read for a health kind), and the read is logged.
export const handler = httpHandler(
  requestGroups.getGroupRequest,
  async ({ deps, log, family, caller, params, acting }) => {
    const request = await getGroupRequest(deps, caller.clientId, params.group, params.id);
    logGroupRead(log, caller.clientId, params.group, params.id, 'request', acting);
    return { status: 200, body: single(family, request, kindOf(params.group).declaration.title) };
  },
  { resource: ({ deps, caller, params }) => requireGroupRequest(deps, caller.clientId, params.group, params.id) },
);
