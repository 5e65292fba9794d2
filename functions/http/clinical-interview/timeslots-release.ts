import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { releaseHold } from '../../core/inventory/holds.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(clinicalInterview.releaseHold, async ({ deps, caller, params }) => {
  await releaseHold(deps, caller.clientId, params.holdHash);
  return { status: 204 };
});
