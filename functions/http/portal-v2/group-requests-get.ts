import * as portalV2 from '../../api/routes/portal-v2.js';
import { checkGroupRead, getGroupRequest, kindOf } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.getGroupRequest, async ({ deps, log, family, caller, params, headers }) => {
  const request = await getGroupRequest(deps, caller.clientId, params.group, params.id);
  await checkGroupRead(deps, log, caller.clientId, params.group, params.id, 'request', headers['acting-user']);
  return { status: 200, body: single(family, request, kindOf(params.group).declaration.title) };
});
