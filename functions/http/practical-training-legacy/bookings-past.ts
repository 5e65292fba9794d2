import * as practicalTrainingLegacy from '../../api/routes/practical-training-legacy.js';
import { pastBookings } from '../../core/practical-training-legacy/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTrainingLegacy.listPastBookings, async ({ deps, caller, query }) => ({
  status: 200,
  body: await pastBookings(deps, caller.clientId, query),
}));
