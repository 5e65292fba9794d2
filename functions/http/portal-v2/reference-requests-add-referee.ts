import { addReferee } from '../../core/reference-requests.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { idParam } from '../shared/fields.js';
import { RefereeInput } from './schemas.js';

export const handler = httpHandler({ family: 'portal-v2', auth: 'bearer', body: RefereeInput, idempotent: true }, async ({ deps, caller, params, body }) => ({
  status: 201,
  body: { data: await addReferee(deps, caller.clientId, idParam(params, 'reference request'), body), message: 'Referee added and e-mailed' },
}));
