import * as portalV1 from '../../api/routes/portal-v1.js';
import { unsubscribeV1 } from '../../core/portal-v1/webhooks.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV1.unsubscribeWebhook, async ({ deps, caller, params }) => {
  await unsubscribeV1(deps, caller.clientId, params.id);
  return { status: 204 };
});
