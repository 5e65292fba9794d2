import * as portalV2 from '../../api/routes/portal-v2.js';
import { checkGroupRead, groupItemFileUrl } from '../../core/portal-v2/request-groups.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.downloadGroupItemFile, async ({ deps, log, caller, params, headers }) => {
  const location = await groupItemFileUrl(deps, caller.clientId, params.group, params.id, params.item_id);
  await checkGroupRead(deps, log, caller.clientId, params.group, params.id, `file of item ${params.item_id}`, headers['acting-user']);
  return { status: 303, headers: { location } };
});
