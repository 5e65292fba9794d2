import * as portalV1 from '../../api/routes/portal-v1.js';
import { subscribeV1 } from '../../core/portal-v1/webhooks.js';
import { policyFromEnv } from '../../core/webhooks/url-guard.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';
import { vettingUrl } from '../shared/_webhooks.js';

export const handler = httpHandler(
  portalV1.subscribeWebhook,
  async ({ deps, family, caller, body }) => ({
    status: 201,
    body: single(
      family,
      await vettingUrl(subscribeV1(deps, caller.clientId, body, policyFromEnv())),
      'Subscribed; store the secret now, it is not shown again',
    ),
  }),
  { idempotency },
);
