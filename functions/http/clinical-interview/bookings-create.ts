import { createBooking } from '../../core/bookings.js';
import { httpHandler } from '../../middleware/http-handler.js';
import { BookingRequest } from './schemas.js';

export const handler = httpHandler(
  { family: 'clinical-interview', auth: 'bearer', body: BookingRequest, idempotent: true },
  async ({ deps, caller, body, baseUrl }) => ({
    status: 201,
    body: await createBooking(deps, caller.clientId, body, { payment: (token) => `${baseUrl}/pay/${token}` }),
  }),
);
