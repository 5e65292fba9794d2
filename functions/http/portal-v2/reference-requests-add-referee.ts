import * as portalV2 from '../../api/routes/portal-v2.js';
import { addReferee, getReferenceRequest } from '../../core/portal-v2/reference-requests.js';
import { httpHandler, single } from '../../middleware/http-handler.js';
import { idempotency } from '../../middleware/idempotency.js';

export const handler = httpHandler(
  portalV2.addReferee,
  async ({ deps, family, caller, params, body }) => ({
    status: 201,
    body: single(family, await addReferee(deps, caller.clientId, params.id, body), 'Referee added and e-mailed'),
  }),
  {
    idempotency,
    // Another client's request is 404 whatever the body says.
    resource: ({ deps, caller, params }) => getReferenceRequest(deps, caller.clientId, params.id),
  },
);
