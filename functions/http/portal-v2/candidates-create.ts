import { portalV2 } from '../../api/routes/portal-v2.js';
import { createCandidate } from '../../core/portal-v2/candidates.js';
import { httpHandler, single } from '../../middleware/http-handler.js';

export const handler = httpHandler(portalV2.createCandidate, async ({ deps, family, caller, body }) => ({
  status: 201,
  body: single(family, await createCandidate(deps, caller.clientId, body), 'Candidate created'),
}));
