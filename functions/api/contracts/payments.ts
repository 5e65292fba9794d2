import * as v from 'valibot';
import type { paymentOperations } from '../routes/payments.js';
import { json, type OperationContract } from './contract.js';
import * as R from './responses.js';

/** Stripe's answer is any 2xx; this one says the event was taken. */
export const StripeEventReceived = v.strictObject({ received: v.literal(true) });

/** Contracts of the payment operations (routes/payments.ts). */
export const PAYMENT_CONTRACTS: Record<keyof typeof paymentOperations, OperationContract> = {
  receiveStripeEvent: {
    summary: "Stripe's events about candidates' payments",
    description:
      "The endpoint to give Stripe (Dashboard → Developers → Webhooks) for `checkout.session.completed`, `checkout.session.async_payment_succeeded`, `checkout.session.expired`, `refund.updated` and `charge.refunded`. No bearer token: the `Stripe-Signature` header, checked on the raw body with the endpoint's signing secret, is the credential. A paid session confirms its `candidate_pays` booking (the candidate's payment goes in the ledger with the PaymentIntent as `provider_reference`, the candidate gets the confirmation e-mail, the agency `booking.confirmed`); a payment that arrives after the booking stopped taking payment is refunded in full and the candidate told. Each event id is applied once; events of other families, unknown sessions and other types are answered 200 and change nothing.",
    tag: 'Payments',
    headers: [
      {
        name: 'Stripe-Signature',
        required: true,
        description: "Stripe's signature of the body with the endpoint's signing secret (`t=…,v1=…`).",
        example: 't=1795410000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
      },
    ],
    request: {
      body: {
        id: 'evt_1QxYzAbCdEfGhIjK',
        object: 'event',
        type: 'checkout.session.completed',
        created: 1795410000,
        data: {
          object: {
            id: 'cs_test_a1B2c3D4e5F6',
            object: 'checkout.session',
            payment_status: 'paid',
            payment_intent: 'pi_3QxYzAbCdEfGhIjK',
            amount_total: 4500,
            currency: 'gbp',
            metadata: { family: 'clinical-interview', booking_id: '42', payment_request: 'pr_6c1f0d7e2b9a4c3d8e5f1a2b' },
          },
        },
      },
    },
    responses: {
      200: json('Taken: applied, applied before, or not one this API acts on', StripeEventReceived, undefined, { example: { received: true } }),
      400: json('The signature is missing or does not sign this body; nothing changed', R.Problem, undefined, {
        example: { code: 'invalid-signature', detail: 'The Stripe-Signature header does not sign this body with the endpoint secret' },
      }),
      404: json('This deployment does not take payments through Stripe', R.Problem, undefined, {
        example: { code: 'not-found', detail: 'This API takes no Stripe events' },
      }),
    },
  },
};
