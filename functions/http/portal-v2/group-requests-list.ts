import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { listGroupRequests } from '../../core/portal-v2/request-groups.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(requestGroups.listGroupRequests, async ({ deps, caller, query, params }) => ({
  status: 200,
  body: await listGroupRequests(deps, caller.clientId, params.group, query),
}));
