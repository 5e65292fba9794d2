import * as shared from '../../api/routes/shared.js';
import { policyFromEnv } from '../../core/webhooks/url-guard.js';
import { getEndpoint, updateEndpoint } from '../../core/webhooks/endpoints.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { vettingUrl } from './_webhooks.js';

export const handler = httpHandler(
  shared.updateWebhook,
  async ({ deps, caller, family, params, body }) => ({
    status: 200,
    body: single(family, await vettingUrl(updateEndpoint(deps, caller.clientId, family, params.id, body, policyFromEnv())), 'Webhook endpoint updated'),
  }),
  // Another client's endpoint is 404 whatever the body says.
  { resource: ({ deps, caller, family, params }) => getEndpoint(deps, caller.clientId, family, params.id) },
);
