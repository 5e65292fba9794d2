import { linkTo } from '../../api/routes/operation.js';
import { practicalTrainingPublic as pages } from '../../api/routes/practical-training-public.js';
import { PRACTICAL_BOOKINGS } from '../../core/practical-training/bookings.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { coursePaymentPage } from '../shared/_course-payment.js';

export const handler = pageHandler(pages.showPaymentPage, async ({ deps, params, baseUrl }) => ({
  status: 200,
  html: await coursePaymentPage(deps, PRACTICAL_BOOKINGS, params.token, linkTo(baseUrl, pages.submitPaymentPage, params)),
}));
