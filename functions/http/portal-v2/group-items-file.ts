import { portalV2 } from '../../api/routes/portal-v2.js';
import { groupItemFileUrl } from '../../core/portal-v2/request-groups.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.downloadGroupItemFile, async ({ deps, caller, params }) => ({
  status: 303,
  body: undefined,
  headers: { location: await groupItemFileUrl(deps, caller.clientId, params.group, params.id, params.item_id) },
}));
