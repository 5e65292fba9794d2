import * as shared from '../../api/routes/shared.js';
import { rotateSecret } from '../../core/webhooks/endpoints.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.rotateWebhookSecret, async ({ deps, caller, family, params }) => ({
  status: 200,
  body: single(family, await rotateSecret(deps, caller.clientId, family, params.id), 'Secret rotated; the previous secret also signs for 24 hours'),
}));
