import * as practicalTrainingLegacy from '../../api/routes/practical-training-legacy.js';
import { upcomingBookings } from '../../core/practical-training-legacy/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTrainingLegacy.listUpcomingBookings, async ({ deps, caller, query }) => ({
  status: 200,
  body: await upcomingBookings(deps, caller.clientId, query),
}));
