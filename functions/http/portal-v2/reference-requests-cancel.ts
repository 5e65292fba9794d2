import * as portalV2 from '../../api/routes/portal-v2.js';
import { cancelReferenceRequest } from '../../core/portal-v2/reference-requests.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.cancelReferenceRequest, async ({ deps, family, caller, params }) => ({
  status: 200,
  body: single(family, await cancelReferenceRequest(deps, caller.clientId, params.id), 'Reference request cancelled'),
}));
