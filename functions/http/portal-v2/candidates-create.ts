import { createCandidate } from '../../core/candidates.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { CandidateCreate } from './schemas.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer', body: CandidateCreate, idempotent: true }, async ({ deps, caller, body }) => ({
  status: 201,
  body: { data: await createCandidate(deps, caller.clientId, body), message: 'Candidate created' },
}));
