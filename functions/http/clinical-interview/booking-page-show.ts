import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { bookingPageModel } from './_booking-page.js';
import { bookingPage } from './_pages.js';

export const handler = pageHandler(clinicalInterview.showBookingPage, async ({ deps, params, query, baseUrl }) => {
  const model = await bookingPageModel(deps, params.token, query.interview_type_id, linkTo(baseUrl, clinicalInterview.submitBookingPage, params));
  return { status: 200, html: bookingPage({ ...model, day: query.date }) };
});
