import * as requestGroups from '../../api/routes/portal-v2-request-groups.js';
import { reissueItem } from '../../core/portal-v2/booking-items.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { inviteLinks } from './_invite-links.js';

export const handler = httpHandler(
  requestGroups.reissueGroupItem,
  async ({ deps, family, caller, params }) => ({
    status: 200,
    body: single(family, await reissueItem(deps, caller.clientId, params.group, params.id, params.item_id, inviteLinks), `Item ${params.item_id} reissued`),
  }),
  { idempotency },
);
