import { portalV2 } from '../../api/routes/portal-v2.js';
import { reviewItem } from '../../core/portal-v2/request-items.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

// reviewed_by stays null until the platform has team users and Acting-User (decision 10).
export const handler = httpHandler(portalV2.acceptGroupItem, async ({ deps, family, caller, params }) => ({
  status: 200,
  body: single(family, await reviewItem(deps, caller.clientId, params.group, params.id, params.item_id, { accept: true }, null), `Item ${params.item_id} accepted`),
}));
