import { confirmPayment } from '../../core/bookings/change.js';
import type { BookingKind, BookingRecord } from '../../core/bookings/kind.js';
import { getBookingItem } from '../../core/bookings/records.js';
import { getPaymentRequest, isPayable } from '../../core/commerce/payment-requests.js';
import type { Deps } from '../../core/platform/deps.js';
import { DomainError } from '../../core/platform/errors.js';
import { readableTime } from '../../core/platform/time.js';
import { edgeProblem } from '../../middleware/problems.js';
import { paymentProviderReady } from '../clinical-interview/_payment-page.js';
import { practicalPaymentPage } from '../practical-training/_invite-pages.js';

type CourseView = { start_date: string; course: { name: string }; candidate: { name: string } };

/** GET /pay/{token} of a course family: the booking, what to pay and by when, or why it cannot be paid now. */
export async function coursePaymentPage<B extends BookingRecord>(deps: Deps, kind: BookingKind<B, CourseView>, token: string, action: string): Promise<string> {
  const tz = deps.config.serviceTimeZone;
  const request = await getPaymentRequest(deps, kind.family, token);
  const booking = request && (await getBookingItem<B>(deps, request.client_id, request.booking_id, kind.family));
  if (!request || !booking) throw new DomainError('not-found', 'There is no payment at this address');
  return practicalPaymentPage({
    booking: kind.view(booking, tz),
    amount: request.amount.amount,
    status: request.status,
    // By the clock, whether or not the expiry sweep has run.
    pastDue: request.status === 'pending' && !isPayable(request, deps.clock()),
    payBy: request.due_at && readableTime(request.due_at, tz),
    action,
    providerReady: paymentProviderReady(),
    timeZone: tz,
  });
}

/** POST /pay/{token}: the test provider reports success at once; the booking is confirmed (booking.confirmed). */
export async function payForCourse<B extends BookingRecord>(deps: Deps, kind: BookingKind<B, unknown>, token: string, providerReference: string): Promise<void> {
  if (!paymentProviderReady()) throw edgeProblem('payments-unavailable', 'Online payment is not available at the moment');
  await confirmPayment(deps, kind, token, providerReference);
}
