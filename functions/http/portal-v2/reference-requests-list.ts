import * as portalV2 from '../../api/routes/portal-v2.js';
import { listReferenceRequests } from '../../core/portal-v2/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.listReferenceRequests, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listReferenceRequests(deps, caller.clientId, query),
}));
