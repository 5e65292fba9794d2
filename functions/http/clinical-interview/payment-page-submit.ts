import { randomUUID } from 'node:crypto';
import { confirmCandidatePayment } from '../../core/booking-admin.js';
import { HttpProblem } from '../../middleware/problems.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentProviderReady } from './payment-page-model.js';

/** The test provider reports success at once; the booking is confirmed and the agency told (booking.confirmed). */
export const handler = pageHandler('clinical-interview', async ({ deps, params, baseUrl }) => {
  if (!paymentProviderReady()) {
    throw new HttpProblem(503, 'payments-unavailable', 'Payments unavailable', 'Online payment is not available at the moment');
  }
  await confirmCandidatePayment(deps, params.token ?? '', `test_${randomUUID()}`);
  return { redirect: `${baseUrl}/pay/${params.token}` };
});
