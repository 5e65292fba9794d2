import * as payments from '../../functions/api/routes/payments.js';
import { stripeClient, stripeSettings } from '../../functions/core/commerce/stripe.js';
import { DomainError } from '../../functions/core/platform/errors.js';
import { httpHandler } from '../../functions/middleware/http-handler.js';

/**
 * A reference for the bundle figures (lib/bench/bundles.ts), not a function
 * of the product: the least receiver of Stripe's events there can be. The
 * product's HTTP edge, as every operation answers (problem+json, the
 * request's correlation id, logs and metrics), checking the event's
 * signature with Stripe's SDK (bundled as the functions bundle it) and the
 * signing secret from Secrets Manager; it acts on no event.
 */
export const handler = httpHandler(payments.receiveStripeEvent, async ({ upload, headers }) => {
  const settings = await stripeSettings();
  try {
    stripeClient(settings).webhooks.constructEvent(upload ?? Buffer.alloc(0), headers['stripe-signature'] ?? '', settings.webhookSecret);
  } catch {
    throw new DomainError('invalid-signature', 'The Stripe-Signature header does not sign this body with the endpoint secret');
  }
  return { status: 200, body: { received: true } };
});
