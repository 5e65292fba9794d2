import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { cancelGroupRequest, kindOf, shownAfterChange } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(requestGroups.cancelGroupRequest, async ({ deps, log, family, caller, params, headers }) => {
  const cancelled = await cancelGroupRequest(deps, caller.clientId, params.group, params.id);
  return {
    status: 200,
    body: single(
      family,
      await shownAfterChange(deps, log, caller.clientId, params.group, cancelled, 'cancel', headers['acting-user']),
      `${kindOf(params.group).declaration.title} cancelled`,
    ),
  };
});
