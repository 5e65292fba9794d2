import * as shared from '../../api/routes/shared.js';
import { getEndpoint } from '../../core/webhooks/endpoints.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.getWebhook, async ({ deps, caller, family, params }) => ({
  status: 200,
  body: single(family, await getEndpoint(deps, caller.clientId, family, params.id), 'Webhook endpoint'),
}));
