import { portalV2 } from '../../api/routes/portal-v2.js';
import { listCandidates } from '../../core/portal-v2/candidates.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.listCandidates, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listCandidates(deps, caller.clientId, query),
}));
