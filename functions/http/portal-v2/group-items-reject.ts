import { portalV2 } from '../../api/routes/portal-v2.js';
import { requireGroupItem } from '../../core/portal-v2/request-groups.js';
import { reviewItem } from '../../core/portal-v2/request-items.js';
import { actingHandler } from '../../middleware/acting-user.js';
import { single } from '../../middleware/http-handler.js';

// Another client's request or item is 404 whatever the body (decision 16); then `Acting-User` needs requests:review.
export const handler = actingHandler(
  portalV2.rejectGroupItem,
  'requests:review',
  async ({ deps, family, caller, params, body, acting }) => ({
    status: 200,
    body: single(family, await reviewItem(deps, caller.clientId, params.group, params.id, params.item_id, { accept: false, reason: body.reason }, acting?.id ?? null), `Item ${params.item_id} rejected`),
  }),
  { resource: ({ deps, caller, params }) => requireGroupItem(deps, caller.clientId, params.group, params.id, params.item_id) },
);
