import { portalV2 } from '../../api/routes/portal-v2.js';
import { requireGroupItem } from '../../core/portal-v2/request-groups.js';
import { reviewItem } from '../../core/portal-v2/request-items.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  portalV2.rejectGroupItem,
  async ({ deps, family, caller, params, body }) => ({
    status: 200,
    body: single(family, await reviewItem(deps, caller.clientId, params.group, params.id, params.item_id, { accept: false, reason: body.reason }, null), `Item ${params.item_id} rejected`),
  }),
  // Another client's request or item is 404 whatever the body (decision 16).
  { resource: ({ deps, caller, params }) => requireGroupItem(deps, caller.clientId, params.group, params.id, params.item_id) },
);
