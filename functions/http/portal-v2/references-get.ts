import { getReference } from '../../core/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idParam } from '../shared/fields.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer' }, async ({ deps, caller, params }) => ({
  status: 200,
  body: { data: await getReference(deps, caller.clientId, idParam(params, 'reference')), message: 'Reference' },
}));
