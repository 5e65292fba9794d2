import { listReferenceRequests } from '../../core/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { ReferenceRequestsQuery } from './schemas.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer', query: ReferenceRequestsQuery }, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listReferenceRequests(deps, caller.clientId, query),
}));
