import * as shared from '../../api/routes/shared.js';
import { replayDeliveries } from '../../core/webhooks/replay.js';
import { getEndpoint } from '../../core/webhooks/endpoints.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  shared.replayWebhook,
  async ({ deps, caller, family, params, body }) => {
    const queued = await replayDeliveries(deps, { clientId: caller.clientId, family, endpointId: params.id }, body);
    return { status: 202, body: single(family, queued, `${queued.replayed} event${queued.replayed === 1 ? '' : 's'} queued again`) };
  },
  // Another client's endpoint is 404 whatever the body says.
  { resource: ({ deps, caller, family, params }) => getEndpoint(deps, caller.clientId, family, params.id) },
);
