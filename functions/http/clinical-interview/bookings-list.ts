import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { listBookings } from '../../core/clinical-interview/booking-api.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { refuseBeyondHorizon } from '../../middleware/horizon.js';

export const handler = httpHandler(clinicalInterview.listBookings, async ({ deps, caller, query }) => {
  refuseBeyondHorizon(deps, 'query', { from: query.from, to: query.to });
  return { status: 200, body: await listBookings(deps, caller.clientId, query) };
});
