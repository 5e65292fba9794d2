import { releaseHold } from '../../core/holds.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer' }, async ({ deps, caller, params }) => {
  await releaseHold(deps, caller.clientId, params.holdHash ?? '');
  return { status: 204 };
});
