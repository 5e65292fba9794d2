import { linkTo } from '../../api/routes/operation.js';
import { practicalTrainingPublic as pages } from '../../api/routes/practical-training-public.js';
import { getBookingItem } from '../../core/bookings/records.js';
import { getPaymentRequest, isPayable } from '../../core/commerce/payment-requests.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';
import { PRACTICAL_BOOKINGS, type PracticalBooking } from '../../core/practical-training/bookings.js';
import { PRACTICAL_FAMILY } from '../../core/practical-training/catalogue.js';
import { pageHandler } from '../../middleware/page-handler.js';
import { paymentProviderReady } from '../clinical-interview/_payment-page.js';
import { practicalPaymentPage } from './_invite-pages.js';

export const handler = pageHandler(pages.showPaymentPage, async ({ deps, params, baseUrl }) => {
  const tz = deps.config.serviceTimeZone;
  const request = await getPaymentRequest(deps, PRACTICAL_FAMILY, params.token);
  const booking = request && (await getBookingItem<PracticalBooking>(deps, request.client_id, request.booking_id, PRACTICAL_FAMILY));
  if (!request || !booking) throw new DomainError('not-found', 'There is no payment at this address');
  return {
    status: 200,
    html: practicalPaymentPage({
      booking: PRACTICAL_BOOKINGS.view(booking, tz),
      amount: request.amount.amount,
      status: request.status,
      // By the clock, whether or not the expiry sweep has run.
      pastDue: request.status === 'pending' && !isPayable(request, deps.clock()),
      payBy: request.due_at && readableTime(request.due_at, tz),
      action: linkTo(baseUrl, pages.submitPaymentPage, params),
      providerReady: paymentProviderReady(),
      timeZone: tz,
    }),
  };
});
