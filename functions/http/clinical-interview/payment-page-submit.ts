import { randomUUID } from 'node:crypto';
import * as clinicalInterview from '../../api/routes/clinical-interview.js';
import { linkTo } from '../../api/routes/operation.js';
import { confirmCandidatePayment } from '../../core/bookings/booking-admin.js';
import { edgeProblem } from '../../middleware/problems.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentProviderReady } from '../shared/_payment-page.js';

/** The test provider reports success at once; the booking is confirmed and the agency told (booking.confirmed). */
export const handler = pageHandler(clinicalInterview.submitPaymentPage, async ({ deps, params, baseUrl }) => {
  if (!paymentProviderReady()) {
    throw edgeProblem('payments-unavailable', 'Online payment is not available at the moment');
  }
  await confirmCandidatePayment(deps, params.token, `test_${randomUUID()}`);
  return { redirect: linkTo(baseUrl, clinicalInterview.showPaymentPage, params) };
});
