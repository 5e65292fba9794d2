import { bookingPageOf } from '../../api/routes/booking-pages.js';
import * as shared from '../../api/routes/shared.js';
import { linkTo } from '../../api/routes/operation.js';
import { bookingPageToken } from '../../core/bookings/booking-link.js';
import { httpHandler } from '../../middleware/http-handler.js';

export const handler = httpHandler(shared.getBookingUrl, async ({ deps, caller, family, baseUrl }) => ({
  status: 200,
  body: { booking_url: linkTo(baseUrl, bookingPageOf(family), { token: await bookingPageToken(deps, caller.clientId, family) }) },
}));
