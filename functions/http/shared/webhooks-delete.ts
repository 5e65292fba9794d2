import * as shared from '../../api/routes/shared.js';
import { deleteEndpoint } from '../../core/webhooks/endpoints.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.deleteWebhook, async ({ deps, caller, family, params }) => {
  await deleteEndpoint(deps, caller.clientId, family, params.id);
  return { status: 204 };
});
