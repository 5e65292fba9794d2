import * as practicalTraining from '../../api/routes/practical-training.js';
import { getPracticalBooking } from '../../core/practical-training/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTraining.getBooking, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getPracticalBooking(deps, caller.clientId, params.id),
}));
