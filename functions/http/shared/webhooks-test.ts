import * as shared from '../../api/routes/shared.js';
import { sendTestEvent } from '../../core/webhooks/endpoints.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.testWebhook, async ({ deps, caller, family, params }) => ({
  status: 202,
  body: single(family, await sendTestEvent(deps, caller.clientId, family, params.id), 'Test event queued'),
}));
