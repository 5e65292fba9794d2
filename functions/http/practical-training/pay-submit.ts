import { randomUUID } from 'node:crypto';
import { linkTo } from '../../api/routes/operation.js';
import * as pages from '../../api/routes/practical-training-public.js';
import { confirmPayment } from '../../core/bookings/change.js';
import { PRACTICAL_BOOKINGS } from '../../core/practical-training/bookings.js';
import { edgeProblem } from '../../middleware/problems.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentProviderReady } from '../shared/_payment-page.js';

/** The test provider reports success at once; the booking is confirmed and the agency told (booking.confirmed). */
export const handler = pageHandler(pages.submitPaymentPage, async ({ deps, params, baseUrl }) => {
  if (!paymentProviderReady()) throw edgeProblem('payments-unavailable', 'Online payment is not available at the moment');
  await confirmPayment(deps, PRACTICAL_BOOKINGS, params.token, `test_${randomUUID()}`);
  return { redirect: linkTo(baseUrl, pages.showPaymentPage, params) };
});
