import * as practicalTraining from '../../api/routes/practical-training.js';
import { listPracticalBookings } from '../../core/practical-training/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';

export const handler = httpHandler(practicalTraining.listBookings, async ({ deps, caller, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  return { status: 200, body: await listPracticalBookings(deps, caller.clientId, query) };
});
