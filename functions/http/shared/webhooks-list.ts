import { webhookOperations } from '../../api/routes/shared.js';
import { listEndpoints, toEndpointView } from '../../core/webhooks.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(webhookOperations.listWebhooks, async ({ deps, caller, family }) => ({
  status: 200,
  body: { data: (await listEndpoints(deps, caller.clientId, family)).map((e) => toEndpointView(e, deps.config.serviceTimeZone)), next_cursor: null },
}));
