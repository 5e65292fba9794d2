import * as practicalTraining from '../../api/routes/practical-training.js';
import { releaseSeat } from '../../core/practical-training/seats.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTraining.releaseSeat, async ({ deps, caller, params }) => {
  await releaseSeat(deps, { type: 'client', clientId: caller.clientId }, params.holdHash);
  return { status: 204 };
});
