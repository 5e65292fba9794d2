import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { VLS_BOOKINGS, type VlsBooking } from '../../core/virtual-life-support/bookings.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentPageHtml } from '../shared/_payment-page.js';

export const handler = pageHandler(pages.showPaymentPage, async ({ deps, params, baseUrl, query }) => ({
  status: 200,
  html: await paymentPageHtml(
    deps,
    VLS_BOOKINGS,
    params.token,
    linkTo(baseUrl, pages.submitPaymentPage, params),
    (b: VlsBooking) => ({
      what: 'Course',
      name: b.course.name,
      candidate: `${b.candidate.first_name} ${b.candidate.last_name}`,
      // The join link goes out by e-mail with the calendar invitation once paid.
      afterPaying: `<p>The session is by video: the link to join is in the confirmation e-mail.${b.equipment.status === 'not_required' ? '' : ' A feedback manikin is posted to you before it.'}</p>`,
    }),
    query,
  ),
}));
