import { bookingPageOf } from '../../api/routes/booking-pages.js';
import * as practicalTrainingLegacy from '../../api/routes/practical-training-legacy.js';
import { linkTo } from '../../api/routes/operation.js';
import { PRACTICAL_FAMILY } from '../../core/practical-training/catalogue.js';
import { bookingLinks } from '../../core/practical-training-legacy/bookings.js';
import { familyBaseUrl } from '../../core/platform/family-urls.js';
import { httpHandler } from '../../middleware/http-handler.js';

/** The agency's booking page in practical training, once per active course with the course chosen. */
export const handler = httpHandler(practicalTrainingLegacy.listBookingLinks, async ({ deps, caller }) => {
  const { token, courses } = await bookingLinks(deps, caller.clientId);
  const page = linkTo(familyBaseUrl(PRACTICAL_FAMILY), bookingPageOf(PRACTICAL_FAMILY), { token });
  return {
    status: 200,
    body: { data: courses.map((course) => ({ course, booking_url: `${page}?course_id=${course.id}` })), next_cursor: null },
  };
});
