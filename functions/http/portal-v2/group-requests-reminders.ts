import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { remindGroupRequest, shownAfterChange } from '../../core/portal-v2/request-groups.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(requestGroups.remindGroupRequest, async ({ deps, log, family, caller, params, headers }) => {
  const { request, reminders_sent } = await remindGroupRequest(deps, caller.clientId, params.group, params.id);
  return {
    status: 200,
    body: single(
      family,
      await shownAfterChange(deps, log, caller.clientId, params.group, request, 'reminders', headers['acting-user']),
      `${reminders_sent} reminder${reminders_sent === 1 ? '' : 's'} sent`,
    ),
  };
});
