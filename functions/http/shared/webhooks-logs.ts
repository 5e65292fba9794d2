import * as shared from '../../api/routes/shared.js';
import { deliveryLog } from '../../core/webhooks/delivery.js';
import { getEndpoint } from '../../core/webhooks/endpoints.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.listWebhookDeliveries, async ({ deps, caller, family, params, query }) => {
  await getEndpoint(deps, caller.clientId, family, params.id); // another client's endpoint is not-found
  return { status: 200, body: await deliveryLog(deps, caller.clientId, family, params.id, query) };
});
