import * as v from 'valibot';
import * as payments from '../../api/routes/payments.js';
import { applyStripeEvent } from '../../core/bookings/candidate-payments.js';
import type { BookingRecord, ChangingKind } from '../../core/bookings/kind.js';
import { paymentProvider, stripeClient, stripeSettings, type Stripe } from '../../core/commerce/stripe.js';
import { DomainError } from '../../core/platform/errors.js';
import { bookingKindOf } from '../../core/registries/booking-kinds.js';
import { httpHandler } from '../../middleware/http-handler.js';

/** What every Stripe event is: anything else, even signed, is not one. */
const StripeEventShape = v.looseObject({ id: v.string(), type: v.string(), data: v.looseObject({ object: v.looseObject({}) }) });

/**
 * Stripe's events: the signature is checked by the SDK on the raw body
 * (400 `invalid-signature` otherwise, or for a body that is not an event; nothing changed); anything else is 200,
 * whether it was applied, had been already, or is not ours to act on.
 */
export const handler = httpHandler(payments.receiveStripeEvent, async ({ deps, family, upload, headers, log }) => {
  const kind = bookingKindOf(family) as ChangingKind<BookingRecord> | undefined;
  if (paymentProvider() !== 'stripe' || !kind) throw new DomainError('not-found', 'This API takes no Stripe events');
  const settings = await stripeSettings();
  let event: Stripe.Event;
  try {
    event = stripeClient(settings).webhooks.constructEvent(upload ?? Buffer.alloc(0), headers['stripe-signature'] ?? '', settings.webhookSecret);
    if (!v.is(StripeEventShape, event)) throw new Error('not an event');
  } catch {
    throw new DomainError('invalid-signature', 'The Stripe-Signature header does not sign this body with the endpoint secret');
  }
  const result = await applyStripeEvent(deps, kind, event);
  // A refund Stripe could not make needs a person: the candidate has not got their money.
  if (result.why === 'refund failed') log.error('refund failed at the provider', { event_id: event.id, type: event.type });
  else log.info('stripe event', { event_id: event.id, type: event.type, ...result });
  return { status: 200, body: { received: true } };
});
