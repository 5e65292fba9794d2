import { getPaymentRequest, isPayable } from '../../core/commerce/payment-requests.js';
import { CLINICAL_FAMILY } from '../../core/clinical-interview/catalog.js';
import { getBookingItem, toBookingView } from '../../core/bookings/bookings.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';

/**
 * The payment provider of the payment page. Only the test provider exists:
 * the local stack uses it, and a deployment enables it with
 * PAYMENT_PROVIDER=test. A real provider plugs in here.
 */
export const paymentProviderReady = (): boolean => process.env.PAYMENT_PROVIDER === 'test';

export async function paymentPageModel(deps: Deps, token: string, action: string) {
  const request = await getPaymentRequest(deps, CLINICAL_FAMILY, token);
  const booking = request && (await getBookingItem(deps, request.client_id, request.booking_id));
  if (!request || !booking) throw new DomainError('not-found', 'There is no payment at this address');
  return {
    booking: toBookingView(booking, deps.config.serviceTimeZone),
    amount: request.amount.amount,
    status: request.status,
    // By the clock, whether or not the expiry sweep has run.
    pastDue: request.status === 'pending' && !isPayable(request, deps.clock()),
    payBy: request.due_at && readableTime(request.due_at, deps.config.serviceTimeZone),
    action,
    providerReady: paymentProviderReady(),
  };
}
