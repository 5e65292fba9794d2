import { getReferenceRequest } from '../../core/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idParam } from '../shared/fields.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer' }, async ({ deps, caller, params }) => ({
  status: 200,
  body: { data: await getReferenceRequest(deps, caller.clientId, idParam(params, 'reference request')), message: 'Reference request' },
}));
