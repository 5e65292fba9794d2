import { getBooking } from '../../core/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { bookingIdParam } from './schemas.js';

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer' }, async ({ deps, caller, params }) => ({
  status: 200,
  body: await getBooking(deps, caller.clientId, bookingIdParam(params)),
}));
