import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { clinicalBookings } from '../../core/clinical-interview/bookings.js';
import { CLINICAL_FAMILY } from '../../core/clinical-interview/catalog.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { submitPayment } from '../shared/_payment-submit.js';

/** Pays: the test provider at once, Stripe through its Checkout page (its event confirms the booking and tells the agency). */
export const handler = pageHandler(clinicalInterview.submitPaymentPage, ({ deps, params, baseUrl }) =>
  submitPayment(deps, clinicalBookings(CLINICAL_FAMILY), params.token, linkTo(baseUrl, clinicalInterview.showPaymentPage, params)),
);
