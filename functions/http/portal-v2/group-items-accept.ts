import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { requireGroupItem, shownAfterChange } from '../../core/portal-v2/request-groups.js';
import { reviewItem } from '../../core/portal-v2/request-items.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

// `Acting-User` needs requests:review and is recorded as reviewed_by, once the path is found.
export const handler = httpHandler(
  requestGroups.acceptGroupItem,
  async ({ deps, log, family, caller, params, headers, acting }) => {
    const reviewed = await reviewItem(deps, caller.clientId, params.group, params.id, params.item_id, { accept: true }, acting?.id ?? null);
    // A health kind's data only to those who may read it.
    return {
      status: 200,
      body: single(
        family,
        await shownAfterChange(deps, log, caller.clientId, params.group, reviewed, 'review', headers['acting-user']),
        `Item ${params.item_id} accepted`,
      ),
    };
  },
  { resource: ({ deps, caller, params }) => requireGroupItem(deps, caller.clientId, params.group, params.id, params.item_id) },
);
