import type { Deps } from '../platform/deps.js';
import { DomainError } from '../platform/errors.js';
import { allOf, transact, part, updateItem, TransactionFailed, type Condition } from '../platform/transact.js';
import { getPaymentRequest, payableAt, paymentRequestId, paymentRequestKeys, type CheckoutSession, type PaymentRequest } from './payment-requests.js';
import type { Stripe } from './stripe.js';

/**
 * A candidate's payment through Stripe Checkout: the payment page's submit
 * sends the candidate to a Checkout Session, the one still open if there is
 * one, else a new one made with an Idempotency-Key (the request and a session
 * counter), so a double submit or a retry never opens two. Nothing is
 * confirmed here: Stripe's event does that (./stripe-events.ts).
 */

/** Stripe's bounds on a session's `expires_at`: at least 30 minutes and at most 24 hours after it is made. */
const MIN_SESSION_SECONDS = 30 * 60;
const MAX_SESSION_SECONDS = 24 * 3600;
/** An open session this close to its end is not offered again: the candidate would run out of time on Stripe's page. */
const REUSE_MARGIN_SECONDS = 5 * 60;

/** The later of now + 30 minutes and the earlier of the deadline and now + 24 hours. */
export function sessionExpiry(now: Date, dueAt: string | undefined): Date {
  const latest = now.getTime() + MAX_SESSION_SECONDS * 1000;
  const until = dueAt ? Math.min(Date.parse(dueAt), latest) : latest;
  return new Date(Math.max(now.getTime() + MIN_SESSION_SECONDS * 1000, until));
}

export interface CheckoutInput {
  request: PaymentRequest;
  /** What is booked, as the candidate reads it on Stripe's page and statement: "Registered Nurse clinical interview, Monday 7 December, 10:00". */
  description: string;
  candidateEmail: string;
  /** The payment page: Stripe sends the candidate back here. */
  pageUrl: string;
}

/** Stripe said no or could not be reached: the page answers 503 and nothing changed. */
const unavailable = () => new DomainError('payments-unavailable', 'Online payment is not available at the moment. Please try again in a few minutes.');
const unpayable = () => new DomainError('invalid-state', 'This booking can no longer be paid for');

/** Named condition: the request has started exactly `count` sessions (none yet: 0). */
const sessionsStarted = (count: number): Condition =>
  count === 0 ? { expression: 'attribute_not_exists(checkout_count)' } : { expression: 'checkout_count = :started', values: { ':started': count } };

/**
 * Moves the request's session count on from `count`, storing the session
 * made under it (only while the request is payable) or none (a key Stripe
 * refused): false when another submit moved the count first, or the request
 * stopped taking payment.
 */
async function countSession(deps: Deps, request: PaymentRequest, count: number, now: Date, session?: CheckoutSession): Promise<boolean> {
  const key = paymentRequestKeys.request(request.family, request.token);
  const when = session ? allOf(payableAt(now.toISOString()), sessionsStarted(count)) : sessionsStarted(count);
  try {
    await transact(deps, [
      part('payment request', updateItem(deps, key, { set: { checkout_count: count + 1, ...(session ? { checkout: session } : {}) } }, when)),
    ]);
    return true;
  } catch (err) {
    if (err instanceof TransactionFailed) return false;
    throw err;
  }
}

/** The URL of the Checkout Session the candidate pays on. */
export async function checkoutUrl(deps: Deps, stripe: Stripe, input: CheckoutInput): Promise<string> {
  const now = deps.clock();
  let request = input.request;
  for (let attempt = 0; attempt < 3; attempt++) {
    if (request.status !== 'pending' || (request.due_at && request.due_at <= now.toISOString())) throw unpayable();
    const open = request.checkout;
    if (open && Date.parse(open.expires_at) - now.getTime() > REUSE_MARGIN_SECONDS * 1000) return open.url;

    const count = request.checkout_count ?? 0;
    const requestId = paymentRequestId(request.token);
    const metadata = { family: request.family, booking_id: String(request.booking_id), payment_request: requestId };
    let created: Stripe.Checkout.Session | undefined;
    try {
      created = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          line_items: [{ quantity: 1, price_data: { currency: 'gbp', unit_amount: request.amount.amount, product_data: { name: input.description } } }],
          customer_email: input.candidateEmail,
          metadata,
          payment_intent_data: { metadata },
          expires_at: Math.floor(sessionExpiry(now, request.due_at).getTime() / 1000),
          success_url: `${input.pageUrl}?session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: input.pageUrl,
        },
        { idempotencyKey: `${requestId}-${count + 1}` },
      );
    } catch (err) {
      // A key that made a session we never stored, with other parameters (its expiry moves with the clock near the
      // deadline), is moved past: the next count starts a new one. Any other refusal is Stripe's to fix.
      if ((err as { type?: string }).type !== 'StripeIdempotencyError') throw unavailable();
    }
    if (created && !created.url) throw unavailable();
    const session = created && { id: created.id, url: created.url!, expires_at: new Date(created.expires_at * 1000).toISOString() };
    if ((await countSession(deps, request, count, now, session)) && session) return session.url;
    // Another submit stored its session first, the request stopped taking payment, or the key was moved past: read it again.
    request = (await getPaymentRequest(deps, request.family, request.token)) ?? request;
  }
  throw unavailable();
}
