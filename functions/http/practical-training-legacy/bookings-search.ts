import * as practicalTrainingLegacy from '../../api/routes/practical-training-legacy.js';
import { searchBookings } from '../../core/practical-training-legacy/bookings.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(practicalTrainingLegacy.searchBookings, async ({ deps, caller, query }) => {
  const { date, from, to, ...page } = query;
  refuseBeyondHorizon(deps, 'query', { date, from, to });
  // The schema lets through `date` alone, or `from` with `to`.
  const days = date ? { from: date, to: date } : { from: from!, to: to! };
  return { status: 200, body: await searchBookings(deps, caller.clientId, days, page) };
});
