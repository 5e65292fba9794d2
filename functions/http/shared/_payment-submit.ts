import { randomUUID } from 'node:crypto';
import { confirmPayment } from '../../core/bookings/change.js';
import type { BookingRecord, ChangingKind } from '../../core/bookings/kind.js';
import { getBookingItem } from '../../core/bookings/records.js';
import { checkoutUrl } from '../../core/commerce/checkout.js';
import { getPaymentRequest } from '../../core/commerce/payment-requests.js';
import { paymentProvider } from '../../core/commerce/payment-provider.js';
import { stripeClient, stripeSettings } from '../../core/commerce/stripe.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';

/** Apart from the payment page itself, so that only the submit's bundle carries the Stripe SDK. */

/**
 * The payment page's submit. The test provider pays at once and the booking
 * is confirmed; Stripe gets the candidate a Checkout Session (the open one,
 * or a new one) and the page sends them there. Stripe's event confirms the
 * booking, never the candidate's return.
 */
export async function submitPayment<B extends BookingRecord>(
  deps: Deps,
  kind: ChangingKind<B, unknown>,
  token: string,
  pageUrl: string,
): Promise<{ redirect: string }> {
  const provider = paymentProvider();
  if (provider === 'test') {
    await confirmPayment(deps, kind, token, `test_${randomUUID()}`);
    return { redirect: pageUrl };
  }
  if (provider !== 'stripe') throw new DomainError('payments-unavailable', 'Online payment is not available at the moment');
  const request = await getPaymentRequest(deps, kind.family, token);
  const booking = request && (await getBookingItem<B>(deps, request.client_id, request.booking_id, kind.family));
  if (!request || !booking) throw new DomainError('not-found', 'There is no payment at this address');
  if (request.status === 'paid') return { redirect: pageUrl };
  const settings = await stripeSettings().catch(() => {
    throw new DomainError('payments-unavailable', 'Online payment is not available at the moment. Please try again in a few minutes.');
  });
  const url = await checkoutUrl(deps, stripeClient(settings), {
    request,
    description: `${kind.productOf(booking).name}, ${readableTime(booking.start_at, deps.config.serviceTimeZone)}`,
    candidateEmail: kind.calendarEntry(booking).attendee.email,
    pageUrl,
  });
  return { redirect: url };
}
