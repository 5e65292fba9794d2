import { bookingPageOf } from '../../api/routes/booking-pages.js';
import * as shared from '../../api/routes/shared.js';
import { linkTo } from '../../api/routes/operation.js';
import { rotateBookingPageToken } from '../../core/bookings/booking-link.js';
import { httpHandler } from '../../middleware/http-handler.js';

/** A new booking link for the family; the old one is 404 from now on. */
export const handler = httpHandler(shared.rotateBookingUrl, async ({ deps, caller, family, baseUrl }) => {
  const page = bookingPageOf(family); // a family without a booking page: 404 before anything is written
  return { status: 200, body: { booking_url: linkTo(baseUrl, page, { token: await rotateBookingPageToken(deps, caller.clientId, family) }) } };
});
