import { listCandidates } from '../../core/candidates.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { PageQuery } from './schemas.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer', query: PageQuery }, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listCandidates(deps, caller.clientId, query),
}));
