import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/virtual-life-support.js';
import { VLS_CHANGING } from '../../core/virtual-life-support/booking-changes.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { submitPayment } from '../shared/_payment-submit.js';

/** Pays: the test provider at once, Stripe through its Checkout page (its event confirms the booking and tells the agency). */
export const handler = pageHandler(pages.submitPaymentPage, ({ deps, params, baseUrl }) =>
  submitPayment(deps, VLS_CHANGING, params.token, linkTo(baseUrl, pages.showPaymentPage, params)),
);
