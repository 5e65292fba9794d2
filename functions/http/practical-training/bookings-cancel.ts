import * as practicalTraining from '../../api/routes/practical-training.js';
import { cancelPractical } from '../../core/practical-training/booking-changes.js';
import { getPracticalBooking } from '../../core/practical-training/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(
  practicalTraining.cancelBooking,
  async ({ deps, caller, params, body }) => ({
    status: 200,
    body: await cancelPractical(deps, caller.clientId, params.id, { by: 'agency', reason: body.reason }),
  }),
  // Another client's booking is 404 whatever the body says.
  { resource: ({ deps, caller, params }) => getPracticalBooking(deps, caller.clientId, params.id) },
);
