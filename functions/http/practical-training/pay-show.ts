import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { PRACTICAL_BOOKINGS, type PracticalBooking } from '../../core/practical-training/bookings.js';
import { escapeHtml } from '../../middleware/html.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentPageHtml } from '../shared/_payment-page.js';

export const handler = pageHandler(pages.showPaymentPage, async ({ deps, params, baseUrl, query }) => ({
  status: 200,
  html: await paymentPageHtml(
    deps,
    PRACTICAL_BOOKINGS,
    params.token,
    linkTo(baseUrl, pages.submitPaymentPage, params),
    (b: PracticalBooking) => ({
      what: 'Course',
      name: b.course.name,
      candidate: `${b.candidate.first_name} ${b.candidate.last_name}`,
      afterPaying: `<p>${escapeHtml(b.training_event.location.name)}, ${escapeHtml(b.training_event.location.town)} ${escapeHtml(b.training_event.location.postcode)}. Please arrive 15 minutes early.</p>`,
    }),
    query,
  ),
}));
