import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { groupItemFileUrl, logGroupRead, requireGroupItem } from '../../core/portal-v2/request-groups.js';
import { httpHandler } from '../../middleware/http-handler.js';

// Another client's request or item is 404 first; then the route's Acting-User rule (health:read for a health kind), and the read is logged.
export const handler = httpHandler(
  requestGroups.downloadGroupItemFile,
  async ({ deps, log, caller, params, acting }) => {
    const location = await groupItemFileUrl(deps, caller.clientId, params.group, params.id, params.item_id);
    logGroupRead(log, caller.clientId, params.group, params.id, `file of item ${params.item_id}`, acting);
    return { status: 303, headers: { location } };
  },
  { resource: ({ deps, caller, params }) => requireGroupItem(deps, caller.clientId, params.group, params.id, params.item_id) },
);
