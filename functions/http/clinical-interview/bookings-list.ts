import { clinicalInterview } from '../../api/routes/clinical-interview.js';
import { listBookings } from '../../core/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(clinicalInterview.listBookings, async ({ deps, caller, query }) => ({
  status: 200,
  body: await listBookings(deps, caller.clientId, query),
}));
