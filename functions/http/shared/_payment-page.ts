import * as v from 'valibot';
import { PaymentPageQuery } from '../../api/schemas/fields.js';
import { getClient } from '../../core/access/clients.js';
import type { BookingKind, BookingRecord } from '../../core/bookings/kind.js';
import { getBookingItem } from '../../core/bookings/records.js';
import { linkErased } from '../../core/bookings/link-withdrawn.js';
import { formatMoney } from '../../core/commerce/charges.js';
import { getPaymentRequest, isPayable } from '../../core/commerce/payment-requests.js';
import { paymentProvider } from '../../core/commerce/payment-provider.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';
import { escapeHtml, layout } from '../../middleware/html.js';

/**
 * The payment page of a candidate_pays booking, the same in every booking
 * family: what is being paid for, by when, and the state of the payment.
 * The family says what the booking is and what to do once it is paid.
 */

/**
 * The payment provider of the payment page (PAYMENT_PROVIDER): `stripe`
 * sends the candidate to Stripe Checkout, `test` (the local stack's) pays at
 * once; with none the page says online payment is not available.
 */
export const paymentProviderReady = (): boolean => paymentProvider() !== undefined;

/** How a family describes its booking on the payment page. */
export interface PaymentSummary {
  /** What is booked: "Interview", "Course". */
  what: string;
  name: string;
  candidate: string;
  /** What the candidate does once paid (HTML): join the meeting, arrive early. */
  afterPaying: string;
}

export async function paymentPageHtml<B extends BookingRecord>(
  deps: Deps,
  kind: BookingKind<B, unknown>,
  token: string,
  action: string,
  describe: (b: B) => PaymentSummary,
  query: Record<string, string> = {},
): Promise<string> {
  const tz = deps.config.serviceTimeZone;
  const request = await getPaymentRequest(deps, kind.family, token);
  const booking = request && (await getBookingItem<B>(deps, request.client_id, request.booking_id, kind.family));
  if (!request || !booking) throw new DomainError('not-found', 'There is no payment at this address');
  if (booking.erased_at) throw linkErased();
  const agency = (await getClient(deps, booking.client_id))?.name;
  const about = describe(booking);
  const amount = formatMoney(request.amount);
  const payBy = request.due_at && readableTime(request.due_at, tz);
  const summary = `<dl>
<dt>${escapeHtml(about.what)}</dt><dd>${escapeHtml(about.name)}</dd>
<dt>When</dt><dd>${escapeHtml(readableTime(booking.start_at, tz))}</dd>
<dt>Candidate</dt><dd>${escapeHtml(about.candidate)}</dd>
<dt>Amount</dt><dd>${escapeHtml(amount)}</dd>
</dl>`;
  const page = (title: string, body: string) => layout(title, `<h1>${escapeHtml(title)}</h1>\n${body}`, agency);
  if (request.status === 'paid') return page('Payment received', `<p>Your place is confirmed.</p>${summary}\n${about.afterPaying}`);
  if (request.status === 'refunded') return page('This booking was cancelled', `<p>Your payment is being refunded.</p>${summary}`);
  // Back from Stripe's page: the payment is confirmed by Stripe's event, which may land a moment after the candidate does.
  // A query that is not Stripe's (a mistyped or stale link) is ignored: the page shows the payment's state as it is.
  const returned = v.safeParse(PaymentPageQuery, query);
  if (
    request.status === 'pending' &&
    returned.success &&
    returned.output.session_id &&
    returned.output.session_id === request.checkout?.id &&
    !request.late_payment
  ) {
    return page(
      'We are confirming your payment',
      `<p>Thank you. This page updates by itself once the payment has gone through; it usually takes a few seconds.</p>${summary}`,
    ).replace('<head>', '<head>\n<meta http-equiv="refresh" content="3">');
  }
  if (request.late_payment)
    return page(
      'This booking was cancelled',
      `<p>Your payment arrived after the booking had stopped taking payment, so it is being refunded in full.</p>${summary}`,
    );
  // By the clock, whether or not the expiry sweep has run.
  if (request.status === 'pending' && !isPayable(request, deps.clock())) {
    return page(
      'The time to pay has passed',
      `<p>This booking was not paid for by ${escapeHtml(payBy ?? 'its deadline')}, so it is cancelled and cannot be paid for now.</p>${summary}`,
    );
  }
  if (request.status === 'cancelled') return page('This booking was cancelled', `<p>There is nothing to pay.</p>${summary}`);
  return page(
    `Pay for your ${about.what.toLowerCase()}`,
    `${summary}
${payBy ? `<p>Please pay by ${escapeHtml(payBy)}; an unpaid booking is cancelled then.</p>` : ''}
${paymentProviderReady() ? `<form method="post" action="${escapeHtml(action)}"><button type="submit">Pay ${escapeHtml(amount)}</button></form>` : '<p>Online payment is not available at the moment. Please try again later.</p>'}`,
  );
}
