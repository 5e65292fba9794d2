import * as portalV2 from '../../api/routes/portal-v2.js';
import { createReferenceRequest } from '../../core/portal-v2/reference-requests.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  portalV2.createReferenceRequest,
  async ({ deps, family, caller, body, baseUrl }) => ({
    status: 201,
    body: single(family, await createReferenceRequest(deps, caller.clientId, body, baseUrl), 'Reference request created'),
  }),
  { idempotency },
);
