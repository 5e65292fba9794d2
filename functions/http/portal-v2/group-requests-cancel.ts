import { portalV2 } from '../../api/routes/portal-v2.js';
import { cancelGroupRequest, kindOf } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.cancelGroupRequest, async ({ deps, family, caller, params }) => ({
  status: 200,
  body: single(family, await cancelGroupRequest(deps, caller.clientId, params.group, params.id), `${kindOf(params.group).declaration.title} cancelled`),
}));
