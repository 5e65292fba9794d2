import * as shared from '../../api/routes/shared.js';
import { policyFromEnv } from '../../core/webhooks/url-guard.js';
import { createEndpoint } from '../../core/webhooks/endpoints.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { vettingUrl } from './_webhooks.js';

export const handler = httpHandler(
  shared.createWebhook,
  async ({ deps, caller, family, body }) => ({
    status: 201,
    body: single(
      family,
      await vettingUrl(createEndpoint(deps, caller.clientId, family, body, policyFromEnv())),
      'Webhook endpoint created; store the secret now, it is not shown again',
    ),
  }),
  { idempotency },
);
