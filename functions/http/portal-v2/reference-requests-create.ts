import { createReferenceRequest } from '../../core/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { ReferenceRequestCreate } from './schemas.js';

export const handler = httpHandler(
  { family: 'portal-v2', auth: 'bearer', body: ReferenceRequestCreate, idempotent: true },
  async ({ deps, caller, body, baseUrl }) => ({
    status: 201,
    body: { data: await createReferenceRequest(deps, caller.clientId, body, baseUrl), message: 'Reference request created' },
  }),
);
