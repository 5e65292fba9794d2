import * as shared from '../../api/routes/shared.js';
import { endpointPage } from '../../core/webhooks/endpoints.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.listWebhooks, async ({ deps, caller, family, query }) => ({
  status: 200,
  body: await endpointPage(deps, caller.clientId, family, query),
}));
