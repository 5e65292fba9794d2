import { linkTo } from '../../api/routes/operation.js';
import { virtualLifeSupport as pages } from '../../api/routes/virtual-life-support.js';
import { VLS_BOOKINGS } from '../../core/virtual-life-support/bookings.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { coursePaymentPage } from '../shared/_course-payment.js';

export const handler = pageHandler(pages.showPaymentPage, async ({ deps, params, baseUrl }) => ({
  status: 200,
  html: await coursePaymentPage(deps, VLS_BOOKINGS, params.token, linkTo(baseUrl, pages.submitPaymentPage, params)),
}));
