import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { CLINICAL_FAMILY } from '../../core/clinical-interview/catalog.js';
import { clinicalBookings, type BookingItem } from '../../core/clinical-interview/bookings.js';
import { escapeHtml } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentPageHtml } from '../shared/_payment-page.js';

export const handler = pageHandler(clinicalInterview.showPaymentPage, async ({ deps, params, baseUrl, query }) => ({
  status: 200,
  html: await paymentPageHtml(
    deps,
    clinicalBookings(CLINICAL_FAMILY),
    params.token,
    linkTo(baseUrl, clinicalInterview.submitPaymentPage, params),
    (b: BookingItem) => ({
      what: 'Interview',
      name: b.interview_type.name,
      candidate: `${b.candidate.first_name} ${b.candidate.last_name}`,
      afterPaying: `<p>Join the video meeting at the time above: <a href="${escapeHtml(b.video_meeting.join_link)}">${escapeHtml(b.video_meeting.join_link)}</a> (password ${escapeHtml(b.video_meeting.password)}).</p>`,
    }),
    query,
  ),
}));
