import { portalV2 } from '../../api/routes/portal-v2.js';
import { getCandidate } from '../../core/portal-v2/candidates.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.getCandidate, async ({ deps, family, caller, params }) => ({
  status: 200,
  body: single(family, await getCandidate(deps, caller.clientId, params.id), 'Candidate'),
}));
