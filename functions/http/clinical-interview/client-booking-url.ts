import { bookingPageToken } from '../../core/booking-page.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler({ family: 'clinical-interview', auth: 'bearer' }, async ({ deps, caller, family, baseUrl }) => ({
  status: 200,
  body: { booking_url: `${baseUrl}/book/${await bookingPageToken(deps, caller.clientId, family)}` },
}));
