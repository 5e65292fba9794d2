import * as virtualLifeSupport from '../../api/routes/virtual-life-support.js';
import { releaseTimeslot } from '../../core/virtual-life-support/timeslots.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(virtualLifeSupport.releaseHold, async ({ deps, caller, params }) => {
  await releaseTimeslot(deps, { type: 'client', clientId: caller.clientId }, params.holdHash);
  return { status: 204 };
});
