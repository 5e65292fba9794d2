import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { PRACTICAL_CHANGING } from '../../core/practical-training/booking-changes.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { submitPayment } from '../shared/_payment-submit.js';

/** Pays: the test provider at once, Stripe through its Checkout page (its event confirms the booking and tells the agency). */
export const handler = pageHandler(pages.submitPaymentPage, ({ deps, params, baseUrl }) =>
  submitPayment(deps, PRACTICAL_CHANGING, params.token, linkTo(baseUrl, pages.showPaymentPage, params)),
);
