import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { getBooking } from '../../core/clinical-interview/booking-api.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(clinicalInterview.getBooking, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getBooking(deps, caller.clientId, params.id),
}));
