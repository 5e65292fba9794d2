import * as pages from '../../api/routes/practical-training-public.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { bookingLinkModel, bookingLinkPage, linkActions } from './_booking-link-page.js';

/** The agency's booking link: its courses, the chosen course's open dates and the candidate form. */
export const handler = pageHandler(pages.showBookingPage, async ({ deps, params, query, baseUrl }) => {
  const model = await bookingLinkModel(deps, params.token, query.course_id, linkActions(baseUrl, params.token));
  return { status: 200, html: bookingLinkPage(model, deps.config.serviceTimeZone) };
});
